import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARS } from '../../src/config.ts';

describe('docs/deployment.md', () => {
  it('documents every environment variable the configuration reads', () => {
    const docs = readFileSync(new URL('../../../../docs/deployment.md', import.meta.url), 'utf8');
    expect(ENV_VARS.length).toBeGreaterThan(30);
    expect(ENV_VARS.filter((v) => !docs.includes(`\`${v}\``))).toEqual([]);
  });
});

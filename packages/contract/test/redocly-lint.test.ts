import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi.ts';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const config = fileURLToPath(new URL('../redocly.yaml', import.meta.url));

describe('redocly lint', () => {
  it('finds no error and no warning with the recommended rules', { timeout: 180_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inlay-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(buildOpenApiDocument('http://127.0.0.1:8080'), null, 2));
      // Offline and quiet: no telemetry, no update check.
      const { stdout } = await run(
        process.execPath,
        [cli, 'lint', file, '--config', config, '--format', 'json'],
        {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          maxBuffer: 16 * 1024 * 1024,
        },
      ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string; location?: { pointer?: string }[] }[];
      };
      const found = report.problems.map((p) => `${p.ruleId} ${p.location?.[0]?.pointer ?? ''}: ${p.message}`);
      expect(found).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

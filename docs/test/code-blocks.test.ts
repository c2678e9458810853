// Every TypeScript block in README.md, SECURITY.md, docs/ and the packages' READMEs type-checks under strict
// mode against the packages' current sources, so a renamed prop or a changed signature breaks the docs' build,
// not a reader's.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { typescriptBlocks } from './code-blocks.ts';
import { typecheckBlocks } from './typecheck.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const scratch = join(here, '../.blocks');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('TypeScript blocks in the docs', () => {
  const blocks = typescriptBlocks(repo);
  const diagnostics = typecheckBlocks(blocks, scratch);

  it('finds the blocks of the front page and the widget guide', () => {
    expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter((b) => b.file === 'docs/widget.md').length).toBeGreaterThanOrEqual(8);
  });

  it("finds a block in every package's README (what a tarball's reader sees first)", () => {
    const packages = readdirSync(join(repo, 'packages')).filter((p) =>
      existsSync(join(repo, 'packages', p, 'package.json')),
    );
    expect(packages).toEqual(
      expect.arrayContaining(['client', 'connectors', 'console', 'contract', 'express', 'react', 'service']),
    );
    for (const p of packages)
      expect(
        blocks.filter((b) => b.file === `packages/${p}/README.md`).length,
        `packages/${p}/README.md`,
      ).toBeGreaterThanOrEqual(1);
  });

  it.each(blocks.map((b) => [`${b.file}:${b.line}`]))('%s type-checks', (key) => {
    expect(diagnostics.get(key)).toEqual([]);
  });
});

describe('the checker', () => {
  it('reports a strict-mode error in a block, at the line within the block', () => {
    const out = typecheckBlocks(
      [
        {
          file: 'x.md',
          line: 1,
          lang: 'ts',
          code: 'const n: number = 1;\nconst s: string = process.env.X;\n',
        },
      ],
      join(here, '../.blocks-self'),
    );
    rmSync(join(here, '../.blocks-self'), { recursive: true, force: true });
    expect(out.get('x.md:1')).toEqual([expect.stringMatching(/^2:7 Type 'string \| undefined'/)]);
  });
});

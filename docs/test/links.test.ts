import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLinks, markdownFiles } from './check-links.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('links in README.md, SECURITY.md and docs/', () => {
  const report = checkLinks(repo);

  it('covers the front page, the security policy and every guide', () => {
    expect(report.files).toEqual(
      expect.arrayContaining(['README.md', 'SECURITY.md', 'CONTRIBUTING.md', 'docs/README.md']),
    );
    expect(report.files.filter((f) => f.startsWith('docs/')).length).toBeGreaterThanOrEqual(12);
    // A checker that finds no links would pass on anything.
    expect(report.checked).toBeGreaterThan(50);
  });

  it('resolves every relative link and #anchor', () => {
    const lines = report.broken.map((b) => `${b.file}:${b.line} ${b.url}: ${b.problem}`);
    expect(lines).toEqual([]);
  });
});

describe('the checker', () => {
  const root = mkdtempSync(join(tmpdir(), 'inlay-docs-links-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'README.md',
    [
      '# Title',
      '[ok guide](docs/guide.md) [ok anchor](docs/guide.md#the-inlay-cli) [ok repeat](docs/guide.md#setup-1)',
      '[ok explicit](docs/guide.md#widget-events) [ok self](#title) [ok image](img.png) [ok dir](docs/)',
      '[ok line](src/a.ts#L3-L9) [external](https://example.com/x#y) [mail](mailto:a@example.com)',
      '[missing file](docs/nope.md) [missing anchor](docs/guide.md#nope) [self missing](#nope)',
      '[absolute](/docs/guide.md) [outside](../elsewhere.md) [bad fragment](src/a.ts#top)',
      '<img src="missing.png"> [ref link][r]',
      '',
      '`[in code](nowhere.md)`',
      '',
      '```md',
      '[in a fence](nowhere.md)',
      '```',
      '',
      '[r]: docs/guide.md#also-missing',
    ].join('\n'),
  );
  write(
    'docs/guide.md',
    '# Guide\n\n## The `inlay` CLI\n\n## Setup\n\n## Setup\n\n## <a id="widget-events"></a>Events\n',
  );
  write('img.png', '');
  write('src/a.ts', '');
  const { broken, checked } = checkLinks(root, ['README.md']);

  it('passes good links, skips external ones and code', () => {
    expect(checked).toBe(16);
    expect(broken.map((b) => b.url)).not.toContain('https://example.com/x#y');
    expect(
      broken.map((b) => b.url).filter((u) => u.startsWith('docs/guide.md#') && !u.includes('missing')),
    ).toEqual(['docs/guide.md#nope']);
  });

  it('reports each broken link with its line and reason', () => {
    expect(broken.map((b) => [b.line, b.url])).toEqual([
      [5, 'docs/nope.md'],
      [5, 'docs/guide.md#nope'],
      [5, '#nope'],
      [6, '/docs/guide.md'],
      [6, '../elsewhere.md'],
      [6, 'src/a.ts#top'],
      [7, 'missing.png'],
      [15, 'docs/guide.md#also-missing'],
    ]);
    expect(broken[0]!.problem).toBe('docs/nope.md does not exist');
    expect(broken[1]!.problem).toBe('no heading or <a id> makes #nope in docs/guide.md');
  });

  it('finds the guides under docs/ but not in node_modules', () => {
    write('docs/node_modules/pkg/README.md', '[x](nowhere.md)');
    write('SECURITY.md', '# Security\n');
    expect(markdownFiles(root)).toEqual(['README.md', 'SECURITY.md', 'docs/guide.md']);
  });
});

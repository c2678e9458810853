import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownFiles } from './check-links.ts';
import { longLines, MAX_LINE } from './line-length.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe(`lines of README.md, SECURITY.md, CONTRIBUTING.md, docs/ and the package READMEs`, () => {
  it(`are at most ${MAX_LINE} characters outside code blocks`, () => {
    const files = markdownFiles(repo);
    expect(files.length).toBeGreaterThan(15);
    const over = files.flatMap((f) =>
      longLines(readFileSync(join(repo, f), 'utf8')).map((l) => `${f}:${l.line} (${l.length} characters)`),
    );
    expect(over).toEqual([]);
  });
});

describe('the line check', () => {
  const long = 'x'.repeat(MAX_LINE + 1);
  it('finds a long line of prose or of a table, with its number', () => {
    expect(longLines(`# T\n\n${long}\n| a | ${long} |`)).toEqual([
      { line: 3, length: MAX_LINE + 1 },
      { line: 4, length: MAX_LINE + 9 },
    ]);
  });
  it('leaves code blocks alone, whichever fence they use, and counts characters, not bytes', () => {
    expect(longLines(`\`\`\`sh\n${long}\n\`\`\`\n~~~\n${long}\n~~~\n${'é'.repeat(MAX_LINE)}`)).toEqual([]);
    expect(longLines(`\`\`\`\n~~~\n${long}\n\`\`\`\n${long}`)).toEqual([{ line: 5, length: MAX_LINE + 1 }]);
  });
});

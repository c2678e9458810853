import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Code } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';

export interface CodeBlock {
  /** Relative to the repository root, e.g. `docs/widget.md`. */
  file: string;
  /** The line of the opening fence. */
  line: number;
  lang: 'ts' | 'tsx';
  code: string;
}

const LANGS: Record<string, CodeBlock['lang']> = { ts: 'ts', typescript: 'ts', tsx: 'tsx' };

/** Every TypeScript block (```ts, ```typescript, ```tsx) in README.md, SECURITY.md and docs/*.md. */
export function typescriptBlocks(repo: string): CodeBlock[] {
  const files = [
    'README.md',
    'SECURITY.md',
    ...readdirSync(join(repo, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const blocks: CodeBlock[] = [];
  for (const file of files) {
    const tree = fromMarkdown(readFileSync(join(repo, file), 'utf8'), {
      extensions: [gfm()],
      mdastExtensions: [gfmFromMarkdown()],
    });
    visit(tree, 'code', (node: Code) => {
      const lang = LANGS[node.lang ?? ''];
      if (lang) blocks.push({ file, line: node.position?.start.line ?? 0, lang, code: node.value });
    });
  }
  return blocks;
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/**
 * Every TypeScript block (```ts, ```typescript, ```tsx) in README.md, SECURITY.md, CONTRIBUTING.md, docs/*.md and
 * the packages' READMEs (what a tarball's reader sees), except a block that imports a relative path: that one is a file of
 * this repository (a connector's test), not something a reader pastes.
 */
export function typescriptBlocks(repo: string): CodeBlock[] {
  const files = [
    'README.md',
    'SECURITY.md',
    'CONTRIBUTING.md',
    ...readdirSync(join(repo, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
    ...readdirSync(join(repo, 'packages'))
      .map((p) => `packages/${p}/README.md`)
      .filter((f) => existsSync(join(repo, f))),
  ];
  const blocks: CodeBlock[] = [];
  for (const file of files) {
    const tree = fromMarkdown(readFileSync(join(repo, file), 'utf8'), {
      extensions: [gfm()],
      mdastExtensions: [gfmFromMarkdown()],
    });
    visit(tree, 'code', (node: Code) => {
      const lang = LANGS[node.lang ?? ''];
      if (lang && !/from '\.\.?\//.test(node.value))
        blocks.push({ file, line: node.position?.start.line ?? 0, lang, code: node.value });
    });
  }
  return blocks;
}

/** The blocks of `file` whose fence names a file (```ts title=server.ts), as `{path, code}`: a page's app. */
export function titledBlocks(path: string): { path: string; code: string }[] {
  const tree = fromMarkdown(readFileSync(path, 'utf8'), {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const files: { path: string; code: string }[] = [];
  visit(tree, 'code', (node: Code) => {
    const title = /(?:^|\s)title=(\S+)/.exec(node.meta ?? '')?.[1];
    if (title) files.push({ path: title, code: `${node.value}\n` });
  });
  return files;
}

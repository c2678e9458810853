import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString as textOf } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';

export interface BrokenLink {
  /** The Markdown file holding the link, relative to the root. */
  file: string;
  line: number;
  url: string;
  problem: string;
}

export interface LinkReport {
  files: string[];
  /** Relative links checked (external URLs are not counted). */
  checked: number;
  broken: BrokenLink[];
}

interface Parsed {
  anchors: Set<string>;
  links: { url: string; line: number }[];
}

/**
 * The Markdown files whose links must hold: the front page, the security policy, the contributing guide, every
 * guide under `docs/`, and the packages' and apps' READMEs.
 */
export function markdownFiles(root: string): string[] {
  const files = ['README.md', 'SECURITY.md', 'CONTRIBUTING.md'].filter((f) => existsSync(join(root, f)));
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  for (const parent of ['packages', 'apps']) {
    if (!existsSync(join(root, parent))) continue;
    for (const name of readdirSync(join(root, parent)).sort()) {
      const readme = join(parent, name, 'README.md');
      if (existsSync(join(root, readme))) files.push(readme);
    }
  }
  return files.map((f) => f.split(sep).join('/'));
}

const EXPLICIT_ID = /<a\s+[^>]*?(?:id|name)\s*=\s*["']([^"']+)["']/gi;
const HTML_LINK = /\b(?:href|src)\s*=\s*["']([^"']+)["']/gi;

/** Headings get GitHub's slugs (github-slugger, numbered on repeats); `<a id>`/`<a name>` add their own. */
function parse(markdown: string): Parsed {
  const tree: Root = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const links: Parsed['links'] = [];
  visit(tree, (node: Nodes) => {
    const line = node.position?.start.line ?? 0;
    if (node.type === 'heading') anchors.add(slugger.slug(textOf(node, { includeHtml: false })));
    else if (node.type === 'link' || node.type === 'image' || node.type === 'definition')
      links.push({ url: node.url, line });
    else if (node.type === 'html') {
      for (const m of node.value.matchAll(EXPLICIT_ID)) anchors.add(m[1]!);
      for (const m of node.value.matchAll(HTML_LINK)) links.push({ url: m[1]!, line });
    }
  });
  return { anchors, links };
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
/** GitHub's line anchors on a source file: `#L10` or `#L10-L20`. */
const LINE_ANCHOR = /^L\d+(?:-L\d+)?$/;

/** Checks every relative link and `#anchor` in `files` (default: {@link markdownFiles}) under `root`. */
export function checkLinks(root: string, files = markdownFiles(root)): LinkReport {
  const absRoot = resolve(root);
  const cache = new Map<string, Parsed>();
  const parsed = (abs: string) => {
    const known = cache.get(abs);
    if (known) return known;
    const p = parse(readFileSync(abs, 'utf8'));
    cache.set(abs, p);
    return p;
  };
  const broken: BrokenLink[] = [];
  let checked = 0;
  for (const file of files) {
    const abs = join(absRoot, file);
    for (const { url, line } of parsed(abs).links) {
      if (EXTERNAL.test(url)) continue;
      checked++;
      const report = (problem: string) => broken.push({ file, line, url, problem });
      const hash = url.indexOf('#');
      const rawPath = hash === -1 ? url : url.slice(0, hash);
      const fragment = hash === -1 ? undefined : decodeURIComponent(url.slice(hash + 1));
      if (rawPath.startsWith('/')) {
        report('absolute path: GitHub resolves it outside the repository; use a relative link');
        continue;
      }
      const target = rawPath === '' ? abs : resolve(dirname(abs), decodeURIComponent(rawPath.split('?')[0]!));
      if (relative(absRoot, target).startsWith('..')) {
        report('points outside the repository');
        continue;
      }
      if (!existsSync(target)) {
        report(`${relative(absRoot, target).split(sep).join('/')} does not exist`);
        continue;
      }
      if (fragment === undefined) continue;
      if (target.endsWith('.md') && statSync(target).isFile()) {
        if (!parsed(target).anchors.has(fragment))
          report(
            `no heading or <a id> makes #${fragment} in ${relative(absRoot, target).split(sep).join('/')}`,
          );
      } else if (!(statSync(target).isFile() && LINE_ANCHOR.test(fragment))) {
        report(`#${fragment} cannot be checked on ${rawPath || file}`);
      }
    }
  }
  return { files, checked, broken };
}

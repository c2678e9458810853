// Prints the gzip size of the console as `inlay serve` ships it (dist/, built by `vite build`), React and the
// libraries included. Its own budgets, apart from the widget's 25 kB: what every page load fetches (the
// scripts and style sheets index.html names) and everything, with the chunks loaded on demand (the workflow
// editor's CodeMirror, the user page's run log, the widget's locales). Exits 1 above either, so `pnpm test`
// fails when the console grows past them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Gzip bytes a first page load may fetch. */
export const CONSOLE_BUDGET = 150 * 1024;
/** Gzip bytes of every script and style sheet, lazy chunks included. */
export const CONSOLE_TOTAL_BUDGET = 300 * 1024;

/** Gzip bytes of the built console's JS and CSS: `{initial, lazy, total}`. */
export function consoleSize(dist = fileURLToPath(new URL('../dist', import.meta.url))) {
  const files = readdirSync(dist, { recursive: true })
    .map(String)
    .filter((f) => /\.(js|css)$/.test(f));
  if (files.length === 0)
    throw new Error(`no built console in ${dist}: run pnpm --filter @inlay/console build`);
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const size = { initial: 0, lazy: 0, total: 0 };
  for (const f of files) {
    const n = gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
    size[html.includes(`/${f.replaceAll('\\', '/')}"`) ? 'initial' : 'lazy'] += n;
    size.total += n;
  }
  return size;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = consoleSize();
  const kb = (n) => `${(n / 1024).toFixed(2)} kB`;
  console.log(`console bundle: ${kb(s.initial)} gzip on first load (budget ${kb(CONSOLE_BUDGET)})`);
  console.log(
    `console bundle: ${kb(s.total)} gzip in all, ${kb(s.lazy)} of it loaded on demand (budget ${kb(CONSOLE_TOTAL_BUDGET)})`,
  );
  if (s.initial > CONSOLE_BUDGET || s.total > CONSOLE_TOTAL_BUDGET) process.exit(1);
}

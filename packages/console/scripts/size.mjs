// Prints the gzip size of the console as `inlay serve` ships it (dist/, built by `vite build`): every script
// and style sheet, React and the libraries included. Its own budget, apart from the widget's 25 kB;
// exits 1 above it so `pnpm test` fails when the console grows past it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const CONSOLE_BUDGET = 150 * 1024;

/** Gzip bytes of the built console's JS and CSS. */
export function consoleSize(dist = fileURLToPath(new URL('../dist', import.meta.url))) {
  const files = readdirSync(dist, { recursive: true })
    .map(String)
    .filter((f) => /\.(js|css)$/.test(f));
  if (files.length === 0)
    throw new Error(`no built console in ${dist}: run pnpm --filter @inlay/console build`);
  return files.reduce((n, f) => n + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length, 0);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const total = consoleSize();
  const kb = (n) => `${(n / 1024).toFixed(2)} kB`;
  console.log(`console bundle: ${kb(total)} gzip (budget ${kb(CONSOLE_BUDGET)})`);
  if (total > CONSOLE_BUDGET) process.exit(1);
}

// The stylesheet as a host ships it: `src/styles.css` minified by Vite (lightningcss), for browsers that
// read `@layer`, container queries and relative colours (no fallbacks are added for older ones).
// `node scripts/styles.mjs <out-file>` writes it (the build writes dist/styles.css, which host-size.mjs measures).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The minified stylesheet's text. */
export async function minifiedStyles() {
  const out = mkdtempSync(join(tmpdir(), 'inlay-css-'));
  try {
    await build({
      root,
      configFile: false,
      logLevel: 'silent',
      build: {
        outDir: out,
        assetsDir: '',
        cssMinify: 'lightningcss',
        cssTarget: ['chrome123', 'firefox128', 'safari18'],
        rollupOptions: { input: { styles: join(root, 'src/styles.css') } },
      },
    });
    const file = readdirSync(out).find((f) => f.endsWith('.css'));
    return readFileSync(join(out, file), 'utf8');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) throw new Error('usage: node scripts/styles.mjs <out-file>');
  writeFileSync(target, await minifiedStyles());
}

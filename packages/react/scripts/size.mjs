// Prints the gzip size of what a host ships for @inlay/react: the surfaces, every hook and @inlay/client,
// minified as a host's production build minifies them, plus styles.css as the build ships it (minified). React, React DOM and TanStack Query are excluded (peers).
// Locale catalogs other than English load on demand; the largest one is added to the total.
// Exits 1 above the budget (25.5 kB), so `pnpm test` fails when the widget grows past it.
// Then, for a host that renders one surface only, what each costs on its own: `<InlayProvider>` plus that
// surface, built the same way (its JS, English included, without the shared styles.css and other locales).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { minifiedStyles } from './styles.mjs';

const BUDGET = 25.5 * 1024;
const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'inlay-size-'));
const SURFACES = ['InlayProvider', 'IntegrationsPage', 'InstallModal', 'ExecutionLogs', 'Connections'];

/** The production build a host's bundler makes of `input` (peers left out), written to `outDir`. */
function bundle(input, outDir) {
  return build({
    root,
    configFile: false,
    logLevel: 'silent',
    resolve: { conditions: ['@inlay/source'] },
    build: {
      outDir,
      minify: true,
      target: 'es2022',
      // Not lib mode: Vite leaves whitespace and comments in a lib-mode ES build (for the host's bundler to
      // minify); an application build minifies fully, as a host's production build does.
      rollupOptions: {
        input,
        preserveEntrySignatures: 'strict',
        external: [/^react($|\/)/, /^react-dom($|\/)/, /^@tanstack\/react-query/],
        output: { format: 'es', entryFileNames: 'inlay.js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  });
}

try {
  await bundle(join(root, 'src/index.ts'), out);
  const files = readdirSync(out, { recursive: true })
    .map(String)
    .filter((f) => /\.(js|css)$/.test(f));
  const size = (f) => gzipSync(readFileSync(join(out, f)), { level: 9 }).length;
  // The stylesheet as shipped in dist/ (minified by the build, see styles.mjs).
  const cssBytes = gzipSync(await minifiedStyles(), { level: 9 }).length;
  const locales = files.filter((f) => /\b(de|es|fr|ja)\b.*\.js$/.test(f));
  const core = files.filter((f) => !locales.includes(f));
  const coreBytes = core.reduce((n, f) => n + size(f), 0) + cssBytes;
  const localeBytes = Math.max(0, ...locales.map(size));
  const total = coreBytes + localeBytes;
  const kb = (n) => `${(n / 1024).toFixed(2)} kB`;
  for (const f of [...core, ...locales]) console.log(`  ${f.padEnd(32)} ${kb(size(f))} gzip`);
  console.log(`  ${'styles.css'.padEnd(32)} ${kb(cssBytes)} gzip`);
  console.log(
    `@inlay/react + @inlay/client: ${kb(total)} gzip (core ${kb(coreBytes)} + largest locale ${kb(localeBytes)}); budget ${kb(BUDGET)}`,
  );
  if (total > BUDGET) {
    console.error(`over budget by ${kb(total - BUDGET)}`);
    process.exitCode = 1;
  }
  console.log('Each surface alone, with <InlayProvider> (JS only; styles.css and other locales as above):');
  for (const surface of SURFACES) {
    const dir = join(out, surface);
    const entry = join(out, `${surface}.js`);
    const from = (f) => JSON.stringify(join(root, 'src', f));
    writeFileSync(
      entry,
      surface === 'InlayProvider'
        ? `export { InlayProvider } from ${from('InlayProvider.tsx')};\n`
        : `export { InlayProvider } from ${from('InlayProvider.tsx')};\nexport { ${surface} } from ${from(`components/${surface}.tsx`)};\n`,
    );
    await bundle(entry, dir);
    const js = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.js') && !/\b(de|es|fr|ja)\b/.test(f));
    const bytes = js.reduce((n, f) => n + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
    console.log(`  ${surface.padEnd(32)} ${kb(bytes)} gzip`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}

// What @inlay/react adds to a host's production build, measured as a host measures it: two Vite apps built
// side by side from the same React + TanStack Query entry, one rendering nothing of Inlay and one rendering
// <InlayProvider> with IntegrationsPage, InstallModal, ExecutionLogs and Connections and importing styles.css.
// The package comes from dist/ (as installed), the apps use Vite's defaults for a production build.
// The figure is the gzip bytes of what the first view loads (the entry's JS and CSS) in the app with Inlay less
// the app without; chunks loaded on demand (locales, run details, key forms, sign-in) are listed apart.
// `hostSize()` returns both; scripts/size.mjs prints them and test/pack/host-size.test.ts holds BUDGET.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

export const BUDGET = 25 * 1024;
const root = fileURLToPath(new URL('..', import.meta.url));

const BASE = `import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
`;
/** Each surface as the host app renders it. */
export const SURFACES = {
  IntegrationsPage: '<IntegrationsPage />',
  InstallModal: '<InstallModal workflowId="w" />',
  ExecutionLogs: '<ExecutionLogs workflowId="w" />',
  Connections: '<Connections />',
};

/** The host app's entry: React and TanStack Query, and Inlay's provider with `surfaces` when there are any. */
function hostApp(surfaces) {
  const inlay = surfaces.length
    ? `<InlayProvider baseUrl="/api/inlay">${surfaces.map((s) => SURFACES[s]).join('')}</InlayProvider>`
    : '';
  return `${BASE}${
    surfaces.length
      ? `import { InlayProvider, ${surfaces.join(', ')} } from '@inlay/react';\nimport '@inlay/react/styles.css';\n`
      : ''
  }createRoot(document.getElementById('root')).render(
  <QueryClientProvider client={new QueryClient()}><main>Settings</main>${inlay}</QueryClientProvider>,
);
`;
}

/** Builds one host app from `main` and returns the gzip bytes of each emitted file, first view apart. */
async function buildApp(main) {
  const dir = mkdtempSync(join(root, '.host-size-'));
  try {
    writeFileSync(join(dir, 'main.jsx'), main);
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.jsx"></script></body></html>',
    );
    await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      // The package as a host installs it: its built files and stylesheet, not the sources.
      resolve: {
        alias: [
          { find: /^@inlay\/react\/styles\.css$/, replacement: join(root, 'dist/styles.css') },
          { find: /^@inlay\/react$/, replacement: join(root, 'dist/index.js') },
        ],
      },
      define: { 'process.env.NODE_ENV': '"production"' },
      build: { outDir: join(dir, 'dist'), manifest: true },
    });
    const out = join(dir, 'dist');
    const manifest = JSON.parse(readFileSync(join(out, '.vite/manifest.json'), 'utf8'));
    const entry = Object.values(manifest).find((c) => c.isEntry);
    // The first view: the entry, what it imports statically, and their CSS.
    const first = new Set();
    const visit = (key) => {
      const c = manifest[key];
      if (!c || first.has(c.file)) return;
      first.add(c.file);
      for (const css of c.css ?? []) first.add(css);
      for (const k of c.imports ?? []) visit(k);
    };
    visit(Object.keys(manifest).find((k) => manifest[k] === entry));
    const files = readdirSync(join(out, 'assets')).map((f) => `assets/${f}`);
    const gz = (f) => gzipSync(readFileSync(join(out, f)), { level: 9 }).length;
    const sum = (fs) => fs.reduce((n, f) => n + gz(f), 0);
    const firstFiles = files.filter((f) => first.has(f));
    const lazy = files.filter((f) => !first.has(f)).map((f) => [f.replace(/^assets\//, ''), gz(f)]);
    return {
      firstJs: sum(firstFiles.filter((f) => f.endsWith('.js'))),
      firstCss: sum(firstFiles.filter((f) => f.endsWith('.css'))),
      lazy,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What Inlay adds to the host's first view (JS and CSS, gzip bytes) when it renders `surfaces` (all four by
 * default), and the chunks its build loads on demand.
 */
export async function hostSize(surfaces = Object.keys(SURFACES)) {
  const without = await buildApp(hostApp([]));
  const withInlay = await buildApp(hostApp(surfaces));
  const js = withInlay.firstJs - without.firstJs;
  const css = withInlay.firstCss - without.firstCss;
  return { js, css, total: js + css, lazy: withInlay.lazy };
}

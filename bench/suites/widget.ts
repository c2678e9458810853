import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Measurement } from '../lib/report.ts';

const REACT_PKG = fileURLToPath(new URL('../../packages/react/', import.meta.url));
const INDEX = join(REACT_PKG, 'src/index.ts');
const STYLES = join(REACT_PKG, 'src/styles.css');
const SURFACES = ['IntegrationsPage', 'InstallModal', 'ExecutionLogs', 'Connections'] as const;

/** Why the widget cannot be measured here, or undefined when it can. */
export function widgetUnavailable(): string | undefined {
  if (!existsSync(INDEX)) return 'packages/react/src/index.ts does not exist yet';
  if (!existsSync(join(REACT_PKG, 'dist/index.js'))) return 'packages/react is not built (pnpm build)';
  const src = readFileSync(INDEX, 'utf8');
  const missing = ['InlayProvider', 'IntegrationsPage', 'InstallModal', 'ExecutionLogs'].filter(
    (c) => !src.includes(c),
  );
  if (missing.length) return `@inlay/react does not export ${missing.join(', ')} yet`;
  try {
    const req = createRequire(join(REACT_PKG, 'package.json'));
    for (const dep of ['vite', 'react', 'react-dom', '@tanstack/react-query', 'playwright-core'])
      req.resolve(dep);
  } catch (err) {
    return `a dependency of packages/react is not installed: ${(err as Error).message.split('\n')[0]}`;
  }
  return undefined;
}

// Vite, React and playwright-core are the widget's own dev dependencies: the bench borrows them.
const reactRequire = () => createRequire(join(REACT_PKG, 'package.json'));
const importFrom = async <T>(name: string): Promise<T> =>
  (await import(pathToFileURL(reactRequire().resolve(name)).href)) as T;
const pkgDir = (name: string) => dirname(reactRequire().resolve(`${name}/package.json`));

// Structural types of the two borrowed tools (the bench does not depend on them).
interface Vite {
  build(config: Record<string, unknown>): Promise<unknown>;
}
interface Page {
  goto(url: string): Promise<unknown>;
  waitForFunction(
    fn: () => boolean,
    arg: undefined,
    opts: { timeout: number; polling: number },
  ): Promise<unknown>;
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
}
interface Chromium {
  launch(opts: { executablePath: string; args: string[] }): Promise<{
    newPage(): Promise<Page>;
    close(): Promise<void>;
  }>;
}

const iso = (t: number) => new Date(t).toISOString();

/** Canned API answers in the contract's shapes: 50 workflows, 30 log entries, one run with a 5 MB result. */
function fixtures() {
  const now = Date.parse('2026-11-01T12:00:00.000Z');
  const connector = (id: string, name: string) => ({
    connectorName: name,
    connectorId: randomUUID(),
    connector: id,
    icon: `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>`,
  });
  const workflows = Array.from({ length: 50 }, (_, i) => ({
    workflowId: randomUUID(),
    name: `Workflow ${i + 1}`,
    description: `Syncs deals to the CRM, number ${i + 1}`,
    integrationId: randomUUID(),
    integrationName: 'CRM sync',
    version: 1,
    installed: i % 3 === 0,
    active: i % 6 === 0,
    connectors: [connector('slack', 'Slack'), connector('hubspot', 'HubSpot'), connector('github', 'GitHub')],
    trigger: { type: 'event', event: `deal.created.${i}` },
    config: [],
    installationId: i % 3 === 0 ? randomUUID() : null,
    installedVersion: i % 3 === 0 ? 1 : null,
    createdAt: iso(now - i * 60_000),
    updatedAt: iso(now - i * 60_000),
  }));
  const workflowId = workflows[0]!.workflowId;
  const entry = (i: number, json: unknown) => ({
    executionId: randomUUID(),
    startedAt: iso(now - i * 3_600_000),
    stoppedAt: iso(now - i * 3_600_000 + 420),
    finished: true,
    results: ['transform', 'slack', 'hubspot', 'github'].map((c, position) => ({
      startedAt: iso(now - i * 3_600_000 + position * 100),
      stoppedAt: iso(now - i * 3_600_000 + position * 100 + 90),
      connectorId: randomUUID(),
      data: [
        [{ id: randomUUID(), json: position === 0 ? json : { ok: true, id: `obj_${i}` }, statusCode: 200 }],
      ],
      stepId: randomUUID(),
      connector: c,
      action: 'run',
      status: 'succeeded',
      attempts: 1,
    })),
    inputs: ['transform', 'slack', 'hubspot', 'github'].map(() => ({
      connectorId: randomUUID(),
      data: { channel: 'C0123456' },
    })),
    status: i % 7 === 3 ? 'failed' : 'succeeded',
    error: null,
    rerunOf: null,
    // What started the run, as the service answers it (the run log's first column reads it).
    trigger: { type: 'event', event: 'deal.won', data: { name: `Deal ${i}`, amount: 1000 + i } },
    summary: `Deal ${i}`,
    workflowId,
    version: 1,
  });
  const logs = Array.from({ length: 30 }, (_, i) => entry(i, { name: `Deal ${i}` }));
  // Just over 5 MB (5 × 10^6 bytes): 20 500 records of about 250 bytes.
  const big = {
    records: Array.from({ length: 20_500 }, (_, i) => ({
      id: i,
      email: `person${i}@example.com`,
      name: `Person number ${i}`,
      notes: 'x'.repeat(160),
    })),
  };
  const bigLogs = [entry(0, big)];
  return { workflows, workflowId, logs, bigLogs, bigBytes: JSON.stringify(big).length };
}

const PAGE_ENTRY = `
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { InlayProvider, IntegrationsPage, ExecutionLogs } from ${JSON.stringify(INDEX)};
import ${JSON.stringify(STYLES)};
const q = new URLSearchParams(location.search);
const nativeFetch = window.fetch.bind(window);
window.__bench = { dataAt: 0, lastMutation: 0 };
// Marks when the app has the response body in hand: what follows is the widget's own work.
window.fetch = async (...args) => {
  const res = await nativeFetch(...args);
  const text = await res.text();
  window.__bench.dataAt = performance.now();
  return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
};
new MutationObserver(() => { window.__bench.lastMutation = performance.now(); })
  .observe(document.getElementById('root'), { subtree: true, childList: true, characterData: true, attributes: true });
const surface = q.get('surface');
createRoot(document.getElementById('root')).render(
  h(InlayProvider, { baseUrl: location.origin + '/api', getToken: () => 'bench-token', locale: 'en', colorScheme: 'light' },
    surface === 'page' ? h(IntegrationsPage) : h(ExecutionLogs, { workflowId: q.get('workflow') })),
);
`;

/** Builds the page with React included and serves it with the canned API. */
async function servePage(vite: Vite, data: ReturnType<typeof fixtures>) {
  const dir = mkdtempSync(join(tmpdir(), 'inlay-bench-page-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.js"></script></body></html>',
  );
  writeFileSync(join(dir, 'main.js'), PAGE_ENTRY);
  await vite.build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    resolve: {
      conditions: ['@inlay/source'],
      alias: [
        { find: /^react-dom($|\/)/, replacement: `${pkgDir('react-dom')}$1` },
        { find: /^react($|\/)/, replacement: `${pkgDir('react')}$1` },
        { find: /^@tanstack\/react-query$/, replacement: pkgDir('@tanstack/react-query') },
      ],
    },
    build: { outDir: join(dir, 'dist'), emptyOutDir: true, minify: true, target: 'es2022' },
  });
  let logs = data.logs;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
    };
    if (url.pathname.startsWith('/api/')) {
      const path = url.pathname.slice(4);
      if (path === '/workflows') return json({ data: data.workflows });
      if (/^\/workflows\/[^/]+\/logs$/.test(path)) return json({ data: logs });
      const wf = /^\/workflows\/([^/]+)$/.exec(path);
      if (wf) return json({ data: data.workflows.find((w) => w.workflowId === wf[1]) ?? data.workflows[0] });
      return json({ data: [] });
    }
    const file = join(dir, 'dist', url.pathname === '/' ? 'index.html' : url.pathname);
    if (!existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': file.endsWith('.js')
        ? 'text/javascript'
        : file.endsWith('.css')
          ? 'text/css'
          : 'text/html',
    });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    useLogs: (l: unknown[]) => {
      logs = l as typeof logs;
    },
    close: () => {
      server.closeAllConnections();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What the page functions below see (the bench compiles without the DOM library). */
interface Browser {
  __bench: { dataAt: number; lastMutation: number };
  document: { querySelector(s: string): { click(): void } | null };
  requestAnimationFrame(fn: () => void): void;
}

/** Opens a surface and returns ms from the last response body reaching the app to its last DOM change. */
async function renderTime(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const b = (globalThis as unknown as Browser).__bench;
      return b.dataAt > 0 && performance.now() - Math.max(b.dataAt, b.lastMutation) > 400;
    },
    undefined,
    { timeout: 30_000, polling: 50 },
  );
  return page.evaluate(() => {
    const b = (globalThis as unknown as Browser).__bench;
    return Math.max(0, b.lastMutation - b.dataAt);
  });
}

/** ms from a click on the first run's details button to the frame after the DOM changed. */
async function expandTime(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const g = globalThis as unknown as Browser;
    const button = g.document.querySelector('button[aria-expanded="false"]');
    if (!button) throw new Error('no collapsed details button');
    const t0 = performance.now();
    button.click();
    await new Promise((r) => g.requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  });
}

/** Bundle sizes and, in Chromium, render and expand times of the widget. */
export async function widget(opts: { quick: boolean }): Promise<Measurement[]> {
  const suite = 'widget';
  const vite = await importFrom<Vite>('vite');
  const out: Measurement[] = [];
  const kb = (n: number) => n / 1024;
  // Measured as a host measures it, by packages/react's size test: a host's Vite build from dist/ with and
  // without Inlay, the first view's JS and CSS (see packages/react/scripts/host-size.mjs).
  const host = await import(pathToFileURL(join(REACT_PKG, 'scripts/host-size.mjs')).href);
  for (const name of SURFACES) {
    const size = await host.hostSize([name]);
    out.push({ suite, name: `${name} gzip (with InlayProvider)`, value: kb(size.total), unit: 'kB' });
  }
  const all = await host.hostSize();
  out.push(
    { suite, name: 'styles.css gzip', value: kb(all.css), unit: 'kB' },
    {
      suite,
      name: "first view gzip in a host's build (every surface + styles.css)",
      value: kb(all.total),
      unit: 'kB',
      note: 'added to a React + react-query app; chunks loaded on demand apart',
      target: { on: 'value', op: '<=', value: 25, label: '≤ 25 kB gzip' },
    },
  );

  const pw = await importFrom<{ chromium?: Chromium; default?: { chromium: Chromium } }>('playwright-core');
  const chromium = (pw.chromium ?? pw.default?.chromium)!;
  const data = fixtures();
  const site = await servePage(vite, data);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage();
    const rounds = opts.quick ? 3 : 7;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const pageTimes: number[] = [];
    const logTimes: number[] = [];
    const expandTimes: number[] = [];
    for (let i = 0; i < rounds; i++) {
      site.useLogs(data.logs);
      pageTimes.push(await renderTime(page, `${site.origin}/?surface=page`));
      logTimes.push(await renderTime(page, `${site.origin}/?surface=logs&workflow=${data.workflowId}`));
      site.useLogs(data.bigLogs);
      await renderTime(page, `${site.origin}/?surface=logs&workflow=${data.workflowId}`);
      expandTimes.push(await expandTime(page));
    }
    out.push(
      {
        suite,
        name: '`<IntegrationsPage>` with 50 workflows, data to last DOM change',
        value: median(pageTimes),
        unit: 'ms',
        note: `Chromium, median of ${rounds}`,
      },
      {
        suite,
        name: '`<ExecutionLogs>` with 30 entries, data to last DOM change',
        value: median(logTimes),
        unit: 'ms',
        note: `Chromium, median of ${rounds}`,
        target: { on: 'value', op: '<=', value: 16, label: 'within one 16 ms frame' },
      },
      {
        suite,
        name: `expand a run whose step result is ${(data.bigBytes / 1e6).toFixed(1)} MB of JSON`,
        value: median(expandTimes),
        unit: 'ms',
        note: 'click to the next frame',
      },
    );
  } finally {
    await browser.close();
    site.close();
  }
  return out;
}

// Builds test/browser/app.tsx with vite (React included), serves it with a `/token` endpoint that mints the
// user's JWT through the real service, and drives Debian's Chromium with playwright-core.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { seed } from '../seed.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };

export async function startHarness() {
  const out = await mkdtemp(join(tmpdir(), 'inlay-browser-'));
  await build({
    root: join(root, 'test/browser'),
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    resolve: { conditions: ['@inlay/source'] },
    build: {
      outDir: out,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      rollupOptions: { input: join(root, 'test/browser/index.html') },
    },
  });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/token') {
      const user = seed.users[url.searchParams.get('user') as keyof typeof seed.users];
      const r = await fetch(`${seed.url}/users/${user}/token`, {
        headers: { authorization: `Bearer ${seed.apiKey}` },
      });
      res.writeHead(r.status, { 'content-type': 'application/json' });
      return res.end(await r.text());
    }
    const file = url.pathname === '/' ? '/index.html' : url.pathname;
    try {
      const body = await readFile(join(out, file));
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser: Browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  return {
    origin,
    browser,
    /** Opens a surface: `page`, `modal` or `logs`. */
    async open(params: Record<string, string>, page?: Page) {
      const p = page ?? (await browser.newPage());
      // Waits get 60 s of the test's 90: beside CI's other lane, a first logs page took over 30 s to show.
      p.setDefaultTimeout(60_000);
      await p.goto(`${origin}/?${new URLSearchParams({ api: seed.url, ...params })}`);
      return p;
    },
    async close() {
      await browser.close();
      await new Promise<void>((r) => server.close(() => r()));
      await rm(out, { recursive: true, force: true });
    },
  };
}

const AXE = readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page on WCAG 2.0/2.1/2.2 A and AA rules, `color-contrast` included; returns the
 * violations, summarised. A contrast check axe could not decide (`incomplete`) counts as a violation too, so a
 * colour the rule cannot measure does not pass silently.
 */
export async function axeViolations(page: Page) {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      rules: { 'color-contrast': { enabled: true } },
    });
    // Glyphs such as ▸ are not text to axe ("nonBmp"); anything else it could not decide is reported.
    const undecided = r.incomplete
      .filter((v: any) => v.id === 'color-contrast')
      .map((v: any) => ({
        ...v,
        nodes: v.nodes.filter((n: any) => n.any?.[0]?.data?.messageKey !== 'nonBmp'),
      }))
      .filter((v: any) => v.nodes.length);
    return [...r.violations, ...undecided].map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n: any) => `${n.target.join(' ')}: ${n.failureSummary ?? n.any?.[0]?.message}`),
    }));
  });
  return result as { id: string; impact: string; nodes: string[] }[];
}

/**
 * Until `release()`, the popup's way to the provider (Inlay's start link) ends on a stand-in consent page that
 * never answers, so the hint stays up; afterwards the start link reaches the service and the consent runs.
 */
export async function holdConsent(page: Page) {
  let open = false;
  await page.context().route(
    (u) => u.pathname.endsWith('/oauth/start'),
    (r) => (open ? r.continue() : r.fulfill({ contentType: 'text/html', body: '<title>Consent</title>' })),
  );
  return {
    release: () => {
      open = true;
    },
  };
}

// What the console's Chromium tests share: a real service serving the built console on 127.0.0.1, Debian's
// Chromium, an API client with the account's key, and the per-page check (axe, then no sideways scroll at
// 1280 and 768 px) with the page's console errors collected.
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createApp, type InlayApp, listen, loadConfig } from '@inlay/service';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const AXE = readFileSync(
  fileURLToPath(new URL('../node_modules/axe-core/axe.min.js', import.meta.url)),
  'utf8',
);

export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn('console browser tests skipped: no Chromium at /usr/bin/chromium');

export interface ConsoleHarness {
  app: InlayApp;
  origin: string;
  browser: Browser;
  /** A call with an account's API key; a status of 300 or more throws with the body. */
  api<T = any>(apiKey: string, method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** Starts the service (PGlite in memory, or `DATABASE_URL`) with the built console, and Chromium. */
export async function startConsole(env: Record<string, string> = {}): Promise<ConsoleHarness> {
  const config = loadConfig({
    INLAY_DATA_DIR: 'memory://',
    INLAY_PUBLIC_URL: 'http://127.0.0.1',
    INLAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: 'silent',
    ...env,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const app = await createApp(config, { consoleDir: DIST });
  const server: Server = await listen(app, 0, '127.0.0.1');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  const h: ConsoleHarness = {
    app,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    browser,
    async api(apiKey, method, path, body) {
      const res = await fetch(`${h.origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    async close() {
      await browser.close();
      await new Promise<void>((r) => server.close(() => r()));
      await app.close();
    },
  };
  return h;
}

/** axe-core (WCAG 2.x A and AA) in the page: serious and critical violations, summarised. */
export async function seriousViolations(page: Page) {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays on for the console itself.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await (window as any).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return r.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  }) as Promise<string[]>;
}

/** Nothing wider than the window: readable without sideways scrolling of the page. */
export const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The page's console errors as they come, and a check of a page: axe, then no overflow at 1280 and 768 px. */
export function watch(page: Page, scheme: string) {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  const checkPage = async (what: string) => {
    expect(await seriousViolations(page), `${what} (${scheme})`).toEqual([]);
    for (const width of [1280, 768]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await overflow(page), `${what} at ${width} px`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  return { errors, checkPage };
}

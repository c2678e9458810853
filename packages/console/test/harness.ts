// What the console's Chromium tests share: a real service serving the built console on 127.0.0.1, Debian's
// Chromium, an API client with the account's key, and the per-page check (axe, then no sideways scroll at
// 1280, 768 and 375 px) with the page's console errors collected.
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createApp, type InlayApp, listen, loadConfig } from '@inlay/service';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
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

/** The outermost elements reaching past the window's right edge, as `tag.class` paths, to name in a failure. */
export const overflowing = (page: Page) =>
  page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const name = (e: Element) => `${e.tagName.toLowerCase()}${[...e.classList].map((c) => `.${c}`).join('')}`;
    return [...document.body.querySelectorAll('*')]
      .filter((e) => e.getBoundingClientRect().right > w + 0.5)
      .filter((e) => !e.parentElement || e.parentElement.getBoundingClientRect().right <= w + 0.5)
      .map(
        (e) =>
          [...Array(3)].reduce<[string, Element | null]>(
            ([p, el]) => [el ? `${name(el)} > ${p}` : p, el?.parentElement ?? null],
            ['', e.parentElement],
          )[0] + name(e),
      )
      .slice(0, 5);
  });

/** The page's console errors and refused requests as they come, and a check of a page: axe, then no overflow at 1280, 768 and 375 px, and axe again at 375 px. */
export function watch(page: Page, scheme: string) {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  // Chromium's console line for a refused request has no URL: these say which request it was.
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  const checkPage = async (what: string) => {
    expect(await seriousViolations(page), `${what} (${scheme})`).toEqual([]);
    for (const width of [1280, 768, 375]) {
      await page.setViewportSize({ width, height: 900 });
      // A table's wrapper learns that it scrolls from a ResizeObserver, after layout: wait until every wrapper
      // that scrolls has taken the focus (and none that does not), as a keyboard user would find it.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.table-wrap')].every(
          (el) => el.scrollWidth > el.clientWidth === el.hasAttribute('tabindex'),
        ),
      );
      const over = await overflow(page);
      if (over > 0)
        expect.soft(await overflowing(page), `${what} at ${width} px: wider than the window`).toEqual([]);
      expect(over, `${what} at ${width} px`).toBeLessThanOrEqual(0);
      if (width === 375) expect(await seriousViolations(page), `${what} at 375 px (${scheme})`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  return { errors, failed, checkPage };
}

// Keyboard only: the helpers below reach a control the way a keyboard user does (Tab through the page's focus
// order) and act on it with keys, never with a click. A control Tab cannot reach fails the test.

export interface TabOptions {
  /** Shift+Tab instead of Tab; by default, Shift+Tab when the target comes before the focused element. */
  back?: boolean;
  /** Most key presses before giving up. */
  max?: number;
}

/** Presses Tab (or Shift+Tab) until `target` has the focus. */
export async function tabTo(page: Page, target: Locator, { back, max = 200 }: TabOptions = {}) {
  await target.waitFor();
  // The element is looked up once (a role or label query over a long page is slow), and again now and then in
  // case the page rendered it anew.
  let el = await target.elementHandle();
  const focused = async () =>
    Boolean(await el?.evaluate((e) => e === document.activeElement).catch(() => false));
  const backwards =
    back ??
    (await target.evaluate((e) => {
      const active = document.activeElement;
      if (!active || active === document.body) return false;
      return Boolean(active.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING);
    }));
  for (let i = 0; i <= max; i++) {
    if (await focused()) return;
    if (i % 25 === 24) el = await target.elementHandle();
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} is not reached with ${backwards ? 'Shift+Tab' : 'Tab'} in ${max} presses`);
}

/** Tabs to a control and presses `key` on it (Enter follows a link or presses a button; Space ticks a box). */
export async function press(page: Page, target: Locator, key = 'Enter', opts?: TabOptions) {
  await tabTo(page, target, opts);
  await page.keyboard.press(key);
}

/** Tabs to a text field, selects what it holds and types `text` over it. */
export async function typeInto(page: Page, target: Locator, text: string, opts?: TabOptions) {
  await tabTo(page, target, opts);
  await page.keyboard.press('Control+a');
  if (text) await page.keyboard.type(text);
  else await page.keyboard.press('Delete');
}

/** Tabs to a `<select>` and moves through its options with the arrow keys until `label` is chosen. */
export async function choose(page: Page, select: Locator, label: string, opts?: TabOptions) {
  await tabTo(page, select, opts);
  const labels = await select.locator('option').allTextContents();
  const want = labels.indexOf(label);
  if (want < 0) throw new Error(`no option "${label}" in ${labels.join(', ')}`);
  const at = await select.evaluate((el) => (el as HTMLSelectElement).selectedIndex);
  for (let i = 0; i < Math.abs(want - at); i++)
    await page.keyboard.press(want > at ? 'ArrowDown' : 'ArrowUp');
  expect(await select.evaluate((el) => (el as HTMLSelectElement).selectedIndex)).toBe(want);
}

/** Follows a link of the console's navigation from the keyboard (it comes before the page: Shift+Tab). */
export async function navigateTo(page: Page, label: string) {
  const link = page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: label, exact: true });
  await press(page, link);
  await page.getByRole('heading', { name: label, level: 1 }).waitFor();
}

/** Signs in from the keyboard: the API key typed into its field, Enter. */
export async function signIn(page: Page, apiKey: string) {
  const field = page.getByLabel('API key');
  await tabTo(page, field);
  // Typed as keys would be; `insertText` puts the whole key in at once, as a paste does.
  await page.keyboard.insertText(apiKey);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

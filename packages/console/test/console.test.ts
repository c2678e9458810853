import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createAccount, createApp, type InlayApp, listen, loadConfig } from '@inlay/service';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const AXE = readFileSync(
  fileURLToPath(new URL('../node_modules/axe-core/axe.min.js', import.meta.url)),
  'utf8',
);
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn('console browser tests skipped: no Chromium at /usr/bin/chromium');

let app: InlayApp;
let server: Server;
let origin: string;
let apiKey: string;
let browser: Browser;

async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
}

beforeAll(async () => {
  if (!hasChromium) return;
  const config = loadConfig({
    INLAY_DATA_DIR: 'memory://',
    INLAY_PUBLIC_URL: 'http://127.0.0.1',
    INLAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: 'silent',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  app = await createApp(config, { consoleDir: DIST });
  server = await listen(app, 0, '127.0.0.1');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  await app?.close();
});

/** A fresh account for each run of the pages: two users, 3 good runs and 1 failed run each. */
async function seed() {
  ({ apiKey } = await createAccount(app.context.db, 'Acme CRM'));
  // A workflow that succeeds and one that fails (the egress policy refuses loopback), run by two users.
  const { integrationId } = await api('POST', '/integrations', { name: 'Deals' });
  const ok = await api('POST', '/workflows', {
    integrationId,
    name: 'Summarise deal',
    definition: {
      trigger: { type: 'manual' },
      steps: [
        {
          id: randomUUID(),
          connector: 'transform',
          action: 'map',
          input: { expression: '{"deal": trigger.name}' },
        },
      ],
    },
  });
  const bad = await api('POST', '/workflows', {
    integrationId,
    name: 'Notify CRM',
    definition: {
      trigger: { type: 'manual' },
      steps: [
        {
          id: randomUUID(),
          connector: 'http',
          action: 'request',
          input: { method: 'GET', url: 'http://127.0.0.1:9/hook' },
        },
      ],
    },
  });
  for (const username of ['alice', 'bob']) {
    await api('POST', '/users', { username });
    await api('POST', '/installations', { userId: username, workflowIds: [ok.workflowId, bad.workflowId] });
    for (let i = 0; i < 3; i++)
      await api('POST', '/run/workflow', {
        userId: username,
        workflowId: ok.workflowId,
        data: { name: `Deal ${i}` },
      });
    await api('POST', '/run/workflow', { userId: username, workflowId: bad.workflowId, data: {} });
  }
  // Every run finished before the pages are checked.
  for (let i = 0; i < 300; i++) {
    const page = await api<{ data: { status: string }[] }>('GET', '/executions?limit=100');
    if (page.data.length === 8 && page.data.every((e) => e.status === 'succeeded' || e.status === 'failed'))
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** axe-core (WCAG 2.x A and AA) in the page: serious and critical violations, summarised. */
async function seriousViolations(page: Page) {
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
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.skipIf(!hasChromium).each(['light', 'dark'] as const)('the console in Chromium, %s', (scheme) => {
  it('signs in with an API key, and every page is accessible, keyboard usable and readable at 1280 and 768 px', async () => {
    await seed();
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
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

    // Sign-in: the form field is labelled "API key"; the key leaves no trace in the browser.
    await page.goto(`${origin}/console`);
    await page.getByLabel('API key').waitFor();
    await checkPage('sign-in');
    await page.getByLabel('API key').fill(apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie,
    );
    expect(stored).not.toContain(apiKey);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const cookies = await context.cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['inlay_console', true, 'Strict']]);
    expect(cookies[0]!.value).not.toContain(apiKey);

    // Overview: the chart, the error rate (2 failed of 8), the slowest workflows.
    await page.locator('.chart canvas').waitFor();
    await expect.poll(() => page.locator('.figures').textContent()).toContain('25.0 %');
    const slow = await page.getByRole('table', { name: 'Slowest workflows (p95)' }).textContent();
    expect(slow).toContain('Summarise deal');
    expect(slow).toContain('Notify CRM');
    await expect.poll(() => page.getByText('None: every delivery went through.').count()).toBe(1);
    // `CONSOLE_SCREENSHOT=path` keeps a picture of the Overview (docs/console-overview.png is one).
    if (process.env.CONSOLE_SCREENSHOT && scheme === 'light')
      await page.screenshot({ path: process.env.CONSOLE_SCREENSHOT, fullPage: true });
    await page.getByLabel('Last 30 days, per day').check();
    await page.locator('.chart canvas').waitFor();
    await checkPage('overview');

    // Keyboard only: Tab from the top of the page to the navigation's Executions link, Enter follows it.
    await page.keyboard.press('Tab'); // skip link
    let found = false;
    for (let i = 0; i < 10 && !found; i++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => document.activeElement?.textContent === 'Executions');
    }
    expect(found).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(8);
    await checkPage('executions');

    // Filters: failed runs of bob.
    await page.getByLabel('Status').selectOption('failed');
    await page.getByLabel('User (id or username)').fill('bob');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(page.url()).toContain('status=failed');
    const row = await page.locator('tbody tr').textContent();
    expect(row).toContain('Notify CRM');
    expect(row).toContain('bob');

    // Detail: trigger, the step's input and its error; rerun opens the new run.
    await page.locator('tbody tr a').first().click();
    await page.getByRole('heading', { name: /Run of Notify CRM/ }).waitFor();
    expect(await page.getByLabel('Step 1 input').textContent()).toContain('http://127.0.0.1:9/hook');
    expect(await page.locator('.steps .error').textContent()).toContain('egress_denied');
    await checkPage('execution detail');
    const before = page.url();
    await page.getByRole('button', { name: 'Rerun' }).click();
    await expect.poll(() => page.url()).not.toBe(before);
    await page.getByText('Re-ran').waitFor();

    // API keys: create (shown once), revoke through the confirmation dialog with the keyboard.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Name').fill(`CI ${scheme}`);
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^inlay_live_/);
    expect((await fetch(`${origin}/users`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );
    await checkPage('api keys');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('New API key').count()).toBe(0);
    await page.getByRole('button', { name: `Revoke CI ${scheme}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Revoke key' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(
        async () => (await fetch(`${origin}/users`, { headers: { authorization: `Bearer ${key}` } })).status,
      )
      .toBe(401);

    // Sign out: the session is gone from the server, not just the page.
    const cookie = `inlay_console=${(await context.cookies())[0]!.value}`;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect((await fetch(`${origin}/executions`, { headers: { cookie } })).status).toBe(401);

    expect(errors).toEqual([]);
    await context.close();
  });
});

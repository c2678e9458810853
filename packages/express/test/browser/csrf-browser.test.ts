// The CSRF attacks of csrf.test.ts, sent by a real browser from a real page on another site: Chromium decides
// which headers, bodies and preflights go out, as it would for a victim. The host's "session" answers alice
// for every request (as a cookie session would once the browser attaches the cookie), so only @inlay/express
// stands between the attacker's page and a run. The host's own page, through @inlay/client's transport
// headers, must still run the workflow.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { installDirect, seedAccount } from '@inlay/test-kit/fixtures';
import { executions } from '@inlay/test-kit/schema';
import { type Service, sharedService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import express from 'express';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlay } from '../../src/index.ts';
import { listen } from '../helpers.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`csrf-browser: skipped, no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let browser: Browser;
let hostServer: Server;
let attackerServer: Server;
/** The host, on 127.0.0.1; the attacker, on `localhost`: another site to the browser. */
let hostUrl: string;
let attackerUrl: string;
/** What @inlay/express answered each write that reached the host. */
const answered: { method: string; status: number }[] = [];

const runs = async () =>
  (await svc.db.select().from(executions).where(eq(executions.workflowId, s.workflowId))).length;

/** Waits until the host has answered `n` writes, so "nothing ran" is checked after the attempt, not before. */
async function answeredWrites(n: number) {
  await expect.poll(() => answered.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(n);
}

beforeAll(async () => {
  if (!hasChromium) return;
  svc = await sharedService();
  s = await seedAccount(svc, {
    definition: {
      trigger: { type: 'manual' },
      steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression: 'trigger' } }],
      config: [],
    },
  });
  await installDirect(svc.db, s);

  const host = express();
  host.use((req, res, next) => {
    if (req.method !== 'GET')
      res.on('finish', () => answered.push({ method: req.method, status: res.statusCode }));
    next();
  });
  // The host: a global form parser ahead of everything, as many Express apps have.
  host.use(express.urlencoded({ extended: true }), express.json());
  host.use('/api/inlay', inlay({ serviceUrl: svc.url, apiKey: s.apiKey, userId: () => 'alice' }));
  host.get('/app', (_req, res) => {
    res.type('html').send('<!doctype html><title>Host</title><h1>Host app</h1>');
  });
  hostServer = createServer(host);
  hostUrl = await listen(hostServer);

  attackerServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Attacker</title>
<form id="f" method="POST" action="${hostUrl}/api/inlay/run/workflow">
  <input name="workflowId" value="${s.workflowId}"><input name="data[n]" value="1">
</form>`);
  });
  attackerUrl = (await listen(attackerServer)).replace('127.0.0.1', 'localhost');

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  for (const server of [hostServer, attackerServer])
    await new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  await svc?.close();
});

describe.skipIf(!hasChromium)('CSRF from a page on another site, in Chromium', () => {
  it('refuses a cross-site form post, whatever the host parsed', async () => {
    const before = await runs();
    const page = await browser.newPage();
    await page.goto(`${attackerUrl}/`);
    const seen = answered.length;
    await Promise.all([
      page.waitForURL(`${hostUrl}/api/inlay/run/workflow`),
      // A string: this package type-checks without the DOM library.
      page.evaluate("document.getElementById('f').submit()"),
    ]);
    await answeredWrites(seen + 1);
    expect(answered.at(-1)).toEqual({ method: 'POST', status: 403 });
    const body = JSON.parse((await page.textContent('body')) ?? '{}');
    expect(body.status).toBe(403);
    expect(body.errors[0].field).toMatch(/^header\./);
    expect(await runs()).toBe(before);
    await page.close();
  });

  it('refuses a cross-site fetch without x-inlay-client (a "simple" request with no preflight)', async () => {
    const before = await runs();
    const page = await browser.newPage();
    await page.goto(`${attackerUrl}/`);
    const seen = answered.length;
    const outcome = await page.evaluate(
      async ({ url, workflowId }) => {
        try {
          const r = await fetch(url, {
            method: 'POST',
            mode: 'no-cors',
            credentials: 'include',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ workflowId, data: { n: 1 } }),
          });
          return r.type;
        } catch (e) {
          return String(e);
        }
      },
      { url: `${hostUrl}/api/inlay/run/workflow`, workflowId: s.workflowId },
    );
    // An opaque answer: the page learns nothing, and the host refused the write.
    expect(outcome).toBe('opaque');
    await answeredWrites(seen + 1);
    expect(answered.at(-1)).toEqual({ method: 'POST', status: 403 });
    expect(await runs()).toBe(before);
    await page.close();
  });

  it('a cross-site fetch with the header is stopped at the preflight: the write never reaches Inlay', async () => {
    const before = await runs();
    const page = await browser.newPage();
    await page.goto(`${attackerUrl}/`);
    const seen = answered.length;
    const outcome = await page.evaluate(
      async ({ url, workflowId }) => {
        try {
          await fetch(url, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/json', 'x-inlay-client': '1' },
            body: JSON.stringify({ workflowId, data: { n: 1 } }),
          });
          return 'sent';
        } catch (e) {
          return (e as Error).name;
        }
      },
      { url: `${hostUrl}/api/inlay/run/workflow`, workflowId: s.workflowId },
    );
    expect(outcome).toBe('TypeError');
    // The browser sent only the OPTIONS preflight; no POST was answered.
    expect(answered.slice(seen).filter((a) => a.method === 'POST')).toEqual([]);
    expect(await runs()).toBe(before);
    await page.close();
  });

  it("still runs the workflow from the host's own page, as the widget's client does", async () => {
    const before = await runs();
    const page = await browser.newPage();
    await page.goto(`${hostUrl}/app`);
    const result = await page.evaluate(
      async ({ workflowId }) => {
        const r = await fetch('/api/inlay/run/workflow', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-inlay-client': '1' },
          body: JSON.stringify({ workflowId, data: { n: 1 } }),
        });
        return { status: r.status, body: (await r.json()) as { executionIds: string[] } };
      },
      { workflowId: s.workflowId },
    );
    expect(result.status).toBe(200);
    expect(result.body.executionIds).toHaveLength(1);
    expect(await runs()).toBe(before + 1);
    await page.close();
  });
});

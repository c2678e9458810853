import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from '../server/demo.ts';
import { startingServer } from '../server/starting.ts';

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address() as { port: number };
  await new Promise((ok) => s.close(ok));
  return port;
}

describe('a port whose handler is not ready', () => {
  it('answers 503 with Retry-After (a page for a browser, problem+json otherwise), then the real handler', async () => {
    const starting = startingServer('Acme CRM');
    await new Promise<void>((ok) => starting.server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(starting.server.address() as { port: number }).port}/deals`;
    try {
      const page = await fetch(url, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(5_000) });
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('1');
      expect(await page.text()).toContain('Acme CRM is starting. Try again in a moment.');
      const api = await fetch(url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(5_000) });
      expect(api.status).toBe(503);
      expect(api.headers.get('content-type')).toBe('application/problem+json');
      expect(await api.json()).toMatchObject({ status: 503, code: 'unavailable', retryAfter: 1 });
      starting.ready((_req, res) => res.end('ready'));
      const ready = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      expect(ready.status).toBe(200);
      expect(await ready.text()).toBe('ready');
    } finally {
      starting.server.closeAllConnections();
      await new Promise((ok) => starting.server.close(ok));
    }
  });
});

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('the demo while it starts', () => {
  let demo: Demo | undefined;
  let dataDir: string | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every request to its ports (503 until ready, then the app); a page loaded meanwhile reloads into it', async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    const page = await browser.newPage();
    let reloaded: Promise<string> | undefined;
    dataDir = mkdtempSync(join(tmpdir(), 'acme-crm-starting-'));
    const [port, servicePort] = [await freePort(), await freePort()];
    const started = startDemo({
      dataDir,
      port,
      servicePort,
      sandboxPort: 0,
      env: {
        LOG_LEVEL: 'error',
        ...(process.env.DATABASE_URL ? { INLAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') } : {}),
      },
      dev: false,
    }).then((d) => (demo = d));
    const seen = new Map<number, number>();
    const ask = async (url: string) => {
      try {
        // A request that hangs fails the test here: every answer must come within seconds.
        const r = await fetch(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(10_000),
        });
        await r.arrayBuffer();
        if (r.status === 503) expect(r.headers.get('retry-after')).toBe('1');
        // A browser opening the demo while it starts: the "Starting…" page, which reloads into the login.
        if (r.status === 503 && url.includes(`:${port}/`) && !reloaded)
          reloaded = page.goto(`http://127.0.0.1:${port}/`).then(async () => {
            const first = (await page.locator('h1').textContent()) ?? '';
            await page.getByLabel('Username').waitFor({ timeout: 90_000 });
            return first;
          });
        seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
        return r.status;
      } catch (err) {
        // Before the port is bound the connection is refused: that is an answer too, and not a hang.
        if ((err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return 0;
        throw err;
      }
    };
    let done = false;
    void started.finally(() => {
      done = true;
    });
    while (!done) {
      await Promise.all([
        ask(`http://127.0.0.1:${port}/api/me`),
        ask(`http://127.0.0.1:${servicePort}/healthz`),
      ]);
      await new Promise((r) => setTimeout(r, 20));
    }
    await started;
    expect(await ask(`http://127.0.0.1:${servicePort}/healthz`)).toBe(200);
    // Only 503 (while starting) and the app's own answers were seen; the service port answered 503 at least
    // once, since it is bound before the service exists (its address is part of the service's config).
    expect(
      [...seen.keys()].every((s) => s === 503 || s < 500),
      JSON.stringify([...seen]),
    ).toBe(true);
    expect(seen.get(503) ?? 0).toBeGreaterThan(0);
    expect(reloaded, 'the demo port answered 503 at least once').toBeDefined();
    expect(await reloaded).toBe('Starting…');
  });
});

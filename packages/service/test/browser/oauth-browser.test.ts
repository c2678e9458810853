import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { type Provider, providerConnectors, providerEgress, startProvider } from '@inlay/test-kit/providers';
import { type Service, startService } from '@inlay/test-kit/service';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`oauth-browser: SKIPPED, no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

let provider: Provider;
let svc: Service;
let host: Server;
let hostOrigin: string;
let browser: Browser;
let jwt: string;

/** The host's settings page: it records every message it receives, as a widget would listen. */
const HOST_PAGE = `<!doctype html><html><body><h1>Settings</h1><script>
  window.received = [];
  window.addEventListener('message', (e) => window.received.push({ origin: e.origin, data: e.data }));
</script></body></html>`;

beforeAll(async () => {
  if (!hasChromium) return;
  provider = await startProvider();
  svc = await startService({ connectors: providerConnectors(provider.url), env: providerEgress(provider) });
  const { apiKey } = await svc.account();
  const alice = await createUser(svc, apiKey, 'alice');
  jwt = await tokenFor(svc, apiKey, alice);
  // A foreign origin the account lists, to show the popup still posts only to the origin it names.
  await svc.call('PUT', '/settings', {
    auth: apiKey,
    body: { allowedOrigins: ['https://elsewhere.example'] },
  });
  await svc.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  host = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(HOST_PAGE);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
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
  await new Promise((resolve) => host?.close(resolve));
  await svc?.close();
  await provider?.close();
});

const start = async (origin: string) => {
  const r = await svc.call('POST', '/credentials/oauth', { auth: jwt, body: { connector: 'acme', origin } });
  expect(r.status, r.text).toBe(201);
  return r.body as { credentialId: string; authorizeUrl: string };
};

/**
 * A page on Inlay's own origin listening on the BroadcastChannel, as a tab whose opener link was cut. It
 * shares the opener's browser context (profile): channels never cross profiles.
 */
async function channelListener(opener: Page): Promise<Page> {
  const page = await opener.context().newPage();
  await page.goto(`${svc.url}/healthz`);
  await page.evaluate(() => {
    const w = globalThis as unknown as { broadcast: unknown[] };
    w.broadcast = [];
    new BroadcastChannel('inlay:oauth').onmessage = (e) => w.broadcast.push(e.data);
  });
  return page;
}

/** Opens the consent URL in a popup from the host page, as the install modal does, and waits for it to close. */
async function runPopup(opener: Page, authorizeUrl: string) {
  const popup = opener.waitForEvent('popup');
  await opener.evaluate(
    (url) =>
      void (globalThis as unknown as { open(u: string, n: string, f: string): unknown }).open(
        url,
        'inlay-oauth',
        'width=500,height=600',
      ),
    authorizeUrl,
  );
  const p = await popup;
  if (!p.isClosed()) await p.waitForEvent('close', { timeout: 15_000 });
}

describe.skipIf(!hasChromium)('the OAuth popup in Chromium', () => {
  it('posts the result to its opener with the explicit origin, broadcasts it, and closes itself', async () => {
    const context = await browser.newContext();
    const opener = await context.newPage();
    await opener.goto(`${hostOrigin}/settings`);
    const tab = await channelListener(opener);
    const { credentialId, authorizeUrl } = await start(hostOrigin);
    await runPopup(opener, authorizeUrl);
    await opener.waitForFunction(
      () => (globalThis as unknown as { received: unknown[] }).received.length > 0,
      null,
      { polling: 100 },
    );
    const received = await opener.evaluate(() => (globalThis as unknown as { received: unknown[] }).received);
    expect(received).toEqual([
      { origin: new URL(svc.url).origin, data: { type: 'inlay:oauth', credentialId, status: 'connected' } },
    ]);
    await tab.waitForFunction(
      () => (globalThis as unknown as { broadcast: unknown[] }).broadcast.length > 0,
      null,
      { polling: 100 },
    );
    expect(await tab.evaluate(() => (globalThis as unknown as { broadcast: unknown[] }).broadcast)).toEqual([
      { type: 'inlay:oauth', credentialId, status: 'connected' },
    ]);
    const s = await svc.call('GET', `/credentials/${credentialId}`, { auth: jwt });
    expect(s.body.data.status).toBe('connected');
    await context.close();
  });

  it('does not deliver the result to an opener on another origin; the channel and polling still see it', async () => {
    const context = await browser.newContext();
    const opener = await context.newPage();
    await opener.goto(`${hostOrigin}/settings`);
    const tab = await channelListener(opener);
    // The flow was started for another site: the browser must drop the message for this opener.
    const { credentialId, authorizeUrl } = await start('https://elsewhere.example');
    provider.consent = 'deny';
    try {
      await runPopup(opener, authorizeUrl);
    } finally {
      provider.consent = 'allow';
    }
    await tab.waitForFunction(
      () => (globalThis as unknown as { broadcast: unknown[] }).broadcast.length > 0,
      null,
      { polling: 100 },
    );
    expect(await tab.evaluate(() => (globalThis as unknown as { broadcast: unknown[] }).broadcast)).toEqual([
      {
        type: 'inlay:oauth',
        credentialId,
        status: 'failed',
        code: 'access_denied',
        reason: 'access_denied: The user denied access to Acme',
      },
    ]);
    expect(await opener.evaluate(() => (globalThis as unknown as { received: unknown[] }).received)).toEqual(
      [],
    );
    const s = await svc.call('GET', `/credentials/${credentialId}`, { auth: jwt });
    expect(s.body.data).toMatchObject({
      status: 'failed',
      statusReason: 'access_denied: The user denied access to Acme',
    });
    await context.close();
  });
});

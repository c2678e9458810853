// Inlay's OAuth pages served under the host's origin: the start link and the callback relayed without a
// session, with the flow cookie (and only it) crossing the proxy both ways.
import { createServer, type Server } from 'node:http';
import { TestBrowser } from '@inlay/test-kit/browser';
import { createUser } from '@inlay/test-kit/fixtures';
import { type Provider, providerConnectors, providerEgress, startProvider } from '@inlay/test-kit/providers';
import { type Service, startService } from '@inlay/test-kit/service';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlay } from '../../src/index.ts';
import { listen, startFakeUpstream, startHost } from '../helpers.ts';

let provider: Provider;
let svc: Service;
let hostServer: Server;
let hostUrl: string;
let apiKey: string;

beforeAll(async () => {
  provider = await startProvider();
  // The host listens first: the service's public URL is the host's mount.
  hostServer = createServer();
  hostUrl = await listen(hostServer);
  svc = await startService({
    connectors: providerConnectors(provider.url),
    env: { ...providerEgress(provider), INLAY_PUBLIC_URL: `${hostUrl}/api/inlay` },
  });
  ({ apiKey } = await svc.account());
  await createUser(svc, apiKey, 'alice');
  await svc.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  const app = express();
  app.use(
    '/api/inlay',
    inlay({ serviceUrl: svc.url, apiKey, userId: (req) => req.get('x-host-user') ?? null }),
  );
  hostServer.on('request', app);
});
afterAll(async () => {
  hostServer?.closeAllConnections();
  await new Promise((r) => hostServer?.close(r));
  await svc?.close();
  await provider?.close();
});

const start = async () => {
  const r = await svc.call('POST', '/credentials/oauth', {
    auth: apiKey,
    body: { userId: 'alice', connector: 'acme', redirectUri: `${hostUrl}/settings` },
  });
  expect(r.status, r.text).toBe(201);
  return r.body as { credentialId: string; authorizeUrl: string };
};

describe('the OAuth start link and callback through @inlay/express', () => {
  it('connects in the browser that opened the start link, with the cookie scoped below the mount', async () => {
    const { credentialId, authorizeUrl } = await start();
    expect(authorizeUrl.startsWith(`${hostUrl}/api/inlay/oauth/start?flow=`)).toBe(true);
    const browser = new TestBrowser();
    const opened = await browser.open(authorizeUrl);
    expect(opened.status).toBe(302);
    const [cookie] = opened.headers.getSetCookie();
    expect(cookie).toMatch(
      /^inlay_oauth_[0-9a-f]{16}=[\w-]+; .*Path=\/api\/inlay\/oauth; .*HttpOnly; SameSite=Lax/,
    );
    expect(opened.headers.get('access-control-allow-origin')).toBeNull();
    const back = await browser.open(opened.headers.get('location')!);
    const callback = back.headers.get('location')!;
    expect(callback.startsWith(`${hostUrl}/api/inlay/oauth/callback/acme?`)).toBe(true);
    // Another browser (no cookie) connects nothing.
    const elsewhere = await new TestBrowser().open(callback);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('started in another browser');
    const done = await browser.open(callback);
    expect(done.status).toBe(302);
    const to = new URL(done.headers.get('location')!);
    expect(to.searchParams.get('status')).toBe('connected');
    expect(to.searchParams.get('credentialId')).toBe(credentialId);
  });
});

describe('what the OAuth relay sends upstream', () => {
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  let host: Awaited<ReturnType<typeof startHost>>;
  beforeAll(async () => {
    fake = await startFakeUpstream();
    host = await startHost({ serviceUrl: fake.url, apiKey: 'inlay_test_key' });
  });
  afterAll(async () => {
    await host?.close();
    await fake?.close();
  });

  it('passes only the flow cookies, no credentials, and mints no token', async () => {
    fake.seen.length = 0;
    const r = await fetch(`${host.url}/api/inlay/oauth/callback?state=s&code=c`, {
      headers: {
        cookie: 'sid=host-session; inlay_oauth_0123456789abcdef=nonce; inlay_oauth_evil=x',
        authorization: 'Bearer host',
        'x-host-user': 'alice',
      },
    });
    expect(r.status).toBe(200);
    expect(fake.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /oauth/callback?state=s&code=c']);
    const sent = fake.seen[0]!.headers;
    expect(sent.cookie).toBe('inlay_oauth_0123456789abcdef=nonce');
    expect(sent.authorization).toBeUndefined();
  });

  it('relays a connector’s own callback to the same path; a name that is no connector id is not relayed', async () => {
    fake.seen.length = 0;
    for (const path of ['acme', 'my-app_2']) {
      const r = await fetch(`${host.url}/api/inlay/oauth/callback/${path}?state=s&code=c`);
      expect(r.status).toBe(200);
    }
    expect(fake.seen.map((s) => s.url)).toEqual([
      '/oauth/callback/acme?state=s&code=c',
      '/oauth/callback/my-app_2?state=s&code=c',
    ]);
    // Not a slug: it is no public OAuth page, so it goes the proxy's way, which needs the host's session.
    const other = await fetch(`${host.url}/api/inlay/oauth/callback/a%2Fb?state=s&code=c`);
    expect(other.status).toBe(401);
    expect(fake.seen).toHaveLength(2);
  });
});

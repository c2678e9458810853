// Connector icons through the host: served without a session, cacheable, and limited to icon paths.

import { seedAccount } from '@inlay/test-kit/fixtures';
import { type Service, sharedService } from '@inlay/test-kit/service';
import { customConnector } from '@inlay/test-kit/tenant';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, startHost } from '../helpers.ts';

let svc: Service;
let host: Awaited<ReturnType<typeof startHost>>;
let apiKey: string;

beforeAll(async () => {
  svc = await sharedService();
  const s = await seedAccount(svc, { username: 'iconic' });
  apiKey = s.apiKey;
  host = await startHost({ serviceUrl: svc.url, apiKey: s.apiKey });
});
afterAll(async () => {
  await host?.close();
  await svc?.close();
});

describe('GET /connectors/{connector}/icon.svg through @inlay/express', () => {
  it('serves the icon to a browser with no session, with its caching headers', async () => {
    const r = await fetch(`${host.url}/api/inlay/connectors/slack/icon.svg`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('image/svg+xml');
    expect(r.headers.get('cache-control')).toBe('public, max-age=86400');
    const svg = await r.text();
    expect(svg).toMatch(/^<svg[\s>]/);
    expect(svg).toBe(await (await fetch(`${svc.url}/connectors/slack/icon.svg`)).text());
  });

  it("serves a custom connector's icon with its key, and not without it", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3"/></svg>';
    const made = await svc.call('POST', '/connectors', {
      auth: apiKey,
      body: { ...customConnector('pictured', 'https://crm.example.com'), icon: svg },
    });
    expect(made.status).toBe(201);
    // The service names it under its own origin, `?key=` included; the widget re-roots that at the host's path.
    const icon = new URL(made.body.data.icon);
    expect(icon.pathname).toBe('/connectors/pictured/icon.svg');
    const key = icon.searchParams.get('key');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);

    const r = await fetch(`${host.url}/api/inlay/connectors/pictured/icon.svg${icon.search}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('image/svg+xml');
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await r.text()).toBe(await (await fetch(icon)).text());

    const without = await fetch(`${host.url}/api/inlay/connectors/pictured/icon.svg`);
    expect(without.status).toBe(404);
  });

  it('answers 404 problem+json for an unknown connector', async () => {
    const r = await fetch(`${host.url}/api/inlay/connectors/nope/icon.svg`);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('what an icon request sends upstream', () => {
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  let fakeHost: Awaited<ReturnType<typeof startHost>>;
  beforeAll(async () => {
    fake = await startFakeUpstream();
    fakeHost = await startHost({ serviceUrl: fake.url, apiKey: 'inlay_test_key' });
  });
  afterAll(async () => {
    await fakeHost?.close();
    await fake?.close();
  });

  it('sends no cookie, no credentials and mints no token', async () => {
    fake.seen.length = 0;
    const r = await fetch(`${fakeHost.url}/api/inlay/connectors/github/icon.svg`, {
      headers: { cookie: 'sid=host-session', authorization: 'Bearer host', 'x-host-user': 'alice' },
    });
    expect(r.status).toBe(200);
    expect(fake.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /connectors/github/icon.svg']);
    const sent = fake.seen[0]!.headers;
    expect(sent.cookie).toBeUndefined();
    expect(sent.authorization).toBeUndefined();
  });

  it("passes a custom icon's key on, and no other query parameter", async () => {
    fake.seen.length = 0;
    const key = '0b7c9d3e-5f1a-4c2b-9e8d-7a6f5e4d3c2b';
    const r = await fetch(`${fakeHost.url}/api/inlay/connectors/pictured/icon.svg?key=${key}&userId=bob`);
    expect(r.status).toBe(200);
    expect(fake.seen.map((s) => s.url)).toEqual([`/connectors/pictured/icon.svg?key=${key}`]);
  });

  it.each([
    '/connectors/slack/icon.svg?key=a%26userId%3Dbob',
    '/connectors/slack/icon.svg?key=a&key=b',
    '/connectors/..%2Fusers/icon.svg',
    '/connectors/a%2F..%2F..%2Fusers/icon.svg',
    '/connectors/sl%20ack/icon.svg',
  ])('refuses %s before anything is sent', async (path) => {
    fake.seen.length = 0;
    const r = await fetch(`${fakeHost.url}/api/inlay${path}`);
    expect(r.status).toBe(404);
    expect(fake.seen).toEqual([]);
  });
});

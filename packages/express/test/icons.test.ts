// Connector icons through the host: served without a session, cacheable, and limited to icon paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccount } from '../../service/test/helpers/fixtures.ts';
import { type Service, startService } from '../../service/test/helpers/service.ts';
import { startFakeUpstream, startHost } from './helpers.ts';

let svc: Service;
let host: Awaited<ReturnType<typeof startHost>>;

beforeAll(async () => {
  svc = await startService();
  const s = await seedAccount(svc, { username: 'iconic' });
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

  it.each([
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

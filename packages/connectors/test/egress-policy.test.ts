import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  connectionGuard,
  internalForms,
  loopbackForms,
  REBIND_NAME,
  startCanary,
  startRedirector,
  testResolver,
} from '@inlay/test-kit/ssrf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressDenied } from '../src/egress/egress-denied.ts';
import { egressFetch } from '../src/egress/egress-fetch.ts';
import { EgressPolicy } from '../src/egress/egress-policy.ts';
import { nodeTransport } from '../src/node-transport.ts';

/** A server on 127.0.0.1 that records headers and answers per path; `/to?u=<url>` redirects there. */
async function recorder() {
  const seen: { path: string; headers: IncomingMessage['headers'] }[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ path: url.pathname, headers: req.headers });
    const to = url.searchParams.get('u');
    if (to) res.writeHead(Number(url.searchParams.get('s') ?? 302), { location: to }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ at: url.pathname }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let canary: Awaited<ReturnType<typeof startCanary>>;
let redirector: Awaited<ReturnType<typeof startRedirector>>;
let a: Awaited<ReturnType<typeof recorder>>;
let b: Awaited<ReturnType<typeof recorder>>;
let guard: ReturnType<typeof connectionGuard>;
const resolve = testResolver({ 'a.test': '127.0.0.1', 'mixed.test': ['93.184.216.34', '127.0.0.1'] });

beforeAll(async () => {
  guard = connectionGuard();
  canary = await startCanary();
  redirector = await startRedirector(`${canary.url}/stolen`);
  a = await recorder();
  b = await recorder();
});
afterAll(async () => {
  guard.stop();
  await Promise.all([canary.close(), redirector.close(), a.close(), b.close()]);
});

const send = (
  egress: EgressPolicy,
  url: string,
  o: { headers?: Record<string, string>; trustedOrigin?: string; credentialHeaders?: string[] } = {},
) =>
  nodeTransport(
    {
      url: new URL(url),
      method: 'GET',
      headers: o.headers ?? {},
      signal: AbortSignal.timeout(5_000),
      egress,
      trustedOrigin: o.trustedOrigin,
      credentialHeaders: o.credentialHeaders,
    },
    1024 * 1024,
  );

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e) => (e instanceof EgressDenied ? e : Promise.reject(e)),
  );

describe('the egress policy at connect time', () => {
  it('refuses every loopback form before the canary sees a connection', async () => {
    const egress = new EgressPolicy({ allow: `127.0.0.1:${redirector.url.split(':')[2]}`, resolve });
    const forms = loopbackForms(canary.port, redirector.url);
    for (const form of forms) {
      const denied = await refusal(send(egress, form.url));
      expect(denied, form.name).toBeInstanceOf(EgressDenied);
      expect(denied!.rule, form.name).toMatch(/^(loopback|unspecified)$/);
      expect(denied!.message, form.name).toMatch(
        /The egress policy refused .+: (the address is|it resolves to)/,
      );
    }
    expect(redirector.hits).toBe(1);
    expect(canary.connections).toBe(0);
    expect(guard.attemptsTo(canary.port)).toBe(0);
    expect(guard.blocked).toEqual([]);
    egress.close();
    console.log(
      `egress policy: ${forms.length} loopback forms refused, canary connections: ${canary.connections}`,
    );
  });

  it('refuses internal addresses and names before any socket is opened or any connection attempted', async () => {
    const egress = new EgressPolicy({ resolve });
    for (const form of internalForms()) {
      const before = guard.attempts.length;
      const denied = await refusal(send(egress, form.url));
      expect(denied?.rule, form.name).toMatch(/^(private|linkLocal|carrierGradeNat)$/);
      expect(guard.attempts.length, form.name).toBe(before);
    }
    for (const address of ['10.0.0.1', '169.254.169.254', '100.64.0.1'])
      expect(guard.attemptsAt(address)).toBe(0);
    expect(guard.blocked).toEqual([]);
  });

  it('refuses a name whose answer mixes a public and a loopback address, connecting to neither', async () => {
    const egress = new EgressPolicy({ resolve });
    const before = guard.attempts.length;
    const denied = await refusal(send(egress, 'http://mixed.test/'));
    expect(denied).toMatchObject({ host: 'mixed.test', rule: 'loopback' });
    expect(denied!.message).toContain('mixed.test: it resolves to an address in 127.0.0.0/8 (loopback)');
    expect(guard.attempts.length).toBe(before);
  });

  it('refuses every scheme but http and https, trusted or not', async () => {
    const egress = new EgressPolicy({ allow: '127.0.0.1' });
    for (const url of [
      'ftp://127.0.0.1/x',
      'file:///etc/passwd',
      'gopher://127.0.0.1:70/',
      'ws://127.0.0.1/',
    ]) {
      expect(() => egress.check(new URL(url)), url).toThrow(EgressDenied);
      expect(() => egress.check(new URL(url), { trusted: true }), url).toThrow(/only http and https/);
    }
  });

  it('opens exactly what INLAY_EGRESS_ALLOW names: an address with its port, a hostname, a CIDR', async () => {
    const byPort = new EgressPolicy({ allow: `127.0.0.1:${a.port}`, resolve });
    expect((await send(byPort, `${a.url}/ok`)).status).toBe(200);
    expect(await refusal(send(byPort, `${b.url}/no`))).toMatchObject({ rule: 'loopback' });
    const byName = new EgressPolicy({ allow: 'a.test', resolve });
    expect((await send(byName, `http://a.test:${a.port}/named`)).status).toBe(200);
    // The name opens the name, not the address it resolves to.
    expect(await refusal(send(byName, `${a.url}/literal`))).toMatchObject({ rule: 'loopback' });
    const byCidr = new EgressPolicy({ allow: '127.0.0.0/8', resolve });
    expect((await send(byCidr, `http://${REBIND_NAME}:${b.port}/cidr`)).status).toBe(200);
    for (const p of [byPort, byName, byCidr]) p.close();
  });

  it('resolves once per kept-alive connection, not once per request', async () => {
    const counting = testResolver({ 'a.test': '127.0.0.1' });
    const egress = new EgressPolicy({ allow: '127.0.0.0/8', resolve: counting });
    for (let i = 0; i < 5; i++) await send(egress, `http://a.test:${a.port}/again`);
    expect(counting.calls).toEqual(['a.test']);
    egress.close();
  });

  it('never lends a trusted socket to a guarded request for the same host', async () => {
    const egress = new EgressPolicy({ resolve });
    expect((await send(egress, `${a.url}/trusted`, { trustedOrigin: a.url })).status).toBe(200);
    expect(await refusal(send(egress, `${a.url}/guarded`))).toMatchObject({ rule: 'loopback' });
    egress.close();
  });
});

describe('redirects', () => {
  it('checks every hop: an allowed host redirecting to loopback is refused at the hop', async () => {
    const egress = new EgressPolicy({ allow: `127.0.0.1:${a.port}` });
    const denied = await refusal(send(egress, `${a.url}/r?u=${encodeURIComponent(`${canary.url}/x`)}`));
    expect(denied).toMatchObject({ rule: 'loopback' });
    expect(canary.connections).toBe(0);
    const toFile = await refusal(send(egress, `${a.url}/r?u=${encodeURIComponent('file:///etc/passwd')}`));
    expect(toFile).toMatchObject({ rule: 'scheme' });
  });

  it('trusts the operator origin only for itself: its redirect to another loopback port is refused', async () => {
    const egress = new EgressPolicy();
    const same = await send(egress, `${a.url}/r?u=/landed`, { trustedOrigin: a.url });
    expect(JSON.parse(same.text)).toEqual({ at: '/landed' });
    const other = await refusal(
      send(egress, `${a.url}/r?u=${encodeURIComponent(`${canary.url}/x`)}`, { trustedOrigin: a.url }),
    );
    expect(other).toMatchObject({ rule: 'loopback' });
    expect(canary.connections).toBe(0);
  });

  it('drops every header the credential set, and Authorization, Cookie and Proxy-Authorization, off-origin', async () => {
    const egress = new EgressPolicy({ allow: '127.0.0.1' });
    const headers = {
      authorization: 'Bearer t',
      cookie: 'sid=1',
      'proxy-authorization': 'Basic x',
      'x-api-key': 'k-123',
      'x-shopify-access-token': 'shpat_1',
      'x-trace': 'kept',
    };
    const credentialHeaders = ['X-Api-Key', 'x-shopify-access-token'];
    for (const status of [301, 302, 303, 307, 308]) {
      await send(egress, `${a.url}/r?s=${status}&u=${encodeURIComponent(`${b.url}/off`)}`, {
        headers,
        credentialHeaders,
      });
      const there = b.seen.at(-1)!.headers;
      expect(there.authorization, String(status)).toBeUndefined();
      expect(there.cookie).toBeUndefined();
      expect(there['proxy-authorization']).toBeUndefined();
      expect(there['x-api-key']).toBeUndefined();
      expect(there['x-shopify-access-token']).toBeUndefined();
      expect(there['x-trace']).toBe('kept');
      expect(a.seen.at(-1)!.headers['x-api-key']).toBe('k-123');
    }
    // The same origin keeps them: the credential was meant for it.
    await send(egress, `${a.url}/r?u=/same`, { headers, credentialHeaders });
    expect(a.seen.at(-1)).toMatchObject({ path: '/same' });
    expect(a.seen.at(-1)!.headers).toMatchObject({ 'x-api-key': 'k-123', authorization: 'Bearer t' });
    // A host on another port is another origin.
    expect(new URL(a.url).hostname).toBe(new URL(b.url).hostname);
  });
});

describe('egressFetch', () => {
  it('is a fetch through the same policy: answers, honours redirect: manual, and refuses loopback', async () => {
    const open = egressFetch(new EgressPolicy({ allow: `127.0.0.1:${a.port}` }));
    const res = await open(`${a.url}/f`, { method: 'POST', body: new URLSearchParams({ a: '1' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ at: '/f' });
    expect(a.seen.at(-1)!.headers['content-type']).toContain('application/x-www-form-urlencoded');
    const manual = await open(`${a.url}/r?u=/elsewhere`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe('/elsewhere');
    await expect(egressFetch(new EgressPolicy())(`${canary.url}/x`)).rejects.toBeInstanceOf(EgressDenied);
    expect(canary.connections).toBe(0);
  });
});

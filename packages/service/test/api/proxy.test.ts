import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerClient, createUserClient } from '@inlay/client/server';
import type { ConnectorDefinition } from '@inlay/connectors';
import { TestBrowser } from '@inlay/test-kit/browser';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV2 } from '@inlay/test-kit/mcp';
import { type Provider, providerConnectors, startProvider } from '@inlay/test-kit/providers';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { connectionGuard, startCanary, testResolver } from '@inlay/test-kit/ssrf';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { credentials } from '../../src/store/schema.ts';

/** A provider API on 127.0.0.1 that echoes what it received, streams downloads and sets unsafe headers. */
async function startEcho() {
  const received: { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const url = new URL(req.url!, 'http://x');
      if (req.headers['x-api-key'] !== 'echo-key-123' && req.headers['x-api-key'] !== 'echo-key-456') {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ message: 'bad key' }));
      }
      if (url.pathname.endsWith('/download')) {
        // 3 MiB in 64 KiB chunks, chunked: the proxy must stream it, not buffer a length it does not know.
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="data.bin"',
        });
        let i = 0;
        const push = () => {
          while (i < 48) {
            const chunk = Buffer.alloc(64 * 1024, i % 256);
            i++;
            if (!res.write(chunk)) return res.once('drain', push);
          }
          res.end();
        };
        return push();
      }
      if (url.pathname.endsWith('/huge')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(5 << 20) });
        return res.end(Buffer.alloc(5 << 20));
      }
      if (url.pathname.endsWith('/flood')) {
        // Over the cap with no length announced: the proxy finds out midway.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(Buffer.alloc(5 << 20));
      }
      if (url.pathname.endsWith('/page') || url.pathname.endsWith('/image.svg')) {
        // Active content, with the headers that would act on the relaying origin.
        const svg = url.pathname.endsWith('.svg');
        res.writeHead(200, {
          'content-type': svg ? 'image/svg+xml' : 'text/html; charset=utf-8',
          refresh: '0; url=https://evil.example/',
          link: '<https://evil.example/x.js>; rel=preload; as=script',
          'clear-site-data': '"cookies", "storage"',
          'x-frame-options': 'ALLOWALL',
          'content-security-policy': "script-src 'unsafe-inline'",
          'x-content-type-options': 'sniff-please',
          'content-disposition': 'inline',
        });
        return res.end(
          svg
            ? '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
            : '<script>alert(document.cookie)</script>',
        );
      }
      if (url.pathname.endsWith('/untyped')) {
        res.writeHead(200, {});
        return res.end('<script>alert(1)</script>');
      }
      if (url.pathname.endsWith('/teapot')) {
        res.writeHead(418, { 'content-type': 'text/plain' });
        return res.end('short and stout');
      }
      res.writeHead(url.pathname.endsWith('/created') ? 201 : 200, {
        'content-type': 'application/json',
        'set-cookie': 'session=provider; Path=/',
        connection: 'keep-alive, x-hop',
        'x-hop': 'hop-by-hop',
        'x-ratelimit-remaining': '42',
        etag: '"v1"',
      });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          contentType: req.headers['content-type'] ?? null,
          body: body.toString('base64'),
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const keyAuth = (fields: { name: string; secret: boolean }[] = []) => ({
  type: 'apiKey' as const,
  in: 'header' as const,
  name: 'x-api-key',
  fields: [
    { name: 'apiKey', label: 'Key', type: 'password' as const, required: true, secret: true },
    ...fields.map((f) => ({ ...f, label: f.name, type: 'text' as const, required: true })),
  ],
});

const noop = {
  id: 'noop',
  name: 'Noop',
  description: 'Nothing',
  kind: 'read' as const,
  input: z.object({}),
  request: () => ({ method: 'GET' as const, path: '/' }),
};

let echo: Awaited<ReturnType<typeof startEcho>>;
let provider: Provider;
let canary: Awaited<ReturnType<typeof startCanary>>;
let guard: ReturnType<typeof connectionGuard>;
let svc: Service;
let apiKey: string;
let otherKey: string;
let alice: string;
let bob: string;
let aliceKey: string;

async function keyCredential(connector: string, user: string, data: Record<string, string>, key = apiKey) {
  const r = await svc.call('POST', '/credentials', { auth: key, body: { userId: user, connector, data } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.data.credentialId as string;
}

beforeAll(async () => {
  guard = connectionGuard();
  echo = await startEcho();
  provider = await startProvider();
  canary = await startCanary();
  const echoDef: ConnectorDefinition = {
    id: 'echo',
    name: 'Echo',
    description: 'Echoes requests',
    category: 'developer',
    icon: 'echo',
    baseUrl: `${echo.url}/v1`,
    apis: { files: `${echo.url}/files` },
    headers: { 'x-echo-version': '2026-01' },
    auth: keyAuth(),
    actions: [noop],
  };
  // A self-hosted app: the user's credential says where it runs (the egress policy decides if it may).
  const tenant: ConnectorDefinition = {
    id: 'tenant',
    name: 'Tenant',
    description: 'Self-hosted',
    category: 'developer',
    icon: 'tenant',
    baseUrl: 'http://{host}:{port}/api',
    auth: keyAuth([
      { name: 'host', secret: false },
      { name: 'port', secret: false },
    ]),
    actions: [noop],
  };
  svc = await startService({
    connectors: [...providerConnectors(provider.url), echoDef, tenant],
    env: {
      INLAY_EGRESS_ALLOW: [new URL(echo.url).host, new URL(provider.url).host].join(','),
      INLAY_PROXY_MAX_RESPONSE_MB: '4',
    },
    resolve: testResolver(),
  });
  ({ apiKey } = await svc.account('proxy'));
  ({ apiKey: otherKey } = await svc.account('other'));
  alice = await createUser(svc, apiKey, 'alice');
  bob = await createUser(svc, apiKey, 'bob');
  aliceKey = await keyCredential('echo', alice, { apiKey: 'echo-key-123' });
  const app = await svc.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  if (app.status !== 200) throw new Error(app.text);
}, 60_000);

afterAll(async () => {
  guard?.stop();
  await svc?.close();
  await Promise.all([echo?.close(), provider?.close(), canary?.close()]);
});

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('forwarding', () => {
  it('GET: query (less the proxy’s own), safe headers and the credential reach the provider', async () => {
    const before = echo.received.length;
    const r = await svc.call(
      'GET',
      `/connectors/echo/proxy/repos/a%2Fb/issues?state=open&tag=x&tag=y&userId=${alice}`,
      {
        auth: apiKey,
        headers: {
          'x-custom': 'kept',
          cookie: 'host=secret',
          'x-inlay-credential-id': aliceKey,
          accept: 'application/json',
        },
      },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ method: 'GET', url: '/v1/repos/a%2Fb/issues?state=open&tag=x&tag=y' });
    const got = echo.received[before]!;
    expect(got.headers['x-api-key']).toBe('echo-key-123');
    expect(got.headers['x-custom']).toBe('kept');
    expect(got.headers['x-echo-version']).toBe('2026-01');
    expect(got.headers.cookie).toBeUndefined();
    expect(got.headers.authorization).toBeUndefined();
    expect(got.headers['x-inlay-credential-id']).toBeUndefined();
    expect(JSON.stringify(got.headers)).not.toContain(apiKey);
    // The answer: status, type and safe headers; no cookie, nothing hop-by-hop.
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('42');
    expect(r.headers.get('etag')).toBe('"v1"');
    expect(r.headers.get('set-cookie')).toBeNull();
    expect(r.headers.get('x-hop')).toBeNull();
    expect(r.headers.get('x-inlay-upstream-status')).toBe('200');
  });

  it('forwards `__proto__` and `constructor` query parameters as plain parameters (found by the fuzzer: a 500)', async () => {
    const r = await svc.call(
      'GET',
      `/connectors/echo/proxy/q?__proto__=1&constructor=2&__proto__=3&userId=${alice}`,
      { auth: apiKey, headers: { 'x-inlay-credential-id': aliceKey } },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.url).toBe('/v1/q?__proto__=1&__proto__=3&constructor=2');
  });

  it('POST JSON, PUT form, PATCH bytes, DELETE: method and body arrive as sent', async () => {
    const json = await svc.call('POST', `/connectors/echo/proxy/created?userId=${alice}`, {
      auth: apiKey,
      body: { title: 'Hi', n: 1 },
    });
    expect(json.status, json.text).toBe(201);
    expect(json.body).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      body: b64('{"title":"Hi","n":1}'),
    });
    const form = await svc.call('PUT', `/connectors/echo/proxy/items/1?userId=${alice}`, {
      auth: apiKey,
      rawBody: 'a=1&b=two+words',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.body).toMatchObject({
      method: 'PUT',
      contentType: 'application/x-www-form-urlencoded',
      body: b64('a=1&b=two+words'),
    });
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    const res = await fetch(`${svc.url}/connectors/echo/proxy/blob?userId=${alice}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(await res.json()).toMatchObject({
      method: 'PATCH',
      contentType: 'application/octet-stream',
      body: b64(bytes),
    });
    const del = await svc.call('DELETE', `/connectors/echo/proxy/items/1?userId=${alice}`, { auth: apiKey });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ method: 'DELETE', body: '' });
  });

  it('a body over the proxy’s 10 MB answers 413 naming that limit (the API’s own is 1 MB)', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 97);
    const res = await fetch(`${svc.url}/connectors/echo/proxy/blob?userId=${alice}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/octet-stream' },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as { errors?: unknown };
    expect(problem).toMatchObject({
      code: 'payload_too_large',
      detail: 'The request body exceeds the 10 MB limit',
    });
    expect(problem.errors).toEqual([{ field: 'body', rule: 'max_size', message: 'must be at most 10 MB' }]);
    // Just under the limit still goes through.
    const ok = await fetch(`${svc.url}/connectors/echo/proxy/blob?userId=${alice}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/octet-stream' },
      body: big.subarray(1),
    });
    expect(ok.status).toBe(200);
  });

  it('passes the provider’s own statuses and bodies through, and `?api=` picks a named API', async () => {
    const tea = await svc.call('GET', `/connectors/echo/proxy/teapot?userId=${alice}`, { auth: apiKey });
    expect(tea.status).toBe(418);
    expect(tea.text).toBe('short and stout');
    expect(tea.headers.get('x-inlay-upstream-status')).toBe('418');
    const files = await svc.call('GET', `/connectors/echo/proxy/list?api=files&userId=${alice}`, {
      auth: apiKey,
    });
    expect(files.body.url).toBe('/files/list');
    // GET /connectors names the APIs `?api=` may pick, so a form can offer them.
    const listed = (await svc.call('GET', '/connectors', { auth: apiKey })).body.data as {
      id: string;
      apis?: string[];
    }[];
    expect(listed.find((c) => c.id === 'echo')?.apis).toEqual(['files']);
    expect(listed.find((c) => c.id === 'tenant')).not.toHaveProperty('apis');
    expectProblem(
      await svc.call('GET', `/connectors/echo/proxy/list?api=nope&userId=${alice}`, { auth: apiKey }),
      400,
      'invalid_request',
      'query.api',
      'enum',
    );
  });

  it('streams a download chunk by chunk, and cuts one over the size cap', async () => {
    const res = await fetch(`${svc.url}/connectors/echo/proxy/download?userId=${alice}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="data.bin"');
    const reader = res.body!.getReader();
    let total = 0;
    let reads = 0;
    let ok = true;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      // Each 64 KiB block is filled with its index: the bytes arrive in order, unchanged.
      for (let i = 0; i < value.length; i += 4096)
        if (value[i] !== Math.floor((total + i) / 65536) % 256) ok = false;
      total += value.length;
    }
    expect(total).toBe(3 * 1024 * 1024);
    expect(ok).toBe(true);
    expect(reads).toBeGreaterThan(1);
    // A Content-Length over the 4 MiB cap is refused before any byte is passed on.
    const limited = await svc.call('GET', `/connectors/echo/proxy/huge?userId=${alice}`, { auth: apiKey });
    expectProblem(limited, 502, 'upstream_error');
    expect(limited.body.message).toContain('4194304');
    // Without a length, the stream is cut at the cap: the caller never gets the whole body.
    const flood = await fetch(`${svc.url}/connectors/echo/proxy/flood?userId=${alice}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(flood.status).toBe(200);
    let got = 0;
    const cut = await (async () => {
      try {
        for await (const chunk of flood.body!) got += (chunk as Uint8Array).length;
        return false;
      } catch {
        return true;
      }
    })();
    expect(cut).toBe(true);
    expect(got).toBeLessThanOrEqual(4 << 20);
  });

  it('is counted in /stats/proxy, not as an execution', async () => {
    const stats = await svc.call('GET', '/stats/proxy', { auth: apiKey });
    expect(stats.status).toBe(200);
    const echoCount = stats.body.data.find((c: { connector: string }) => c.connector === 'echo');
    expect(echoCount.requests).toBeGreaterThanOrEqual(8);
    expect(echoCount.bytes).toBeGreaterThan(3 * 1024 * 1024);
    const runs = await svc.call('GET', `/executions?userId=${alice}`, { auth: apiKey });
    if (runs.status === 200) expect(runs.body.data).toEqual([]);
    expect((await svc.call('GET', '/stats/proxy', { auth: otherKey })).body.data).toEqual([]);
  });
});

/** A GET sent as written: fetch would resolve the dot segments before they reach the service. */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
    // Options, not a URL string: a URL string is parsed, and parsing resolves the dot segments too.
    const { hostname, port } = new URL(svc.url);
    const req = request({ hostname, port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('paths stay under the base path', () => {
  it.each([
    '/../internal-admin/secrets',
    '/%2e%2e/internal-admin/secrets',
    '/%2E%2E/internal-admin/secrets',
    '/.%2e/internal-admin/secrets',
    '/x/..%5c..%5cinternal-admin/secrets',
    '/x%2f..%2f..%2finternal-admin',
    '/%252e%252e/internal-admin/secrets',
    '/./v1/items',
  ])('refuses %s with a 400 naming the path, before any request', async (p) => {
    const before = echo.received.length;
    const r = await rawGet(`/connectors/echo/proxy${p}?userId=${alice}`, {
      authorization: `Bearer ${apiKey}`,
    });
    expect(r.status, r.body).toBe(400);
    expect(r.type).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(r.body);
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'path', rule: 'no_dot_segments' })]);
    expect(problem.message).toMatch(/must not contain a "\.\.?" segment/);
    expect(echo.received.length).toBe(before);
  });

  it('lets names with dots through', async () => {
    const r = await svc.call('GET', `/connectors/echo/proxy/v1.2/a..b/file.txt?userId=${alice}`, {
      auth: apiKey,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.url).toBe('/v1/v1.2/a..b/file.txt');
  });
});

describe('proxied content', () => {
  it('never sniffed; HTML and SVG sandboxed and downloaded, with the origin-acting headers dropped', async () => {
    for (const [p, type] of [
      ['page', 'text/html; charset=utf-8'],
      ['image.svg', 'image/svg+xml'],
    ] as const) {
      const res = await fetch(`${svc.url}/connectors/echo/proxy/${p}?userId=${alice}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe('sandbox');
      expect(res.headers.get('content-disposition')).toBe('attachment');
      for (const h of ['refresh', 'link', 'clear-site-data', 'x-frame-options', 'set-cookie'])
        expect(res.headers.get(h), h).toBeNull();
      expect(await res.text()).toContain('<script>');
    }
  });

  it('an answer with no type is treated as active; JSON keeps its own headers and gets nosniff', async () => {
    const untyped = await fetch(`${svc.url}/connectors/echo/proxy/untyped?userId=${alice}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(untyped.headers.get('content-security-policy')).toBe('sandbox');
    expect(untyped.headers.get('content-disposition')).toBe('attachment');
    const json = await fetch(`${svc.url}/connectors/echo/proxy/items?userId=${alice}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(json.headers.get('x-content-type-options')).toBe('nosniff');
    expect(json.headers.get('content-security-policy')).toBeNull();
    expect(json.headers.get('content-disposition')).toBeNull();
    expect(json.headers.get('etag')).toBe('"v1"');
    await json.text();
    const download = await fetch(`${svc.url}/connectors/echo/proxy/download?userId=${alice}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="data.bin"');
    await download.arrayBuffer();
  });
});

describe('credentials', () => {
  it('with a user JWT: the only connected credential, or the one named; several → 409, none → 404', async () => {
    const carol = await createUser(svc, apiKey, 'carol');
    const jwt = await tokenFor(svc, apiKey, carol);
    expectProblem(await svc.call('GET', '/connectors/echo/proxy/x', { auth: jwt }), 404, 'not_found');
    const first = await keyCredential('echo', carol, { apiKey: 'echo-key-123' });
    expect((await svc.call('GET', '/connectors/echo/proxy/x', { auth: jwt })).status).toBe(200);
    const second = await keyCredential('echo', carol, { apiKey: 'echo-key-456' });
    expectProblem(
      await svc.call('GET', '/connectors/echo/proxy/x', { auth: jwt }),
      409,
      'conflict',
      'header.x-inlay-credential-id',
    );
    const before = echo.received.length;
    const picked = await svc.call('GET', '/connectors/echo/proxy/x', {
      auth: jwt,
      headers: { 'x-inlay-credential-id': second },
    });
    expect(picked.status).toBe(200);
    expect(echo.received[before]!.headers['x-api-key']).toBe('echo-key-456');
    expect(first).not.toBe(second);
  });

  it('another user’s or account’s credential answers 404 like a missing one, before any request', async () => {
    const before = echo.received.length;
    const bobJwt = await tokenFor(svc, apiKey, bob);
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [auth, userQuery, id] of [
      [bobJwt, '', aliceKey],
      [apiKey, `?userId=${bob}`, aliceKey],
      [apiKey, `?userId=${bob}`, missing],
    ] as const) {
      expectProblem(
        await svc.call('GET', `/connectors/echo/proxy/x${userQuery}`, {
          auth,
          headers: { 'x-inlay-credential-id': id },
        }),
        404,
        'not_found',
      );
    }
    // Another account's key cannot name alice at all.
    expectProblem(
      await svc.call('GET', `/connectors/echo/proxy/x?userId=${alice}`, { auth: otherKey }),
      404,
      'not_found',
    );
    // A JWT naming someone else is a 404 too.
    expectProblem(
      await svc.call('GET', `/connectors/echo/proxy/x?userId=${alice}`, { auth: bobJwt }),
      404,
      'not_found',
    );
    expect(echo.received.length).toBe(before);
  });

  it('refreshes an OAuth token the provider refuses with 401, once, and answers with the new one', async () => {
    const r = await svc.call('POST', '/credentials/oauth', {
      auth: apiKey,
      body: { userId: alice, connector: 'acme', origin: 'http://127.0.0.1:3000' },
    });
    expect(r.status, r.text).toBe(201);
    expect((await new TestBrowser().connect(r.body.authorizeUrl)).status).toBe(200);
    const id = r.body.credentialId as string;
    const [row] = await svc.db.select().from(credentials).where(eq(credentials.id, id));
    const old = svc.ctx.credentials.open(row!).oauth!.accessToken;
    provider.revokeAccess(old);
    const grants = provider.refreshGrants();
    const res = await svc.call('GET', `/connectors/acme/proxy/projects?userId=${alice}`, { auth: apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toHaveLength(2);
    expect(provider.refreshGrants() - grants).toBe(1);
    const [after] = await svc.db.select().from(credentials).where(eq(credentials.id, id));
    expect(svc.ctx.credentials.open(after!).oauth!.accessToken).not.toBe(old);
    expect(after!.status).toBe('connected');
    // A refresh token revoked too: the provider's 401 is passed on and the credential needs reconnecting.
    const now = svc.ctx.credentials.open(after!).oauth!;
    provider.revokeAccess(now.accessToken);
    provider.revokeRefresh(now.refreshToken!);
    const refused = await svc.call('GET', `/connectors/acme/proxy/projects?userId=${alice}`, {
      auth: apiKey,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-inlay-upstream-status')).toBe('401');
    const [last] = await svc.db.select().from(credentials).where(eq(credentials.id, id));
    expect(last!.status).toBe('needs_reconnect');
  });
});

describe('egress', () => {
  it('refuses internal and loopback hosts a credential names, before any connection', async () => {
    for (const [host, port] of [
      ['10.0.0.1', 80],
      ['metadata.ssrf.test', 80],
      ['127.0.0.1', canary.port],
      ['localhost', canary.port],
      ['loopback.ssrf.test', canary.port],
    ] as const) {
      const id = await keyCredential('tenant', alice, { apiKey: 'k-0123456789', host, port: String(port) });
      const r = await svc.call('GET', `/connectors/tenant/proxy/anything?userId=${alice}`, {
        auth: apiKey,
        headers: { 'x-inlay-credential-id': id },
      });
      expectProblem(r, 422, 'egress_denied', 'connector', 'egress');
    }
    expect(guard.attemptsAt('10.0.0.1')).toBe(0);
    expect(guard.attemptsAt('169.254.169.254')).toBe(0);
    expect(canary.connections).toBe(0);
  });

  it('built-ins and unknown connectors are not proxied', async () => {
    for (const c of ['http', 'transform', 'nope'])
      expectProblem(
        await svc.call('GET', `/connectors/${c}/proxy/x?userId=${alice}`, { auth: apiKey }),
        404,
        'not_found',
      );
  });
});

describe('clients', () => {
  it('@inlay/client: proxy.request as the server (API key); the user client does not carry it', async () => {
    const server = createServerClient({ baseUrl: svc.url, apiKey });
    const res = await server.proxy.request({
      connector: 'echo',
      userId: alice,
      method: 'POST',
      path: '/notes',
      query: { draft: true },
      body: { text: 'hello' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      method: 'POST',
      url: '/v1/notes?draft=true',
      body: b64('{"text":"hello"}'),
    });
    const tea = await server.proxy.get('echo', 'teapot', { userId: alice });
    expect(tea.status).toBe(418);
    await expect(server.proxy.get('echo', 'x', { userId: bob })).rejects.toMatchObject({ status: 404 });
    // The widget ships the user client: the proxy stays out of it (a browser calls the route with its JWT).
    const user = createUserClient({ baseUrl: svc.url, getToken: () => tokenFor(svc, apiKey, alice) });
    expect('proxy' in user).toBe(false);
  });

  it('MCP: proxy_request_inlay, only for connectors the server allows', async () => {
    const jwt = await tokenFor(svc, apiKey, alice);
    const open = await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'all' } });
    const shut = await svc.call('POST', '/mcp-servers', {
      auth: apiKey,
      body: { name: 'acme only', restrictions: { connectors: { allow: ['acme'] } } },
    });
    const a = await connectV2(open.body.url, { authorization: `Bearer ${jwt}`, 'x-credential-id': aliceKey });
    const b = await connectV2(shut.body.url, { authorization: `Bearer ${jwt}` });
    try {
      const ok = (await a.callTool({
        name: 'proxy_request_inlay',
        arguments: {
          connectorId: 'echo',
          method: 'PUT',
          path: '/things/7',
          query: { a: '1' },
          body: { x: 1 },
        },
      })) as any;
      expect(ok.isError, JSON.stringify(ok.content)).toBeFalsy();
      expect(ok.structuredContent).toMatchObject({
        status: 200,
        body: { method: 'PUT', url: '/v1/things/7?a=1', body: b64('{"x":1}') },
      });
      expect(ok.structuredContent.headers['set-cookie']).toBeUndefined();
      const text = (await a.callTool({
        name: 'proxy_request_inlay',
        arguments: { connectorId: 'echo', method: 'POST', path: '/list', bodyText: '[1,2]' },
      })) as any;
      expect(text.structuredContent).toMatchObject({ status: 200, body: { body: b64('[1,2]') } });
      const both = (await a.callTool({
        name: 'proxy_request_inlay',
        arguments: { connectorId: 'echo', method: 'POST', path: '/x', body: {}, bodyText: 'x' },
      })) as any;
      expect(both.isError).toBe(true);
      expect(both.content[0].text).toContain('not both');
      const refused = (await b.callTool({
        name: 'proxy_request_inlay',
        arguments: { connectorId: 'echo', method: 'GET', path: '/x' },
      })) as any;
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toContain('Unknown connector');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('MCP: the server’s action lists bind proxy_request_inlay (connector.proxy)', async () => {
    const jwt = await tokenFor(svc, apiKey, alice);
    const server = async (name: string, actions: Record<string, string[]>) => {
      const r = await svc.call('POST', '/mcp-servers', {
        auth: apiKey,
        body: { name, restrictions: { actions } },
      });
      expect(r.status, r.text).toBe(201);
      return connectV2(r.body.url, { authorization: `Bearer ${jwt}`, 'x-credential-id': aliceKey });
    };
    const call = (c: Awaited<ReturnType<typeof connectV2>>, method = 'DELETE') =>
      c.callTool({
        name: 'proxy_request_inlay',
        arguments: { connectorId: 'echo', method, path: '/everything' },
      }) as Promise<any>;
    const onlyRead = await server('one action', { allow: ['echo.noop'] });
    const withProxy = await server('action and proxy', { allow: ['echo.noop', 'echo.proxy'] });
    const otherProxy = await server('another proxy', { allow: ['echo.noop', 'acme.proxy'] });
    const blocked = await server('echo blocked', { block: ['echo.noop'] });
    const proxyBlocked = await server('proxy blocked', { block: ['echo.proxy'] });
    try {
      const before = echo.received.length;
      // An allow list of actions without a proxy entry: the tool is not listed and cannot be called.
      const listed = async (c: Awaited<ReturnType<typeof connectV2>>) =>
        (await c.listTools()).tools.some((t) => t.name === 'proxy_request_inlay');
      expect(await listed(onlyRead)).toBe(false);
      const hidden = await call(onlyRead).catch((e: Error) => ({
        isError: true,
        content: [{ text: e.message }],
      }));
      expect(hidden.isError).toBe(true);
      // Listed where some connector's proxy is allowed, and only for that connector.
      expect(await listed(otherProxy)).toBe(true);
      const notThis = await call(otherProxy);
      expect(notThis.isError).toBe(true);
      expect(notThis.content[0].text).toContain('must allow "echo.proxy"');
      // A blocked action of the connector, or its proxy, shuts the proxy.
      for (const c of [blocked, proxyBlocked]) {
        const r = await call(c);
        expect(r.isError).toBe(true);
        expect(r.content[0].text).toContain('does not allow proxied requests to Echo');
      }
      expect(echo.received.length).toBe(before);
      // The explicit entry lets it through.
      const ok = await call(withProxy, 'GET');
      expect(ok.isError, JSON.stringify(ok.content)).toBeFalsy();
      expect(ok.structuredContent).toMatchObject({ status: 200, body: { url: '/v1/everything' } });
    } finally {
      await Promise.all([onlyRead, withProxy, otherProxy, blocked, proxyBlocked].map((c) => c.close()));
    }
  });

  it('MCP: a proxy entry must name a proxied connector', async () => {
    for (const [entry, message] of [
      ['http.proxy', 'has no proxy'],
      ['nope.proxy', 'no connector "nope"'],
    ] as const) {
      const r = await svc.call('POST', '/mcp-servers', {
        auth: apiKey,
        body: { name: 'bad', restrictions: { actions: { allow: [entry] } } },
      });
      expectProblem(r, 422, 'unprocessable', 'body.restrictions.actions.allow.0', 'exists');
      expect(r.body.message).toContain(message);
    }
  });
});

describe('limits', () => {
  it('a per-user proxy quota answers 429 with retry-after', async () => {
    const small = await startService({ env: { INLAY_PROXY_RATE_LIMIT_PER_USER: '2' } });
    try {
      const { apiKey: k } = await small.account();
      const u = await createUser(small, k, 'dora');
      const calls = [];
      for (let i = 0; i < 3; i++)
        calls.push(await small.call('GET', `/connectors/slack/proxy/x?userId=${u}`, { auth: k }));
      // The first two pass the quota (and find no credential); the third is over it.
      expect(calls.map((c) => c.status)).toEqual([404, 404, 429]);
      expect(Number(calls[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  });
});

describe('limits of proxy_request_inlay', () => {
  /** A provider that holds every request until `release()`, and answers at once after it. */
  async function startHolding() {
    const held: (() => void)[] = [];
    let arrived = 0;
    let holding = true;
    const server = createServer((_req, res) => {
      arrived++;
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      };
      if (holding) held.push(answer);
      else answer();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      arrived: () => arrived,
      release: () => {
        holding = false;
        for (const answer of held.splice(0)) answer();
      },
      close: () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    };
  }

  it('spends the user’s proxy quota and holds a slot of the user’s calls in flight', async () => {
    const holding = await startHolding();
    const slow: ConnectorDefinition = {
      id: 'slow',
      name: 'Slow',
      description: 'Answers when told',
      category: 'developer',
      icon: 'slow',
      baseUrl: holding.url,
      auth: keyAuth(),
      actions: [noop],
    };
    const small = await startService({
      connectors: [slow],
      env: {
        INLAY_EGRESS_ALLOW: new URL(holding.url).host,
        INLAY_PROXY_RATE_LIMIT_PER_USER: '3',
        INLAY_MCP_MAX_CONCURRENT_ACTIONS: '2',
      },
    });
    try {
      const { apiKey: k } = await small.account();
      const u = await createUser(small, k, 'erin');
      const cred = await small.call('POST', '/credentials', {
        auth: k,
        body: { userId: u, connector: 'slow', data: { apiKey: 'k' } },
      });
      expect(cred.status, cred.text).toBe(201);
      const server = await small.call('POST', '/mcp-servers', { auth: k, body: { name: 'agent' } });
      const jwt = await tokenFor(small, k, u);
      const agent = await connectV2(server.body.url, { authorization: `Bearer ${jwt}` });
      const proxy = () =>
        agent.callTool({
          name: 'proxy_request_inlay',
          arguments: { connectorId: 'slow', method: 'GET', path: '/x' },
        }) as Promise<any>;
      try {
        // Two in flight take the user's two slots: a third is refused at once, and never reaches the provider.
        const first = proxy();
        const second = proxy();
        await eventually('two requests held at the provider', () => holding.arrived() === 2);
        const third = await proxy();
        expect(third.isError).toBe(true);
        expect(third.content[0].text).toContain(
          'Too many execute_action_inlay and proxy_request_inlay calls',
        );
        expect(holding.arrived()).toBe(2);
        holding.release();
        expect((await first).structuredContent).toMatchObject({ status: 200 });
        expect((await second).structuredContent).toMatchObject({ status: 200 });
        // The quota of 3 is shared with the REST proxy: two agent calls (the refused one spent nothing) and one
        // REST call use it up, and the next call of either kind is refused before it reaches the provider.
        const rest = await small.call('GET', `/connectors/slow/proxy/x?userId=${u}`, { auth: k });
        expect(rest.status, rest.text).toBe(200);
        const over = await proxy();
        expect(over.isError).toBe(true);
        expect(over.content[0].text).toMatch(
          /used up the proxy quota \(INLAY_PROXY_RATE_LIMIT_PER_USER\)\. Retry in \d+ s/,
        );
        expect((await small.call('GET', `/connectors/slow/proxy/x?userId=${u}`, { auth: k })).status).toBe(
          429,
        );
        expect(holding.arrived()).toBe(3);
      } finally {
        holding.release();
        await agent.close();
      }
    } finally {
      await small.close();
      await holding.close();
    }
  });
});

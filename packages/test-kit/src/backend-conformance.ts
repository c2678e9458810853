// One conformance suite for every backend adapter of Inlay's token-and-proxy handler (@inlay/server's core,
// @inlay/express, @inlay/next, Hono, Fastify): each runs it against a real server of its framework on 127.0.0.1,
// in front of the real service. The service, a provider API that echoes what it gets (and streams downloads), and
// an OAuth provider are started once per vitest worker and shared by every adapter's file. The limits (the time
// limit, a browser going away before the answer, a body over the cap while it still arrives) are checked again in
// front of a stand-in service each adapter's file starts, where the adapter's own call to the service is visible.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConnectorDefinition } from '@inlay/connectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestBrowser } from './browser.ts';
import { createUser } from './fixtures.ts';
import { type Provider, providerConnectors, startProvider } from './providers.ts';
import { onPostgres, type Service, startService } from './service.ts';

/** A host backend of one framework with Inlay mounted at `/api/inlay`, its session the `x-host-user` header. */
export interface BackendHost {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the framework's server with the adapter mounted at `/api/inlay` for `serviceUrl` and `apiKey`, its
 * `userId` (and `autoCreateUsers.username`) the request's `x-host-user` header, or null without one, and
 * `timeoutMs` passed on when given.
 */
export type StartBackend = (opts: {
  serviceUrl: string;
  apiKey: string;
  timeoutMs?: number;
}) => Promise<BackendHost>;

/** Where the service thinks its public URL is; the suite re-roots its OAuth links at each adapter's mount. */
const PUBLIC = 'http://127.0.0.1:9/api/inlay';
const ECHO_KEY = 'echo-key-conformance';
export const DOWNLOAD_BYTES = 20 * 1024 * 1024;
/** Every byte value, so a transport that decodes text would change it. */
const BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A provider API that echoes requests as JSON, answers bytes, streams 20 MB, and an endless stream. */
async function startEcho() {
  const received: Received[] = [];
  const endless = { started: 0, closed: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const path = new URL(req.url!, 'http://x').pathname;
      if (req.headers['x-api-key'] !== ECHO_KEY) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ message: 'bad key' }));
      }
      if (path.endsWith('/bytes')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(BYTES);
      }
      if (path.endsWith('/download')) {
        // 20 MiB in 64 KiB chunks, no length: streamed through the service and the adapter.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        let i = 0;
        const n = DOWNLOAD_BYTES / (64 * 1024);
        const push = () => {
          while (i < n) {
            const chunk = Buffer.alloc(64 * 1024, i % 256);
            i++;
            if (!res.write(chunk)) return void res.once('drain', push);
          }
          res.end();
        };
        return push();
      }
      if (path.endsWith('/endless')) {
        // Never ends by itself: only the browser going away (relayed by the adapter and the service) stops it.
        endless.started++;
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024, 1)), 20);
        res.on('close', () => {
          clearInterval(timer);
          endless.closed++;
        });
        return;
      }
      res.writeHead(path.endsWith('/created') ? 201 : 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          contentType: req.headers['content-type'] ?? null,
          body: body.toString('utf8'),
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    endless,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The `timeoutMs` of the host in front of the stand-in service: short, so the 504 comes quickly. */
const LIMITS_TIMEOUT_MS = 1_500;

interface Hang {
  /** Requests that reached `/hang`. */
  started: number;
  /** Of those, the ones whose caller went away before any answer (the stand-in never answers). */
  aborted: number;
}

/**
 * A stand-in for the service where the suite can watch the adapter's own calls: it mints a JWT for any user,
 * never answers `/hang` (counting the calls that are dropped), and records every other request. The real service
 * holds its call to a provider until its own limit, so it cannot show whether the adapter let go.
 */
async function startStandIn() {
  const hang: Hang = { started: 0, aborted: 0 };
  const received: { method: string; url: string; bytes: number }[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/hang')) {
      hang.started++;
      req.resume();
      res.once('close', () => {
        if (!res.writableFinished) hang.aborted++;
      });
      return;
    }
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      bytes += c.byteLength;
    });
    req.on('end', () => {
      received.push({ method: req.method!, url, bytes });
      const token = /^\/users\/([^/]+)\/token$/.exec(url);
      if (token) {
        const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        const exp = Math.floor(Date.now() / 1000) + 3600;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            token: `${part({ alg: 'EdDSA' })}.${part({ sub: decodeURIComponent(token[1]!), exp })}.sig`,
            expiresAt: new Date(exp * 1000).toISOString(),
          }),
        );
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ bytes }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hang,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A request body that sends `bytes` of a JSON string in 64 KiB pieces as the server reads them, then holds the
 * stream open (never ending it) until `release()`, so an answer that comes while `open` did not wait for the end.
 */
function heldBody(bytes: number) {
  let sent = 0;
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  const state = { open: true };
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === 0) {
        sent = 1;
        return controller.enqueue(encoder.encode('{"big":"'));
      }
      if (sent < bytes) {
        sent += 64 * 1024;
        return controller.enqueue(encoder.encode('x'.repeat(64 * 1024)));
      }
      await released;
      state.open = false;
      controller.close();
    },
  });
  return { stream, state, release };
}

export interface ConformanceEnv {
  svc: Service;
  apiKey: string;
  aliceId: string;
  echo: Awaited<ReturnType<typeof startEcho>>;
  provider: Provider;
}

const ENV = Symbol.for('inlay.test-kit.backend-conformance');

/** The worker's service, echo provider and OAuth provider, started by the first adapter file and then shared. */
export function conformanceEnv(): Promise<ConformanceEnv> {
  const g = globalThis as { [ENV]?: Promise<ConformanceEnv> };
  g[ENV] ??= (async () => {
    const echo = await startEcho();
    const provider = await startProvider();
    const echoDef: ConnectorDefinition = {
      id: 'echo',
      name: 'Echo',
      description: 'Echoes requests',
      category: 'developer',
      icon: 'echo',
      baseUrl: `${echo.url}/v1`,
      auth: {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        fields: [{ name: 'apiKey', label: 'Key', type: 'password', required: true, secret: true }],
      },
      actions: [
        {
          id: 'noop',
          name: 'Noop',
          description: 'Nothing',
          kind: 'read',
          input: z.object({}),
          request: () => ({ method: 'GET', path: '/' }),
        },
      ],
    };
    const svc = await startService({
      connectors: [...providerConnectors(provider.url), echoDef],
      env: {
        INLAY_EGRESS_ALLOW: [new URL(echo.url).host, new URL(provider.url).host].join(','),
        INLAY_PUBLIC_URL: PUBLIC,
      },
    });
    const { apiKey } = await svc.account('conformance');
    const aliceId = await createUser(svc, apiKey, 'alice');
    const cred = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: aliceId, connector: 'echo', data: { apiKey: ECHO_KEY } },
    });
    if (cred.status !== 201) throw new Error(cred.text);
    const app = await svc.call('PUT', '/connectors/acme/oauth-app', {
      auth: apiKey,
      body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    });
    if (app.status !== 200) throw new Error(app.text);
    return { svc, apiKey, aliceId, echo, provider };
  })();
  return g[ENV];
}

/** `url` (one of the service's public links) re-rooted at the adapter's mount. */
const reroot = (url: string, host: string) => url.replace(PUBLIC, `${host}/api/inlay`);

/** The conformance suite for one adapter: `name` names it in the report. */
export function backendConformance(name: string, start: StartBackend): void {
  // The adapters do not touch the database: checked once, in CI's PGlite pass, not again on PostgreSQL.
  describe.skipIf(onPostgres)(`${name}: the token-and-proxy conformance suite`, () => {
    let env: ConformanceEnv;
    let host: BackendHost;
    let api: string;

    /** A call through the adapter as the widget makes it (`x-inlay-client`, same origin), as `user`. */
    const call = (user: string | null, path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('x-inlay-client')) headers.set('x-inlay-client', '1');
      if (user) headers.set('x-host-user', user);
      return fetch(`${api}${path}`, { ...init, headers });
    };
    const echoed = async (res: Response) => {
      const text = await res.text();
      expect(res.status, text).toBeLessThan(300);
      return JSON.parse(text) as { method: string; url: string; contentType: string | null; body: string };
    };

    beforeAll(async () => {
      env = await conformanceEnv();
      host = await start({ serviceUrl: env.svc.url, apiKey: env.apiKey });
      api = `${host.url}/api/inlay`;
    });
    afterAll(async () => {
      await host?.close();
    });

    it('mints the signed-in user’s token, not cached by the browser', async () => {
      const r = await call('alice', '/token');
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe('no-store');
      const body = (await r.json()) as { token: string; expiresAt: string };
      expect(Object.keys(body).sort()).toEqual(['expiresAt', 'token']);
      const claims = JSON.parse(Buffer.from(body.token.split('.')[1]!, 'base64url').toString());
      expect(claims.sub).toBe(env.aliceId);
      expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    });

    it('answers a signed-out user 401 problem+json, on the token and on every proxied method', async () => {
      const before = env.echo.received.length;
      for (const [method, path] of [
        ['GET', '/token'],
        ['GET', '/workflows'],
        ['POST', '/connectors/echo/proxy/created'],
        ['DELETE', '/connectors/echo/proxy/x'],
      ] as const) {
        const r = await call(null, path, {
          method,
          ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
        });
        expect(r.status, `${method} ${path}`).toBe(401);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(await r.json()).toMatchObject({ status: 401, code: 'unauthorized' });
      }
      expect(env.echo.received.length).toBe(before);
    });

    it('proxies GET, POST, PUT, PATCH and DELETE with JSON bodies, as the session’s user', async () => {
      const get = await echoed(await call('alice', '/connectors/echo/proxy/items?q=1&tag=x'));
      expect(get).toMatchObject({ method: 'GET', url: '/v1/items?q=1&tag=x' });
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const sent = { n: 1, text: 'zwölf €', list: [1, 2, 3] };
        const r = await call('alice', `/connectors/echo/proxy/${method === 'POST' ? 'created' : 'items/7'}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(sent),
        });
        expect(r.status).toBe(method === 'POST' ? 201 : 200);
        const got = await echoed(r);
        expect(got.method).toBe(method);
        expect(got.contentType).toContain('application/json');
        expect(JSON.parse(got.body)).toEqual(sent);
      }
      // A `userId` in the body or the query can only name the session's user.
      const own = await echoed(
        await call('alice', '/connectors/echo/proxy/created?userId=someone-else', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userId: 'someone-else', n: 2 }),
        }),
      );
      expect(JSON.parse(own.body)).toEqual({ userId: env.aliceId, n: 2 });
    });

    it('proxies binary answers byte for byte', async () => {
      const r = await call('alice', '/connectors/echo/proxy/bytes');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/octet-stream');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(new Uint8Array(await r.arrayBuffer())).toEqual(BYTES);
    });

    it('streams a 20 MB download in chunks, without a length', async () => {
      const r = await call('alice', '/connectors/echo/proxy/download');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-length')).toBeNull();
      const reader = r.body!.getReader();
      let bytes = 0;
      let chunks = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks++;
        bytes += value.byteLength;
      }
      expect(bytes).toBe(DOWNLOAD_BYTES);
      expect(chunks).toBeGreaterThan(10);
    });

    it('stops the upstream download when the browser goes away', async () => {
      const before = env.echo.endless.closed;
      const controller = new AbortController();
      const r = await call('alice', '/connectors/echo/proxy/endless', { signal: controller.signal });
      expect(r.status).toBe(200);
      const reader = r.body!.getReader();
      for (let i = 0; i < 3; i++) await reader.read();
      controller.abort();
      await expect.poll(() => env.echo.endless.closed, { timeout: 10_000 }).toBeGreaterThan(before);
    });

    it('streams a JSON request body sent in pieces without a length, and forwards it whole', async () => {
      const sent = { items: Array.from({ length: 20_000 }, (_, i) => ({ i, text: `item ${i} zwölf €` })) };
      const bytes = new TextEncoder().encode(JSON.stringify(sent));
      expect(bytes.byteLength).toBeGreaterThan(512 * 1024);
      let at = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.byteLength) return controller.close();
          controller.enqueue(bytes.slice(at, at + 16 * 1024));
          at += 16 * 1024;
        },
      });
      const r = await call('alice', '/connectors/echo/proxy/created', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(r.status).toBe(201);
      expect(JSON.parse((await echoed(r)).body)).toEqual(sent);
    });

    it('passes an upstream error through as problem+json', async () => {
      const r = await call('alice', '/workflows/not-a-uuid');
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      const body = (await r.json()) as { errors: { field: string; rule: string }[] };
      expect(body.errors[0]).toMatchObject({ field: 'path.workflowId', rule: 'format' });
    });

    it('refuses a JSON body over 1 MB with 413, before the service sees it', async () => {
      const before = env.echo.received.length;
      const r = await call('alice', '/connectors/echo/proxy/created', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ big: 'x'.repeat(1_100_000) }),
      });
      expect(r.status).toBe(413);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(env.echo.received.length).toBe(before);
    });

    it('the CSRF matrix: forms, no x-inlay-client, a foreign Origin, text/plain and bytes all refused; 0 succeed', async () => {
      const before = env.echo.received.length;
      const json = JSON.stringify({ n: 1 });
      const form = new URLSearchParams({ n: '1' });
      const multipart = new FormData();
      multipart.set('n', '1');
      const attacks: [string, RequestInit, number][] = [
        ['urlencoded form', { body: form, headers: { 'x-inlay-client': '' } }, 403],
        ['multipart form', { body: multipart, headers: { 'x-inlay-client': '' } }, 403],
        ['urlencoded form with the header', { body: form }, 415],
        [
          'JSON without x-inlay-client',
          { body: json, headers: { 'content-type': 'application/json', 'x-inlay-client': '' } },
          403,
        ],
        [
          'a foreign Origin',
          { body: json, headers: { 'content-type': 'application/json', origin: 'https://evil.example' } },
          403,
        ],
        [
          'an opaque Origin',
          { body: json, headers: { 'content-type': 'application/json', origin: 'null' } },
          403,
        ],
        [
          'cross-site',
          { body: json, headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' } },
          403,
        ],
        ['text/plain', { body: json, headers: { 'content-type': 'text/plain' } }, 415],
        ['bytes', { body: BYTES, headers: { 'content-type': 'application/octet-stream' } }, 415],
      ];
      let succeeded = 0;
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
        for (const [label, init, status] of attacks) {
          const headers = new Headers(init.headers);
          // An empty x-inlay-client stands for "none": a form cannot send the header.
          const noClient = headers.get('x-inlay-client') === '';
          headers.delete('x-inlay-client');
          const r = await fetch(`${api}/connectors/echo/proxy/created`, {
            method,
            body: init.body ?? null,
            headers: (() => {
              const h = new Headers(headers);
              h.set('x-host-user', 'alice');
              if (!noClient) h.set('x-inlay-client', '1');
              return h;
            })(),
          });
          const text = await r.text();
          if (r.ok) succeeded++;
          expect(r.status, `${method} ${label}: ${text}`).toBe(status);
          expect(r.headers.get('content-type'), label).toContain('application/problem+json');
        }
      expect(succeeded).toBe(0);
      expect(env.echo.received.length).toBe(before);
      // The host's own page (same Origin) writes.
      const own = await call('alice', '/connectors/echo/proxy/created', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: host.url, 'sec-fetch-site': 'same-origin' },
        body: json,
      });
      expect(own.status).toBe(201);
      await own.text();
    });

    it('never forwards the host’s cookie or Authorization, nor passes back the service’s CORS answer', async () => {
      const before = env.echo.received.length;
      const r = await call('alice', '/connectors/echo/proxy/items', {
        headers: { cookie: 'sid=host-session', authorization: 'Bearer host', origin: 'http://127.0.0.1:1' },
      });
      expect(r.status).toBe(200);
      await r.text();
      expect([...r.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
      const got = env.echo.received[before]!;
      expect(got.headers.cookie).toBeUndefined();
      expect(got.headers['x-api-key']).toBe(ECHO_KEY);
      expect(JSON.stringify(got.headers)).not.toContain(env.apiKey);
    });

    describe('limits, in front of a stand-in service that can hang', () => {
      let standIn: Awaited<ReturnType<typeof startStandIn>>;
      /** The adapter with its default `timeoutMs` (30 s), so only the browser going away ends a call. */
      let patient: BackendHost;
      /** The adapter with `timeoutMs` of LIMITS_TIMEOUT_MS. */
      let hasty: BackendHost;
      const via = (h: BackendHost, path: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        headers.set('x-inlay-client', '1');
        headers.set('x-host-user', 'alice');
        return fetch(`${h.url}/api/inlay${path}`, { ...init, headers });
      };

      beforeAll(async () => {
        standIn = await startStandIn();
        patient = await start({ serviceUrl: standIn.url, apiKey: env.apiKey });
        hasty = await start({ serviceUrl: standIn.url, apiKey: env.apiKey, timeoutMs: LIMITS_TIMEOUT_MS });
      });
      afterAll(async () => {
        await patient?.close();
        await hasty?.close();
        await standIn?.close();
      });

      it('answers 504 problem+json when the service does not answer in time, and drops the call', async () => {
        const before = standIn.hang.aborted;
        const started = Date.now();
        const r = await via(hasty, '/hang');
        expect(r.status).toBe(504);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(await r.json()).toMatchObject({ status: 504, code: 'upstream_timeout' });
        expect(Date.now() - started).toBeGreaterThanOrEqual(LIMITS_TIMEOUT_MS - 50);
        await expect.poll(() => standIn.hang.aborted, { timeout: 5_000 }).toBe(before + 1);
      });

      it('drops the call to the service when the browser goes away before the answer', async () => {
        const { started, aborted } = standIn.hang;
        const controller = new AbortController();
        const pending = via(patient, '/hang', { signal: controller.signal }).catch((e: Error) => e);
        await expect.poll(() => standIn.hang.started, { timeout: 10_000 }).toBe(started + 1);
        controller.abort();
        expect(await pending).toBeInstanceOf(Error);
        await expect.poll(() => standIn.hang.aborted, { timeout: 10_000 }).toBe(aborted + 1);
      });

      it('refuses a body over 1 MB with 413 while it is still arriving, and forwards none of it', async () => {
        const held = heldBody(2 * 1024 * 1024);
        try {
          const r = await via(patient, '/items', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: held.stream,
            duplex: 'half',
          } as RequestInit);
          expect(held.state.open).toBe(true);
          expect(r.status).toBe(413);
          expect(r.headers.get('content-type')).toContain('application/problem+json');
          expect(await r.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
          expect(standIn.received.filter((x) => x.method === 'POST')).toEqual([]);
        } finally {
          held.release();
        }
      });
    });

    it('relays the OAuth start link and callback without a session, the flow cookie below the mount', async () => {
      const started = await env.svc.call('POST', '/credentials/oauth', {
        auth: env.apiKey,
        body: { userId: 'alice', connector: 'acme', redirectUri: `${host.url}/settings` },
      });
      expect(started.status, started.text).toBe(201);
      const { credentialId, authorizeUrl } = started.body as { credentialId: string; authorizeUrl: string };
      expect(authorizeUrl.startsWith(`${PUBLIC}/oauth/start?flow=`)).toBe(true);
      const browser = new TestBrowser();
      const opened = await browser.open(reroot(authorizeUrl, host.url));
      expect(opened.status).toBe(302);
      const [cookie] = opened.headers.getSetCookie();
      expect(cookie).toMatch(/^inlay_oauth_[0-9a-f]{16}=[\w-]+; .*Path=\/api\/inlay\/oauth; .*HttpOnly/);
      expect(opened.headers.get('access-control-allow-origin')).toBeNull();
      const back = await browser.open(opened.headers.get('location')!);
      const callback = reroot(back.headers.get('location')!, host.url);
      expect(callback.startsWith(`${host.url}/api/inlay/oauth/callback/acme?`)).toBe(true);
      // Another browser (no flow cookie) connects nothing.
      const elsewhere = await new TestBrowser().open(callback);
      expect(elsewhere.status).toBe(400);
      await elsewhere.text();
      const done = await browser.open(callback);
      expect(done.status).toBe(302);
      const to = new URL(done.headers.get('location')!);
      expect(to.searchParams.get('status')).toBe('connected');
      expect(to.searchParams.get('credentialId')).toBe(credentialId);
    });

    it('serves connector icons to anyone, and only icons', async () => {
      const r = await fetch(`${api}/connectors/slack/icon.svg`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('image/svg+xml');
      expect(r.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(await r.text()).toBe(await (await fetch(`${env.svc.url}/connectors/slack/icon.svg`)).text());
      for (const bad of [
        '/connectors/nope/icon.svg',
        '/connectors/..%2Fusers/icon.svg',
        '/connectors/slack/icon.svg?key=a%26b',
      ]) {
        const miss = await fetch(`${api}${bad}`);
        expect(miss.status, bad).toBe(404);
        expect(miss.headers.get('content-type')).toContain('application/problem+json');
        await miss.text();
      }
    });
  });
}

import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createServerClient,
  createTokenManager,
  createUserClient,
  InlayError,
  jwtExpiry,
  type ServerClient,
  tokenFromUrl,
} from '../../src/index.ts';
import { installDirect, type Service, seedAccount, sharedService } from './helpers.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let api: ServerClient;

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc);
  api = createServerClient({ baseUrl: svc.url, apiKey: s.apiKey });
  await installDirect(svc.db, s);
});
afterAll(() => svc?.close());

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** Well-formed, unexpired, but signed by nobody the service trusts: the service answers 401. */
const forged = () =>
  `${b64url({ alg: 'EdDSA', kid: 'x' })}.${b64url({ sub: s.userId, exp: Math.floor(Date.now() / 1000) + 3600 })}.c2ln`;

/** Passes every request through to the real service, recording the status and the bearer token used. */
function observed() {
  const calls: { status: number; auth: string | null; client: string | null; path: string }[] = [];
  const f: typeof fetch = async (url, init) => {
    const res = await fetch(url, init);
    calls.push({
      status: res.status,
      auth: new Headers(init?.headers).get('authorization'),
      client: new Headers(init?.headers).get('x-inlay-client'),
      path: new URL(String(url)).pathname,
    });
    return res;
  };
  return { calls, fetch: f };
}

describe('createUserClient against the real service', () => {
  it('calls user-level routes with the token, scoped to its user', async () => {
    const client = createUserClient({ baseUrl: svc.url, getToken: () => api.users.token(s.userId) });
    const [wf] = await client.workflows.list();
    expect(wf).toMatchObject({ workflowId: s.workflowId, installed: true, active: true });
    expect((await client.installations.list()).map((i) => i.userId)).toEqual([s.userId]);
    expect((await client.users.get(s.userId)).username).toBe('alice');
    await expect(client.workflows.list({ userId: 'someone-else' })).rejects.toMatchObject({ status: 404 });
    // An API-key-only route is refused to a user token.
    await expect(client.request('GET', '/users')).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('refreshes the token before exp, without a 401', async () => {
    let clock = Date.now();
    let minted = 0;
    const o = observed();
    const client = createUserClient({
      baseUrl: svc.url,
      fetch: o.fetch,
      now: () => clock,
      getToken: async () => {
        minted++;
        return api.users.token(s.userId);
      },
    });
    await client.workflows.list();
    await client.workflows.list();
    expect(minted).toBe(1);
    const exp = jwtExpiry(o.calls[0]!.auth!.slice(7))!;
    clock = exp - 30_000; // inside the 60 s refresh window, still valid
    await client.workflows.list();
    expect(minted).toBe(2);
    expect(o.calls.map((c) => c.status)).toEqual([200, 200, 200]);
    // The header @inlay/express requires on writes (it forces a CORS preflight): on every call.
    expect(o.calls.map((c) => c.client)).toEqual(['1', '1', '1']);
  });

  it('refreshes once after a 401 and retries, invisibly to the caller', async () => {
    const tokens = [forged(), (await api.users.token(s.userId)).token];
    const o = observed();
    const client = createUserClient({ baseUrl: svc.url, fetch: o.fetch, getToken: () => tokens.shift()! });
    const list = await client.workflows.list();
    expect(list[0]!.workflowId).toBe(s.workflowId);
    expect(o.calls.map((c) => c.status)).toEqual([401, 200]);
    expect(o.calls[0]!.auth).not.toBe(o.calls[1]!.auth);
  });

  it('shares one refresh between concurrent requests', async () => {
    let minted = 0;
    const real = (await api.users.token(s.userId)).token;
    const client = createUserClient({
      baseUrl: svc.url,
      getToken: async () => {
        minted++;
        await new Promise((r) => setTimeout(r, 20));
        return minted === 1 ? forged() : real;
      },
    });
    const results = await Promise.all([
      client.workflows.list(),
      client.installations.list(),
      client.connectors.list(),
      client.workflows.get(s.workflowId),
      client.credentials.list().catch(() => 'not landed'),
    ]);
    expect(results).toHaveLength(5);
    expect(minted).toBe(2);
  });

  it('gives up after one retry: a persistent 401 is an InlayError', async () => {
    let minted = 0;
    const o = observed();
    const client = createUserClient({
      baseUrl: svc.url,
      fetch: o.fetch,
      getToken: () => {
        minted++;
        return forged();
      },
    });
    const err = await client.workflows.list().catch((e) => e);
    expect(err).toBeInstanceOf(InlayError);
    expect(err).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(minted).toBe(2);
    expect(o.calls).toHaveLength(2);
  });

  it('works through a host proxy path that injects the token', async () => {
    const { token } = await api.users.token(s.userId);
    const target = new URL(svc.url);
    const seen: string[] = [];
    const proxy = createServer((req, res) => {
      seen.push(req.url!);
      if (!req.url!.startsWith('/api/inlay/')) return res.writeHead(404).end();
      const up = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url!.slice('/api/inlay'.length),
          headers: { ...req.headers, host: target.host, authorization: `Bearer ${token}` },
        },
        (r) => {
          res.writeHead(r.statusCode!, r.headers);
          r.pipe(res);
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/inlay/`;
      const client = createUserClient({ baseUrl: base });
      expect((await client.workflows.list())[0]!.workflowId).toBe(s.workflowId);
      await client.workflows.deactivate({ workflowId: s.workflowId });
      expect((await client.workflows.get(s.workflowId)).active).toBe(false);
      await client.workflows.activate({ workflowId: s.workflowId });
      expect(seen[0]).toBe('/api/inlay/workflows');
    } finally {
      proxy.close();
    }
  });

  it('tokenFromUrl reads {token, expiresAt} from a host endpoint', async () => {
    const host = createServer(async (_req, res) => {
      const t = await api.users.token(s.userId);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(t));
    });
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}/token`;
      const client = createUserClient({ baseUrl: svc.url, getToken: tokenFromUrl(url) });
      expect((await client.workflows.list()).length).toBe(1);
    } finally {
      host.close();
    }
  });
});

describe('createTokenManager', () => {
  it('uses expiresAt when given and halves short lifetimes', async () => {
    let clock = 1_000_000;
    let n = 0;
    const m = createTokenManager(() => ({ token: `t${++n}`, expiresAt: clock + 10_000 }), {
      now: () => clock,
    });
    expect(await m.get()).toBe('t1');
    clock += 4_000;
    expect(await m.get()).toBe('t1');
    clock += 1_500; // past half of a 10 s lifetime
    expect(await m.get()).toBe('t2');
  });

  it('does not refresh again for a 401 on a token that was already replaced', async () => {
    let n = 0;
    const m = createTokenManager(() => `t${++n}`);
    expect(await m.get()).toBe('t1');
    const [a, b] = await Promise.all([m.refresh('t1'), m.refresh('t1')]);
    expect([a, b]).toEqual(['t2', 't2']);
    expect(await m.refresh('t1')).toBe('t2');
    expect(n).toBe(2);
  });

  it('propagates a failing getToken and recovers on the next call', async () => {
    let fail = true;
    const m = createTokenManager(() => {
      if (fail) throw new Error('signed out');
      return 'ok';
    });
    await expect(m.get()).rejects.toThrow('signed out');
    fail = false;
    expect(await m.get()).toBe('ok');
  });
});

import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createUser, insertExecutions, installDirect, seedAccount } from '@inlay/test-kit/fixtures';
import { executionSteps, users, userWorkflows } from '@inlay/test-kit/schema';
import { type Service, sharedService } from '@inlay/test-kit/service';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, startHost } from '../helpers.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let bob: string;
let host: Awaited<ReturnType<typeof startHost>>;
let clock = Date.now();
const replies: string[] = [];

async function as(user: string | null, path: string, init: RequestInit = {}) {
  // What @inlay/client sends: the header that proves a same-origin script, not a form, made the call.
  const headers = new Headers({ 'x-inlay-client': '1', ...(init.headers as Record<string, string>) });
  if (user) headers.set('x-host-user', user);
  const res = await fetch(`${host.url}/api/inlay${path}`, { ...init, headers });
  const text = await res.text();
  replies.push(text, JSON.stringify([...res.headers]));
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc, { username: 'alice' });
  bob = await createUser(svc, s.apiKey, 'bob');
  await installDirect(svc.db, { ...s, userId: bob });
  await insertExecutions(svc.db, { ...s, userId: bob }, 3);
  host = await startHost({
    serviceUrl: svc.url,
    apiKey: s.apiKey,
    autoCreateUsers: { username: (req) => req.get('x-host-user')! },
    now: () => clock,
  });
});
afterAll(async () => {
  await host?.close();
  await svc?.close();
});

describe('GET /token', () => {
  it('answers 401 problem+json without a signed-in host user', async () => {
    const r = await as(null, '/token');
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('mints a user JWT for the host user and caches it', async () => {
    const a = await as('alice', '/token');
    expect(a.status).toBe(200);
    expect(a.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(a.body).sort()).toEqual(['expiresAt', 'token']);
    const claims = JSON.parse(Buffer.from(a.body.token.split('.')[1], 'base64url').toString());
    expect(claims.sub).toBe(s.userId);
    expect((await as('alice', '/token')).body.token).toBe(a.body.token);
  });

  it('renews a cached JWT once it is within 60 s of expiry', async () => {
    const first = (await as('alice', '/token')).body;
    clock = Date.parse(first.expiresAt) - 59_000;
    const second = (await as('alice', '/token')).body;
    expect(second.token).not.toBe(first.token);
    clock = Date.now();
  });

  it('creates the Inlay user on first use with autoCreateUsers', async () => {
    const r = await as('carol', '/token');
    expect(r.status).toBe(200);
    const [row] = await svc.db
      .select()
      .from(users)
      .where(and(eq(users.username, 'carol'), eq(users.accountId, s.accountId)));
    expect(row).toBeDefined();
    expect(JSON.parse(Buffer.from(r.body.token.split('.')[1], 'base64url').toString()).sub).toBe(row!.id);
  });
});

describe('proxy', () => {
  it('forwards as the session’s user: a userId in the query is replaced', async () => {
    const r = await as('alice', `/workflows/${s.workflowId}/logs?userId=${bob}&limit=30`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]); // alice has no runs; bob's three stay invisible
    const w = await as('alice', `/workflows?userId=bob`);
    expect(w.body.data[0]).toMatchObject({ workflowId: s.workflowId, installed: false });
  });

  it('replaces a userId in the JSON body, so alice cannot switch off bob’s workflow', async () => {
    const r = await as('alice', '/workflows/deactivate', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: bob, workflowId: s.workflowId }),
    });
    expect(r.status).toBe(404);
    const [row] = await svc.db.select().from(userWorkflows).where(eq(userWorkflows.userId, bob));
    expect(row?.active).toBe(true);
    const del = await as('alice', `/users/${bob}/logs`, { method: 'DELETE' });
    expect(del.status).toBe(404);
    expect(await svc.db.select().from(executionSteps).where(eq(executionSteps.userId, bob))).toHaveLength(6);
  });

  it('passes upstream errors through as problem+json', async () => {
    const r = await as('alice', '/workflows/not-a-uuid');
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body.errors[0]).toMatchObject({ field: 'path.workflowId', rule: 'format' });
  });

  it('rewrites a body the host already parsed with express.json()', async () => {
    const parsed = await startHost({ serviceUrl: svc.url, apiKey: s.apiKey, parseJsonFirst: true });
    try {
      const res = await fetch(`${parsed.url}/api/inlay/workflows/deactivate`, {
        method: 'PUT',
        headers: { 'x-host-user': 'alice', 'x-inlay-client': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ userId: bob, workflowId: s.workflowId }),
      });
      const text = await res.text();
      replies.push(text);
      expect(res.status, text).toBe(404);
      const [row] = await svc.db.select().from(userWorkflows).where(eq(userWorkflows.userId, bob));
      expect(row?.active).toBe(true);
    } finally {
      await parsed.close();
    }
  });

  it('refuses a body nested deeper than 64 levels with a 400 problem, raw or parsed by the host', async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const body = (inner: string) => `{"workflowId": "${s.workflowId}", "userId": "x", "data": ${inner}}`;
    const r = await as('alice', '/run/workflow', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(deep(5_000)),
    });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body.errors).toEqual([expect.objectContaining({ field: 'body', rule: 'max_depth' })]);
    const parsed = await startHost({ serviceUrl: svc.url, apiKey: s.apiKey, parseJsonFirst: true });
    try {
      const res = await fetch(`${parsed.url}/api/inlay/run/workflow`, {
        method: 'POST',
        headers: { 'x-host-user': 'alice', 'x-inlay-client': '1', 'content-type': 'application/json' },
        body: body(deep(500)),
      });
      const problem = (await res.json()) as { errors: unknown[] };
      replies.push(JSON.stringify(problem));
      expect(res.status).toBe(400);
      expect(problem.errors).toEqual([expect.objectContaining({ field: 'body', rule: 'max_depth' })]);
    } finally {
      await parsed.close();
    }
  });

  it('streams a large log page', async () => {
    const dave = await createUser(svc, s.apiKey, 'dave');
    const ids = await insertExecutions(svc.db, { ...s, userId: dave }, 30);
    const big = 'x'.repeat(200_000);
    for (const id of ids)
      await svc.db
        .update(executionSteps)
        .set({ data: [[{ id: randomUUID(), json: { big } }]] })
        .where(eq(executionSteps.executionId, id));
    const res = await fetch(`${host.url}/api/inlay/workflows/${s.workflowId}/logs?limit=30`, {
      headers: { 'x-host-user': 'dave' },
    });
    expect(res.status).toBe(200);
    // The service's length passes through when it sent one (the bytes are relayed as they are); either way
    // the page arrives in many chunks, not as one buffered write.
    const length = res.headers.get('content-length');
    const reader = res.body!.getReader();
    let chunks = 0;
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      bytes += value.length;
    }
    expect(bytes).toBeGreaterThan(30 * 200_000);
    if (length !== null) expect(bytes).toBe(Number(length));
    else expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(chunks).toBeGreaterThan(1);
  });

  it('never shows the API key in any response', () => {
    expect(replies.length).toBeGreaterThan(10);
    for (const r of replies) expect(r).not.toContain(s.apiKey);
  });
});

describe('proxy transport', () => {
  it('drops hop-by-hop and host credentials both ways', async () => {
    const up = await startFakeUpstream();
    const h = await startHost({ serviceUrl: up.url, apiKey: 'inlay_test_secretsecretsecret' });
    try {
      // node:http, because fetch refuses to send a custom Connection header.
      const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
        const req = request(`${h.url}/api/inlay/echo`, {
          headers: {
            'x-host-user': 'u',
            connection: 'x-private-hop',
            'x-private-hop': '1',
            cookie: 'sid=host-session',
            'x-custom': 'kept',
            'proxy-authorization': 'Basic x',
          },
        });
        req.on('response', (r) => {
          r.resume();
          r.on('end', () => resolve(r));
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-upstream-hop']).toBeUndefined();
      expect(res.headers['x-kept']).toBe('yes');
      const hit = up.seen.find((r) => r.url === '/echo')!;
      expect(hit.headers['x-private-hop']).toBeUndefined();
      expect(hit.headers['proxy-authorization']).toBeUndefined();
      expect(hit.headers.cookie).toBeUndefined();
      expect(hit.headers['x-custom']).toBe('kept');
      expect(hit.headers.authorization).toMatch(/^Bearer ey/);
      expect(hit.headers.authorization).not.toContain('inlay_test_');
    } finally {
      await h.close();
      await up.close();
    }
  });

  it('keeps a provider page from acting on the host: proxied answers guarded even if the service forgot', async () => {
    // A stand-in service that relays a provider's HTML page with no guard of its own.
    const up = await startFakeUpstream({
      'content-type': 'text/html',
      refresh: '0; url=https://evil.example/',
      link: '<https://evil.example/x.js>; rel=preload; as=script',
      'clear-site-data': '"cookies"',
      'x-frame-options': 'ALLOWALL',
      'content-security-policy': "script-src 'unsafe-inline'",
      'content-disposition': 'inline',
    });
    const h = await startHost({ serviceUrl: up.url, apiKey: 'inlay_test_secretsecretsecret' });
    try {
      const proxied = await fetch(`${h.url}/api/inlay/connectors/acme/proxy/page`, {
        headers: { 'x-host-user': 'u', cookie: 'sid=host-session' },
      });
      expect(proxied.status).toBe(200);
      expect(proxied.headers.get('x-content-type-options')).toBe('nosniff');
      expect(proxied.headers.get('content-security-policy')).toBe('sandbox');
      expect(proxied.headers.get('content-disposition')).toBe('attachment');
      for (const name of ['refresh', 'link', 'clear-site-data', 'x-frame-options'])
        expect(proxied.headers.get(name), name).toBeNull();
      await proxied.text();
      // The service's own answers (not a provider's) pass as the service sent them.
      const own = await fetch(`${h.url}/api/inlay/workflows`, { headers: { 'x-host-user': 'u' } });
      expect(own.headers.get('content-security-policy')).toBe("script-src 'unsafe-inline'");
      expect(own.headers.get('refresh')).toBe('0; url=https://evil.example/');
      await own.text();
    } finally {
      await h.close();
      await up.close();
    }
  });

  it('reuses kept-alive upstream connections and rewrites only the userId query parameter', async () => {
    const up = await startFakeUpstream();
    const h = await startHost({ serviceUrl: `${up.url}/base/`, apiKey: 'inlay_test_secretsecretsecret' });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await fetch(`${h.url}/api/inlay/items?a=1&userId=someone-else&b=x%20y`, {
          headers: { 'x-host-user': 'u' },
        });
        expect(r.status).toBe(200);
        expect(await r.json()).toEqual({ ok: true });
      }
      const plain = await fetch(`${h.url}/api/inlay/items?a=1`, { headers: { 'x-host-user': 'u' } });
      await plain.text();
      const hits = up.seen.filter((r) => r.url.startsWith('/base/items'));
      expect(hits.map((r) => r.url)).toEqual([
        ...Array(5).fill('/base/items?a=1&userId=user-1&b=x+y'),
        '/base/items?a=1',
      ]);
      // One connection for the token call (the typed client's fetch), one shared by the six proxied calls.
      expect(up.connections()).toBe(2);
    } finally {
      await h.close();
      await up.close();
    }
  });

  it('bounds upstream time with a 504, and an unreachable upstream is a 502', async () => {
    const up = await startFakeUpstream();
    const h = await startHost({
      serviceUrl: up.url,
      apiKey: 'inlay_test_secretsecretsecret',
      timeoutMs: 300,
    });
    try {
      const slow = await fetch(`${h.url}/api/inlay/slow`, { headers: { 'x-host-user': 'u' } });
      expect(slow.status).toBe(504);
      expect(slow.headers.get('content-type')).toContain('application/problem+json');
    } finally {
      await h.close();
      await up.close();
    }
    const dead = await startHost({ serviceUrl: up.url, apiKey: 'inlay_test_secretsecretsecret' });
    try {
      const r = await fetch(`${dead.url}/api/inlay/token`, { headers: { 'x-host-user': 'u' } });
      expect(r.status).toBe(502);
      expect(((await r.json()) as { code: string }).code).toBe('upstream_error');
    } finally {
      await dead.close();
    }
  });
});

import type { ConnectorDefinition } from '@inlay/connectors';
import { startUpstream, type Upstream } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser } from '@inlay/test-kit/fixtures';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { testResolver } from '@inlay/test-kit/ssrf';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProxyMetrics } from '../../src/proxy/proxy-metrics.ts';
import { proxyCounts } from '../../src/store/schema.ts';
import type { Db } from '../../src/store/store.ts';

/** A provider on 127.0.0.1 that takes one key: `/fail` answers 503, anything else a small JSON body. */
const provider = () =>
  startUpstream((req) => {
    if (req.headers['x-api-key'] !== 'count-key') return { status: 401, body: { message: 'bad key' } };
    if (req.path === '/fail') return { status: 503, body: { message: 'down' } };
    return { body: { path: req.path } };
  });

const counter = (url: string): ConnectorDefinition => ({
  id: 'counter',
  name: 'Counter',
  description: 'Counts proxy calls',
  category: 'developer',
  icon: 'counter',
  baseUrl: url,
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
});

const serviceOn = (upstream: Upstream, env: Record<string, string> = {}) =>
  startService({
    connectors: [counter(upstream.url)],
    env: { INLAY_EGRESS_ALLOW: new URL(upstream.url).host, ...env },
    resolve: testResolver(),
  });

/** One proxy call; the byte count the proxy streamed back, and whether it counts as an error. */
async function proxyCall(svc: Service, apiKey: string, userId: string, path: string) {
  const r = await svc.call('GET', `/connectors/counter/proxy${path}?userId=${userId}`, { auth: apiKey });
  expect([200, 503]).toContain(r.status);
  return { bytes: Buffer.byteLength(r.text), failed: r.status >= 500 };
}

const stats = async (svc: Service, apiKey: string) => {
  const r = await svc.call('GET', '/stats/proxy', { auth: apiKey });
  expect(r.status, r.text).toBe(200);
  return r.body.data as { connector: string; requests: number; errors: number; bytes: number }[];
};

/** The store with `execute` (what a flush sends) counted, and failing while `fail` is set. */
function countingDb(db: Db) {
  const seen = { statements: 0, fail: false };
  const wrapped = new Proxy(db, {
    get(target, prop) {
      if (prop === 'execute')
        return (query: Parameters<Db['execute']>[0]) => {
          seen.statements++;
          if (seen.fail) return Promise.reject(new Error('database away'));
          return target.execute(query);
        };
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { db: wrapped, seen };
}

describe('proxy counts in the database', () => {
  let upstream: Upstream;
  let svc: Service;

  beforeAll(async () => {
    upstream = await provider();
    svc = await serviceOn(upstream);
  }, 60_000);

  afterAll(async () => {
    await svc?.close();
    await upstream?.close();
  });

  it('a proxy call writes nothing itself: a thousand calls are one statement when flushed', async () => {
    const { accountId } = await svc.account('batch');
    const { db, seen } = countingDb(svc.ctx.db);
    // A timer that never fires in this test: only the explicit flush writes.
    const metrics = new ProxyMetrics(db, svc.ctx.logger, 3_600_000);
    try {
      for (let i = 0; i < 1000; i++) metrics.record(accountId, i % 2 ? 'github' : 'slack', i % 10 === 0, 100);
      expect(seen.statements).toBe(0);
      expect(await svc.ctx.db.select().from(proxyCounts).where(eq(proxyCounts.accountId, accountId))).toEqual(
        [],
      );
      await metrics.flush();
      expect(seen.statements).toBe(1);
      expect(await metrics.of(accountId)).toEqual([
        { connector: 'github', requests: 500, errors: 0, bytes: 50_000 },
        { connector: 'slack', requests: 500, errors: 100, bytes: 50_000 },
      ]);
      // Nothing pending: reading again sends nothing.
      await metrics.of(accountId);
      expect(seen.statements).toBe(1);
    } finally {
      await metrics.close();
    }
  });

  it('keeps the counts while the database refuses them, and adds them once it is back', async () => {
    const { accountId } = await svc.account('retry');
    const { db, seen } = countingDb(svc.ctx.db);
    const metrics = new ProxyMetrics(db, svc.ctx.logger, 3_600_000);
    try {
      metrics.record(accountId, 'slack', false, 10);
      seen.fail = true;
      await expect(metrics.flush()).rejects.toThrow('database away');
      metrics.record(accountId, 'slack', true, 5);
      seen.fail = false;
      await metrics.flush();
      expect(await metrics.of(accountId)).toEqual([
        { connector: 'slack', requests: 2, errors: 1, bytes: 15 },
      ]);
    } finally {
      await metrics.close();
    }
  });

  it('skips the counts of an account that no longer exists instead of failing the batch', async () => {
    const { accountId } = await svc.account('kept');
    const metrics = new ProxyMetrics(svc.ctx.db, svc.ctx.logger, 3_600_000);
    try {
      metrics.record(crypto.randomUUID(), 'slack', false, 1);
      metrics.record(accountId, 'slack', false, 1);
      await metrics.flush();
      expect(await metrics.of(accountId)).toEqual([{ connector: 'slack', requests: 1, errors: 0, bytes: 1 }]);
    } finally {
      await metrics.close();
    }
  });

  it('GET /stats/proxy shows this node’s calls at once, and only the account’s own', async () => {
    const { apiKey } = await svc.account('route');
    const { apiKey: otherKey } = await svc.account('route-other');
    const alice = await createUser(svc, apiKey, 'alice');
    const cred = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'counter', data: { apiKey: 'count-key' } },
    });
    expect(cred.status, cred.text).toBe(201);
    const calls = [
      await proxyCall(svc, apiKey, alice, '/a'),
      await proxyCall(svc, apiKey, alice, '/fail'),
      await proxyCall(svc, apiKey, alice, '/bc'),
    ];
    expect(await stats(svc, apiKey)).toEqual([
      {
        connector: 'counter',
        requests: 3,
        errors: 1,
        bytes: calls.reduce((n, c) => n + c.bytes, 0),
      },
    ]);
    expect(await stats(svc, otherKey)).toEqual([]);
  });
});

describe.skipIf(!onPostgres)('proxy counts on two nodes (one PostgreSQL database)', () => {
  let upstream: Upstream;
  let db: Awaited<ReturnType<typeof privateDatabase>>;
  const nodes: Service[] = [];
  let apiKey: string;
  let otherKey: string;
  let alice: string;

  beforeAll(async () => {
    upstream = await provider();
    db = await privateDatabase('inlay_proxy_counts');
    // One after the other: the first one migrates the database.
    for (let i = 0; i < 2; i++) nodes.push(await serviceOn(upstream, { DATABASE_URL: db.url }));
    ({ apiKey } = await nodes[0]!.account('nodes'));
    ({ apiKey: otherKey } = await nodes[0]!.account('nodes-other'));
    alice = await createUser(nodes[0]!, apiKey, 'alice');
    const cred = await nodes[0]!.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'counter', data: { apiKey: 'count-key' } },
    });
    if (cred.status !== 201) throw new Error(cred.text);
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) await n.close();
    await upstream?.close();
    await db?.drop();
  });

  it('each node answers the account-wide counts, the sum of both nodes’ calls, and they outlive a node', async () => {
    const [a, b] = [nodes[0]!, nodes[1]!];
    const total = { requests: 0, errors: 0, bytes: 0 };
    const add = (c: { bytes: number; failed: boolean }) => {
      total.requests++;
      if (c.failed) total.errors++;
      total.bytes += c.bytes;
    };
    for (const path of ['/one', '/two', '/fail']) add(await proxyCall(a, apiKey, alice, path));
    for (const path of ['/three', '/fail', '/four', '/five']) add(await proxyCall(b, apiKey, alice, path));
    expect(total).toMatchObject({ requests: 7, errors: 2 });
    const expected = [{ connector: 'counter', ...total }];

    // Reading on a node sends that node's counts first: after B and then A have answered, both sums are in.
    await stats(b, apiKey);
    expect(await stats(a, apiKey)).toEqual(expected);
    expect(await stats(b, apiKey)).toEqual(expected);
    expect(await stats(a, otherKey)).toEqual([]);

    // Without a read on B, its counts still reach A: each node sends its counts about once a second.
    add(await proxyCall(b, apiKey, alice, '/six'));
    const seen = await eventually(
      `node A to count ${total.requests} requests`,
      async () => {
        const counts = await stats(a, apiKey);
        expect(counts[0]?.requests).toBe(total.requests);
        return counts;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(seen).toEqual([{ connector: 'counter', ...total }]);

    // A node that stops sends what it still holds; a node started later reads every count.
    add(await proxyCall(b, apiKey, alice, '/seven'));
    await b.close();
    nodes.splice(1, 1);
    const c = await serviceOn(upstream, { DATABASE_URL: db.url });
    nodes.push(c);
    expect(await stats(c, apiKey)).toEqual([{ connector: 'counter', ...total }]);
    expect(await stats(a, apiKey)).toEqual([{ connector: 'counter', ...total }]);
  });
});

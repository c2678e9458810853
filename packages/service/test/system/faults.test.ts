import { randomUUID } from 'node:crypto';
import { install, publish } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { postgresBin, startPrivatePostgres } from '@inlay/test-kit/private-postgres';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps, executions } from '../../src/store/schema.ts';

const bin = postgresBin();
if (!bin) console.log('faults: skipped, no PostgreSQL server binaries under /usr/lib/postgresql');

/** A request that must answer (not hang): aborted after 20 s, which fails the test. */
async function timed(url: string, init: RequestInit = {}) {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

describe.skipIf(!bin)('PostgreSQL stopped and restarted under a running service', () => {
  let pg: Awaited<ReturnType<typeof startPrivatePostgres>>;
  let svc: Service;
  let apiKey: string;
  let jwt: string;
  let faults = 0;
  let mcpUrl: string;

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    // Quotas on: the PostgreSQL-backed rate limiter must not turn an outage into errors either.
    svc = await startService({
      env: { DATABASE_URL: pg.url, INLAY_RATE_LIMIT_PER_KEY: '10000', INLAY_RATE_LIMIT_PER_USER: '10000' },
    });
    ({ apiKey } = await svc.account('faults'));
    jwt = await tokenFor(svc, apiKey, await createUser(svc, apiKey, 'before-outage'));
    mcpUrl = (await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'faults' } })).body.url;
  }, 120_000);

  afterAll(async () => {
    console.log(`faults: survived ${faults} PostgreSQL stop/start cycles without restarting the service`);
    await svc?.close().catch(() => {});
    await pg?.destroy();
  });

  const auth = (t: string) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' });

  it('answers 503 with Retry-After while the database is down, and recovers by itself', {
    timeout: 180_000,
  }, async () => {
    for (let cycle = 1; cycle <= 2; cycle++) {
      expect((await timed(`${svc.url}/readyz`)).status).toBe(200);
      pg.stop();

      const ready = await timed(`${svc.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await timed(`${svc.url}/healthz`)).status).toBe(200); // liveness: the process is fine

      // A fresh API key is not cached, so authentication itself needs the database.
      const unknownKey = `inlay_test_${'z'.repeat(24)}${cycle}`;
      const calls = [
        timed(`${svc.url}/users`, { headers: auth(apiKey) }),
        timed(`${svc.url}/users`, {
          method: 'POST',
          headers: auth(apiKey),
          body: JSON.stringify({ username: `during-${cycle}` }),
        }),
        timed(`${svc.url}/installations`, { headers: auth(jwt) }),
        timed(`${svc.url}/users`, { headers: auth(unknownKey) }),
      ];
      for (const r of await Promise.all(calls)) {
        expect(r.status, r.text).toBe(503);
        expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(r.body).toMatchObject({ status: 503, code: 'unavailable' });
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }

      // The MCP endpoint answers 503 with Retry-After too.
      const rpc = await timed(mcpUrl, {
        method: 'POST',
        headers: {
          ...auth(apiKey),
          accept: 'application/json, text/event-stream',
          'x-inlay-userid': 'before-outage',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(rpc.status, rpc.text).toBe(503);
      expect(rpc.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(rpc.headers.get('content-type')).toMatch(/^application\/json/);
      expect(rpc.body, rpc.text).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32003 } });

      pg.start();
      // Recovery without a restart: the pool reconnects on its own.
      await eventually(
        'the service to be ready again',
        async () => (await timed(`${svc.url}/readyz`)).status === 200,
        { timeout: 20_000, interval: 200 },
      );
      const created = await timed(`${svc.url}/users`, {
        method: 'POST',
        headers: auth(apiKey),
        body: JSON.stringify({ username: `after-${cycle}` }),
      });
      expect(created.status, created.text).toBe(201);
      const list = await timed(`${svc.url}/users`, { headers: auth(apiKey) });
      const names = list.body.data.map((u: { username: string }) => u.username);
      // Nothing written before the outage is lost; nothing was half-written during it.
      expect(names).toContain('before-outage');
      expect(names).toContain(`after-${cycle}`);
      expect(names).not.toContain(`during-${cycle}`);
      expect((await timed(`${svc.url}/installations`, { headers: auth(jwt) })).status).toBe(200);
      faults++;
    }
  });
});

const queues: ('memory' | 'pg-boss')[] = onPostgres ? ['memory', 'pg-boss'] : ['memory'];

describe.each(queues)('compliance delete while runs are queued and in flight (%s queue)', (queue) => {
  it('leaves no row of the user, and no queued job brings one back', { timeout: 120_000 }, async () => {
    const svc = await startService({
      env: {
        INLAY_WORKER_CONCURRENCY: '2',
        ...(queue === 'pg-boss' ? { INLAY_QUEUE: 'pg-boss', INLAY_QUEUE_POLL_MS: '500' } : {}),
      },
    });
    try {
      const { apiKey } = await svc.account('compliance');
      const w = await publish(svc, apiKey, {
        trigger: { type: 'manual' },
        steps: [
          { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '1' } },
          { id: randomUUID(), connector: 'delay', action: 'wait', input: { ms: 400 } },
          { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '2' } },
        ],
        config: [],
      });
      const erin = await createUser(svc, apiKey, 'erin');
      const frank = await createUser(svc, apiKey, 'frank');
      await install(svc, apiKey, erin, [w]);
      await install(svc, apiKey, frank, [w]);
      const started: string[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await svc.call('POST', '/run/workflow', {
          auth: apiKey,
          body: { workflowId: w, userId: erin },
        });
        expect(r.status, r.text).toBeLessThan(300);
        started.push(...r.body.executionIds);
      }
      const other = await svc.call('POST', '/run/workflow', {
        auth: apiKey,
        body: { workflowId: w, userId: frank },
      });
      // Wait until some run is in flight (a step recorded) while most are still queued.
      await eventually('a run of erin’s to start', async () => (await count(svc, executionSteps, erin)) > 0, {
        timeout: 20_000,
        interval: 20,
      });
      const queued = (await svc.db.select().from(executions).where(eq(executions.userId, erin))).filter(
        (e) => !e.finished,
      ).length;
      expect(queued).toBeGreaterThan(2);
      const del = await svc.call('DELETE', `/users/${erin}/logs?userId=${erin}`, { auth: apiKey });
      expect(del.body).toEqual({ message: 'Success' });
      // The other user's run is untouched and finishes. It is queued after erin's 12, so once it is over every
      // one of erin's jobs has been picked up, and none of them brought a row back.
      const [mine] = other.body.executionIds;
      await eventually(
        'the other user’s run to finish',
        async () => (await svc.db.select().from(executions).where(eq(executions.id, mine)))[0]?.finished,
        { timeout: 10_000, interval: 100 },
      );
      expect(await count(svc, executions, erin)).toBe(0);
      expect(await count(svc, executionSteps, erin)).toBe(0);
      console.log(
        `faults: compliance delete with ${queued} of 12 runs queued or in flight (${queue}): 0 rows left`,
      );
    } finally {
      await svc.close();
    }
  });
});

async function count(svc: Service, table: typeof executions | typeof executionSteps, userId: string) {
  return (await svc.db.select().from(table).where(eq(table.userId, userId))).length;
}

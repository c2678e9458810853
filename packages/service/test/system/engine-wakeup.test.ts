import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { spawnCli, waitForOutput } from '@inlay/test-kit/cli';
import { install, publish, waitForRuns } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser } from '@inlay/test-kit/fixtures';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { onPostgres, type Service, startService, TEST_MASTER_KEY } from '@inlay/test-kit/service';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '../../src/store/schema.ts';

/** A worker that polls only once a minute: anything it runs sooner, a notice woke it for. */
function startWorker(databaseUrl: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawnCli(['worker'], {
    DATABASE_URL: databaseUrl,
    INLAY_QUEUE: 'pg-boss',
    INLAY_MASTER_KEY: TEST_MASTER_KEY,
    INLAY_QUEUE_POLL_MS: '60000',
    INLAY_DRAIN_TIMEOUT_MS: '0',
    LOG_LEVEL: 'info',
  });
  return { child, exited: new Promise((r) => child.once('exit', (code) => r(code))) };
}

/** The pg-boss states of the run jobs of these executions. */
async function jobStates(databaseUrl: string, executionIds: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ state: string }>(
      `select state from pgboss.job where name = 'inlay-run' and data->>'executionId' = any($1::text[])
       order by array_position($1::text[], data->>'executionId')`,
      [executionIds],
    );
    return rows.map((r) => r.state);
  } finally {
    await client.end();
  }
}

/** The states once none is `created` or `active` any more (a job is completed just after its run's row). */
function jobStatesSettled(databaseUrl: string, executionIds: string[]): Promise<string[]> {
  return eventually(
    'the run jobs to be neither created nor active',
    async () => {
      const states = await jobStates(databaseUrl, executionIds);
      if (states.some((s) => s === 'created' || s === 'active'))
        throw new Error(`job states ${states.join(', ')}`);
      return states;
    },
    { timeout: 20_000 },
  );
}

const transformOnly = {
  trigger: { type: 'manual' as const },
  steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '{"ok": true}' } }],
  config: [],
};
const waiting = {
  trigger: { type: 'manual' as const },
  steps: [{ id: randomUUID(), connector: 'delay', action: 'wait', input: { ms: 30_000 } }],
  config: [],
};

describe.skipIf(!onPostgres)('pg-boss workers wake at once (PostgreSQL only)', () => {
  let db: Awaited<ReturnType<typeof privateDatabase>>;
  let api: Service;
  let apiKey: string;
  let userId: string;
  let worker: ReturnType<typeof startWorker>;

  beforeAll(async () => {
    db = await privateDatabase('inlay_wakeup');
    api = await startService({
      env: { DATABASE_URL: db.url, INLAY_QUEUE: 'pg-boss', INLAY_RUN_WORKERS: 'false' },
    });
    ({ apiKey } = await api.account('wakeup'));
    userId = await createUser(api, apiKey, 'waker');
    worker = startWorker(db.url);
    await waitForOutput(worker.child, (l) => l.includes('inlay worker started'), 60_000);
  }, 120_000);

  afterAll(async () => {
    if (worker?.child.exitCode === null) worker.child.kill('SIGKILL');
    await worker?.exited;
    await api?.close();
    await db?.drop();
  });

  const run = async (workflowId: string) => {
    const r = await api.call('POST', '/run/workflow', { auth: apiKey, body: { workflowId, userId } });
    expect(r.status, r.text).toBe(200);
    return r.body.executionIds as string[];
  };

  it('a run enqueued on an API node starts on an idle worker long before its next poll', async () => {
    const w = await publish(api, apiKey, transformOnly, 'quick');
    await install(api, apiKey, userId, [w]);
    const latencies: number[] = [];
    const finished: string[] = [];
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const ids = await run(w);
      const [row] = await waitForRuns(api, ids, 20_000);
      expect(row!.status).toBe('succeeded');
      latencies.push(Date.now() - started);
      finished.push(...ids);
    }
    latencies.sort((a, b) => a - b);
    // The poll is 60 s: five runs each done well within it were woken by the notice, not found by a poll.
    expect(latencies.at(-1)).toBeLessThan(20_000);
    console.info(`engine-wakeup: enqueue to finished with a 60 s poll, median ${latencies[2]} ms`);
    // A finished run's job is completed too (just after the run's row), not left `active` until pg-boss's expiry.
    expect(await jobStatesSettled(db.url, finished)).toEqual(finished.map(() => 'completed'));
  }, 180_000);

  it('a run handed back on SIGTERM leaves no pg-boss job active', async () => {
    const w = await publish(api, apiKey, waiting, 'slow');
    await install(api, apiKey, userId, [w]);
    const ids = [...(await run(w)), ...(await run(w))];
    await eventually(
      'the worker to take both runs',
      async () => {
        const rows = await api.db.select().from(executions).where(inArray(executions.id, ids));
        return rows.every((r) => r.status === 'running');
      },
      { timeout: 30_000 },
    );
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    const states = await jobStates(db.url, ids);
    expect(states.length).toBeGreaterThanOrEqual(2);
    expect(states.filter((s) => s === 'active')).toEqual([]);
    // Handed back, not lost: their leases end now, so the next sweep queues them for another worker.
    const rows = await api.db.select().from(executions).where(inArray(executions.id, ids));
    for (const r of rows) expect(r.leaseUntil!.getTime()).toBeLessThanOrEqual(Date.now());
  }, 120_000);
});

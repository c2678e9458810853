import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { onLines, runCli, spawnCli, waitForOutput } from '@inlay/test-kit/cli';
import { install, publish, startUpstream, type Upstream, waitForRuns } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser } from '@inlay/test-kit/fixtures';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { onPostgres, type Service, startService, TEST_MASTER_KEY } from '@inlay/test-kit/service';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '../../src/store/schema.ts';

describe('inlay worker', () => {
  it('refuses to start without the pg-boss queue, naming the settings it needs', async () => {
    const r = await runCli(['worker'], { INLAY_DATA_DIR: 'memory://', INLAY_MASTER_KEY: TEST_MASTER_KEY });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('inlay worker needs INLAY_QUEUE=pg-boss and DATABASE_URL');
  });
});

if (!onPostgres)
  console.warn('engine-workers: the pg-boss worker tests need PostgreSQL; set DATABASE_URL to run them');

/** A spawned `inlay worker` and the executions its log says it finished. */
interface Worker {
  child: ChildProcess;
  finished: string[];
  exited: Promise<number | null>;
}

// Long enough that a loaded CI machine never looks like a dead worker; short enough for a quick takeover.
const LEASE_MS = 6000;

function startWorker(databaseUrl: string): Worker {
  const child = spawnCli(['worker'], {
    DATABASE_URL: databaseUrl,
    INLAY_QUEUE: 'pg-boss',
    INLAY_MASTER_KEY: TEST_MASTER_KEY,
    INLAY_WORKER_CONCURRENCY: '4',
    INLAY_QUEUE_POLL_MS: '500',
    INLAY_RUN_LEASE_MS: String(LEASE_MS),
    INLAY_RETRY_BASE_MS: '10',
    // The http steps call an upstream fake on loopback, which the egress policy refuses unless opened.
    INLAY_EGRESS_ALLOW: '127.0.0.1',
    INLAY_RATE_LIMIT_PER_KEY: '0',
    INLAY_RATE_LIMIT_PER_USER: '0',
    LOG_LEVEL: 'info',
  });
  const finished: string[] = [];
  onLines(child.stdout!, (line) => {
    try {
      const j = JSON.parse(line);
      if (j.msg === 'execution finished') finished.push(j.executionId);
    } catch {}
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, finished, exited };
}

describe.skipIf(!onPostgres)('pg-boss workers (PostgreSQL only; skipped on PGlite)', () => {
  let api: Service;
  let up: Upstream;
  let workers: Worker[] = [];
  let apiKey: string;
  let userId: string;
  const hits = new Map<string, number>();
  let db: Awaited<ReturnType<typeof privateDatabase>>;

  beforeAll(async () => {
    // A database of their own: the other test files' engines would otherwise sweep up these runs.
    db = await privateDatabase('inlay_workers');
    up = await startUpstream((s) => {
      const id = String(s.body?.id);
      hits.set(id, (hits.get(id) ?? 0) + 1);
      return { body: { ok: true } };
    });
    // The API node only enqueues: its runs reach the workers through pg-boss.
    api = await startService({
      env: { DATABASE_URL: db.url, INLAY_QUEUE: 'pg-boss', INLAY_RUN_WORKERS: 'false' },
    });
    ({ apiKey } = await api.account('workers'));
    userId = await createUser(api, apiKey, `w-${randomUUID().slice(0, 8)}`);
    workers = [startWorker(db.url), startWorker(db.url)];
    await Promise.all(
      workers.map((w) => waitForOutput(w.child, (l) => l.includes('inlay worker started'), 60_000)),
    );
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await api?.close();
    await up?.close();
    await db?.drop();
  });

  const hitting = (delayMs: number) => ({
    trigger: { type: 'manual' as const },
    steps: [
      { id: randomUUID(), connector: 'delay', action: 'wait', input: { ms: delayMs } },
      {
        id: randomUUID(),
        connector: 'http',
        action: 'request',
        input: { method: 'POST', url: `${up.url}/hit`, body: { id: '{{ execution.id }}' } },
      },
    ],
    config: [],
  });

  /** Waits until some worker has logged each of these executions as finished; fails after 10 s. */
  const logged = (ids: string[]) =>
    eventually(
      `a worker's "execution finished" line for each of ${ids.length} execution(s)`,
      () => ids.every((id) => workers.some((w) => w.finished.includes(id))),
      { timeout: 10_000 },
    );

  const burst = async (workflowId: string, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, n - i) }, () =>
          api.call('POST', '/run/workflow', { auth: apiKey, body: { workflowId, userId, data: { i } } }),
        ),
      );
      for (const r of batch) {
        expect(r.status, r.text).toBe(200);
        ids.push(...r.body.executionIds);
      }
    }
    return ids;
  };

  it('two worker processes share a burst of 200 executions; each runs exactly once', async () => {
    const w = await publish(api, apiKey, hitting(30), 'burst');
    await install(api, apiKey, userId, [w]);
    const ids = await burst(w, 200);
    expect(new Set(ids).size).toBe(200);
    const rows = await waitForRuns(api, ids, 120_000);
    expect(rows.filter((r) => r.status === 'succeeded')).toHaveLength(200);
    expect(rows.every((r) => r.attempts === 1 && r.finished)).toBe(true);
    for (const id of ids) expect(hits.get(id), id).toBe(1);
    // A worker logs "execution finished" just after its row is; give the last lines time to arrive.
    await logged(ids);
    const [a, b] = workers.map((x) => new Set(x.finished.filter((id) => ids.includes(id))));
    // Both processes took part, and no execution was finished by both.
    expect(a!.size).toBeGreaterThan(0);
    expect(b!.size).toBeGreaterThan(0);
    expect([...a!].filter((id) => b!.has(id))).toEqual([]);
    expect(a!.size + b!.size).toBe(200);
    console.info(`engine-workers: burst of 200 split ${a!.size}/${b!.size} between the two workers`);
  }, 180_000);

  it('a worker killed mid-run loses nothing: its executions are retried by the other and none is left running', async () => {
    const w = await publish(api, apiKey, hitting(4000), 'long');
    await install(api, apiKey, userId, [w]);
    const ids = await burst(w, 16);
    // Wait until both workers hold a full load (4 each), then kill one without warning.
    await eventually(
      'the workers to take 8 runs',
      async () => {
        const rows = await api.db.select().from(executions).where(inArray(executions.id, ids));
        return rows.filter((r) => r.status === 'running').length >= 8;
      },
      { timeout: 30_000 },
    );
    const [victim, survivor] = workers as [Worker, Worker];
    victim.child.kill('SIGKILL');
    await victim.exited;
    const rows = await waitForRuns(api, ids, 120_000);
    expect(rows.every((r) => r.status === 'succeeded' || r.status === 'failed')).toBe(true);
    expect(rows.every((r) => r.leaseUntil === null && r.stoppedAt !== null)).toBe(true);
    const retried = rows.filter((r) => r.attempts > 1);
    expect(retried.length).toBeGreaterThanOrEqual(1);
    // The lost runs died in their first step: each side effect happened once, on the retry.
    for (const r of rows.filter((x) => x.status === 'succeeded')) expect(hits.get(r.id), r.id).toBe(1);
    for (const r of rows.filter((x) => x.status === 'failed'))
      expect(r.error).toMatchObject({ code: 'worker_lost', message: expect.stringContaining('stopped') });
    await logged(retried.map((r) => r.id));
    expect(retried.every((r) => survivor.finished.includes(r.id))).toBe(true);

    // A graceful stop exits cleanly.
    survivor.child.kill('SIGTERM');
    expect(await survivor.exited).toBe(0);
  }, 180_000);
});

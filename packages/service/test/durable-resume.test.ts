import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps } from '../src/store/schema.ts';
import { spawnCli, waitForOutput } from './helpers/cli.ts';
import { install, publish, startUpstream, type Upstream, waitForRuns } from './helpers/engine.ts';
import { createUser } from './helpers/fixtures.ts';
import { privateDatabase } from './helpers/private-database.ts';
import { onPostgres, type Service, startService, TEST_MASTER_KEY } from './helpers/service.ts';

// A takeover waits for the lease: short here, long enough that a loaded machine never looks like a dead worker.
const LEASE_MS = 4000;

function startWorker(databaseUrl: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawnCli(['worker'], {
    DATABASE_URL: databaseUrl,
    INLAY_QUEUE: 'pg-boss',
    INLAY_MASTER_KEY: TEST_MASTER_KEY,
    INLAY_QUEUE_POLL_MS: '500',
    INLAY_RUN_LEASE_MS: String(LEASE_MS),
    // SIGTERM hands a run in flight back at once rather than waiting for it.
    INLAY_DRAIN_TIMEOUT_MS: '0',
    INLAY_EGRESS_ALLOW: '127.0.0.1',
    LOG_LEVEL: 'info',
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exited };
}

describe.skipIf(!onPostgres)('durable resume across worker loss (PostgreSQL only; skipped on PGlite)', () => {
  let api: Service;
  let provider: Upstream;
  let apiKey: string;
  let userId: string;
  let db: Awaited<ReturnType<typeof privateDatabase>>;
  const workers: ReturnType<typeof startWorker>[] = [];
  /** Calls the fake provider received, per step key. */
  const calls = new Map<string, number>();
  /** The first call of a key ending like this hangs: the step is in flight when its worker is stopped. */
  let hangOn = '';
  const ids = { first: randomUUID(), loop: randomUUID(), inner: randomUUID(), last: randomUUID() };

  const post = (id: string) => ({
    id,
    connector: 'http',
    action: 'request',
    retries: 0,
    input: { method: 'POST', url: '', body: { key: '{{ execution.stepKey }}' } },
  });

  beforeAll(async () => {
    db = await privateDatabase('inlay_resume');
    provider = await startUpstream((s) => {
      const key = String(s.body?.key);
      const n = (calls.get(key) ?? 0) + 1;
      calls.set(key, n);
      if (n === 1 && hangOn && key.endsWith(hangOn)) return 'hang';
      return { body: { ok: true, key } };
    });
    api = await startService({
      env: { DATABASE_URL: db.url, INLAY_QUEUE: 'pg-boss', INLAY_RUN_WORKERS: 'false' },
    });
    ({ apiKey } = await api.account('resume'));
    userId = await createUser(api, apiKey, 'resumer');
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await api?.close();
    await provider?.close();
    await db?.drop();
  });

  const spawn = async () => {
    const w = startWorker(db.url);
    workers.push(w);
    await waitForOutput(w.child, (l) => l.includes('inlay worker started'), 60_000);
    return w;
  };

  /** Runs the workflow until its forEach's iteration 2 is in flight; `stop` then stops its worker. */
  async function runAndStop(workflowId: string, stop: () => Promise<void>) {
    const r = await api.call('POST', '/run/workflow', { auth: apiKey, body: { workflowId, userId } });
    expect(r.status).toBe(200);
    const [executionId] = r.body.executionIds as string[];
    hangOn = `${executionId}:${ids.inner}:2`;
    const until = Date.now() + 60_000;
    while (!calls.has(hangOn)) {
      if (Date.now() > until) throw new Error('iteration 2 never started');
      await new Promise((res) => setTimeout(res, 25));
    }
    await stop();
    // Another worker takes the run over once its lease lapsed (at once after a hand-back).
    await spawn();
    const [row] = await waitForRuns(api, [executionId!], 90_000);
    return { executionId: executionId!, row: row! };
  }

  /** Every completed step ran once; only the step in flight (iteration 2) ran twice. */
  async function expectResumed(executionId: string) {
    const mine = [...calls].filter(([k]) => k.startsWith(`${executionId}:`));
    const repeated = mine.filter(([, n]) => n > 1).map(([k]) => k);
    expect(repeated).toEqual([`${executionId}:${ids.inner}:2`]);
    expect(mine.map(([k]) => k).sort()).toEqual(
      [
        `${executionId}:${ids.first}`,
        ...[0, 1, 2, 3, 4].map((i) => `${executionId}:${ids.inner}:${i}`),
        `${executionId}:${ids.last}`,
      ].sort(),
    );
    const rows = await api.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionId, executionId));
    // One row per occurrence: nothing recorded twice, nothing lost.
    expect(rows.map((s) => s.stepKey).sort()).toEqual(
      [ids.first, ids.loop, ...[0, 1, 2, 3, 4].map((i) => `${ids.inner}:${i}`), ids.last].sort(),
    );
    const loop = rows.find((s) => s.stepId === ids.loop)!;
    expect((loop.data as unknown[][])[0]).toHaveLength(5);
  }

  it('a worker killed with SIGKILL mid-forEach: the run resumes elsewhere, repeating only the step in flight', async () => {
    const url = `${provider.url}/call`;
    const definition = {
      trigger: { type: 'manual' as const },
      steps: [
        { ...post(ids.first), input: { ...post(ids.first).input, url } },
        {
          id: ids.loop,
          type: 'forEach' as const,
          items: '{{ [0..4] }}',
          steps: [{ ...post(ids.inner), input: { ...post(ids.inner).input, url } }],
        },
        { ...post(ids.last), input: { ...post(ids.last).input, url } },
      ],
      config: [],
    };
    const workflowId = await publish(api, apiKey, definition, 'resume');
    await install(api, apiKey, userId, [workflowId]);
    const victim = await spawn();

    const killed = await runAndStop(workflowId, async () => {
      victim.child.kill('SIGKILL');
      await victim.exited;
    });
    expect(killed.row).toMatchObject({ status: 'succeeded', attempts: 2 });
    await expectResumed(killed.executionId);

    // A SIGTERM hands the run in flight back; the next worker resumes it the same way.
    const holder = workers.at(-1)!;
    const handed = await runAndStop(workflowId, async () => {
      holder.child.kill('SIGTERM');
      expect(await holder.exited).toBe(0);
    });
    expect(handed.row).toMatchObject({ status: 'succeeded', attempts: 2 });
    await expectResumed(handed.executionId);
  }, 240_000);
});

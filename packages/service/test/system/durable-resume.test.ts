import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { spawnCli, waitForOutput } from '@inlay/test-kit/cli';
import { install, publish, startUpstream, type Upstream, waitForRuns } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser } from '@inlay/test-kit/fixtures';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { postgresBin, startPrivatePostgres } from '@inlay/test-kit/private-postgres';
import { onPostgres, type Service, startService, TEST_MASTER_KEY } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps } from '../../src/store/schema.ts';

// A takeover waits for the lease: short here, long enough that a loaded machine never looks like a dead worker.
const LEASE_MS = 4000;

const bin = postgresBin();
if (!bin)
  console.log('durable-resume: PostgreSQL restart skipped, no server binaries under /usr/lib/postgresql');

interface Worker {
  child: ChildProcess;
  exited: Promise<number | null>;
}

function startWorker(databaseUrl: string): Worker {
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

/**
 * An API node (it only enqueues) and `inlay worker` processes on one database, a fake provider that counts
 * calls per `{{ execution.stepKey }}`, and a workflow of a step, a five-item forEach and a last step. The
 * first call of iteration 2 is held (`hold`): the step is in flight while a test stops its worker or the
 * database.
 */
function resumeHarness(name: string, database: () => Promise<{ url: string; drop(): Promise<void> }>) {
  const h = {
    api: undefined as unknown as Service,
    apiKey: '',
    userId: '',
    workflowId: '',
    /** Calls the fake provider received, per step key. */
    calls: new Map<string, number>(),
    /** Answers the held call (it hangs until then; a worker that gave up on it never reads the answer). */
    release: () => {},
    workers: [] as Worker[],
    ids: { first: randomUUID(), loop: randomUUID(), inner: randomUUID(), last: randomUUID() },
  };
  let provider: Upstream;
  let db: { url: string; drop(): Promise<void> };
  /** The first call of a key ending like this is held. */
  let holdOn = '';

  beforeAll(async () => {
    db = await database();
    provider = await startUpstream((s) => {
      const key = String(s.body?.key);
      const n = (h.calls.get(key) ?? 0) + 1;
      h.calls.set(key, n);
      const answer = { body: { ok: true, key } };
      if (n === 1 && holdOn && key.endsWith(holdOn))
        return new Promise((r) => {
          h.release = () => r(answer);
        });
      return answer;
    });
    h.api = await startService({
      env: { DATABASE_URL: db.url, INLAY_QUEUE: 'pg-boss', INLAY_RUN_WORKERS: 'false' },
    });
    ({ apiKey: h.apiKey } = await h.api.account(name));
    h.userId = await createUser(h.api, h.apiKey, 'resumer');
    const post = (id: string) => ({
      id,
      connector: 'http',
      action: 'request',
      retries: 0,
      input: { method: 'POST', url: `${provider.url}/call`, body: { key: '{{ execution.stepKey }}' } },
    });
    h.workflowId = await publish(
      h.api,
      h.apiKey,
      {
        trigger: { type: 'manual' as const },
        steps: [
          post(h.ids.first),
          { id: h.ids.loop, type: 'forEach' as const, items: '{{ [0..4] }}', steps: [post(h.ids.inner)] },
          post(h.ids.last),
        ],
        config: [],
      },
      name,
    );
    await install(h.api, h.apiKey, h.userId, [h.workflowId]);
  }, 120_000);

  afterAll(async () => {
    for (const w of h.workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await Promise.all(h.workers.map((w) => w.exited));
    await h.api?.close();
    await provider?.close();
    await db?.drop();
  });

  /** Starts a worker and waits until it takes jobs. */
  const spawn = async () => {
    const w = startWorker(db.url);
    h.workers.push(w);
    await waitForOutput(w.child, (l) => l.includes('inlay worker started'), 60_000);
    return w;
  };

  /**
   * Runs the workflow until iteration 2's call is in flight, then `fault`s (it returns once another worker
   * may take the run over) and waits for the run to end.
   */
  async function runThrough(fault: (executionId: string) => Promise<void>) {
    const r = await h.api.call('POST', '/run/workflow', {
      auth: h.apiKey,
      body: { workflowId: h.workflowId, userId: h.userId },
    });
    expect(r.status).toBe(200);
    const [executionId] = r.body.executionIds as string[];
    holdOn = `${executionId}:${h.ids.inner}:2`;
    await eventually('iteration 2 to start', () => h.calls.has(holdOn), { timeout: 60_000, interval: 25 });
    await fault(executionId!);
    const [row] = await waitForRuns(h.api, [executionId!], 90_000);
    return { executionId: executionId!, row: row! };
  }

  /**
   * Every completed step ran once; only the step in flight (iteration 2) ran twice, or once when `taken` says
   * the run was not taken over. Returns the figures: calls to completed steps, how many of them repeated,
   * and calls to the step in flight.
   */
  async function expectResumed(executionId: string, taken = true) {
    const mine = [...h.calls].filter(([k]) => k.startsWith(`${executionId}:`));
    const inFlight = `${executionId}:${h.ids.inner}:2`;
    const repeated = mine.filter(([, n]) => n > 1).map(([k]) => k);
    expect(repeated).toEqual(taken ? [inFlight] : []);
    expect(mine.map(([k]) => k).sort()).toEqual(
      [
        `${executionId}:${h.ids.first}`,
        ...[0, 1, 2, 3, 4].map((i) => `${executionId}:${h.ids.inner}:${i}`),
        `${executionId}:${h.ids.last}`,
      ].sort(),
    );
    const rows = await h.api.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionId, executionId));
    // One row per occurrence: nothing recorded twice, nothing lost.
    expect(rows.map((s) => s.stepKey).sort()).toEqual(
      [h.ids.first, h.ids.loop, ...[0, 1, 2, 3, 4].map((i) => `${h.ids.inner}:${i}`), h.ids.last].sort(),
    );
    const loop = rows.find((s) => s.stepId === h.ids.loop)!;
    expect((loop.data as unknown[][])[0]).toHaveLength(5);
    const completed = mine.filter(([k]) => k !== inFlight);
    return {
      completedCalls: completed.reduce((n, [, c]) => n + c, 0),
      completedRepeated: completed.filter(([, c]) => c > 1).length,
      inFlightCalls: h.calls.get(inFlight)!,
    };
  }

  return Object.assign(h, { spawn, runThrough, expectResumed });
}

const figures = (what: string, f: Awaited<ReturnType<ReturnType<typeof resumeHarness>['expectResumed']>>) =>
  console.log(
    `durable-resume: ${what}: 1 run, ${f.completedCalls} calls of completed steps (${f.completedRepeated} repeated), the step in flight called ${f.inFlightCalls} times`,
  );

describe.skipIf(!onPostgres)('durable resume across worker loss (PostgreSQL only; skipped on PGlite)', () => {
  const h = resumeHarness('resume', () => privateDatabase('inlay_resume'));

  it('a worker killed with SIGKILL mid-forEach: the run resumes elsewhere, repeating only the step in flight', async () => {
    const victim = await h.spawn();
    const killed = await h.runThrough(async () => {
      victim.child.kill('SIGKILL');
      await victim.exited;
      // Another worker takes the run over once its lease lapsed.
      await h.spawn();
    });
    expect(killed.row).toMatchObject({ status: 'succeeded', attempts: 2 });
    figures('kill -9 of the worker', await h.expectResumed(killed.executionId));

    // A SIGTERM hands the run in flight back; the next worker resumes it the same way (at once).
    const holder = h.workers.at(-1)!;
    const handed = await h.runThrough(async () => {
      holder.child.kill('SIGTERM');
      expect(await holder.exited).toBe(0);
      await h.spawn();
    });
    expect(handed.row).toMatchObject({ status: 'succeeded', attempts: 2 });
    figures('SIGTERM hand-back', await h.expectResumed(handed.executionId));
  }, 240_000);
});

describe.skipIf(!bin)('durable resume across a PostgreSQL restart (a private cluster)', () => {
  let pg: Awaited<ReturnType<typeof startPrivatePostgres>>;
  const h = resumeHarness('pg-restart', async () => {
    pg = await startPrivatePostgres();
    return { url: pg.url, drop: () => pg.destroy() };
  });
  /** Longer than the lease: the run's lease has lapsed by the clock when the database is back. */
  const outage = () => new Promise((r) => setTimeout(r, LEASE_MS + 1000));

  it('the step in flight outlives the outage: the run goes on from its last recorded step once PostgreSQL is back', async () => {
    await h.spawn();
    const run = await h.runThrough(async () => {
      pg.stop();
      await outage();
      pg.start();
      // Answered once the database is back: the worker's heartbeat renews the lapsed lease and the run goes on
      // (attempt 1), or its sweeper takes the run over first and resumes it (attempt 2, which calls the step
      // again; attempt 1's write of it is then refused). Either way no completed step runs again.
      h.release();
    });
    expect(run.row.status).toBe('succeeded');
    expect([1, 2]).toContain(run.row.attempts);
    figures(
      `PostgreSQL restart, call in flight throughout (attempt ${run.row.attempts})`,
      await h.expectResumed(run.executionId, run.row.attempts === 2),
    );
  }, 240_000);

  it('the step in flight ends while PostgreSQL is down (its result cannot be written): only that step runs again', async () => {
    const worker = h.workers.at(-1)!;
    const run = await h.runThrough(async () => {
      pg.stop();
      const failed = waitForOutput(worker.child, (l) => l.includes('execution crashed'), 60_000);
      h.release();
      await failed;
      await outage();
      pg.start();
    });
    expect(run.row).toMatchObject({ status: 'succeeded', attempts: 2 });
    figures('PostgreSQL restart, call answered during the outage', await h.expectResumed(run.executionId));
  }, 240_000);
});

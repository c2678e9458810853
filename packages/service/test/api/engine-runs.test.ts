import { randomUUID } from 'node:crypto';
import { connectorUuid } from '@inlay/connectors';
import { install, logsOf, publish, waitForRuns } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser, insertExecutions } from '@inlay/test-kit/fixtures';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../../src/engine/retention.ts';
import { RunStore } from '../../src/engine/runs.ts';
import { executionSteps, executions, webhookDeliveries, webhookEndpoints } from '../../src/store/schema.ts';

let svc: Service;
let apiKey: string;
let accountId: string;
let userId: string;
let workflowId: string;
let installationId: string;
const firstStep = randomUUID();

beforeAll(async () => {
  svc = await startService({ env: { INLAY_RUN_MAX_ATTEMPTS: '3' } });
  ({ apiKey, accountId } = await svc.account('runs'));
  userId = await createUser(svc, apiKey, 'runner');
  workflowId = await publish(
    svc,
    apiKey,
    {
      trigger: { type: 'manual' },
      steps: [
        { id: firstStep, connector: 'transform', action: 'map', input: { expression: '{"a": 1}' } },
        { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: 'trigger.n * 2' } },
      ],
      config: [],
    },
    'two steps',
  );
  installationId = (await install(svc, apiKey, userId, [workflowId])).installationId;
});
afterAll(() => svc?.close());

const newRun = () => ({
  accountId,
  userId,
  workflowId,
  installationId,
  version: 1,
  trigger: { n: 21 },
  triggerType: 'manual',
});

/** A run some worker claimed and then lost: running, lease lapsed, its first step recorded (as `{"a": 7}`). */
async function lostRun(attempts: number) {
  const store = new RunStore(svc.db, { leaseMs: 60_000, dispatchTimeoutMs: 60_000, maxAttempts: 3 });
  const [id] = await store.create([newRun()]);
  await svc.db
    .update(executions)
    .set({ status: 'running', attempts, leaseUntil: sql`now() - interval '1 second'` })
    .where(eq(executions.id, id!));
  await svc.db.insert(executionSteps).values({
    executionId: id!,
    position: 0,
    userId,
    stepId: firstStep,
    stepKey: firstStep,
    connector: 'transform',
    connectorId: connectorUuid('transform'),
    action: 'map',
    status: 'succeeded',
    input: {},
    data: [[{ id: randomUUID(), json: { a: 7 } }]],
    startedAt: new Date(),
  });
  return id!;
}

describe('RunStore', () => {
  it('lets exactly one of many concurrent claims take a queued run', async () => {
    const store = new RunStore(svc.db, { leaseMs: 60_000, dispatchTimeoutMs: 60_000, maxAttempts: 3 });
    const [id] = await store.create([newRun()]);
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim(id!)));
    const won = claims.filter(Boolean);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ id, status: 'running', attempts: 1 });
    expect(won[0]!.leaseUntil!.getTime()).toBeGreaterThan(Date.now());
    // Only the owner of this attempt may renew or finish it.
    expect(await store.heartbeat({ executionId: id!, attempt: 2 })).toBe(false);
    expect(await store.finish({ executionId: id!, attempt: 2 }, {})).toBe(false);
    expect(await store.heartbeat({ executionId: id!, attempt: 1 })).toBe(true);
    expect(await store.finish({ executionId: id!, attempt: 1 }, {})).toBe(true);
    expect(await store.claim(id!)).toBeUndefined();
  });

  it('records steps, and the unrecorded ones with the run’s end, only for the claim that owns the run', async () => {
    const store = new RunStore(svc.db, { leaseMs: 60_000, dispatchTimeoutMs: 60_000, maxAttempts: 3 });
    const [id] = await store.create([newRun()]);
    await store.claim(id!);
    const step = (position: number, extra: Partial<typeof executionSteps.$inferInsert> = {}) => ({
      executionId: id!,
      position,
      userId,
      stepId: `s${position}`,
      name: position === 2 ? 'Last step' : null,
      connector: 'transform',
      connectorId: connectorUuid('transform'),
      action: 'map',
      status: 'succeeded' as const,
      input: { expression: 'x', text: 'it’s "quoted"' },
      data: [[{ id: randomUUID(), json: { n: position, nested: [1, null, 'a'] } }]],
      startedAt: new Date('2026-01-02T03:04:05.678Z'),
      stoppedAt: new Date('2026-01-02T03:04:06.789Z'),
      ...extra,
    });
    // A worker that lost the run writes nothing, neither a step nor the end.
    await expect(store.recordStep({ executionId: id!, attempt: 2 }, step(0))).rejects.toThrow(/no longer/);
    expect(await store.finish({ executionId: id!, attempt: 2 }, {}, [step(0)])).toBe(false);
    const first = step(0);
    await store.recordStep({ executionId: id!, attempt: 1 }, first);
    const failure = { code: 'http_error', message: 'HTTP 500' };
    const second = step(1, { input: 42 });
    const last = step(2, { status: 'failed', input: null, error: failure, attempts: 3, truncated: true });
    expect(await store.finish({ executionId: id!, attempt: 1 }, { error: failure }, [second, last])).toBe(
      true,
    );
    const rows = await svc.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionId, id!))
      .orderBy(executionSteps.position);
    const added = { stepKey: null, iteration: null, parentStepId: null, branch: null, output: null };
    const defaults = { attempts: 1, error: null, truncated: false, ...added };
    expect(rows).toEqual([
      { ...first, ...defaults },
      { ...second, ...defaults },
      { ...last, ...added },
    ]);
    const [run] = await svc.db.select().from(executions).where(eq(executions.id, id!));
    expect(run).toMatchObject({ status: 'failed', finished: false, error: failure, leaseUntil: null });
    expect(run!.stoppedAt).toBeInstanceOf(Date);
  });

  it('sweeps a lapsed run back to the queue with its recorded steps, or fails it after the last attempt', async () => {
    const store = new RunStore(svc.db, { leaseMs: 60_000, dispatchTimeoutMs: 60_000, maxAttempts: 3 });
    const again = await lostRun(1);
    const dead = await lostRun(3);
    const swept = await store.sweep();
    expect(swept).toContain(again);
    expect(swept).not.toContain(dead);
    const rows = await svc.db
      .select()
      .from(executions)
      .where(inArray(executions.id, [again, dead]));
    expect(rows.find((r) => r.id === again)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(rows.find((r) => r.id === dead)).toMatchObject({
      status: 'failed',
      finished: false,
      leaseUntil: null,
      error: { code: 'worker_lost', message: expect.stringContaining('gave up after 3 attempts') },
    });
    expect(rows.find((r) => r.id === dead)!.stoppedAt).toBeInstanceOf(Date);
    // Kept: the run resumes after them.
    const kept = await svc.db.select().from(executionSteps).where(eq(executionSteps.executionId, again));
    expect(kept.map((r) => r.stepId)).toEqual([firstStep]);
  });
});

describe('a run whose worker died', () => {
  it('is taken over by the engine’s sweep and resumes after its recorded step, which does not run again', async () => {
    const id = await lostRun(1);
    await svc.app.workflowEngine.sweep();
    const [row] = await waitForRuns(svc, [id]);
    expect(row).toMatchObject({ status: 'succeeded', finished: true, attempts: 2 });
    const entry = (await logsOf(svc, apiKey, workflowId, userId)).find((e) => e.executionId === id);
    expect(entry.results.map((r: { stepId: string }) => r.stepId)[0]).toBe(firstStep);
    // The recorded `{"a": 7}` stays (a rerun of the step would give `{"a": 1}`). A value that is not an
    // object is held as `{value}`: the seed types an item's `json` as an object.
    expect(entry.results.map((r: any) => r.data[0][0].json)).toEqual([{ a: 7 }, { value: 42 }]);
  });

  it('is marked failed with the reason after its last attempt, never left running', async () => {
    const id = await lostRun(3);
    await svc.app.workflowEngine.sweep();
    const entry = (await logsOf(svc, apiKey, workflowId, userId)).find((e) => e.executionId === id);
    expect(entry).toMatchObject({
      status: 'failed',
      finished: false,
      stoppedAt: expect.any(String),
      error: { code: 'worker_lost', message: expect.stringContaining('stopped before it finished') },
    });
  });
});

describe('retention', () => {
  it('purges finished executions older than the retention, with their steps; running and recent ones stay', async () => {
    const s = { accountId, userId, workflowId };
    const old = await insertExecutions(svc.db, s, 3, Date.parse('2020-01-01T00:00:00.000Z'));
    const recent = await insertExecutions(svc.db, s, 2, Date.parse('2020-02-10T00:00:00.000Z'));
    const running = randomUUID();
    await svc.db.insert(executions).values({
      id: running,
      accountId,
      userId,
      workflowId,
      version: 1,
      status: 'running',
      trigger: {},
      triggerType: 'manual',
      startedAt: new Date('2020-01-01T00:00:00.000Z'),
    });
    // "Now" is 2020-02-15: other tests' rows (later dates) are out of reach even on a shared database.
    const purged = await purgeExpired(svc.db, 30, 2, Date.parse('2020-02-15T00:00:00.000Z'));
    expect(purged.executions).toBe(3);
    const left = await svc.db
      .select({ id: executions.id })
      .from(executions)
      .where(inArray(executions.id, [...old, ...recent, running]));
    expect(left.map((r) => r.id).sort()).toEqual([...recent, running].sort());
    expect(
      await svc.db.select().from(executionSteps).where(inArray(executionSteps.executionId, old)),
    ).toEqual([]);
    await svc.db.delete(executions).where(eq(executions.id, running));
  });

  it("keeps each account's runs for its own retention (PUT /settings {logRetentionDays}), not another's", async () => {
    // "Now" is 2020-03-15: other tests' rows (later dates) are out of reach even on a shared database.
    const now = Date.parse('2020-03-15T00:00:00.000Z');
    const day = 86_400_000;
    // Two accounts: "short" keeps its runs 7 days, "standard" follows the service's 30.
    const short = await svc.account('retention-short');
    const standard = await svc.account('retention-standard');
    const put = await svc.call('PUT', '/settings', { auth: short.apiKey, body: { logRetentionDays: 7 } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data).toMatchObject({ logRetentionDays: 7, ownLogRetention: true });
    const runsOf = async (a: { apiKey: string; accountId: string }, label: string) => {
      const userId = await createUser(svc, a.apiKey, `${label}-user`);
      const definition = {
        trigger: { type: 'manual' as const },
        steps: [{ id: randomUUID(), connector: 'delay', action: 'wait', input: { ms: 0 } }],
        config: [],
      };
      const s = {
        accountId: a.accountId,
        userId,
        workflowId: await publish(svc, a.apiKey, definition, label),
      };
      return {
        s,
        tenDaysOld: await insertExecutions(svc.db, s, 2, now - 10 * day),
        threeDaysOld: await insertExecutions(svc.db, s, 1, now - 3 * day),
      };
    };
    const shortRuns = await runsOf(short, 'short');
    const standardRuns = await runsOf(standard, 'standard');
    const all = [shortRuns, standardRuns].flatMap((r) => [...r.tenDaysOld, ...r.threeDaysOld]);

    // Counted on these rows only: older rows of other tests may go too.
    const left = async (ids: string[]) =>
      (await svc.db.select({ id: executions.id }).from(executions).where(inArray(executions.id, ids)))
        .map((r) => r.id)
        .sort();
    expect((await purgeExpired(svc.db, 30, 1000, now)).executions).toBeGreaterThanOrEqual(2);
    expect(await left(all)).toEqual(
      [...shortRuns.threeDaysOld, ...standardRuns.tenDaysOld, ...standardRuns.threeDaysOld].sort(),
    );

    // Back to the service's retention (null): a 10-day-old run of "short" stays now.
    const reset = await svc.call('PUT', '/settings', {
      auth: short.apiKey,
      body: { logRetentionDays: null },
    });
    expect(reset.body.data).toMatchObject({ logRetentionDays: 30, ownLogRetention: false });
    const again = await insertExecutions(svc.db, shortRuns.s, 1, now - 10 * day);
    await purgeExpired(svc.db, 30, 1000, now);
    expect(await left(again)).toEqual(again);
    // A service retention lowered below an account's own setting wins: 5 days sweeps the 10-day-old run.
    await svc.call('PUT', '/settings', { auth: short.apiKey, body: { logRetentionDays: 20 } });
    await purgeExpired(svc.db, 5, 1000, now);
    expect(await left(again)).toEqual([]);
    await svc.db.delete(executions).where(inArray(executions.id, all));
  });

  it("purges an account's settled webhook deliveries older than its retention; pending and recent ones stay", async () => {
    // "Now" is 2020-04-15: other tests' deliveries (later dates) are out of reach even on a shared database.
    const now = Date.parse('2020-04-15T00:00:00.000Z');
    const day = 86_400_000;
    const short = await svc.account('delivery-retention-short');
    const standard = await svc.account('delivery-retention-standard');
    await svc.call('PUT', '/settings', { auth: short.apiKey, body: { logRetentionDays: 7 } });
    const deliveries = async (a: { accountId: string }) => {
      const endpointId = randomUUID();
      await svc.db.insert(webhookEndpoints).values({
        id: endpointId,
        accountId: a.accountId,
        url: 'http://127.0.0.1:9/hook',
        events: ['execution.failed'],
        secretSealed: 'sealed',
        keyId: 'k',
      });
      const row = (status: 'pending' | 'delivered' | 'failed', ageDays: number) => ({
        id: `msg_${randomUUID().replace(/-/g, '')}`,
        endpointId,
        accountId: a.accountId,
        event: 'execution.failed',
        payload: { type: 'execution.failed', data: {} },
        status,
        attempts: status === 'pending' ? 0 : 1,
        createdAt: new Date(now - ageDays * day),
        // Not due for a year: the service's dispatcher would otherwise try the pending one at its next pass and,
        // the delivery being over a day old, fail it for good, which the purge then deletes.
        nextAttemptAt: new Date(Date.now() + 365 * day),
      });
      const rows = {
        delivered10: row('delivered', 10),
        failed10: row('failed', 10),
        pending10: row('pending', 10),
        delivered3: row('delivered', 3),
        delivered40: row('delivered', 40),
      };
      await svc.db.insert(webhookDeliveries).values(Object.values(rows));
      return { endpointId, ids: Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, r.id])) };
    };
    const s = await deliveries(short);
    const t = await deliveries(standard);
    const left = async (endpointId: string) =>
      (
        await svc.db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, endpointId))
      )
        .map((r) => r.id)
        .sort();

    // A batch of 1, so the loop has to come back for each.
    const purged = await purgeExpired(svc.db, 30, 1, now);
    expect(purged.deliveries).toBeGreaterThanOrEqual(4);
    // "short" keeps 7 days of settled deliveries; the pending one waits to settle, whatever its age.
    expect(await left(s.endpointId)).toEqual([s.ids.pending10, s.ids.delivered3].sort());
    // "standard" keeps the service's 30 days.
    expect(await left(t.endpointId)).toEqual(
      [t.ids.delivered10, t.ids.failed10, t.ids.pending10, t.ids.delivered3].sort(),
    );
    await svc.db.delete(webhookEndpoints).where(inArray(webhookEndpoints.id, [s.endpointId, t.endpointId]));
  });

  // On PostgreSQL the test database is shared by every test file: a real purge there would delete their rows.
  it.skipIf(onPostgres)(
    'runs as a scheduled job (PGlite only; it would purge other test files’ rows on a shared PostgreSQL)',
    async () => {
      const own = await startService({
        env: { INLAY_RETENTION_INTERVAL_MS: '100', INLAY_LOG_RETENTION_DAYS: '30' },
      });
      try {
        const a = await own.account('retention');
        const u = await createUser(own, a.apiKey, 'old');
        const w = await publish(
          own,
          a.apiKey,
          {
            trigger: { type: 'manual' },
            steps: [{ id: randomUUID(), connector: 'delay', action: 'wait', input: { ms: 0 } }],
            config: [],
          },
          'r',
        );
        const s = { accountId: a.accountId, userId: u, workflowId: w };
        const [old] = await insertExecutions(own.db, s, 1, Date.now() - 40 * 86_400_000);
        const [fresh] = await insertExecutions(own.db, s, 1, Date.now() - 86_400_000);
        const ids = await eventually(
          'the retention purge to remove the 40-day-old run',
          async () => {
            const listed = (await logsOf(own, a.apiKey, w, u)).map((e) => e.executionId);
            return !listed.includes(old) && listed;
          },
          { timeout: 10_000 },
        );
        expect(ids).toEqual([fresh]);
      } finally {
        await own.close();
      }
    },
  );
});

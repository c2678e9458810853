import { randomUUID } from 'node:crypto';
import type { StepError } from '@inlay/contract';
import { and, asc, eq, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { preparedPerDb } from '../store/prepared.ts';
import { executionSteps, executions } from '../store/schema.ts';
import type { Db, Tx } from '../store/store.ts';

export type ExecutionRow = typeof executions.$inferSelect;
export type NewStepRow = typeof executionSteps.$inferInsert;
export type RecordedStep = Pick<
  typeof executionSteps.$inferSelect,
  'position' | 'stepId' | 'stepKey' | 'status' | 'data' | 'output' | 'error' | 'branch'
>;

/** A run to create: which installed workflow version, for whom, started by what. */
export interface NewRun {
  accountId: string;
  userId: string;
  workflowId: string;
  /** Null for an action run, which has no installation. */
  installationId: string | null;
  version: number;
  trigger: unknown;
  triggerType: string;
  /** The event name of an `event` run. */
  event?: string | null;
  /** Filled from the definition's `summary` when the run is created (see run-summary.ts). */
  summary?: string | null;
  rerunOf?: string;
}

/** The claim of one start of a run: writes carry it so a worker that lost the run cannot write to it. */
export interface Claim {
  executionId: string;
  attempt: number;
}

/** Thrown when a run's row is gone (compliance delete) or another worker took it over. */
export class RunLost extends Error {
  override name = 'RunLost';
}

// Leases use the database clock: workers on several machines then agree on when one has expired.
const inMs = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

const toIso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/** `insert into execution_steps … select … from <cte>`: the steps land only if the CTE returned the run's id. */
const insertSteps = (steps: NewStepRow[], from: 'lease' | 'done') => sql`
  insert into execution_steps (execution_id, position, user_id, step_id, name, connector, connector_id, action,
    status, input, data, error, attempts, truncated, started_at, stopped_at, step_key, iteration, parent_step_id,
    branch, output)
  ${sql.join(
    steps.map(
      (
        step,
      ) => sql`select id, ${step.position}::int, ${step.userId}::uuid, ${step.stepId}, ${step.name ?? null}, ${step.connector},
        ${step.connectorId}::uuid, ${step.action}, ${step.status}, ${json(step.input)}::jsonb,
        ${json(step.data)}::jsonb, ${json(step.error)}::jsonb, ${step.attempts ?? 1}::int,
        ${step.truncated ?? false}::boolean, ${toIso(step.startedAt)}::timestamptz,
        ${toIso(step.stoppedAt)}::timestamptz, ${step.stepKey ?? null}, ${step.iteration ?? null}::int,
        ${step.parentStepId ?? null}, ${step.branch ?? null}, ${json(step.output)}::jsonb
      from ${sql.raw(from)}`,
    ),
    sql` union all `,
  )}
  returning execution_id`;

// On every run's path, so a prepared statement rather than the query builder (which costs half a millisecond here).
const claimStatement = preparedPerDb<ExecutionRow>(
  'inlay_claim_run',
  `update executions set status = 'running', attempts = attempts + 1,
     lease_until = now() + $2::int * interval '1 millisecond', started_at = $3::timestamptz
   where id = $1::uuid and status = 'queued'
   returning id, account_id as "accountId", user_id as "userId", workflow_id as "workflowId",
     installation_id as "installationId", version, status, finished, trigger, trigger_type as "triggerType", event,
     summary, error,
     rerun_of as "rerunOf", attempts, lease_until as "leaseUntil", started_at as "startedAt",
     stopped_at as "stoppedAt", created_at as "createdAt"`,
);

const owned = (c: Claim) =>
  and(eq(executions.id, c.executionId), eq(executions.status, 'running'), eq(executions.attempts, c.attempt));

/**
 * The executions table is the queue's source of truth: a row is `queued` until a worker claims it
 * (`running`, with a lease it renews), then `succeeded` or `failed`. For a queued row `leaseUntil` is the
 * time by which a worker should have claimed it, after which it is dispatched again.
 */
export class RunStore {
  constructor(
    private readonly db: Db,
    private readonly opts: {
      leaseMs: number;
      dispatchTimeoutMs: number;
      maxAttempts: number;
      /** Fills each new run's `summary` (in `tx` when the runs are created in one). */
      summarize?: (runs: NewRun[], tx: Db | Tx) => Promise<void>;
    },
  ) {}

  /** Inserts queued rows (inside `tx` when given) and returns their ids in order. */
  async create(runs: NewRun[], tx: Db | Tx = this.db): Promise<string[]> {
    if (runs.length === 0) return [];
    await this.opts.summarize?.(runs, tx);
    const now = new Date();
    const rows = runs.map((r) => ({
      id: randomUUID(),
      accountId: r.accountId,
      userId: r.userId,
      workflowId: r.workflowId,
      installationId: r.installationId,
      version: r.version,
      status: 'queued' as const,
      finished: false,
      trigger: r.trigger ?? {},
      triggerType: r.triggerType,
      event: r.event ?? null,
      summary: r.summary ?? null,
      rerunOf: r.rerunOf ?? null,
      leaseUntil: inMs(this.opts.dispatchTimeoutMs),
      startedAt: now,
    }));
    await tx.insert(executions).values(rows);
    return rows.map((r) => r.id);
  }

  /** Inserts a run already claimed by the caller (attempt 1, leased), for work done right away. */
  async createRunning(run: NewRun): Promise<ExecutionRow> {
    const [row] = await this.db
      .insert(executions)
      .values({
        id: randomUUID(),
        accountId: run.accountId,
        userId: run.userId,
        workflowId: run.workflowId,
        installationId: run.installationId,
        version: run.version,
        status: 'running',
        finished: false,
        trigger: run.trigger ?? {},
        triggerType: run.triggerType,
        rerunOf: run.rerunOf ?? null,
        attempts: 1,
        leaseUntil: inMs(this.opts.leaseMs),
        startedAt: new Date(),
      })
      .returning();
    return row!;
  }

  /** Takes a queued run for this worker; undefined when it is gone, taken, or done. */
  async claim(executionId: string): Promise<ExecutionRow | undefined> {
    const [row] = await claimStatement(this.db)([executionId, this.opts.leaseMs, new Date().toISOString()]);
    return row;
  }

  /** Renews the lease; false when the run is no longer this worker's. */
  async heartbeat(c: Claim): Promise<boolean> {
    const rows = await this.db
      .update(executions)
      .set({ leaseUntil: inMs(this.opts.leaseMs) })
      .where(owned(c))
      .returning({ id: executions.id });
    return rows.length > 0;
  }

  /**
   * Records finished steps, renewing the lease in the same statement (one round trip: this is on the run's
   * path); throws RunLost when the run is no longer this worker's, and then writes nothing.
   */
  async recordSteps(c: Claim, steps: NewStepRow[]): Promise<void> {
    if (steps.length === 0) return;
    const rows = await this.#rows(sql`
      with lease as (
        update executions set lease_until = ${inMs(this.opts.leaseMs)}
        where id = ${c.executionId} and status = 'running' and attempts = ${c.attempt}
        returning id
      )
      ${insertSteps(steps, 'lease')}`);
    if (rows.length === 0) throw new RunLost(`execution ${c.executionId} is no longer this worker's`);
  }

  recordStep(c: Claim, step: NewStepRow): Promise<void> {
    return this.recordSteps(c, [step]);
  }

  /**
   * The steps a run recorded before it was taken over (a resumed run skips them), oldest first. Only what
   * resuming needs: the occurrence, its end, and what later steps saw of it.
   */
  async recordedSteps(executionId: string): Promise<RecordedStep[]> {
    return this.db
      .select({
        position: executionSteps.position,
        stepId: executionSteps.stepId,
        stepKey: executionSteps.stepKey,
        status: executionSteps.status,
        data: executionSteps.data,
        output: executionSteps.output,
        error: executionSteps.error,
        branch: executionSteps.branch,
      })
      .from(executionSteps)
      .where(eq(executionSteps.executionId, executionId))
      .orderBy(asc(executionSteps.position));
  }

  /**
   * Ends a run. Only the owner's write lands: a deleted row stays deleted. `steps` not recorded yet (the
   * one that ended the run, at least) are written in the same statement, or not at all, like the end itself.
   */
  async finish(c: Claim, outcome: { error?: StepError }, steps: NewStepRow[] = []): Promise<boolean> {
    const end = {
      status: outcome.error ? ('failed' as const) : ('succeeded' as const),
      finished: !outcome.error,
      error: outcome.error ?? null,
      stoppedAt: new Date(),
    };
    if (steps.length) {
      const rows = await this.#rows(sql`
        with done as (
          update executions set status = ${end.status}, finished = ${end.finished},
            error = ${json(end.error)}::jsonb, stopped_at = ${end.stoppedAt.toISOString()}::timestamptz,
            lease_until = null
          where id = ${c.executionId} and status = 'running' and attempts = ${c.attempt}
          returning id
        )
        ${insertSteps(steps, 'done')}`);
      return rows.length > 0;
    }
    const rows = await this.db
      .update(executions)
      .set({ ...end, leaseUntil: null })
      .where(owned(c))
      .returning({ id: executions.id });
    return rows.length > 0;
  }

  async #rows(query: SQL): Promise<unknown[]> {
    // node-postgres and PGlite both answer with `rows`.
    return ((await this.db.execute(query)) as unknown as { rows: unknown[] }).rows;
  }

  /** Lets the lease lapse now so the next sweep hands the run to another worker (used on shutdown). */
  async release(c: Claim): Promise<void> {
    await this.db.update(executions).set({ leaseUntil: sql`now()` }).where(owned(c));
  }

  /**
   * Recovers runs whose lease lapsed: a queued run whose dispatch was lost is dispatched again; a running
   * run whose worker died is queued again (it resumes after its recorded steps) or, after `maxAttempts` starts,
   * failed with the reason. Rows are locked with SKIP LOCKED, so concurrent sweepers split the work.
   * `everything` (single-process PGlite at start) treats every pending row as lapsed.
   */
  async sweep(opts: { everything?: boolean; limit?: number } = {}): Promise<string[]> {
    const limit = opts.limit ?? 500;
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: executions.id, status: executions.status, attempts: executions.attempts })
        .from(executions)
        .where(
          and(
            inArray(executions.status, ['queued', 'running']),
            opts.everything
              ? undefined
              : or(isNull(executions.leaseUntil), lt(executions.leaseUntil, sql`now()`)),
          ),
        )
        .orderBy(asc(executions.leaseUntil))
        .limit(limit)
        .for('update', { skipLocked: true });
      const requeue = rows.filter((r) => r.status === 'queued' || r.attempts < this.opts.maxAttempts);
      const lost = rows.filter((r) => r.status === 'running' && r.attempts >= this.opts.maxAttempts);
      if (requeue.length)
        await tx
          .update(executions)
          .set({ status: 'queued', leaseUntil: inMs(this.opts.dispatchTimeoutMs) })
          .where(
            inArray(
              executions.id,
              requeue.map((r) => r.id),
            ),
          );
      for (const r of lost)
        await tx
          .update(executions)
          .set({
            status: 'failed',
            finished: false,
            stoppedAt: new Date(),
            leaseUntil: null,
            error: {
              code: 'worker_lost',
              message: `The worker running this execution stopped before it finished; gave up after ${r.attempts} attempt${r.attempts === 1 ? '' : 's'}`,
            },
          })
          .where(eq(executions.id, r.id));
      return requeue.map((r) => r.id);
    });
  }
}

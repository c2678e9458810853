import type { AppContext } from '../context.ts';
import { carrier, contextOf, inSpan, SpanKind, trace as traceApi, tracing } from '../tracing/tracing.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import { type ActionOutcome, type ActionRequest, actionRun, runAction } from './action-run.ts';
import { pollDueTriggers } from './app-triggers/poller.ts';
import { toggleAppTrigger } from './app-triggers/subscriptions.ts';
import { Loop } from './loop.ts';
import { MemoryQueue } from './memory-queue.ts';
import { PgBossQueue } from './pgboss-queue.ts';
import type { RunQueue } from './queue.ts';
import { type Purged, purgeExpired } from './retention.ts';
import { summarizeRuns } from './run-summary.ts';
import { loadRunParts, type RunOutcome, runExecution } from './runner.ts';
import type { RunnerContext } from './runner-context.ts';
import { type ExecutionRow, type NewRun, RunLost, RunStore } from './runs.ts';
import { fireDueSchedules, reschedule } from './scheduler.ts';

/** Why a local run was aborted: the node is stopping (hand the run back) or its user's logs are being deleted. */
class Shutdown extends Error {
  override name = 'Shutdown';
}
class Cancelled extends Error {
  override name = 'Cancelled';
}

// Retention must not fire the moment a node starts (restarts would hammer the table), nor wait for hours.
const FIRST_RETENTION_MAX_MS = 10 * 60_000;

/**
 * The workflow engine of one node: creates runs, carries them to workers through the queue, runs them
 * (when this node runs workers), and keeps the background loops: lease sweeper, scheduler, retention.
 */
export class Engine {
  readonly runs: RunStore;
  readonly queue: RunQueue;
  readonly #local = new Map<string, { userId: string; controller: AbortController; done: Promise<void> }>();
  readonly #loops: Loop[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly defs: DefinitionCache,
  ) {
    const { config, store, logger } = ctx;
    this.runs = new RunStore(ctx.db, {
      leaseMs: config.runLeaseMs,
      dispatchTimeoutMs: config.dispatchTimeoutMs,
      maxAttempts: config.runMaxAttempts,
      summarize: (runs, tx) => summarizeRuns(defs, runs, tx),
    });
    if (config.queue === 'pg-boss') {
      if (!store.pool) throw new Error('INLAY_QUEUE=pg-boss needs PostgreSQL (DATABASE_URL)');
      this.queue = new PgBossQueue(store.pool, { pollMs: config.queuePollMs, logger });
    } else this.queue = new MemoryQueue(logger);
  }

  async start(): Promise<void> {
    const { config, logger } = this.ctx;
    await this.queue.init();
    if (!config.runWorkers) {
      if (this.queue.kind === 'memory')
        logger.warn('INLAY_RUN_WORKERS=false with the in-process queue: no process will run executions');
      return;
    }
    this.queue.consume((id, trace) => this.process(id, trace), config.workerConcurrency);
    // PGlite is single-process: whatever is pending was left by this node's previous life, so take it all now.
    await this.sweep(this.ctx.store.kind === 'pglite');
    const sweepEvery = Math.min(
      30_000,
      Math.max(100, Math.min(config.runLeaseMs, config.dispatchTimeoutMs) / 2),
    );
    this.#loops.push(
      new Loop('sweeper', sweepEvery, () => this.sweep(false), logger).start(),
      new Loop('scheduler', config.schedulerIntervalMs, () => this.fireSchedules(), logger).start(),
      new Loop('app-triggers', config.schedulerIntervalMs, () => this.pollAppTriggers(), logger).start(),
      new Loop('retention', config.retentionIntervalMs, async () => void (await this.purge()), logger).start(
        Math.min(config.retentionIntervalMs, FIRST_RETENTION_MAX_MS),
      ),
    );
  }

  /** Creates queued runs and hands them to the queue; returns their execution ids. */
  async enqueue(runs: NewRun[]): Promise<string[]> {
    const ids = await this.runs.create(runs);
    await this.#dispatch(ids);
    return ids;
  }

  async #dispatch(ids: string[]): Promise<void> {
    if (!ids.length) return;
    if (tracing)
      return inSpan(
        'inlay.queue publish',
        {
          kind: SpanKind.PRODUCER,
          attributes: { 'messaging.system': this.queue.kind, 'messaging.batch.message_count': ids.length },
        },
        () => this.#send(ids, carrier()),
      );
    return this.#send(ids);
  }

  async #send(ids: string[], trace?: Record<string, string>): Promise<void> {
    try {
      await this.queue.dispatch(ids, trace);
    } catch (err) {
      // The rows are queued already: the sweeper dispatches them again once their deadline passes.
      this.ctx.logger.error({ err, count: ids.length }, 'could not dispatch runs; they will be retried');
    }
  }

  /** Re-dispatches runs whose lease lapsed (see RunStore.sweep). */
  async sweep(everything = false): Promise<void> {
    for (;;) {
      const ids = await this.runs.sweep({ everything });
      if (ids.length) {
        this.ctx.logger.info({ count: ids.length }, 'recovered pending executions');
        await this.#dispatch(ids);
      }
      if (ids.length < 500 || everything) return;
    }
  }

  async fireSchedules(now = new Date()): Promise<void> {
    for (;;) {
      const { claimed, executionIds } = await fireDueSchedules(this.ctx.db, this.runs, now);
      await this.#dispatch(executionIds);
      if (claimed < 100) return;
    }
  }

  /** Polls due app triggers (and subscribes webhook ones not armed yet); see app-triggers/poller.ts. */
  pollAppTriggers(now?: () => Date): Promise<void> {
    return pollDueTriggers(
      { ctx: this.ctx, defs: this.defs, runs: this.runs },
      (ids) => this.#dispatch(ids),
      now,
    );
  }

  /** Hands runs created in a caller's transaction to the queue (after it committed). */
  dispatch = (ids: string[]): Promise<void> => this.#dispatch(ids);

  async purge(): Promise<Purged> {
    const days = this.ctx.config.logRetentionDays;
    const purged = await purgeExpired(this.ctx.db, days);
    if (purged.executions || purged.deliveries || purged.providerCalls)
      this.ctx.logger.info({ ...purged, days }, 'purged old runs and deliveries');
    return purged;
  }

  /** Runs one execution if it can be claimed: a deleted, finished or already-taken run is skipped. */
  async process(executionId: string, trace?: Record<string, string>): Promise<void> {
    if (!tracing) return this.#process(executionId);
    // A run is the root of its own trace, linked to the request or trigger that queued it.
    const from = trace ? contextOf(trace) : undefined;
    const queued = from && traceApi.getSpanContext(from);
    return inSpan(
      'inlay.run',
      {
        kind: SpanKind.CONSUMER,
        root: true,
        attributes: { 'inlay.execution.id': executionId, 'messaging.system': this.queue.kind },
        links: queued ? [{ context: queued }] : [],
      },
      () => this.#process(executionId),
    );
  }

  async #process(executionId: string): Promise<void> {
    // What the run needs besides its row is read while the row is claimed: two round trips side by side.
    const parts = loadRunParts(this.ctx.db, executionId);
    parts.catch(() => {}); // Awaited by the run; a run never started must not leave it unhandled.
    const row = await this.runs.claim(executionId);
    if (!row) return;
    await this.#hold(row, async (signal) =>
      runExecution(await this.#runnerContext(row.accountId), this.defs, this.runs, row, signal, parts),
    );
  }

  /** What a run of this account uses: its connectors are the built-ins plus the account's own. */
  async #runnerContext(accountId: string): Promise<RunnerContext> {
    return { ...this.ctx, connectors: await this.ctx.registry.forAccount(accountId) };
  }

  /**
   * Runs one connector action now, for a user, recorded like a one-step execution (MCP
   * `execute_action_inlay`). Resolves with the execution id and, when it succeeded, the output.
   */
  async executeAction(req: ActionRequest): Promise<ActionOutcome & { executionId: string }> {
    const row = await this.runs.createRunning(actionRun(req));
    let outcome: ActionOutcome = {
      error: { code: 'cancelled', message: 'The action was cancelled before it finished' },
    };
    await this.#hold(row, async (signal) => {
      outcome = await runAction(await this.#runnerContext(row.accountId), this.runs, row, req, signal);
      return outcome;
    });
    return { executionId: row.id, ...outcome };
  }

  /**
   * Holds a claimed run while `work` runs it: renews its lease, records the outcome, and on a crash or a
   * shutdown leaves the row in a state the sweeper can recover (handed back, or failed with a reason).
   */
  async #hold(row: ExecutionRow, work: (signal: AbortSignal) => Promise<RunOutcome>): Promise<void> {
    const { logger, config } = this.ctx;
    const executionId = row.id;
    const claim = { executionId, attempt: row.attempts };
    const controller = new AbortController();
    let settle!: () => void;
    const done = new Promise<void>((r) => (settle = r));
    this.#local.set(executionId, { userId: row.userId, controller, done });
    const beat = setInterval(
      () => {
        this.runs
          .heartbeat(claim)
          .then((mine) => {
            if (!mine) controller.abort(new RunLost(`execution ${executionId} was deleted or taken over`));
          })
          .catch((err) => logger.warn({ err, executionId }, 'lease heartbeat failed'));
      },
      Math.max(100, Math.floor(config.runLeaseMs / 3)),
    );
    const started = Date.now();
    try {
      const outcome = await work(controller.signal);
      const finished = await this.runs.finish(claim, outcome, outcome.unrecorded);
      if (finished && outcome.error)
        void this.ctx.events.emit(row.accountId, 'execution.failed', {
          executionId,
          workflowId: row.workflowId,
          userId: row.userId,
          installationId: row.installationId,
          error: { code: outcome.error.code, message: outcome.error.message },
        });
      if (finished && tracing)
        traceApi.getActiveSpan()?.setAttributes({
          'inlay.workflow.id': row.workflowId,
          'inlay.run.trigger': row.triggerType,
          'inlay.run.attempt': row.attempts,
          'inlay.run.status': outcome.error ? 'failed' : 'succeeded',
          ...(outcome.error ? { 'inlay.run.error': outcome.error.code ?? 'failed' } : {}),
        });
      if (finished)
        this.ctx.metrics?.run(outcome.error ? 'failed' : 'succeeded', row.triggerType, Date.now() - started);
      if (finished)
        logger.info(
          {
            executionId,
            workflowId: row.workflowId,
            status: outcome.error ? 'failed' : 'succeeded',
            attempt: row.attempts,
            ms: Date.now() - started,
          },
          'execution finished',
        );
    } catch (err) {
      const reason = controller.signal.aborted ? controller.signal.reason : err;
      if (reason instanceof Shutdown) {
        await this.runs.release(claim).catch(() => {});
        logger.info({ executionId }, 'execution handed back on shutdown');
      } else if (reason instanceof RunLost || reason instanceof Cancelled) {
        logger.info({ executionId, reason: (reason as Error).message }, 'execution abandoned');
      } else {
        logger.error({ err, executionId }, 'execution crashed');
        this.ctx.metrics?.run('failed', row.triggerType, Date.now() - started);
        // Left running, the lease would lapse and the run be retried; a bug would then repeat itself.
        await this.runs
          .finish(claim, {
            error: { code: 'internal', message: 'The engine failed while running this execution' },
          })
          .catch(() => {});
      }
    } finally {
      clearInterval(beat);
      this.#local.delete(executionId);
      settle();
    }
  }

  /** Stops this node's runs of a user (before a compliance delete); their rows are about to go. */
  async cancelUser(_accountId: string, userId: string): Promise<void> {
    const mine = [...this.#local.values()].filter((r) => r.userId === userId);
    for (const r of mine) r.controller.abort(new Cancelled('the user’s logs are being deleted'));
    await Promise.all(mine.map((r) => r.done));
  }

  /** `WorkflowHooks.onToggle`: a schedule's next run follows the switch. */
  onToggle = async (userId: string, workflowId: string, active: boolean) => {
    await reschedule(this.ctx.db, userId, workflowId, active);
    await toggleAppTrigger(this.ctx, this.defs, userId, workflowId, active);
  };

  /** Stops the loops, lets running executions finish (up to the drain timeout), then hands back the rest. */
  async stop(): Promise<void> {
    await Promise.all(this.#loops.map((l) => l.stop()));
    const drained = await this.queue.drain(this.ctx.config.drainTimeoutMs);
    if (!drained) {
      const left = [...this.#local.values()];
      for (const r of left) r.controller.abort(new Shutdown('the node is stopping'));
      await Promise.all(left.map((r) => r.done));
    }
    await this.queue.close();
  }
}

import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from '../logger.ts';
import { type RunHandler, type RunQueue, Wakeup, waitIdle } from './queue.ts';
import { announceRuns, listenForRuns } from './run-notices.ts';

export const RUN_QUEUE = 'inlay-run';

interface RunJob {
  executionId: string;
  /** The trace context of whoever queued the run (only when tracing). */
  trace?: Record<string, string>;
}

/**
 * The PostgreSQL transport: pg-boss 10 on the store's pool. API nodes only `dispatch`; workers `consume`
 * with their own fetch loop, which takes exactly as many jobs as it has free slots and fetches again as
 * soon as one frees up (pg-boss's `work()` would wait a full polling interval between batches).
 * pg-boss does not retry: a lost run is recovered from its lapsed lease in the executions table.
 * Enqueuing also sends a NOTIFY that wakes idle workers at once; `pollMs` is only the fallback.
 */
export class PgBossQueue implements RunQueue {
  readonly kind = 'pg-boss';
  readonly #boss: PgBoss;
  readonly #wake = new Wakeup();
  #active = 0;
  #stopped = false;
  #loop?: Promise<void>;
  #notices?: { close(): Promise<void> };
  /** Each job's completion, until pg-boss has recorded it: shutdown waits for them. */
  readonly #settling = new Set<Promise<void>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly opts: { pollMs: number; logger: Logger },
  ) {
    this.#boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      // pg-boss's own cron is not used: the engine schedules from `user_workflows`.
      schedule: false,
      supervise: true,
    });
    this.#boss.on('error', (err) => opts.logger.error({ err }, 'pg-boss error'));
  }

  async init(): Promise<void> {
    await this.#boss.start();
    await this.#boss.createQueue(RUN_QUEUE, {
      name: RUN_QUEUE,
      policy: 'standard',
      retryLimit: 0,
      // Long runs are fine: the lease in the executions table, not pg-boss expiry, detects a dead worker.
      expireInSeconds: 6 * 3600,
    });
  }

  async dispatch(ids: string[], trace?: Record<string, string>): Promise<void> {
    if (ids.length === 0) return;
    await this.#boss.insert(
      ids.map((executionId) => ({
        name: RUN_QUEUE,
        data: trace ? { executionId, trace } : { executionId },
        retryLimit: 0,
      })),
    );
    // A worker in this process need not wait for its next poll; workers elsewhere hear the notice.
    this.#wake.wake();
    await announceRuns(this.pool).catch((err) =>
      this.opts.logger.warn({ err }, 'could not announce runs; workers find them at their next poll'),
    );
  }

  consume(handler: RunHandler, concurrency: number): void {
    this.#notices ??= listenForRuns(this.pool, () => this.#wake.wake(), this.opts.logger);
    this.#loop ??= this.#fetchLoop(handler, concurrency);
  }

  async #fetchLoop(handler: RunHandler, concurrency: number): Promise<void> {
    while (!this.#stopped) {
      const free = concurrency - this.#active;
      let got = 0;
      if (free > 0) {
        try {
          const jobs = await this.#boss.fetch<RunJob>(RUN_QUEUE, { batchSize: free });
          got = jobs.length;
          for (const job of jobs) this.#run(handler, job);
        } catch (err) {
          this.opts.logger.error({ err }, 'could not fetch run jobs');
        }
      }
      if (this.#stopped) break;
      // More jobs may be waiting when a full batch came back and slots are left; otherwise wait.
      if (got === 0 || got >= free) await this.#wake.wait(this.opts.pollMs);
    }
  }

  /**
   * Runs a job's execution, then completes the job, whatever became of the run: finished, failed or handed
   * back on shutdown (the executions table then has it queued again, and the sweeper dispatches a new job).
   */
  #run(handler: RunHandler, job: PgBoss.Job<RunJob>): void {
    this.#active++;
    const settled: Promise<void> = handler(job.data.executionId, job.data.trace)
      .catch((err) =>
        this.opts.logger.error({ err, executionId: job.data.executionId }, 'run handler failed'),
      )
      .then(() => this.#boss.complete(RUN_QUEUE, job.id))
      .then(
        () => undefined,
        (err) => this.opts.logger.warn({ err, jobId: job.id }, 'could not complete run job'),
      )
      .finally(() => {
        this.#settling.delete(settled);
        this.#active--;
        this.#wake.wake();
      });
    this.#settling.add(settled);
  }

  async drain(timeoutMs: number): Promise<boolean> {
    this.#stopped = true;
    this.#wake.wake();
    await this.#loop;
    return waitIdle(() => this.#active, timeoutMs);
  }

  async close(): Promise<void> {
    await this.#notices?.close();
    // Runs handed back on shutdown settle just before this: their jobs are completed, not left `active`
    // until pg-boss's expiry.
    await Promise.race([
      Promise.allSettled([...this.#settling]),
      new Promise((r) => setTimeout(r, 5_000).unref()),
    ]);
    // The pool is the store's: pg-boss must not end it.
    await this.#boss.stop({ close: false, graceful: false, wait: true });
  }
}

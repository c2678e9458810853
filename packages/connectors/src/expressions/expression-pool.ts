import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { ConnectorError } from '../errors.ts';
import { TenantQueue } from './tenant-queue.ts';
import { WORKER_SOURCE } from './worker-source.ts';

export interface ExpressionPoolOptions {
  /** Worker processes evaluating at once; more expressions wait their turn. */
  workers: number;
  /** Heap budget of one evaluation, in MB: beyond it the expression fails with `expression_memory`. */
  memoryMb: number;
  /**
   * The workers' niceness, 0 – 19 (default 19, the lowest priority): expressions yield the CPU to the service,
   * so the API keeps its latency while a runaway burns until its deadline. On a machine busy with other work,
   * 19 also leaves expressions little CPU; a lower figure shares it more evenly.
   */
  nice?: number;
  /**
   * Tests only: the module a worker loads as JSONata. A path that does not load makes every start fail, the
   * way a broken install would.
   */
  jsonataPath?: string;
  /** How long a worker may take to start before it is killed and counted as a failed start (60 s). */
  startTimeoutMs?: number;
}

export interface EvaluateOptions {
  /** The expression's deadline, counted from the call (time waiting for a worker included). */
  timeoutMs: number;
  /**
   * Ends the evaluation early. An abort whose reason is a `TimeoutError` (a step's deadline) fails it with
   * `expression_timeout`; any other reason (a cancelled run) rejects with that reason.
   */
  signal?: AbortSignal;
  /**
   * Whose expression this is (the service passes the account id). Expressions waiting for a worker are served
   * one tenant at a time in turn, so one tenant's burst queues behind its own work only. Expressions without a
   * tenant share one turn.
   */
  tenant?: string;
}

/** What the pool holds now: see {@link ExpressionPool.stats}. */
export interface ExpressionPoolStats {
  /** Started workers waiting for an expression: the next expression goes to one of them at once. */
  ready: number;
  /** Workers evaluating an expression. */
  busy: number;
  /** Workers being started (their process is up, JSONata not loaded yet). */
  starting: number;
  /** Expressions waiting for a worker. */
  queued: number;
  /** Worker starts that failed in a row (and idle workers that died); 0 again once a worker answers. */
  startFailures: number;
  /** Worker processes started since the pool was made, replacements included. */
  started: number;
  /** Process ids of the workers alive now: ready, busy or starting. */
  pids: number[];
}

export interface WorkerStartFailure {
  /** Why the start failed, as callers see it. */
  reason: string;
  /** What the worker wrote to stderr before it ended (the last 4 kB), for the operator's log. */
  stderr: string;
  /** Failures in a row, this one included. */
  failures: number;
  /** When the pool tries again. */
  retryInMs: number;
}

export interface ExpressionPoolEvents {
  /** A worker finished starting (a first one, or a replacement) and waits for an expression. */
  'worker-ready': [pid: number];
  /** A worker could not start, or died while idle; the pool starts another after `retryInMs`. */
  'worker-start-failed': [WorkerStartFailure];
}

interface Task {
  id: number;
  tenant: string;
  expression: string;
  data: unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  slot?: Slot;
  done: boolean;
  cleanup: () => void;
}

interface Slot {
  worker: ChildProcess;
  state: 'starting' | 'ready' | 'busy';
  task?: Task;
  /** The pool stopped it (a runaway, close): its end is no failure. */
  retired: boolean;
  /** Its end was handled (an `error` and an `exit` may both come). */
  ended: boolean;
  /** Resolves when the process is gone (or never was). */
  gone: Promise<void>;
  stderr: string;
  startTimer?: NodeJS.Timeout;
}

/**
 * Room above the budget before V8's own limit. The worker's own checks fail most hogs at the budget; the
 * limit only catches one allocation too large to check, and then only the worker's process ends.
 */
const HEADROOM_MB = 256;
/** First wait after a failed start; it doubles with every failure in a row, up to the maximum. */
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 10_000;
const START_TIMEOUT_MS = 60_000;
const STDERR_KEEP = 4096;

const jsonataPath = createRequire(import.meta.url).resolve('jsonata');

const failure = (code: string, message: string) => new ConnectorError(message, { code, transient: false });

/**
 * Evaluates JSONata in worker processes, so that an expression that runs away (JSONata evaluates in
 * microtasks: no timer fires while it runs) costs a worker, never the event loop, and one that allocates
 * past any limit ends its worker, never the service. A worker that passes its deadline is killed; one that
 * runs out of heap fails its expression with `expression_memory`. Workers get an empty environment: an
 * expression never sees the service's secrets.
 *
 * Workers start on demand, up to `workers`; from then on the pool keeps that many. A worker that ends (killed
 * for a runaway, out of memory, crashed) is replaced at once, in the background, so the next expression finds
 * a started one instead of paying for a process start (tens of ms idle, over a second on a loaded machine).
 * A start that fails (or an idle worker that dies) is retried after a backoff (100 ms, doubling, at most
 * 10 s), one start at a time, until a worker answers again. While no worker is left and the last start
 * failed, expressions fail at once with a transient `expression_error` instead of waiting for their deadline.
 */
export class ExpressionPool extends EventEmitter<ExpressionPoolEvents> {
  readonly #opts: Required<Omit<ExpressionPoolOptions, 'jsonataPath'>> & { jsonataPath: string };
  readonly #slots = new Set<Slot>();
  readonly #idle: Slot[] = [];
  /** Waiting expressions per tenant, in the order their turns come: the first tenant's first task is next. */
  readonly #queue = new TenantQueue<Task>();
  /** Workers killed and not yet exited (a stopped runaway's): close() waits for them too. */
  readonly #dying = new Set<Slot>();
  #nextId = 1;
  /** Workers the pool keeps: grows with demand up to `workers`, never shrinks. */
  #target = 0;
  #started = 0;
  #failures = 0;
  /** The error callers get while no worker is left and a start failed. */
  #startError?: ConnectorError;
  #retryTimer?: NodeJS.Timeout;
  #retryAt = 0;
  #closed = false;

  constructor(opts: ExpressionPoolOptions) {
    super();
    this.#opts = {
      workers: Math.max(1, opts.workers),
      memoryMb: Math.max(8, opts.memoryMb),
      nice: Math.min(19, Math.max(0, Math.trunc(opts.nice ?? 19))),
      jsonataPath: opts.jsonataPath ?? jsonataPath,
      startTimeoutMs: opts.startTimeoutMs ?? START_TIMEOUT_MS,
    };
  }

  /** The pool's workers and queue now (`ready` > 0: the next expression needs no process start). */
  stats(): ExpressionPoolStats {
    const slots = [...this.#slots];
    const count = (state: Slot['state']) => slots.filter((s) => s.state === state).length;
    return {
      ready: count('ready'),
      busy: count('busy'),
      starting: count('starting'),
      queued: this.#queue.size,
      startFailures: this.#failures,
      started: this.#started,
      pids: slots.map((s) => s.worker.pid).filter((pid): pid is number => pid !== undefined),
    };
  }

  evaluate(expression: string, data: unknown, opts: EvaluateOptions): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.#closed) return reject(failure('expression_error', 'The expression pool is closed'));
      // No worker left and the last start failed: say so now rather than at the deadline.
      if (this.#startError && this.#slots.size === 0) return reject(this.#unavailable());
      const task: Task = {
        id: this.#nextId++,
        tenant: opts.tenant ?? '',
        expression,
        data,
        resolve,
        reject,
        done: false,
        cleanup: () => {},
      };
      const { signal } = opts;
      if (signal?.aborted) return this.#abort(task, signal.reason);
      const timer = setTimeout(
        () =>
          this.#fail(
            task,
            failure('expression_timeout', `The expression did not finish within ${opts.timeoutMs} ms`),
          ),
        opts.timeoutMs,
      );
      const onAbort = () => this.#abort(task, signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      task.cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.#queue.push(task.tenant, task);
      this.#dispatch();
    });
  }

  /** Stops every worker (starting ones included) and waits until each process has exited; pending expressions fail. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    for (const t of this.#queue.drain()) this.#settle(t, failure('expression_error', 'The pool closed'));
    await Promise.all([...this.#slots, ...this.#dying].map((s) => this.#retire(s)));
  }

  #abort(task: Task, reason: unknown) {
    const deadline = (reason as Error | undefined)?.name === 'TimeoutError';
    this.#fail(
      task,
      deadline
        ? failure('expression_timeout', `The expression did not finish in time: ${(reason as Error).message}`)
        : reason,
    );
  }

  /** Fails a task; a worker still busy with it is terminated (there is no other way to stop JSONata). */
  #fail(task: Task, err: unknown) {
    if (task.done) return;
    const slot = task.slot;
    this.#settle(task, err);
    this.#queue.remove(task.tenant, task);
    if (slot) {
      void this.#retire(slot);
      // Its replacement starts now, not when the next expression comes.
      this.#fill();
    }
  }

  #settle(task: Task, err: unknown, value?: unknown) {
    if (task.done) return;
    task.done = true;
    task.cleanup();
    if (task.slot) task.slot.task = undefined;
    if (err === undefined) task.resolve(value);
    else task.reject(err);
  }

  #unavailable(): ConnectorError {
    const retryInMs = Math.max(0, this.#retryAt - Date.now());
    return new ConnectorError(
      `No expression worker could start (${this.#failures} failed in a row; next attempt in ${retryInMs} ms): ${this.#startError!.message}`,
      { code: 'expression_error', transient: true, retryAfterMs: retryInMs },
    );
  }

  #dispatch() {
    while (this.#queue.size) {
      const slot = this.#idle.pop();
      if (!slot) break;
      const task = this.#queue.next()!;
      slot.state = 'busy';
      slot.task = task;
      task.slot = slot;
      ref(slot.worker, true);
      try {
        slot.worker.send({ id: task.id, expression: task.expression, data: task.data });
      } catch (err) {
        // Data that cannot be cloned (it never comes from JSON) fails this expression only.
        slot.task = undefined;
        task.slot = undefined;
        this.#release(slot);
        this.#settle(
          task,
          failure('expression_error', `The data cannot be evaluated: ${(err as Error).message}`),
        );
      }
    }
    if (this.#queue.size) {
      // Each waiting expression wants a worker of its own, up to the pool's size.
      const busy = [...this.#slots].filter((s) => s.state === 'busy').length;
      this.#target = Math.max(this.#target, Math.min(this.#opts.workers, busy + this.#queue.size));
      this.#fill();
    }
  }

  /**
   * Starts workers until the pool holds its target. After failures, one start at a time and not before the
   * backoff has passed.
   */
  #fill() {
    if (this.#closed) return;
    while (this.#slots.size < this.#target) {
      if (this.#failures > 0) {
        if (Date.now() < this.#retryAt) return this.#retryLater();
        if ([...this.#slots].some((s) => s.state === 'starting')) return;
      }
      this.#spawn();
    }
  }

  #retryLater() {
    if (this.#retryTimer) return;
    this.#retryTimer = setTimeout(
      () => {
        this.#retryTimer = undefined;
        this.#fill();
      },
      Math.max(0, this.#retryAt - Date.now()),
    );
    this.#retryTimer.unref();
  }

  #spawn() {
    const budget = this.#opts.memoryMb;
    let worker: ChildProcess;
    try {
      worker = spawn(
        process.execPath,
        [`--max-old-space-size=${budget + HEADROOM_MB}`, '--max-semi-space-size=8', '-e', WORKER_SOURCE],
        {
          env: {
            INLAY_EXPRESSION_WORKER: JSON.stringify({
              jsonataPath: this.#opts.jsonataPath,
              budgetBytes: budget * 1024 * 1024,
              nice: this.#opts.nice,
            }),
          },
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
          // Structured clone, as worker threads had: dates and typed arrays survive, no JSON pass of the data.
          serialization: 'advanced',
        },
      );
    } catch (err) {
      // Spawn throws only for bad arguments or no file descriptors left (EMFILE): a failed start all the same.
      this.#startFailed(
        `the worker process could not be spawned (${(err as NodeJS.ErrnoException).code ?? err})`,
      )?.('');
      return;
    }
    this.#started++;
    let gone!: () => void;
    const slot: Slot = {
      worker,
      state: 'starting',
      retired: false,
      ended: false,
      gone: new Promise<void>((resolve) => (gone = resolve)),
      stderr: '',
    };
    this.#slots.add(slot);
    // A start holds the process (briefly): whoever awaits the replacement is not left with an empty event loop.
    // Once started, the worker is idle and lets go.
    ref(worker, true);
    worker.stderr?.setEncoding('utf8');
    worker.stderr?.on('data', (chunk: string) => {
      // Kept while starting (why a start failed); read and dropped after, so the worker never blocks on it.
      if (slot.state === 'starting') slot.stderr = (slot.stderr + chunk).slice(-STDERR_KEEP);
    });
    slot.startTimer = setTimeout(() => {
      if (slot.state !== 'starting' || slot.ended) return;
      this.#end(slot, `the worker did not start within ${this.#opts.startTimeoutMs} ms`);
      void this.#retire(slot);
    }, this.#opts.startTimeoutMs);
    slot.startTimer.unref();
    worker.on(
      'message',
      (m: { ready?: true; id?: number; json?: string; code?: string; message?: string }) => {
        if (m.ready) {
          if (slot.state !== 'starting' || slot.ended) return;
          clearTimeout(slot.startTimer);
          slot.stderr = '';
          this.#startError = undefined;
          this.#release(slot);
          this.emit('worker-ready', worker.pid!);
          this.#dispatch();
          return;
        }
        const task = slot.task;
        if (!task || task.id !== m.id) return;
        // A worker answered: starting works again.
        this.#failures = 0;
        if (m.code) this.#settle(task, failure(m.code, `The expression failed: ${m.message}`));
        else this.#settle(task, undefined, m.json === undefined ? undefined : JSON.parse(m.json));
        this.#release(slot);
        this.#dispatch();
        this.#fill();
      },
    );
    worker.on('error', (err: NodeJS.ErrnoException) => {
      // The process could not be spawned (ENOENT, EACCES, EAGAIN): no `exit` need follow.
      if (worker.pid === undefined) {
        gone();
        this.#end(slot, `the worker process could not be spawned (${err.code ?? err.message})`);
        return;
      }
      const task = slot.task;
      if (task)
        this.#settle(task, failure('expression_error', `The expression's worker failed: ${err.message}`));
    });
    worker.on('exit', (code, signal) => {
      gone();
      const task = slot.task;
      // V8 aborts a process whose heap is exhausted (SIGABRT, or exit code 134 through a shell).
      if (task)
        this.#settle(
          task,
          signal === 'SIGABRT' || code === 134
            ? failure('expression_memory', 'The expression ran out of memory')
            : failure('expression_error', "The expression's worker stopped"),
        );
      this.#end(
        slot,
        slot.state === 'starting'
          ? `the worker exited before it was ready (${signal ? `signal ${signal}` : `exit code ${code}`})`
          : slot.state === 'ready'
            ? `an idle worker exited (${signal ? `signal ${signal}` : `exit code ${code}`})`
            : undefined,
      );
    });
  }

  /**
   * A worker is gone. Unless the pool stopped it, one that had not started or was idle counts as a failure
   * (backoff); one that ended with its expression (out of memory, a crash) is replaced at once.
   */
  #end(slot: Slot, failed: string | undefined) {
    if (slot.ended) return;
    slot.ended = true;
    clearTimeout(slot.startTimer);
    this.#forget(slot);
    if (!slot.retired && failed !== undefined) {
      const { stderr } = slot.worker;
      // Callers learn of it now; the event waits for the last of stderr (why it failed) and for the process
      // to be gone.
      const report = this.#startFailed(failed, slot.state === 'starting');
      const drained =
        stderr && slot.worker.pid !== undefined && !stderr.closed
          ? new Promise((resolve) => stderr.once('close', resolve))
          : undefined;
      if (report) void Promise.all([drained, slot.gone]).then(() => report(slot.stderr));
      return;
    }
    this.#fill();
  }

  /**
   * Counts a failure and backs off; returns the reporter of the `worker-start-failed` event. A start that
   * failed also fails the expressions waiting when no worker is left (and those that come until one starts);
   * after an idle worker's death they wait for its replacement.
   */
  #startFailed(reason: string, start = true): ((stderr: string) => void) | undefined {
    if (this.#closed) return undefined;
    this.#failures++;
    const failures = this.#failures;
    const retryInMs = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (failures - 1));
    this.#retryAt = Date.now() + retryInMs;
    if (start) {
      this.#startError = failure('expression_error', reason);
      // Nothing left to run the queue: its expressions fail now instead of at their deadlines.
      if (this.#slots.size === 0) for (const t of this.#queue.drain()) this.#settle(t, this.#unavailable());
    }
    this.#fill();
    return (stderr) => this.emit('worker-start-failed', { reason, stderr, failures, retryInMs });
  }

  #release(slot: Slot) {
    ref(slot.worker, false);
    if (!this.#slots.has(slot)) return;
    slot.state = 'ready';
    this.#idle.push(slot);
  }

  #forget(slot: Slot) {
    this.#slots.delete(slot);
    const i = this.#idle.indexOf(slot);
    if (i >= 0) this.#idle.splice(i, 1);
  }

  async #retire(slot: Slot) {
    slot.retired = true;
    clearTimeout(slot.startTimer);
    this.#forget(slot);
    const { worker } = slot;
    if (worker.pid !== undefined && worker.exitCode === null && worker.signalCode === null) {
      // Held while it dies: an awaited close() must not find the event loop empty.
      ref(worker, true);
      worker.kill('SIGKILL');
    }
    this.#dying.add(slot);
    await slot.gone;
    this.#dying.delete(slot);
  }
}

/** An idle worker (its IPC channel, its stderr) must not keep the process alive; a busy or starting one does. */
function ref(worker: ChildProcess, on: boolean) {
  const channel = worker.channel as { ref(): void; unref(): void } | null | undefined;
  const stderr = worker.stderr as { ref?(): void; unref?(): void } | null;
  if (on) {
    worker.ref();
    channel?.ref();
    stderr?.ref?.();
  } else {
    worker.unref();
    channel?.unref();
    stderr?.unref?.();
  }
}

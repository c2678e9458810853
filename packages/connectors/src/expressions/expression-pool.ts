import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { ConnectorError } from '../errors.ts';
import { WORKER_SOURCE } from './worker-source.ts';

export interface ExpressionPoolOptions {
  /** Worker processes evaluating at once; more expressions wait their turn. */
  workers: number;
  /** Heap budget of one evaluation, in MB: beyond it the expression fails with `expression_memory`. */
  memoryMb: number;
}

export interface EvaluateOptions {
  /** The expression's deadline, counted from the call (time waiting for a worker included). */
  timeoutMs: number;
  /**
   * Ends the evaluation early. An abort whose reason is a `TimeoutError` (a step's deadline) fails it with
   * `expression_timeout`; any other reason (a cancelled run) rejects with that reason.
   */
  signal?: AbortSignal;
}

interface Task {
  id: number;
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
  task?: Task;
}

/**
 * Room above the budget before V8's own limit. The worker's own checks fail most hogs at the budget; the
 * limit only catches one allocation too large to check, and then only the worker's process ends.
 */
const HEADROOM_MB = 256;

const jsonataPath = createRequire(import.meta.url).resolve('jsonata');

const failure = (code: string, message: string) => new ConnectorError(message, { code, transient: false });

/**
 * Evaluates JSONata in worker processes, so that an expression that runs away (JSONata evaluates in
 * microtasks: no timer fires while it runs) costs a worker, never the event loop, and one that allocates
 * past any limit ends its worker, never the service. A worker that passes its deadline is killed and
 * replaced; one that runs out of heap fails its expression with `expression_memory`. Workers get an empty
 * environment: an expression never sees the service's secrets.
 */
export class ExpressionPool {
  readonly #opts: ExpressionPoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #idle: Slot[] = [];
  readonly #queue: Task[] = [];
  #nextId = 1;

  constructor(opts: ExpressionPoolOptions) {
    this.#opts = { workers: Math.max(1, opts.workers), memoryMb: Math.max(8, opts.memoryMb) };
  }

  evaluate(expression: string, data: unknown, opts: EvaluateOptions): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const task: Task = {
        id: this.#nextId++,
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
      this.#queue.push(task);
      this.#dispatch();
    });
  }

  /** Stops every worker; pending expressions fail. */
  async close(): Promise<void> {
    for (const t of this.#queue.splice(0)) this.#settle(t, failure('expression_error', 'The pool closed'));
    await Promise.all([...this.#slots].map((s) => this.#retire(s)));
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
    const queued = this.#queue.indexOf(task);
    if (queued >= 0) this.#queue.splice(queued, 1);
    if (slot) {
      void this.#retire(slot);
      this.#dispatch();
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

  #dispatch() {
    while (this.#queue.length) {
      const slot = this.#idle.pop() ?? (this.#slots.size < this.#opts.workers ? this.#spawn() : undefined);
      if (!slot) return;
      const task = this.#queue.shift()!;
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
  }

  #spawn(): Slot {
    const budget = this.#opts.memoryMb;
    const worker = spawn(
      process.execPath,
      [`--max-old-space-size=${budget + HEADROOM_MB}`, '--max-semi-space-size=8', '-e', WORKER_SOURCE],
      {
        env: { INLAY_EXPRESSION_WORKER: JSON.stringify({ jsonataPath, budgetBytes: budget * 1024 * 1024 }) },
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        // Structured clone, as worker threads had: dates and typed arrays survive, no JSON pass of the data.
        serialization: 'advanced',
      },
    );
    const slot: Slot = { worker };
    this.#slots.add(slot);
    ref(worker, false);
    worker.on('message', (m: { id: number; json?: string; code?: string; message?: string }) => {
      const task = slot.task;
      if (!task || task.id !== m.id) return;
      if (m.code) this.#settle(task, failure(m.code, `The expression failed: ${m.message}`));
      else this.#settle(task, undefined, m.json === undefined ? undefined : JSON.parse(m.json));
      this.#release(slot);
      this.#dispatch();
    });
    worker.on('error', (err: Error) => {
      const task = slot.task;
      if (task)
        this.#settle(task, failure('expression_error', `The expression's worker failed: ${err.message}`));
    });
    worker.on('exit', (code, signal) => {
      const task = slot.task;
      // V8 aborts a process whose heap is exhausted (SIGABRT, or exit code 134 through a shell).
      if (task)
        this.#settle(
          task,
          signal === 'SIGABRT' || code === 134
            ? failure('expression_memory', 'The expression ran out of memory')
            : failure('expression_error', "The expression's worker stopped"),
        );
      this.#forget(slot);
      this.#dispatch();
    });
    return slot;
  }

  #release(slot: Slot) {
    ref(slot.worker, false);
    if (this.#slots.has(slot)) this.#idle.push(slot);
  }

  #forget(slot: Slot) {
    this.#slots.delete(slot);
    const i = this.#idle.indexOf(slot);
    if (i >= 0) this.#idle.splice(i, 1);
  }

  async #retire(slot: Slot) {
    this.#forget(slot);
    const { worker } = slot;
    if (worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.kill('SIGKILL');
    await exited;
  }
}

/** An idle worker (and its IPC channel) must not keep the service's process alive; a busy one does. */
function ref(worker: ChildProcess, on: boolean) {
  const channel = worker.channel as { ref(): void; unref(): void } | null | undefined;
  if (on) {
    worker.ref();
    channel?.ref();
  } else {
    worker.unref();
    channel?.unref();
  }
}

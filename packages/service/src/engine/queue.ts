/** Trace context (`traceparent`, `tracestate`) carried with a run from whoever queued it; only when tracing. */
export type TraceCarrier = Record<string, string>;

/** Runs one execution by id; resolves when the run is over (whatever its outcome). */
export type RunHandler = (executionId: string, trace?: TraceCarrier) => Promise<void>;

/**
 * Carries execution ids from whoever creates runs to the workers. It is only a transport: the executions
 * table decides what runs (a worker claims the row first), so a lost or doubled message costs nothing.
 */
export interface RunQueue {
  readonly kind: 'memory' | 'pg-boss';
  /** Connects the transport; called on every node, workers or not. */
  init(): Promise<void>;
  dispatch(executionIds: string[], trace?: TraceCarrier): Promise<void>;
  /** Starts consuming with at most `concurrency` runs at a time. */
  consume(handler: RunHandler, concurrency: number): void;
  /** Stops taking work and waits for the runs in hand, up to `timeoutMs`; resolves false on timeout. */
  drain(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** A promise that resolves when `wake()` is called or `ms` pass; a wake with nobody waiting is kept for the next wait. */
export class Wakeup {
  #resolve?: () => void;
  #timer?: NodeJS.Timeout;
  #woken = false;

  wait(ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#resolve = resolve;
      this.#timer = setTimeout(() => this.wake(), ms);
    });
  }

  wake(): void {
    clearTimeout(this.#timer);
    const r = this.#resolve;
    this.#resolve = undefined;
    if (r) r();
    else this.#woken = true;
  }
}

/** Resolves true once `active()` reaches zero, false after `timeoutMs`. */
export async function waitIdle(active: () => number, timeoutMs: number, poll = 20): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (active() > 0) {
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, poll));
  }
  return true;
}

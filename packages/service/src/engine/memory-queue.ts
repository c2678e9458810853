import type { Logger } from '../logger.ts';
import { type RunHandler, type RunQueue, waitIdle } from './queue.ts';

/** The default transport: an in-process FIFO with bounded concurrency. Ids dispatched twice run once. */
export class MemoryQueue implements RunQueue {
  readonly kind = 'memory';
  readonly #pending: string[] = [];
  readonly #traces = new Map<string, Record<string, string>>();
  readonly #known = new Set<string>();
  #handler?: RunHandler;
  #concurrency = 1;
  #active = 0;
  #stopped = false;

  constructor(private readonly logger: Logger) {}

  async init(): Promise<void> {}

  async dispatch(ids: string[], trace?: Record<string, string>): Promise<void> {
    for (const id of ids) {
      if (this.#known.has(id)) continue;
      this.#known.add(id);
      this.#pending.push(id);
      if (trace) this.#traces.set(id, trace);
    }
    this.#pump();
  }

  consume(handler: RunHandler, concurrency: number): void {
    this.#handler = handler;
    this.#concurrency = concurrency;
    this.#pump();
  }

  #pump(): void {
    while (this.#handler && !this.#stopped && this.#active < this.#concurrency && this.#pending.length) {
      const id = this.#pending.shift()!;
      this.#known.delete(id);
      const trace = this.#traces.get(id);
      this.#traces.delete(id);
      this.#active++;
      this.#handler(id, trace)
        .catch((err) => this.logger.error({ err, executionId: id }, 'run handler failed'))
        .finally(() => {
          this.#active--;
          this.#pump();
        });
    }
  }

  async drain(timeoutMs: number): Promise<boolean> {
    this.#stopped = true;
    // Runs not started stay `queued` in the table: the next start (or another node's sweep) picks them up.
    this.#pending.length = 0;
    this.#known.clear();
    this.#traces.clear();
    return waitIdle(() => this.#active, timeoutMs);
  }

  async close(): Promise<void> {}
}

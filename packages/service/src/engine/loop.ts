import type { Logger } from '../logger.ts';

/** Runs `fn` every `intervalMs` (after each run ends, so runs never overlap); `stop` waits for the current one. */
export class Loop {
  #timer?: NodeJS.Timeout;
  #running?: Promise<void>;
  #stopped = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly fn: () => Promise<void>,
    private readonly logger: Logger,
  ) {}

  start(firstDelayMs = this.intervalMs): this {
    this.#schedule(firstDelayMs);
    return this;
  }

  #schedule(ms: number) {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.fn()
        .catch((err) => this.logger.error({ err, loop: this.name }, 'engine loop failed'))
        .finally(() => {
          this.#running = undefined;
          this.#schedule(this.intervalMs);
        });
    }, ms);
    // Background loops must not keep a process alive on their own.
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }
}

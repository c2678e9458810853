/**
 * Counts calls in flight per key (a user) on this node and refuses one over the limit at once: an agent
 * that fires many large actions in parallel must not take the node's memory, and must hear why it was
 * refused rather than wait.
 */
export class ConcurrencyLimit {
  readonly #inFlight = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** A release function when a slot is free, else undefined. */
  tryEnter(key: string): (() => void) | undefined {
    const n = this.#inFlight.get(key) ?? 0;
    if (n >= this.limit) return undefined;
    this.#inFlight.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(key, left);
      else this.#inFlight.delete(key);
    };
  }
}

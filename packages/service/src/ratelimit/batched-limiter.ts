import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** What the rate-limit middleware needs of a limiter. */
export interface Limiter {
  readonly points: number;
  /**
   * The remaining quota, or a promise of it; when the quota is spent, a promise that rejects with a
   * `RateLimiterRes`. The shared limiters always answer a promise; `BatchedLimiter` answers at once when it can.
   */
  consume(key: string): RateLimiterRes | Promise<RateLimiterRes>;
}

export interface BatchOptions {
  /** Unsent counts go to the shared store at least this often. */
  flushMs: number;
  /** A key's unsent count is sent as soon as it reaches this many requests. */
  batch: number;
}

interface KeyState {
  /** The key's total in the shared store (every node's flushed requests), as last read. */
  seen: number;
  /** Admitted here, not yet sent. */
  unsent: number;
  /** Being sent now. */
  sending: number;
  /** When the shared window of `seen` ends (ms since epoch); 0 before the first answer. */
  resetAt: number;
  flushing?: Promise<void>;
}

/**
 * A node-local front for a limiter whose counters are shared (PostgreSQL or Redis). A round trip per request
 * halved read throughput, so requests are counted in memory and sent to the shared store in batches: every
 * `flushMs`, or at once when a key's unsent count reaches `batch`. A request is admitted while the shared total
 * last read plus this node's unsent and in-flight counts stay under the quota; a spent quota is refused from
 * memory, without a round trip.
 *
 * Over-admission is bounded: at any moment each node holds at most `2 × batch` requests the other nodes have not
 * seen (a full batch in flight and one more being counted; a request that would exceed that waits for the
 * flush). So with N nodes a window admits at most `points + (N − 1) × 2 × batch`.
 */
export class BatchedLimiter implements Limiter {
  readonly points: number;
  readonly #keys = new Map<string, KeyState>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly shared: RateLimiterAbstract,
    private readonly opts: BatchOptions,
  ) {
    this.points = shared.points;
    this.#timer = setInterval(() => this.flushAll(), opts.flushMs);
    this.#timer.unref();
  }

  /**
   * Answers from memory, without a promise, unless the key's batch is full while the previous one is still being
   * sent: only then does the request wait (a promise). A spent quota is a rejected promise, as from the shared
   * limiter.
   */
  consume(key: string): RateLimiterRes | Promise<RateLimiterRes> {
    let s = this.#keys.get(key);
    if (!s) {
      s = { seen: 0, unsent: 0, sending: 0, resetAt: 0 };
      this.#keys.set(key, s);
    }
    // The shared window ended: what was seen no longer counts (the next flush reads the new window's total).
    if (s.resetAt && Date.now() >= s.resetAt) {
      s.seen = 0;
      s.resetAt = 0;
    }
    if (s.unsent >= this.opts.batch && s.flushing) return this.#afterFlush(key, s);
    return this.#count(key, s);
  }

  async #afterFlush(key: string, s: KeyState): Promise<RateLimiterRes> {
    while (s.unsent >= this.opts.batch && s.flushing) await s.flushing;
    return this.#count(key, s);
  }

  #count(key: string, s: KeyState): RateLimiterRes | Promise<never> {
    const used = s.seen + s.unsent + s.sending;
    const msBeforeNext = s.resetAt ? Math.max(0, s.resetAt - Date.now()) : this.shared.duration * 1000;
    if (used >= this.points) return Promise.reject(new RateLimiterRes(0, msBeforeNext, used, false));
    s.unsent++;
    if (s.unsent >= this.opts.batch) void this.#flush(key, s);
    return new RateLimiterRes(this.points - used - 1, msBeforeNext, used + 1, used === 0);
  }

  /** Sends every key's unsent count; forgets keys whose window ended with nothing unsent. */
  flushAll(): Promise<void> {
    const now = Date.now();
    const pending: Promise<void>[] = [];
    for (const [key, s] of this.#keys) {
      if (s.unsent > 0) pending.push(this.#flush(key, s));
      else if (!s.flushing && s.resetAt <= now) this.#keys.delete(key);
    }
    return Promise.all(pending).then(() => undefined);
  }

  #flush(key: string, s: KeyState): Promise<void> {
    if (s.flushing || s.unsent === 0) return s.flushing ?? Promise.resolve();
    const n = s.unsent;
    s.unsent = 0;
    s.sending = n;
    s.flushing = this.shared
      .penalty(key, n)
      .then(
        (res) => {
          s.seen = res.consumedPoints;
          s.resetAt = Date.now() + res.msBeforeNext;
        },
        // The store and its insurance limiter both failed: keep the count here so the quota still holds.
        () => {
          s.seen += n;
        },
      )
      .finally(() => {
        s.sending = 0;
        s.flushing = undefined;
      });
    return s.flushing;
  }

  /** Sends what is unsent and stops the timer. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flushAll();
  }
}

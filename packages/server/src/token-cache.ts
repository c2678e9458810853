import { LRUCache } from 'lru-cache';

export interface CachedToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  userId: string;
}

/** User JWTs per host user, reused until `skewMs` before they expire; concurrent misses share one mint. */
export class TokenCache {
  readonly #cache: LRUCache<string, CachedToken>;
  readonly #inflight = new Map<string, Promise<CachedToken>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly skewMs = 60_000,
    max = 10_000,
  ) {
    this.#cache = new LRUCache({ max });
  }

  async get(hostUserId: string, mint: () => Promise<CachedToken>): Promise<CachedToken> {
    const hit = this.#cache.get(hostUserId);
    if (hit && hit.expiresAt - this.skewMs > this.now()) return hit;
    let pending = this.#inflight.get(hostUserId);
    if (!pending) {
      pending = mint()
        .then((t) => {
          this.#cache.set(hostUserId, t);
          return t;
        })
        .finally(() => this.#inflight.delete(hostUserId));
      this.#inflight.set(hostUserId, pending);
    }
    return pending;
  }

  forget(hostUserId: string): void {
    this.#cache.delete(hostUserId);
  }
}

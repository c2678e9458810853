import { LRUCache } from 'lru-cache';
import type { ChangeFeed, Topic } from './change-feed.ts';

/** Whose data a kept result shows, and roughly how many bytes it holds. */
export interface CacheScope {
  accountId: string;
  userId?: string;
  bytes: number;
  /** Set when the result also depends on writes the account and user changes do not cover. */
  topic?: Topic;
}

interface Entry {
  value: unknown;
  stamp: number;
  accountId: string;
  userId?: string;
  topic?: Topic;
}

export interface ReadCacheOptions {
  /** Memory budget in bytes; 0 turns the cache off. */
  maxBytes: number;
  /** Upper bound on an entry's age, whatever the feed says. */
  ttlMs?: number;
}

/**
 * Results of hot reads, kept until a change to their account or user (from any node) makes them stale. A result
 * is stored with the stamp taken before its query ran, so a change that lands while the query runs already
 * makes it stale.
 */
export class ReadCache {
  readonly #lru?: LRUCache<string, Entry>;
  hits = 0;
  misses = 0;

  constructor(
    private readonly feed: ChangeFeed,
    opts: ReadCacheOptions,
  ) {
    if (opts.maxBytes > 0)
      this.#lru = new LRUCache<string, Entry>({
        maxSize: opts.maxBytes,
        ttl: opts.ttlMs ?? 300_000,
      });
  }

  /**
   * `load()`'s result for `key`, from memory when still fresh. `scopeOf` names whose data the result shows;
   * undefined keeps it out of the cache (a miss, say, which a later write would not announce for this key).
   */
  async through<V>(
    key: string,
    load: () => Promise<V>,
    scopeOf: (value: V) => CacheScope | undefined,
  ): Promise<V> {
    const lru = this.#lru;
    if (!lru) return load();
    const hit = lru.get(key);
    if (hit && this.feed.fresh(hit.stamp, hit.accountId, hit.userId, hit.topic)) {
      this.hits++;
      return hit.value as V;
    }
    this.misses++;
    const stamp = this.feed.stamp();
    const value = await load();
    const scope = stamp === undefined ? undefined : scopeOf(value);
    if (scope && this.feed.fresh(stamp!, scope.accountId, scope.userId, scope.topic))
      lru.set(
        key,
        { value, stamp: stamp!, accountId: scope.accountId, userId: scope.userId, topic: scope.topic },
        {
          size: key.length + scope.bytes,
        },
      );
    else if (hit) lru.delete(key);
    return value;
  }

  clear(): void {
    this.#lru?.clear();
  }
}

import { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
} from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config.ts';
import type { Store } from '../store/store.ts';
import { BatchedLimiter, type Limiter } from './batched-limiter.ts';

/** Where the counters live: shared by every API node unless it is `memory`. */
export type LimiterBackend = 'memory' | 'postgres' | 'redis';

export interface Limiters {
  backend: LimiterBackend;
  /** Undefined when that quota is 0 (off). */
  perKey?: Limiter;
  perUser?: Limiter;
  /** Per installation, on its public webhook URL. */
  perWebhook?: Limiter;
  /** Per user, on the proxy (on top of the per-key or per-user quota). */
  perProxy?: Limiter;
  close(): Promise<void>;
}

export const RATE_LIMIT_TABLE = 'inlay_rate_limits';

/** A node sends its counts once this share of the quota has piled up (see BatchedLimiter for the bound). */
const BATCH_SHARE = 0.02;

/**
 * Shared counters behind a node-local batch, unless batching is off (`syncMs` 0) or the quota is so small that
 * a batch would be a single request: such quotas stay exact, at a round trip per request.
 */
export function batched(shared: RateLimiterAbstract, syncMs: number): Limiter & { close?(): Promise<void> } {
  const batch = Math.floor(shared.points * BATCH_SHARE);
  if (syncMs <= 0 || batch < 2) return shared;
  return new BatchedLimiter(shared, { flushMs: syncMs, batch });
}

/** The library creates its table itself; wait for it so the first request does not see "table not created". */
function postgresLimiter(pool: NonNullable<Store['pool']>, prefix: string, points: number, duration: number) {
  return new Promise<RateLimiterPostgres>((resolve, reject) => {
    const limiter: RateLimiterPostgres = new RateLimiterPostgres(
      {
        storeClient: pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        keyPrefix: prefix,
        points,
        duration,
        // Database down: count in memory rather than refuse every request or let every one through.
        insuranceLimiter: new RateLimiterMemory({ points, duration, keyPrefix: prefix }),
      },
      (err?: Error) => (err ? reject(err) : resolve(limiter)),
    );
  });
}

/** Builds the per-key and per-user limiters on Redis when configured, else PostgreSQL, else memory. */
export async function createLimiters(config: RateLimitConfig, store: Store): Promise<Limiters> {
  const { perKey, perUser, perWebhook, perProxyUser, windowSeconds: duration, redisUrl, syncMs } = config;
  const closers: (() => Promise<unknown>)[] = [];
  let backend: LimiterBackend = 'memory';
  let make: (prefix: string, points: number) => Promise<Limiter>;
  /** Shared counters get a node-local batch in front; they are flushed before the store closes. */
  const front = (shared: RateLimiterAbstract) => {
    const limiter = batched(shared, syncMs);
    if (limiter instanceof BatchedLimiter) closers.unshift(() => limiter.close());
    return limiter;
  };

  if (redisUrl) {
    backend = 'redis';
    // No offline queue: a request must not wait for a Redis that is down (the insurance limiter answers).
    const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    closers.push(() => redis.quit().catch(() => redis.disconnect()));
    await new Promise<void>((resolve) => {
      const done = () => resolve();
      redis.once('ready', done);
      redis.once('error', done);
    });
    make = async (prefix, points) =>
      front(
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: prefix,
          points,
          duration,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory({ points, duration, keyPrefix: prefix }),
        }),
      );
  } else if (store.kind === 'postgres' && store.pool) {
    backend = 'postgres';
    const pool = store.pool;
    make = async (prefix, points) => {
      const limiter = await postgresLimiter(pool, prefix, points, duration);
      // Its clean-up timer would outlive the pool; it re-arms itself, so read the current one.
      const timer = limiter as unknown as { _clearExpiredTimeoutId?: NodeJS.Timeout };
      closers.push(async () => clearTimeout(timer._clearExpiredTimeoutId));
      return front(limiter);
    };
  } else {
    make = async (prefix, points) => new RateLimiterMemory({ keyPrefix: prefix, points, duration });
  }

  return {
    backend,
    perKey: perKey > 0 ? await make('key', perKey) : undefined,
    perUser: perUser > 0 ? await make('user', perUser) : undefined,
    perWebhook: perWebhook > 0 ? await make('hook', perWebhook) : undefined,
    perProxy: perProxyUser > 0 ? await make('proxy', perProxyUser) : undefined,
    async close() {
      for (const fn of closers) await fn();
    },
  };
}

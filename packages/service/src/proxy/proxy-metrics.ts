import type { ProxyCount } from '@inlay/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Logger } from '../logger.ts';
import { proxyCounts } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

export type { ProxyCount };

interface Delta {
  accountId: string;
  connector: string;
  requests: number;
  errors: number;
  bytes: number;
}

/** How often a node adds its counts to the shared table: other nodes' calls show within about this long. */
export const PROXY_METRICS_FLUSH_MS = 1_000;
/** Rows per statement, so that one flush after a busy second stays well under PostgreSQL's parameter limit. */
const ROWS_PER_STATEMENT = 500;

/**
 * Proxy calls per account and connector, every node's together and kept across restarts (`proxy_counts`). A
 * proxy call is not an execution: it has no run or log entry, so this is where it shows.
 *
 * A call only adds to this node's memory; the counts go to the database in one statement per flush (every
 * `flushMs`, when the stats are read here, and on close), as the batched rate limiter does, so the proxy's hot
 * path never waits on a write. A crash loses at most the last unflushed second of counts.
 */
export class ProxyMetrics {
  readonly #pending = new Map<string, Delta>();
  /** The flush in progress (flushes run one after another), settled. */
  #chain: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    flushMs = PROXY_METRICS_FLUSH_MS,
  ) {
    this.#timer = setInterval(() => {
      if (this.#pending.size) this.flush().catch(() => {});
    }, flushMs);
    this.#timer.unref();
  }

  record(accountId: string, connector: string, failed: boolean, bytes: number): void {
    const key = `${accountId}\n${connector}`;
    let d = this.#pending.get(key);
    if (!d) {
      d = { accountId, connector, requests: 0, errors: 0, bytes: 0 };
      this.#pending.set(key, d);
    }
    d.requests++;
    if (failed) d.errors++;
    d.bytes += bytes;
  }

  /** The account's counts on every node. This node's own calls are flushed first, so they show at once. */
  async of(accountId: string): Promise<ProxyCount[]> {
    // Unflushed counts stay pending (and are retried); the read below says whether the database answers.
    await this.flush().catch(() => {});
    const rows = await this.db
      .select({
        connector: proxyCounts.connector,
        requests: proxyCounts.requests,
        errors: proxyCounts.errors,
        bytes: proxyCounts.bytes,
      })
      .from(proxyCounts)
      .where(eq(proxyCounts.accountId, accountId));
    return rows.sort((a, b) => a.connector.localeCompare(b.connector));
  }

  /** Adds what is pending to the table; after the flush already under way, if any. */
  flush(): Promise<void> {
    const next = this.#chain.then(() => this.#send());
    this.#chain = next.catch(() => {});
    return next;
  }

  async #send(): Promise<void> {
    if (!this.#pending.size) return;
    // Sorted: two nodes flushing the same rows lock them in the same order, so they cannot deadlock.
    const batch = [...this.#pending.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.#pending.clear();
    for (let i = 0; i < batch.length; i += ROWS_PER_STATEMENT) {
      const part = batch.slice(i, i + ROWS_PER_STATEMENT);
      try {
        await this.db.execute(upsert(part.map(([, d]) => d)));
      } catch (err) {
        // Kept for the next flush: counts are late, not lost, while the database is away.
        for (const [key, d] of batch.slice(i)) this.#merge(key, d);
        this.logger.warn({ err: (err as Error).message }, 'proxy counts not saved; retrying');
        throw err;
      }
    }
  }

  #merge(key: string, d: Delta): void {
    const now = this.#pending.get(key);
    if (!now) this.#pending.set(key, d);
    else {
      now.requests += d.requests;
      now.errors += d.errors;
      now.bytes += d.bytes;
    }
  }

  /** Stops the timer and saves what is pending (before the store closes). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush().catch(() => {});
  }
}

/**
 * One statement adding each delta to its row. Rows of an account that no longer exists are skipped rather than
 * failing the whole batch on the foreign key.
 */
function upsert(deltas: Delta[]): SQL {
  const values = sql.join(
    deltas.map(
      (d) =>
        sql`(${d.accountId}::uuid, ${d.connector}::text, ${d.requests}::bigint, ${d.errors}::bigint, ${d.bytes}::bigint)`,
    ),
    sql`, `,
  );
  return sql`
    insert into proxy_counts (account_id, connector, requests, errors, bytes)
    select v.account_id, v.connector, v.requests, v.errors, v.bytes
    from (values ${values}) as v (account_id, connector, requests, errors, bytes)
    where exists (select 1 from accounts a where a.id = v.account_id)
    on conflict (account_id, connector) do update set
      requests = proxy_counts.requests + excluded.requests,
      errors = proxy_counts.errors + excluded.errors,
      bytes = proxy_counts.bytes + excluded.bytes,
      updated_at = now()`;
}

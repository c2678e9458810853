import { randomUUID } from 'node:crypto';
import type { ProviderCallInfo } from '@inlay/connectors';
import type { ProviderCallKind } from '@inlay/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/store.ts';
import { SpanKind, SpanStatusCode, tracer, tracing } from '../tracing/tracing.ts';
import { routeTemplate } from './route-template.ts';

/** Whose call it was and why. */
export interface CallOwner {
  accountId: string;
  userId: string | null;
  connector: string;
  kind: ProviderCallKind;
  credentialId?: string | null;
  executionId?: string | null;
}

/** What a call was: the method, the provider path (made a route template here), how it went. */
export interface CallFacts {
  method: string;
  path: string;
  status?: number;
  ms: number;
  bytes: number;
}

interface Row extends CallOwner {
  id: string;
  at: Date;
  method: string;
  route: string;
  status: number | null;
  durationMs: number;
  bytes: number;
}

/** How often a node writes the calls it heard of; a read through this node flushes first. */
export const PROVIDER_CALLS_FLUSH_MS = 1_000;
const ROWS_PER_STATEMENT = 400;
/** Calls kept in memory while the database is away; older ones are dropped past this. */
const MAX_PENDING = 50_000;

/**
 * The log of every call to a provider (`provider_calls`): a call only adds a row to this node's memory, and the
 * rows go to the database in one statement per flush, so no provider call waits on a write. Headers and bodies
 * are never handed here; the path is kept as a route template.
 */
export class ProviderCallLog {
  #pending: Row[] = [];
  #chain: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    flushMs = PROVIDER_CALLS_FLUSH_MS,
  ) {
    this.#timer = setInterval(() => {
      if (this.#pending.length) this.flush().catch(() => {});
    }, flushMs);
    this.#timer.unref();
  }

  record(owner: CallOwner, facts: CallFacts): void {
    if (this.#pending.length >= MAX_PENDING) this.#pending.shift();
    this.#pending.push({
      ...owner,
      id: randomUUID(),
      at: new Date(Date.now() - Math.round(facts.ms)),
      method: facts.method.toUpperCase().slice(0, 10),
      route: routeTemplate(facts.path),
      status: facts.status ?? null,
      durationMs: Math.max(0, Math.round(facts.ms)),
      bytes: facts.bytes,
    });
  }

  /** A `CallOptions.onCall` that records each request the connector runtime sends for `owner`. */
  listener(owner: CallOwner): (call: ProviderCallInfo) => void {
    return (c) => {
      if (tracing) callSpan(owner, c);
      this.record(owner, {
        method: c.method,
        path: c.url.pathname,
        status: c.status,
        ms: c.ms,
        bytes: c.bytes,
      });
    };
  }

  /** Writes what is pending, after the flush already under way. */
  flush(): Promise<void> {
    const next = this.#chain.then(() => this.#send());
    this.#chain = next.catch(() => {});
    return next;
  }

  async #send(): Promise<void> {
    if (!this.#pending.length) return;
    const batch = this.#pending;
    this.#pending = [];
    for (let i = 0; i < batch.length; i += ROWS_PER_STATEMENT) {
      try {
        await this.db.execute(insert(batch.slice(i, i + ROWS_PER_STATEMENT)));
      } catch (err) {
        this.#pending = [...batch.slice(i), ...this.#pending].slice(-MAX_PENDING);
        this.logger.warn({ err: (err as Error).message }, 'provider calls not saved; retrying');
        throw err;
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush().catch(() => {});
  }
}

/** One statement; rows whose account or user is gone by now are skipped instead of failing the batch. */
function insert(rows: Row[]): SQL {
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.id}::uuid, ${r.accountId}::uuid, ${r.userId}::uuid, ${r.credentialId ?? null}::uuid, ${r.connector}::text, ${r.kind}::text, ${r.method}::text, ${r.route}::text, ${r.status}::integer, ${r.durationMs}::integer, ${r.bytes}::bigint, ${r.executionId ?? null}::uuid, ${r.at.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  return sql`
    insert into provider_calls
      (id, account_id, user_id, credential_id, connector, kind, method, route, status, duration_ms, bytes, execution_id, at)
    select v.* from (values ${values})
      as v (id, account_id, user_id, credential_id, connector, kind, method, route, status, duration_ms, bytes, execution_id, at)
    where exists (select 1 from accounts a where a.id = v.account_id)
      and (v.user_id is null or exists (select 1 from users u where u.id = v.user_id))`;
}

/** A client span for one provider call, ending now and as long as the call took: ids, names, sizes and statuses. */
function callSpan(owner: CallOwner, c: ProviderCallInfo): void {
  const end = Date.now();
  const span = tracer().startSpan(`${c.method} ${routeTemplate(c.url.pathname)}`, {
    kind: SpanKind.CLIENT,
    startTime: end - c.ms,
    attributes: {
      'http.request.method': c.method,
      'server.address': c.url.hostname,
      'url.template': routeTemplate(c.url.pathname),
      'inlay.connector': owner.connector,
      'inlay.call.kind': owner.kind,
      'http.response.body.size': c.bytes,
      ...(c.status === undefined ? {} : { 'http.response.status_code': c.status }),
    },
  });
  if (c.status === undefined || c.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(end);
}

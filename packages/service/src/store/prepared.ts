import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db, Store } from './store.ts';

/** Runs one parameterised statement and returns its rows. */
export type Prepared<R> = (values: unknown[]) => Promise<R[]>;

/**
 * A hot read path's statement as raw SQL: on PostgreSQL a named statement, parsed and planned once per
 * connection; on PGlite a plain parameterised query. It skips the query builder, which costs more CPU per
 * request than the database does for these small reads.
 */
export function prepared<R>(db: Db, name: string, text: string, opts: PreparedOptions = {}): Prepared<R> {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof pg.Pool)
    return async (values) => (await client.query({ name, text, values })).rows as R[];
  if (opts.planOnce) return planOnce<R>(client, name, text);
  return async (values) => (await client.query<R>(text, values)).rows;
}

export interface PreparedOptions {
  /**
   * On PGlite too, plan the statement once (SQL `PREPARE`, then `EXECUTE` with the values as escaped literals:
   * PGlite has no named protocol-level statements, and `EXECUTE` takes no bind parameters). For a statement
   * whose planning costs more than running it (the log page: ~10×); its values must be strings, numbers, null
   * or arrays of strings.
   */
  planOnce?: boolean;
}

function planOnce<R>(client: PGlite, name: string, text: string): Prepared<R> {
  let ready: Promise<unknown> | undefined;
  return async (values) => {
    ready ??= client.exec(`prepare ${name} as ${text}`).catch((err) => {
      ready = undefined;
      throw err;
    });
    await ready;
    return (await client.query<R>(`execute ${name}(${values.map(literal).join(', ')})`)).rows;
  };
}

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v))
    return pg.escapeLiteral(`{${v.map((x) => `"${String(x).replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
  if (typeof v !== 'string' && typeof v !== 'number') throw new TypeError(`no literal for a ${typeof v}`);
  return pg.escapeLiteral(String(v));
}

/** One prepared statement per database (a store's, or the one a component was given), built on first use. */
export function preparedPerDb<R>(
  name: string,
  text: string,
  opts: PreparedOptions = {},
): (db: Db) => Prepared<R> {
  const byDb = new WeakMap<Db, Prepared<R>>();
  return (db) => {
    let p = byDb.get(db);
    if (!p) {
      p = prepared<R>(db, name, text, opts);
      byDb.set(db, p);
    }
    return p;
  };
}

/** `preparedPerDb` for callers that hold the store. */
export function preparedPerStore<R>(
  name: string,
  text: string,
  opts: PreparedOptions = {},
): (store: Store) => Prepared<R> {
  const perDb = preparedPerDb<R>(name, text, opts);
  return (store) => perDb(store.db);
}

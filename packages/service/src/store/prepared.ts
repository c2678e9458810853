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
export function prepared<R>(db: Db, name: string, text: string): Prepared<R> {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof pg.Pool)
    return async (values) => (await client.query({ name, text, values })).rows as R[];
  return async (values) => (await client.query<R>(text, values)).rows;
}

/** One prepared statement per database (a store's, or the one a component was given), built on first use. */
export function preparedPerDb<R>(name: string, text: string): (db: Db) => Prepared<R> {
  const byDb = new WeakMap<Db, Prepared<R>>();
  return (db) => {
    let p = byDb.get(db);
    if (!p) {
      p = prepared<R>(db, name, text);
      byDb.set(db, p);
    }
    return p;
  };
}

/** `preparedPerDb` for callers that hold the store. */
export function preparedPerStore<R>(name: string, text: string): (store: Store) => Prepared<R> {
  const perDb = preparedPerDb<R>(name, text);
  return (store) => perDb(store.db);
}

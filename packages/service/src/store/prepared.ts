import type { PGlite } from '@electric-sql/pglite';
import type { Store } from './store.ts';

/** Runs one parameterised statement and returns its rows. */
export type Prepared<R> = (values: unknown[]) => Promise<R[]>;

/**
 * A hot read path's statement as raw SQL: on PostgreSQL a named statement, parsed and planned once per
 * connection; on PGlite a plain parameterised query. It skips the query builder, which costs more CPU per
 * request than the database does for these small reads.
 */
export function prepared<R>(store: Store, name: string, text: string): Prepared<R> {
  if (store.kind === 'postgres' && store.pool) {
    const pool = store.pool;
    return async (values) => (await pool.query({ name, text, values })).rows as R[];
  }
  const client = (store.db as unknown as { $client: PGlite }).$client;
  return async (values) => (await client.query<R>(text, values)).rows;
}

/** One prepared statement per store, built on first use. */
export function preparedPerStore<R>(name: string, text: string): (store: Store) => Prepared<R> {
  const byStore = new WeakMap<Store, Prepared<R>>();
  return (store) => {
    let p = byStore.get(store);
    if (!p) {
      p = prepared<R>(store, name, text);
      byStore.set(store, p);
    }
    return p;
  };
}

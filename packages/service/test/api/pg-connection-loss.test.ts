// A PostgreSQL connection lost while the service holds it between two queries (a transaction waiting on
// something else) fails that transaction; it does not end the process. PostgreSQL only: PGlite has no server.
// A store of its own, not the shared service: the test ends one of its pool's connections from outside.
import { onPostgres } from '@inlay/test-kit/service';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../src/store/store.ts';

describe.skipIf(!onPostgres)('a PostgreSQL connection lost while checked out', () => {
  let store: Store;
  let admin: pg.Client;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    store = await createStore({ databaseUrl: process.env.DATABASE_URL, poolSize: 2 });
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await admin?.end();
    await store?.close();
  });

  const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

  it('fails the transaction that held it, and the store answers on a new connection', async () => {
    let backend = 0;
    const held = store.db.transaction(async (tx) => {
      const [row] = rows<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
      backend = row!.pid;
      // The connection is checked out and idle here while the server ends it.
      await admin.query('select pg_terminate_backend($1)', [backend]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 1`);
    });
    await expect(held).rejects.toThrow();
    expect(backend).toBeGreaterThan(0);
    expect(uncaught).toEqual([]);
    const [row] = rows<{ two: number }>(await store.db.execute(sql`select 2 as two`));
    expect(row!.two).toBe(2);
  });
});

import { type SQL, sql } from 'drizzle-orm';

interface Executor {
  execute(query: SQL): Promise<unknown>;
}

const rowsOf = async <T>(db: Executor, query: SQL) => ((await db.execute(query)) as { rows: T[] }).rows;

/**
 * Returns once another connection waits on a lock that the transaction `tx` holds: the racing request has reached
 * it. Only waits on `tx` count; other test files' lock waits on the shared database would end the wait before the
 * race was set up (the test would then pass without exercising it). PostgreSQL only.
 */
export async function waitUntilBlockedBy(db: Executor, tx: Executor): Promise<void> {
  const [holder] = await rowsOf<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
  for (;;) {
    const [r] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from pg_stat_activity where ${holder!.pid}::int = any(pg_blocking_pids(pid))`,
    );
    if (r!.n > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

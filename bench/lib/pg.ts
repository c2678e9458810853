import pg from 'pg';

export const PG_ADMIN = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const PG_BENCH = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/inlay_bench';

export async function pgAvailable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/**
 * A fresh, empty bench database, so runs never see each other's rows. Named after this process too: two bench
 * runs at once (CI and a developer) must not drop each other's database mid-measurement.
 */
export async function freshBenchDatabase(suffix = ''): Promise<string> {
  const url = new URL(PG_BENCH);
  const name = `${url.pathname.slice(1)}${suffix}_${process.pid}`;
  url.pathname = `/${name}`;
  await admin(`drop database if exists "${name}" with (force)`, `create database "${name}"`);
  return url.toString();
}

export async function dropBenchDatabase(databaseUrl: string): Promise<void> {
  await admin(`drop database if exists "${new URL(databaseUrl).pathname.slice(1)}" with (force)`);
}

/**
 * Flushes what earlier suites left dirty in PostgreSQL (the history suite writes a million rows), so its
 * checkpoint does not land in the middle of the next suite's measurement.
 */
export async function settlePostgres(): Promise<void> {
  await admin('checkpoint');
}

/** Runs statements in order on a connection of their own to the admin database. */
async function admin(...statements: string[]): Promise<void> {
  const c = new pg.Client({ connectionString: PG_ADMIN });
  await c.connect();
  try {
    for (const q of statements) await c.query(q);
  } finally {
    await c.end();
  }
}

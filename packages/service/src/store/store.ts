import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { CHANGES_CHANNEL, ChangeFeed, parseChange } from './change-feed.ts';
import { trackLocalWrites } from './local-writes.ts';
import { listenForChanges } from './pg-change-listener.ts';
import { prepareDataDir } from './prepare-data-dir.ts';
import { schema } from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Store {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The node-postgres pool when on PostgreSQL (pg-boss and the rate limiter share it). */
  pool?: pg.Pool;
  /** The embedded database when on PGlite (tests clone a migrated one with `pglite.clone()`). */
  pglite?: PGlite;
  /** Changes to cached data, from this process and (through PostgreSQL notifications) every other one. */
  readonly changes: ChangeFeed;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; wins over PGlite. */
  databaseUrl?: string;
  /** PGlite data folder; `memory://` (or undefined) keeps the database in memory. */
  dataDir?: string;
  /** Where a new PGlite data folder's set-up keeps (and finds) a migrated template (`INLAY_PGLITE_TEMPLATE_DIR`). */
  pgliteTemplateDir?: string;
  poolSize?: number;
  /** An open PGlite instance to wrap instead of opening `dataDir` (the store closes it). Tests pass a clone of a migrated one. */
  pglite?: PGlite;
}

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));
// Serialises migrations across processes that start together on one PostgreSQL database.
const MIGRATION_LOCK = 7_414_352_901;

export async function createStore(opts: StoreOptions): Promise<Store> {
  return opts.databaseUrl
    ? postgresStore(opts.databaseUrl, opts.poolSize ?? 10)
    : pgliteStore(opts.dataDir, opts.pglite, opts.pgliteTemplateDir);
}

function postgresStore(url: string, max: number): Store {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A query that cannot finish (database gone) must fail, not hang a request.
    query_timeout: 30_000,
    application_name: 'inlay',
  });
  // Without a listener an idle client's error (server restart) would crash the process. The pool's own
  // listener leaves a client while it is checked out: one held between two queries of a transaction when the
  // server goes away would crash it too. Every client keeps one of its own; its next query fails instead.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // Installed before the first connection so every one is tracked; the feed itself starts on first use.
  let feed: ChangeFeed | undefined;
  let listener: { close(): Promise<void> } | undefined;
  trackLocalWrites(pool, (change) => feed?.publish(change));
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    pool,
    get changes() {
      if (!feed) {
        feed = new ChangeFeed();
        listener = listenForChanges(url, feed);
      }
      return feed;
    },
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        try {
          await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: MIGRATIONS });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
        }
      } finally {
        client.release();
      }
    },
    ping: () => ping(db),
    async close() {
      await listener?.close();
      await pool.end();
    },
  };
}

export class StoreLockedError extends Error {
  override name = 'StoreLockedError';
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** PGlite is single-process: a second process on the same folder would corrupt it, so it must not open. */
function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'inlay.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))
        throw new StoreLockedError(
          `${dataDir} is in use by process ${pid}. PGlite allows one process per data folder: stop it, or use PostgreSQL (DATABASE_URL) to run several processes.`,
        );
      rmSync(file, { force: true });
    }
  }
  throw new StoreLockedError(`could not lock ${dataDir}`);
}

async function pgliteStore(dataDir?: string, open?: PGlite, templateDir?: string): Promise<Store> {
  const inMemory = Boolean(open) || !dataDir || dataDir.startsWith('memory://');
  let unlock = () => {};
  if (!inMemory && dataDir) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  let client: PGlite;
  try {
    if (!inMemory && dataDir) await prepareDataDir(dataDir, MIGRATIONS, templateDir);
    client = open ?? (await PGlite.create(inMemory ? undefined : dataDir));
  } catch (err) {
    unlock();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  // PGlite runs in this process: a write's notifications are handled before the write's promise resolves.
  const changes = new ChangeFeed();
  await client.listen(CHANGES_CHANNEL, (payload) => {
    const change = parseChange(payload);
    if (change) changes.publish(change);
  });
  changes.setLive(true);
  return {
    db,
    kind: 'pglite',
    pglite: client,
    changes,
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS }),
    ping: () => ping(db),
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

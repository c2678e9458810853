import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/**
 * The code of the thread that sets a new data folder up: a string run with `eval`, so the same thread starts from
 * the TypeScript sources and from the built package. It creates the database in memory, applies the migrations,
 * and writes the result to the folder; the service opens the ready folder after.
 */
const SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { PGlite } = require(workerData.pglite);
const { drizzle } = require(workerData.drizzle);
const { migrate } = require(workerData.migrator);
(async () => {
  // Migrated in memory (each write to the folder is a synchronous file write), then written out in one go.
  const memory = await PGlite.create();
  await migrate(drizzle(memory), { migrationsFolder: workerData.migrations });
  const dump = await memory.dumpDataDir('none');
  await memory.close();
  const client = await PGlite.create(workerData.dataDir, { loadDataDir: dump });
  await client.close();
})().then(
  () => parentPort.postMessage({ ok: true }),
  (err) => parentPort.postMessage({ ok: false, error: String((err && err.stack) || err) }),
);
`;

/** Whether `dataDir` holds a PGlite database already (PostgreSQL writes `PG_VERSION` first thing). */
export const hasDatabase = (dataDir: string) => existsSync(join(dataDir, 'PG_VERSION'));

/**
 * Creates and migrates a PGlite database in a new `dataDir` on a worker thread. Creating one and applying the
 * migrations takes seconds of synchronous work inside PGlite; on a thread of its own the service's event loop
 * keeps answering (a port bound early answers 503 meanwhile) instead of freezing. A folder that already holds
 * a database is left alone: opening it is quick.
 */
export async function prepareDataDir(dataDir: string, migrations: string): Promise<void> {
  if (hasDatabase(dataDir)) return;
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: {
      dataDir,
      migrations,
      pglite: require.resolve('@electric-sql/pglite'),
      drizzle: require.resolve('drizzle-orm/pglite'),
      migrator: require.resolve('drizzle-orm/pglite/migrator'),
    },
  });
  try {
    const answer = await new Promise<{ ok: boolean; error?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the data folder's set-up thread exited (${code})`)));
    });
    if (!answer.ok) throw new Error(`Could not set up the database in ${dataDir}: ${answer.error}`);
  } finally {
    await worker.terminate();
  }
}

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/**
 * The code of the thread that sets a new data folder up: a string run with `eval`, so the same thread starts from
 * the TypeScript sources and from the built package. It creates the database in memory, applies the migrations,
 * and writes the result to the folder; the service opens the ready folder after. With a template file (a dump of
 * a database migrated the same way) it loads that instead, and it writes one after migrating when there is none.
 */
const SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { PGlite } = require(workerData.pglite);
const { drizzle } = require(workerData.drizzle);
const { migrate } = require(workerData.migrator);
(async () => {
  const template = workerData.template;
  let dump;
  if (template && fs.existsSync(template)) dump = new Blob([fs.readFileSync(template)]);
  else {
    // Migrated in memory (each write to the folder is a synchronous file write), then written out in one go.
    const memory = await PGlite.create();
    await migrate(drizzle(memory), { migrationsFolder: workerData.migrations });
    dump = await memory.dumpDataDir('none');
    await memory.close();
    if (template) {
      // Written beside, then renamed: a start that reads it meanwhile sees a whole template or none.
      try {
        fs.mkdirSync(require('node:path').dirname(template), { recursive: true });
        const part = template + '.' + process.pid + '.part';
        fs.writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
        fs.renameSync(part, template);
      } catch {}
    }
  }
  const client = await PGlite.create(workerData.dataDir, { loadDataDir: dump });
  await client.close();
})().then(
  () => parentPort.postMessage({ ok: true }),
  (err) => parentPort.postMessage({ ok: false, error: String((err && err.stack) || err) }),
);
`;

/** The installed PGlite's version, from the package.json above its entry point (its exports do not list it). */
function pgliteVersion(): string {
  for (let dir = dirname(require.resolve('@electric-sql/pglite')); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@electric-sql/pglite') return pkg.version ?? '';
  }
  return '';
}

/**
 * The template file for this PGlite and these migrations in `dir`: its name changes with either, so a template
 * never holds another schema than the one the migrations make.
 */
export function templateFile(dir: string, migrations: string): string {
  const hash = createHash('sha256');
  hash.update(pgliteVersion());
  for (const f of readdirSync(migrations, { recursive: true, encoding: 'utf8' }).sort())
    if (f.endsWith('.sql') || f.endsWith('_journal.json'))
      hash.update(f).update(readFileSync(join(migrations, f)));
  return join(dir, `pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Whether `dataDir` holds a PGlite database already (PostgreSQL writes `PG_VERSION` first thing). */
export const hasDatabase = (dataDir: string) => existsSync(join(dataDir, 'PG_VERSION'));

/**
 * Creates and migrates a PGlite database in a new `dataDir` on a worker thread. Creating one and applying the
 * migrations takes seconds of synchronous work inside PGlite; on a thread of its own the service's event loop
 * keeps answering (a port bound early answers 503 meanwhile) instead of freezing. A folder that already holds
 * a database is left alone: opening it is quick. With `templateDir`, the first set-up keeps its result there as a
 * template file, and later ones (another new folder, the same migrations) load it instead of migrating again.
 */
export async function prepareDataDir(
  dataDir: string,
  migrations: string,
  templateDir?: string,
): Promise<void> {
  if (hasDatabase(dataDir)) return;
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: {
      dataDir,
      migrations,
      template: templateDir ? templateFile(templateDir, migrations) : undefined,
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

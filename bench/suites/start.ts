import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Measurement } from '../lib/report.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What the demo's frontend build notes it was built from; without it the next start builds again. */
const STAMP = join(ROOT, 'apps/demo/dist/.inputs');
/** Where the demo keeps its migrated PGlite template (`INLAY_PGLITE_TEMPLATE_DIR`); a fresh clone has none. */
const TEMPLATES = join(ROOT, 'apps/demo/node_modules/.cache/inlay');
const TARGET_S = 20;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/**
 * `pnpm start` from the repository's root with a new, empty data folder (PGlite), timed from the spawn to the
 * demo's first 200 on `/`: the demo, the service and the sandbox started, the database set up and seeded.
 */
async function timeToFirst200(): Promise<{ seconds: number; output: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'inlay-bench-start-'));
  const [port, servicePort, sandboxPort] = [await freePort(), await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEMO_DATA_DIR: dataDir,
    DEMO_PORT: String(port),
    DEMO_INLAY_PORT: String(servicePort),
    DEMO_SANDBOX_PORT: String(sandboxPort),
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  // Its own process group: stopping it stops pnpm and the demo under it.
  const child = spawn('pnpm', ['start'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output = (output + d).slice(-4000)));
  child.stderr!.on('data', (d) => (output = (output + d).slice(-4000)));
  try {
    const deadline = started + 180_000;
    while (performance.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`pnpm start exited with ${child.exitCode}: ${output}`);
      const status = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return { seconds: (performance.now() - started) / 1000, output };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no 200 from the demo within 180 s: ${output}`);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A first start: `pnpm start` with a fresh data folder, to the demo's first 200. Once with the frontend built
 * (as every start after the first), once as on a fresh clone: the build stamp and the PGlite template removed,
 * so the start builds the frontend with Vite and sets the database up from its migrations.
 */
export async function start(): Promise<Measurement[]> {
  const suite = 'first start (pnpm start, PGlite)';
  const target = { on: 'value' as const, op: '<=' as const, value: TARGET_S, label: `≤ ${TARGET_S} s` };
  const round = (s: number) => Math.round(s * 10) / 10;
  // The frontend is built first if it is not current, so the first row times the start alone.
  await timeToFirst200();
  const built = await timeToFirst200();
  rmSync(STAMP, { force: true });
  rmSync(TEMPLATES, { recursive: true, force: true });
  const fresh = await timeToFirst200();
  if (!existsSync(STAMP)) throw new Error('the start did not build the frontend again');
  if (!existsSync(TEMPLATES)) throw new Error('the start did not keep a PGlite template');
  return [
    {
      suite,
      name: 'time to first 200, fresh data folder, frontend built',
      value: round(built.seconds),
      unit: 's',
      target,
    },
    {
      suite,
      name: 'time to first 200 on a fresh clone: frontend built and database migrated by the start',
      value: round(fresh.seconds),
      unit: 's',
      target,
    },
  ];
}

import { load } from './lib/load.ts';
import { dropBenchDatabase, freshBenchDatabase } from './lib/pg.ts';
import { startChild } from './lib/proc.ts';

/**
 * The service's CPU time per request for `/workflows` and `/token`, limiter on: `pnpm bench:cpu [pglite|postgres]`.
 * One line per run, for A/B rounds between two checkouts on a busy machine, where req/s says little but CPU
 * time per request barely moves.
 */
const store = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const databaseUrl = store === 'postgres' ? await freshBenchDatabase('_cpu') : undefined;
const env = databaseUrl ? { DATABASE_URL: databaseUrl } : { INLAY_DATA_DIR: 'memory://' };
const svc = await startChild<{ url: string; apiKey: string; userId: string }>(
  'servers/service.ts',
  ['--limiter', 'on'],
  env,
  120_000,
);
const { url, apiKey, userId } = svc.info;
const headers = { authorization: `Bearer ${apiKey}` };
const out: string[] = [];
for (const [name, path] of [
  ['/workflows', `/workflows?userId=${userId}`],
  ['/token', `/users/${userId}/token`],
] as const) {
  await load({ url: `${url}${path}`, headers, seconds: 1 }); // warm: caches filled, code optimised
  const r = await load({ url: `${url}${path}`, headers, seconds: 6, pid: svc.proc.pid });
  out.push(`${name} ${r.rps} req/s, ${r.cpuMs?.toFixed(3)} ms CPU per request`);
}
process.stdout.write(`${store}: ${out.join(' | ')}\n`);
await svc.stop();
if (databaseUrl) await dropBenchDatabase(databaseUrl);

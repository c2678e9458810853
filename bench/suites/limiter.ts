import { connect } from 'node:net';
import { compare, load } from '../lib/load.ts';
import { dropBenchDatabase, freshBenchDatabase } from '../lib/pg.ts';
import { startChild } from '../lib/proc.ts';
import type { Measurement } from '../lib/report.ts';

interface Seeded {
  url: string;
  apiKey: string;
  userId: string;
}

/** Redis for the Redis variants (`BENCH_REDIS_URL`): its own logical database, so no other counters meet them. */
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';

function redisAvailable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Why the default limiter is what it is: `GET /workflows?userId` (the cached read path, where a limiter's cost
 * shows most) with each way of keeping the shared counters, against the same service without a limiter, one
 * variant at a time in alternating rounds on one PostgreSQL database. Quotas are out of reach, so every
 * request is admitted and only the counting costs. `INLAY_RATE_LIMIT_SYNC_MS=0` is a round trip to the shared
 * store per request (rate-limiter-flexible as it comes); the default batches counts per node (100 ms).
 */
export async function limiter(opts: { quick: boolean }): Promise<Measurement[]> {
  const suite = 'limiter (PostgreSQL)';
  const databaseUrl = await freshBenchDatabase('_limiter');
  const env = { DATABASE_URL: databaseUrl };
  const off = await startChild<Seeded>('servers/service.ts', ['--limiter', 'off'], env);
  try {
    const { url, apiKey, userId } = off.info;
    const path = `/workflows?userId=${userId}`;
    const headers = { authorization: `Bearer ${apiKey}` };
    const variants: [string, Record<string, string>][] = [
      ['PostgreSQL, a round trip per request', { INLAY_RATE_LIMIT_SYNC_MS: '0' }],
      ['PostgreSQL, batched per node (default)', {}],
    ];
    if (await redisAvailable(REDIS))
      variants.push(
        ['Redis, a round trip per request', { REDIS_URL: REDIS, INLAY_RATE_LIMIT_SYNC_MS: '0' }],
        ['Redis, batched per node', { REDIS_URL: REDIS }],
      );
    const [seconds, rounds] = opts.quick ? [1.5, 2] : [4, 3];
    await load({ url: `${url}${path}`, headers, seconds: 2, warmup: false });
    const out: Measurement[] = [];
    for (const [name, extra] of variants) {
      const on = await startChild<{ url: string }>(
        'servers/service.ts',
        ['--limiter', 'on', '--serve-only'],
        { ...env, ...extra },
      );
      try {
        // A fresh process against a warm one: warm it (JIT, read cache, pool) before anything is measured.
        await load({ url: `${on.info.url}${path}`, headers, seconds: 2, warmup: false });
        const { subject, baseline } = await compare(
          { url: `${on.info.url}${path}`, headers, seconds, pid: on.proc.pid },
          { url: `${url}${path}`, headers, seconds, pid: off.proc.pid },
          rounds,
        );
        if (subject.errors || subject.non2xx)
          throw new Error(`${name}: ${subject.errors} errors, ${subject.non2xx} non-2xx`);
        out.push({
          suite,
          name: `/workflows throughput, limiter: ${name}, vs none`,
          value: subject.rps,
          unit: 'req/s',
          baseline: baseline.rps,
          ratio: subject.rps / baseline.rps,
          note: 'same database, no limiter as baseline',
          ...(name.endsWith('(default)')
            ? {
                target: { on: 'ratio' as const, op: '>=' as const, value: 0.9, label: 'limiter costs ≤ 10%' },
              }
            : {}),
        });
        if (subject.cpuMs !== undefined && baseline.cpuMs !== undefined)
          out.push({
            suite,
            name: `/workflows service CPU per request, limiter: ${name}`,
            value: subject.cpuMs,
            unit: 'ms',
            baseline: baseline.cpuMs,
            ratio: baseline.cpuMs ? subject.cpuMs / baseline.cpuMs : undefined,
            note: "the service's own CPU (not the database's or Redis's): steadier than req/s on a busy machine",
          });
      } finally {
        await on.stop();
      }
    }
    if (variants.length === 2)
      process.stdout.write(`   (Redis variants not measured: ${REDIS} does not answer)\n`);
    return out;
  } finally {
    await off.stop();
    await dropBenchDatabase(databaseUrl);
  }
}

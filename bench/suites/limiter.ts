import { connect } from 'node:net';
import { compare, cpuPerRequest, load } from '../lib/load.ts';
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
    const [seconds, rounds] = LIMITER_ROUNDS[opts.quick ? 'quick' : 'full'];
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
        out.push(
          ...(await limiterAgainstNone({
            suite,
            name: `/workflows throughput, limiter: ${name}, vs none`,
            cpuName: `/workflows service CPU per request, limiter: ${name}`,
            note: 'same database, no limiter as baseline',
            on: { url: `${on.info.url}${path}`, pid: on.proc.pid },
            off: { url: `${url}${path}`, pid: off.proc.pid },
            headers,
            seconds,
            rounds,
            target: name.endsWith('(default)'),
          })),
        );
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

/**
 * Rounds for a limiter against none: more and shorter than other comparisons, since the effect looked for (10%)
 * is the size of a 2-core machine's noise between two 4-second loads, and each round's paired ratio cancels drift.
 */
export const LIMITER_ROUNDS = { quick: [1.5, 2], full: [3, 6] } as const;

/**
 * A service with a limiter against one without, in alternating rounds: its throughput (the paired ratio, with
 * the limiter's target when `target`) and its own CPU per request (steadier on a busy machine).
 */
export async function limiterAgainstNone(o: {
  suite: string;
  name: string;
  cpuName: string;
  note: string;
  on: { url: string; pid: number | undefined };
  off: { url: string; pid: number | undefined };
  headers: Record<string, string>;
  seconds: number;
  rounds: number;
  target: boolean;
}): Promise<Measurement[]> {
  const { subject, baseline, ratio } = await compare(
    { url: o.on.url, headers: o.headers, seconds: o.seconds, pid: o.on.pid },
    { url: o.off.url, headers: o.headers, seconds: o.seconds, pid: o.off.pid },
    o.rounds,
  );
  if (subject.errors || subject.non2xx)
    throw new Error(`${o.name}: ${subject.errors} errors, ${subject.non2xx} non-2xx`);
  return [
    {
      suite: o.suite,
      name: o.name,
      value: subject.rps,
      unit: 'req/s',
      baseline: baseline.rps,
      ratio,
      note: o.note,
      ...(o.target
        ? { target: { on: 'ratio' as const, op: '>=' as const, value: 0.9, label: 'limiter costs ≤ 10%' } }
        : {}),
    },
    ...cpuPerRequest(
      o.suite,
      o.cpuName,
      subject,
      baseline,
      "the service's own CPU (not the database's or Redis's): steadier than req/s on a busy machine",
    ),
  ];
}

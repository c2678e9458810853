import pg from 'pg';
import { percentile, roundTrips } from '../lib/latency.ts';
import { compare, type LoadResult } from '../lib/load.ts';
import { dropBenchDatabase, freshBenchDatabase } from '../lib/pg.ts';
import { startChild } from '../lib/proc.ts';
import type { Measurement } from '../lib/report.ts';

interface Seeded {
  url: string;
  apiKey: string;
  workflowIds: string[];
  historyUsers: string[];
}

/** A service over a database holding `total` generated executions, settled (vacuumed, checkpointed). */
async function serviceWithHistory(total: number) {
  const databaseUrl = await freshBenchDatabase(`_h${total}`);
  const svc = await startChild<Seeded>(
    'servers/service.ts',
    ['--history', String(total)],
    { DATABASE_URL: databaseUrl },
    1_800_000,
  );
  // Without this, autovacuum and the checkpointer would still be busy with the bulk load while we measure.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('vacuum analyze executions');
    await db.query('vacuum analyze execution_steps');
    await db.query('checkpoint');
  } finally {
    await db.end();
  }
  const { url, apiKey, workflowIds, historyUsers } = svc.info;
  // A user and workflow in the middle of the generated history.
  const path = `/workflows/${workflowIds[3]}/logs?userId=${historyUsers[4]}&limit=30`;
  const headers = { authorization: `Bearer ${apiKey}` };
  const probe = await fetch(`${url}${path}`, { headers });
  const body = (await probe.json()) as { data: unknown[] };
  if (!probe.ok || body.data.length !== 30)
    throw new Error(`history probe answered ${probe.status} with ${body.data?.length} entries`);
  return { svc, base: url, url: `${url}${path}`, headers, databaseUrl };
}

/** The logs endpoint on a small and a large history (PostgreSQL): a page read must stay flat as history grows. */
export async function history(opts: { quick: boolean }): Promise<Measurement[]> {
  const small = 10_000;
  const large = opts.quick ? 100_000 : 1_000_000;
  const [seconds, rounds] = opts.quick ? [2, 2] : [5, 3];
  const a0 = await serviceWithHistory(small);
  let b0: Awaited<ReturnType<typeof serviceWithHistory>>;
  try {
    b0 = await serviceWithHistory(large);
  } catch (err) {
    await a0.svc.stop();
    await dropBenchDatabase(a0.databaseUrl);
    throw err;
  }
  let a: LoadResult;
  let b: LoadResult;
  let throughputRatio: number;
  const sa: number[] = [];
  const sb: number[] = [];
  // The console's account-wide explorer: first page, a sparse status filter, and a page deep in the history.
  const explorer = { all: '/executions?limit=50', failed: '/executions?limit=50&status=failed' };
  const ex: Record<string, [number[], number[]]> = { all: [[], []], failed: [[], []], deep: [[], []] };
  try {
    // Both services up at once, measured in alternating rounds: the ratio compares like with like.
    ({
      subject: b,
      baseline: a,
      ratio: throughputRatio,
    } = await compare(
      { url: b0.url, headers: b0.headers, seconds, pid: b0.svc.proc.pid },
      { url: a0.url, headers: a0.headers, seconds, pid: a0.svc.proc.pid },
      rounds,
    ));
    // Latency as one client sees it (sequential requests, one connection); the figures above include queueing
    // behind ten connections on a CPU-bound two-core machine.
    const n = opts.quick ? 200 : 1000;
    await roundTrips(a0.url, a0.headers, 50);
    await roundTrips(b0.url, b0.headers, 50);
    for (let i = 0; i < 5; i++) {
      sa.push(...(await roundTrips(a0.url, a0.headers, n / 5)));
      sb.push(...(await roundTrips(b0.url, b0.headers, n / 5)));
    }
    const deep = async (s: typeof a0) => {
      // A cursor 9 000 runs back (90 pages of 100): still one index range, unlike an offset.
      let cursor = '';
      for (let i = 0; i < 90; i++) {
        const r = await fetch(`${s.base}/executions?limit=100${cursor}`, { headers: s.headers });
        cursor = `&cursor=${((await r.json()) as { nextCursor: string }).nextCursor}`;
      }
      return `${s.base}/executions?limit=50${cursor}`;
    };
    const deepUrls = [await deep(a0), await deep(b0)];
    for (const [k, urls] of Object.entries({
      all: [a0.base + explorer.all, b0.base + explorer.all],
      failed: [a0.base + explorer.failed, b0.base + explorer.failed],
      deep: deepUrls,
    })) {
      await roundTrips(urls[0]!, a0.headers, 20);
      await roundTrips(urls[1]!, b0.headers, 20);
      ex[k]![0].push(...(await roundTrips(urls[0]!, a0.headers, n / 5)));
      ex[k]![1].push(...(await roundTrips(urls[1]!, b0.headers, n / 5)));
    }
  } finally {
    await a0.svc.stop();
    await b0.svc.stop();
    // A million generated runs are a few GB on disk: not worth keeping between runs.
    await dropBenchDatabase(b0.databaseUrl);
    await dropBenchDatabase(a0.databaseUrl);
  }
  const suite = 'history growth (PostgreSQL)';
  const label = (n: number) => `${n.toLocaleString('en-US')} executions`;
  const [p50a, p99a, p50b, p99b] = [
    percentile(sa, 50),
    percentile(sa, 99),
    percentile(sb, 50),
    percentile(sb, 99),
  ];
  const targets = !opts.quick;
  return [
    {
      suite,
      name: `logs p50 at ${label(small)}`,
      value: p50a,
      unit: 'ms',
      note: 'sequential, one connection',
    },
    {
      suite,
      name: `logs p99 at ${label(small)}`,
      value: p99a,
      unit: 'ms',
      note: 'sequential, one connection',
    },
    {
      suite,
      name: `logs p50 at ${label(large)}`,
      value: p50b,
      unit: 'ms',
      baseline: p50a,
      ratio: p50b / p50a,
      note: `sequential, one connection; baseline ${label(small)}`,
      ...(targets
        ? { target: { on: 'ratio' as const, op: '<=' as const, value: 1.5, label: 'ratio ≤ 1.5' } }
        : {}),
    },
    {
      suite,
      name: `logs p99 at ${label(large)}`,
      value: p99b,
      unit: 'ms',
      note: 'sequential, one connection',
      ...(targets
        ? { target: { on: 'value' as const, op: '<=' as const, value: 25, label: '≤ 25 ms' } }
        : {}),
    },
    {
      suite,
      name: `logs p50 at ${label(large)}, 10 connections`,
      value: b.p50,
      unit: 'ms',
      baseline: a.p50,
      ratio: a.p50 ? b.p50 / a.p50 : undefined,
      note: `saturating load; baseline ${label(small)}`,
    },
    {
      suite,
      name: `logs p99 at ${label(large)}, 10 connections`,
      value: b.p99,
      unit: 'ms',
      baseline: a.p99,
      ratio: a.p99 ? b.p99 / a.p99 : undefined,
    },
    ...Object.entries({ all: 'first page', failed: 'status=failed', deep: '9 000 runs deep' }).flatMap(
      ([k, what]) => {
        const [xa, xb] = ex[k]!;
        const [pa, pb] = [percentile(xa, 50), percentile(xb, 50)];
        return [
          {
            suite,
            name: `GET /executions (${what}) p50 at ${label(large)}`,
            value: pb,
            unit: 'ms',
            baseline: pa,
            ratio: pb / pa,
            note: `limit 50, sequential; baseline ${label(small)}`,
            ...(targets
              ? { target: { on: 'ratio' as const, op: '<=' as const, value: 1.5, label: 'ratio ≤ 1.5' } }
              : {}),
          },
        ];
      },
    ),
    {
      suite,
      name: `logs throughput at ${label(large)}`,
      value: b.rps,
      unit: 'req/s',
      baseline: a.rps,
      ratio: throughputRatio,
    },
  ];
}

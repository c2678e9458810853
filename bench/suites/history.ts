import { load } from '../lib/load.ts';
import { freshBenchDatabase } from '../lib/pg.ts';
import { startChild } from '../lib/proc.ts';
import type { Measurement } from '../lib/report.ts';

interface Seeded {
  url: string;
  apiKey: string;
  workflowIds: string[];
  historyUsers: string[];
}

async function logsLatency(total: number, seconds: number) {
  const svc = await startChild<Seeded>(
    'servers/service.ts',
    ['--history', String(total)],
    { DATABASE_URL: await freshBenchDatabase() },
    1_800_000,
  );
  try {
    const { url, apiKey, workflowIds, historyUsers } = svc.info;
    // A user and workflow in the middle of the generated history.
    const path = `/workflows/${workflowIds[3]}/logs?userId=${historyUsers[42]}&limit=30`;
    const probe = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    const body = (await probe.json()) as { data: unknown[] };
    if (!probe.ok || body.data.length === 0)
      throw new Error(`history probe answered ${probe.status} with ${body.data?.length} entries`);
    return await load({ url: `${url}${path}`, headers: { authorization: `Bearer ${apiKey}` }, seconds });
  } finally {
    await svc.stop();
  }
}

/** The logs endpoint on a small and a large history (PostgreSQL): a page read must stay flat as history grows. */
export async function history(opts: { quick: boolean }): Promise<Measurement[]> {
  const small = 10_000;
  const large = opts.quick ? 100_000 : 1_000_000;
  const seconds = opts.quick ? 3 : 10;
  const a = await logsLatency(small, seconds);
  const b = await logsLatency(large, seconds);
  const suite = 'history growth (PostgreSQL)';
  const label = (n: number) => `${n.toLocaleString('en-US')} executions`;
  return [
    { suite, name: `logs p50 at ${label(small)}`, value: a.p50, unit: 'ms' },
    { suite, name: `logs p99 at ${label(small)}`, value: a.p99, unit: 'ms' },
    {
      suite,
      name: `logs p50 at ${label(large)}`,
      value: b.p50,
      unit: 'ms',
      baseline: a.p50,
      ratio: a.p50 ? b.p50 / a.p50 : undefined,
      ...(opts.quick
        ? {}
        : { target: { on: 'ratio' as const, op: '<=' as const, value: 1.5, label: 'ratio ≤ 1.5' } }),
    },
    {
      suite,
      name: `logs p99 at ${label(large)}`,
      value: b.p99,
      unit: 'ms',
      ...(opts.quick
        ? {}
        : { target: { on: 'value' as const, op: '<=' as const, value: 25, label: '≤ 25 ms' } }),
    },
    {
      suite,
      name: `logs throughput at ${label(large)}`,
      value: b.rps,
      unit: 'req/s',
      baseline: a.rps,
      ratio: b.rps / a.rps,
    },
  ];
}

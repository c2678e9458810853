import { percentile, roundTrips } from '../lib/latency.ts';
import { load } from '../lib/load.ts';
import { dropBenchDatabase, freshBenchDatabase } from '../lib/pg.ts';
import { cpuMs, startChild } from '../lib/proc.ts';
import type { Measurement } from '../lib/report.ts';
import { coreCost } from './core-cost.ts';

interface Seeded {
  url: string;
  apiKey: string;
  userId: string;
}

/** The adapters besides @inlay/express: bench/servers/host-adapter.ts's framework argument, and the row's name. */
const ADAPTERS = [
  ['web', 'createInlayHandler (node:http)'],
  ['next', 'Next.js inlayRoute (node:http)'],
  ['hono', 'Hono (@hono/node-server)'],
  ['fastify', 'Fastify 5'],
] as const;

/**
 * @inlay/express in front of the service against the service directly, both answering `GET /workflows` for
 * the same user with the same JWT: the difference is what the proxy adds.
 */
export async function proxy(opts: { quick: boolean; store: 'postgres' | 'pglite' }): Promise<Measurement[]> {
  const suite = `proxy (${opts.store})`;
  const databaseUrl = opts.store === 'postgres' ? await freshBenchDatabase() : undefined;
  const env = databaseUrl ? { DATABASE_URL: databaseUrl } : { INLAY_DATA_DIR: 'memory://' };
  const svc = await startChild<Seeded>('servers/service.ts', [], env);
  const host = await startChild<{ url: string }>('servers/host.ts', [
    svc.info.url,
    svc.info.apiKey,
    svc.info.userId,
  ]);
  const stops: (() => Promise<void>)[] = [];
  try {
    const tokenRes = await fetch(`${svc.info.url}/users/${svc.info.userId}/token`, {
      headers: { authorization: `Bearer ${svc.info.apiKey}` },
    });
    const { token } = (await tokenRes.json()) as { token: string };
    const direct = { url: `${svc.info.url}/workflows`, headers: { authorization: `Bearer ${token}` } };
    const proxied = { url: `${host.info.url}/inlay/workflows`, headers: {} };
    const floor = await startChild<{ url: string }>('servers/bare-proxy.ts', [svc.info.url, token]);
    stops.push(floor.stop);
    const bare = { url: `${floor.info.url}/inlay/workflows`, headers: {} };
    // Same bytes both ways (the proxy passes the body through).
    const [a, b] = await Promise.all([
      fetch(direct.url, { headers: direct.headers }).then((r) => r.text()),
      fetch(proxied.url).then((r) => r.text()),
    ]);
    if (a !== b) throw new Error('the proxy answered different bytes than the service');

    const n = opts.quick ? 200 : 1000;
    await roundTrips(direct.url, direct.headers, 50);
    await roundTrips(proxied.url, proxied.headers, 50);
    await roundTrips(bare.url, bare.headers, 50);
    const d: number[] = [];
    const p: number[] = [];
    const f: number[] = [];
    // CPU the host and the bare proxy spend on their blocks: what each adds per call, whatever the latency did.
    const spent = { host: 0, bare: 0 };
    const timed = async (pid: number, key: keyof typeof spent, run: () => Promise<number[]>) => {
      const before = cpuMs(pid);
      const out = await run();
      const after = cpuMs(pid);
      if (before !== undefined && after !== undefined) spent[key] += after - before;
      return out;
    };
    // Alternating blocks, so a busy moment on the machine lands on all three.
    for (let i = 0; i < 5; i++) {
      d.push(...(await roundTrips(direct.url, direct.headers, n / 5)));
      p.push(...(await timed(host.proc.pid!, 'host', () => roundTrips(proxied.url, proxied.headers, n / 5))));
      f.push(...(await timed(floor.proc.pid!, 'bare', () => roundTrips(bare.url, bare.headers, n / 5))));
    }
    // Every other adapter over the same core, each against the service directly in alternating blocks of its own.
    const adapters: Measurement[] = [];
    for (const [framework, label] of ADAPTERS) {
      const child = await startChild<{ url: string }>('servers/host-adapter.ts', [
        framework,
        svc.info.url,
        svc.info.apiKey,
        svc.info.userId,
      ]);
      stops.push(child.stop);
      const url = `${child.info.url}/inlay/workflows`;
      if ((await fetch(url).then((r) => r.text())) !== a)
        throw new Error(`${label} answered different bytes than the service`);
      await roundTrips(url, {}, 50);
      const dd: number[] = [];
      const pp: number[] = [];
      for (let i = 0; i < 5; i++) {
        dd.push(...(await roundTrips(direct.url, direct.headers, n / 5)));
        pp.push(...(await roundTrips(url, {}, n / 5)));
      }
      adapters.push({
        suite,
        name: `${label} proxy p50 overhead`,
        value: percentile(pp, 50) - percentile(dd, 50),
        unit: 'ms',
        note: `${n} requests each way; baseline the service directly`,
        target: { on: 'value', op: '<=', value: 1, label: '≤ 1 ms' },
      });
    }
    const core = await coreCost(opts.quick ? 10_000 : 50_000);
    const seconds = opts.quick ? 2 : 5;
    const tp = await load({ ...proxied, seconds });
    const td = await load({ ...direct, seconds });
    const p50d = percentile(d, 50);
    const p50p = percentile(p, 50);
    return [
      {
        suite,
        name: 'GET /workflows p50, sequential',
        value: p50p,
        unit: 'ms',
        baseline: p50d,
        ratio: p50p / p50d,
        note: `${n} requests each way; baseline the service directly`,
      },
      {
        suite,
        name: 'proxy p50 overhead',
        note: '@inlay/express',
        value: p50p - p50d,
        unit: 'ms',
        target: { on: 'value', op: '<=', value: 1, label: '≤ 1 ms' },
      },
      {
        suite,
        name: 'p50 overhead of a bare node:http proxy in its own process (the extra hop alone)',
        value: percentile(f, 50) - p50d,
        unit: 'ms',
        note: 'context for the line above: no framework, no checks, token fixed',
      },
      ...adapters,
      ...(spent.host > 0
        ? [
            {
              suite,
              name: 'CPU time of the @inlay/express host per proxied call',
              value: spent.host / n,
              unit: 'ms',
              baseline: spent.bare / n,
              ratio: spent.host / Math.max(spent.bare, 1),
              note: `${n} calls; baseline the bare node:http proxy's CPU per call (from /proc, 10 ms ticks)`,
            },
          ]
        : []),
      {
        suite,
        name: 'CPU time of the core per proxied call, in-process (fetch answering at once)',
        value: core / 1000,
        unit: 'ms',
        note: 'createInlayHandler: the Request in, the answer read; what each adapter spends in the core',
      },
      {
        suite,
        name: 'proxy p99 overhead',
        value: percentile(p, 99) - percentile(d, 99),
        unit: 'ms',
      },
      {
        suite,
        name: 'GET /workflows throughput through the proxy',
        value: tp.rps,
        unit: 'req/s',
        baseline: td.rps,
        ratio: tp.rps / td.rps,
      },
    ];
  } finally {
    for (const stop of stops) await stop();
    await host.stop();
    await svc.stop();
    if (databaseUrl) await dropBenchDatabase(databaseUrl);
  }
}

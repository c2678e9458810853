import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore } from '@inlay/service';
import { compare, cpuPerRequest, load } from '../lib/load.ts';
import { dropBenchDatabase, freshBenchDatabase } from '../lib/pg.ts';
import { startChild } from '../lib/proc.ts';
import type { Measurement } from '../lib/report.ts';
import { LIMITER_ROUNDS, limiterAgainstNone } from './limiter.ts';
import { mcpPaths } from './read-path-mcp.ts';

interface Seeded {
  url: string;
  apiKey: string;
  userId: string;
  workflowId: string;
}

/**
 * `/workflows`, `/logs?limit=30`, `/token` and MCP `tools/list` and `tools/call`, with the rate limiter on as deployed, against a bare Express
 * handler serving the same bytes; on PostgreSQL also the limiter's own cost (the same service without it).
 */
export async function readPath(opts: {
  quick: boolean;
  store: 'postgres' | 'pglite';
}): Promise<Measurement[]> {
  const suite = `read path (${opts.store})`;
  const databaseUrl = opts.store === 'postgres' ? await freshBenchDatabase() : undefined;
  const env = databaseUrl ? { DATABASE_URL: databaseUrl } : { INLAY_DATA_DIR: 'memory://' };
  const svc = await startChild<Seeded>('servers/service.ts', ['--limiter', 'on'], env);
  const bare: { stop(): Promise<void>; info: { url: string } }[] = [];
  // The logs page as a cache miss: a second service that keeps no pages and no entries, so the database composes
  // every answer, and a third that keeps entries only, so every answer is assembled from them (a page that changed).
  // On PostgreSQL they serve the same database (the same bytes); PGlite in memory is per process, so each seeds its own.
  const keeping = (mode: 'off' | 'entries') =>
    startChild<Seeded>(
      'servers/service.ts',
      ['--limiter', 'on', '--log-pages', mode, ...(databaseUrl ? ['--serve-only'] : [])],
      env,
    );
  const composed = await keeping('off');
  const assembled = await keeping('entries');
  try {
    const { url, apiKey, userId, workflowId } = svc.info;
    const headers = { authorization: `Bearer ${apiKey}` };
    const c = databaseUrl ? svc.info : composed.info;
    const a = databaseUrl ? svc.info : assembled.info;
    const logsPath = (u: string, w: string) => `/workflows/${w}/logs?userId=${u}&limit=30`;
    const endpoints: Record<string, { base: string; path: string; pid: number | undefined }> = {
      '/workflows': { base: url, path: `/workflows?userId=${userId}`, pid: svc.proc.pid },
      '/logs': { base: url, path: logsPath(userId, workflowId), pid: svc.proc.pid },
      '/logs composed': {
        base: composed.info.url,
        path: logsPath(c.userId, c.workflowId),
        pid: composed.proc.pid,
      },
      '/logs assembled': {
        base: assembled.info.url,
        path: logsPath(a.userId, a.workflowId),
        pid: assembled.proc.pid,
      },
      '/token': { base: url, path: `/users/${userId}/token`, pid: svc.proc.pid },
    };
    const bodies: Record<string, string> = {};
    for (const [name, { base, path }] of Object.entries(endpoints)) {
      const res = await fetch(`${base}${path}`, { headers });
      if (!res.ok) throw new Error(`${path} answered ${res.status}`);
      bodies[bareRoute(name)] = await res.text();
    }
    for (const other of ['/logs composed', '/logs assembled'])
      if (databaseUrl && bodies[bareRoute(other)] !== bodies['/logs'])
        throw new Error(`the ${other} page differs from the kept one`);
    const file = join(mkdtempSync(join(tmpdir(), 'inlay-bench-')), 'bodies.json');
    writeFileSync(file, JSON.stringify(bodies));
    const baseline = await startChild<{ url: string }>('servers/bare.ts', [file]);
    bare.push(baseline);
    // Alternating rounds, medians kept: the machine may be busy with other work while this runs.
    const [seconds, rounds] = opts.quick ? [1.5, 2] : [4, 3];
    const out: Measurement[] = [];
    for (const [name, { base: at, path, pid }] of Object.entries(endpoints)) {
      const {
        subject: inlay,
        baseline: base,
        ratio,
      } = await compare(
        { url: `${at}${path}`, headers, seconds, pid },
        { url: `${baseline.info.url}${bareRoute(name)}`, seconds, pid: baseline.proc.pid },
        rounds,
      );
      if (inlay.errors || inlay.non2xx)
        throw new Error(`${name}: ${inlay.errors} errors, ${inlay.non2xx} non-2xx`);
      const size = `${Math.round(bodies[bareRoute(name)]!.length / 102.4) / 10} kB`;
      out.push(
        {
          suite,
          name: `${name} throughput`,
          value: inlay.rps,
          unit: 'req/s',
          baseline: base.rps,
          ratio,
          note: size,
          ...(name === '/workflows' && opts.store === 'postgres'
            ? {
                target: {
                  on: 'ratio' as const,
                  op: '>=' as const,
                  value: 0.5,
                  label: '≥ 50% of bare handler',
                },
              }
            : {}),
          ...(name === '/token'
            ? { target: { on: 'value' as const, op: '>=' as const, value: 2000, label: '≥ 2000/s' } }
            : {}),
          ...(name === '/logs' ? { target: LOGS_TARGET[opts.store] } : {}),
          // Measured, with no target: a page composed whole is a node's first view of it (or every view with
          // INLAY_READ_CACHE_MB=0); kept pages and kept entries are what serve the page in production.
          ...(name === '/logs composed' ? { note: `${size}, nothing kept: composed whole per request` } : {}),
          ...(name === '/logs assembled'
            ? {
                target: ASSEMBLED_TARGET[opts.store],
                note: `${size}, no kept pages: assembled from kept entries per request`,
              }
            : {}),
        },
        // The token endpoint's second target is a ratio, beside the absolute one above (one target per row).
        ...(name === '/token' && opts.store === 'postgres'
          ? [
              {
                suite,
                name: '/token throughput, ratio to bare',
                value: ratio,
                unit: '×',
                note: 'limiter on',
                target: { on: 'value' as const, op: '>=' as const, value: 0.4, label: '≥ 0.4 of bare' },
              },
            ]
          : []),
        ...cpuPerRequest(suite, `${name} service CPU per request`, inlay, base),
        {
          suite,
          name: `${name} p50`,
          value: inlay.p50,
          unit: 'ms',
          baseline: base.p50,
          ratio: base.p50 ? inlay.p50 / base.p50 : undefined,
        },
        {
          suite,
          name: `${name} p99`,
          value: inlay.p99,
          unit: 'ms',
          baseline: base.p99,
          ratio: base.p99 ? inlay.p99 / base.p99 : undefined,
        },
      );
    }
    out.push(
      ...(await mcpPaths({
        suite,
        url,
        apiKey,
        userId,
        pid: svc.proc.pid,
        seconds,
        rounds,
        target: opts.store === 'postgres',
      })),
    );
    if (databaseUrl) {
      out.push(...(await limiterCost(suite, env, endpoints['/workflows']!.path, headers, opts.quick)));
      out.push(...(await crossNode(suite, databaseUrl, workflowId, opts.quick ? 100 : 500)));
    }
    return out;
  } finally {
    for (const b of bare) await b.stop();
    await composed.stop();
    await assembled.stop();
    await svc.stop();
    if (databaseUrl) await dropBenchDatabase(databaseUrl);
  }
}

/**
 * The logs page (30 runs, 120 steps, composed as JSON by the database). PGlite's target is five times the ratio
 * of the page composed in JavaScript (161 req/s, 0.03× bare): a ratio, so a busy machine moves both sides alike.
 */
const LOGS_TARGET = {
  postgres: { on: 'ratio', op: '>=', value: 0.3, label: '≥ 30% of bare handler' },
  pglite: { on: 'ratio', op: '>=', value: 0.15, label: '≥ 5× the 0.03× before (≥ 15% of bare)' },
} as const;

/**
 * The logs page composed by the database on every request (the service keeps nothing), and assembled from kept
 * entries on every request (no kept pages: what a page that changed costs): the targets for a page not kept,
 * 0.3× bare on PostgreSQL and five times the 161 req/s of the page composed in JavaScript on PGlite.
 */
const ASSEMBLED_TARGET = {
  postgres: { on: 'ratio', op: '>=', value: 0.3, label: '≥ 30% of bare handler' },
  pglite: { on: 'value', op: '>=', value: 805, label: '≥ 805 req/s (5× the 161 before)' },
} as const;

/** The bare handler's route for an endpoint's name (a path: no spaces). */
const bareRoute = (name: string) => name.replace(' ', '-');

/** `/workflows` with the default limiter against a second process on the same database without one. */
async function limiterCost(
  suite: string,
  env: Record<string, string | undefined>,
  path: string,
  headers: Record<string, string>,
  quick: boolean,
): Promise<Measurement[]> {
  const [seconds, rounds] = LIMITER_ROUNDS[quick ? 'quick' : 'full'];
  // Two fresh processes on the suite's database that differ only in the limiter: the suite's own service has
  // served every other endpoint (kept pages, a larger heap), which would weigh on one side only.
  const start = (limiter: 'on' | 'off') =>
    startChild<{ url: string }>('servers/service.ts', ['--limiter', limiter, '--serve-only'], env);
  const [on, off] = [await start('on'), await start('off')];
  try {
    for (const side of [on, off])
      await load({ url: `${side.info.url}${path}`, headers, seconds: 2, warmup: false });
    return await limiterAgainstNone({
      suite,
      name: '/workflows throughput, limiter on vs off',
      cpuName: '/workflows service CPU per request, limiter on vs off',
      note: 'default limiter (batched PostgreSQL counters) vs none, same database',
      on: { url: `${on.info.url}${path}`, pid: on.proc.pid },
      off: { url: `${off.info.url}${path}`, pid: off.proc.pid },
      headers,
      seconds,
      rounds,
      target: true,
    });
  } finally {
    await on.stop();
    await off.stop();
  }
}

/**
 * How long another API node keeps serving a cached read after a write: node A writes a watched row, and the
 * clock stops when node B's change feed has applied the notification. Measured from A's write returning, so it
 * is the window in which a client that saw A's reply could still read the old value from B.
 */
async function crossNode(suite: string, databaseUrl: string, workflowId: string, samples: number) {
  const [a, b] = await Promise.all([createStore({ databaseUrl }), createStore({ databaseUrl })]);
  try {
    const feed = b.changes;
    while (!feed.live) await new Promise((r) => setTimeout(r, 10));
    const [{ account_id: accountId }] = (
      await a.pool!.query('select account_id from workflows where id = $1', [workflowId])
    ).rows;
    const windows: number[] = [];
    for (let i = 0; i < samples; i++) {
      let seenAt = 0;
      const seen = new Promise<void>((resolve) => {
        const off = feed.subscribe((c) => {
          if (c.kind === 'account' && c.accountId === accountId) {
            seenAt = performance.now();
            off();
            resolve();
          }
        });
      });
      await a.pool!.query('update workflows set updated_at = updated_at where id = $1', [workflowId]);
      const returnedAt = performance.now();
      await seen;
      windows.push(Math.max(0, seenAt - returnedAt));
    }
    windows.sort((x, y) => x - y);
    const at = (q: number) => Math.round(windows[Math.floor(q * (windows.length - 1))]! * 1000) / 1000;
    return [
      {
        suite,
        name: 'cache staleness on another node after a write, p50',
        value: at(0.5),
        unit: 'ms',
        note: `${samples} writes on node A; until node B's change feed applied each`,
      },
      { suite, name: 'cache staleness on another node after a write, p99', value: at(0.99), unit: 'ms' },
    ];
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

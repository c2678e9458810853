/**
 * Soak: a mixed workload (reads, runs, token mints, MCP calls) at a steady rate against one service process.
 * Passes when there are zero errors, the p99 of every 10 s window stays within 2x the first window's, and the
 * service's RSS grows less than 15% from the end of the first window to the end. A run shorter than 50 s uses
 * five equal windows instead.
 *
 *   pnpm bench:soak                  # 60 s
 *   pnpm bench:soak --seconds 30     # the CI version
 *   pnpm bench:soak --rate 80        # requests per second (default 40)
 *   pnpm bench:soak --warmup 10      # seconds of unmeasured warm-up first (default 5)
 *   pnpm bench:soak --store postgres # a fresh `inlay_soak` database on 127.0.0.1:5432 instead of PGlite
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PG_ADMIN } from './lib/pg.ts';
import { startChild } from './lib/proc.ts';

async function freshSoakDatabase(): Promise<string> {
  const c = new pg.Client({ connectionString: PG_ADMIN });
  await c.connect();
  try {
    await c.query('drop database if exists inlay_soak with (force)');
    await c.query('create database inlay_soak');
  } finally {
    await c.end();
  }
  const url = new URL(PG_ADMIN);
  url.pathname = '/inlay_soak';
  return url.toString();
}

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '40' },
    store: { type: 'string', default: 'pglite' },
    warmup: { type: 'string', default: '5' },
  },
});
const seconds = Number(values.seconds);
const rate = Number(values.rate);
// Windows of 10 s; a shorter run (the CI one) is cut in five so it still has a first window to compare to.
const WINDOW = Math.min(10, seconds / 5);

// Every soak starts from an empty database: PGlite in memory, or a fresh `inlay_soak` PostgreSQL database.
delete process.env.DATABASE_URL;
const storeEnv: Record<string, string> = { INLAY_DATA_DIR: 'memory://' };
if (values.store === 'postgres') storeEnv.DATABASE_URL = await freshSoakDatabase();
else if (values.store !== 'pglite') throw new Error('--store must be pglite or postgres');
const svc = await startChild<{ url: string; apiKey: string; accountId: string }>(
  'servers/service.ts',
  [],
  storeEnv,
);
const { url, apiKey } = svc.info;
const pid = svc.proc.pid!;
const H = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

async function api(method: string, path: string, body?: unknown) {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: H,
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return JSON.parse(text);
}

// A user with an installed workflow the engine can run without any third party, and an MCP server.
const { userId } = await api('POST', '/users', { username: 'soak-user' });
const { integrationId } = await api('POST', '/integrations', { name: 'Soak' });
const { workflowId } = await api('POST', '/workflows', {
  integrationId,
  name: 'Soak run',
  definition: {
    trigger: { type: 'manual' },
    steps: [
      {
        id: crypto.randomUUID(),
        connector: 'transform',
        action: 'map',
        input: { expression: '{"n": trigger.n, "twice": trigger.n * 2}' },
      },
    ],
  },
});
await api('POST', '/installations', { userId, workflowIds: [workflowId], credentialIds: {}, values: [] });
const mcp = await api('POST', '/mcp-servers', { name: 'soak' });
const mcpUrl = `${url}/mcp/${mcp.serverId}/${mcp.accessToken}`;

let n = 0;
const ops: [weight: number, name: string, run: () => Promise<Response>][] = [
  [3, 'read workflows', () => fetch(`${url}/workflows?userId=${userId}`, { headers: H })],
  [
    2,
    'read logs',
    () => fetch(`${url}/workflows/${workflowId}/logs?userId=${userId}&limit=10`, { headers: H }),
  ],
  [1, 'read installations', () => fetch(`${url}/installations?userId=${userId}`, { headers: H })],
  [
    2,
    'run workflow',
    () =>
      fetch(`${url}/run/workflow`, {
        method: 'POST',
        headers: H,
        body: JSON.stringify({ workflowId, userId, data: { n: n++ } }),
      }),
  ],
  [1, 'mint token', () => fetch(`${url}/users/${userId}/token`, { headers: H })],
  [
    1,
    'MCP tools/call',
    () =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: { ...H, accept: 'application/json, text/event-stream', 'x-inlay-userid': userId },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: n++,
          method: 'tools/call',
          params: { name: 'list_workflows_inlay', arguments: {} },
        }),
      }),
  ],
];
const deck = ops.flatMap((op) => Array.from({ length: op[0] }, () => op));

const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

interface Window {
  latencies: number[];
  rss: number;
}
const windows: Window[] = [];
const errors: string[] = [];
const counts = new Map<string, number>();

async function fire(i: number, w: Window) {
  const [, name, run] = deck[i % deck.length]!;
  const t0 = performance.now();
  try {
    const res = await run();
    const text = await res.text();
    w.latencies.push(performance.now() - t0);
    if (!res.ok || /"error":\{|"isError":true/.test(text))
      errors.push(`${name}: ${res.status} ${text.slice(0, 200)}`);
  } catch (err) {
    errors.push(`${name}: ${(err as Error).message}`);
  }
  counts.set(name, (counts.get(name) ?? 0) + 1);
}

// Warm-up (JIT, caches, the heap growing to its working size) is not measured.
const warm: Window = { latencies: [], rss: 0 };
const warming: Promise<void>[] = [];
for (let i = 0; i < rate * Number(values.warmup); i++) {
  warming.push(fire(i, warm));
  await new Promise((r) => setTimeout(r, 1000 / rate));
}
await Promise.all(warming);
errors.length = 0;
counts.clear();

// Open loop: requests start on schedule whether or not earlier ones have answered.
const inflight: Promise<void>[] = [];
const start = performance.now();
const total = seconds * rate;
for (let i = 0; i < total; i++) {
  const due = start + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const wi = Math.floor(i / (rate * WINDOW));
  windows[wi] ??= { latencies: [], rss: 0 };
  inflight.push(fire(i, windows[wi]!));
  if ((i + 1) % (rate * WINDOW) === 0 || i === total - 1) windows[wi]!.rss = rssKb();
}
await Promise.all(inflight);
await svc.stop();

const p99 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] ?? 0;
};
const first = windows[0]!;
const p99s = windows.map((w) => Math.round(p99(w.latencies) * 10) / 10);
const worst = Math.max(...p99s);
const rssGrowth = (windows.at(-1)!.rss - first.rss) / first.rss;
const checks = {
  'zero errors': errors.length === 0,
  'p99 within 2x the first window': worst <= 2 * p99s[0]!,
  'RSS growth under 15%': rssGrowth < 0.15,
};
const ok = Object.values(checks).every(Boolean);
console.log(
  JSON.stringify(
    {
      seconds,
      warmupSeconds: Number(values.warmup),
      store: values.store,
      windowSeconds: WINDOW,
      ratePerSecond: rate,
      requests: [...counts.values()].reduce((a, b) => a + b, 0),
      mix: Object.fromEntries(counts),
      errors: errors.length,
      p99msPerWindow: p99s,
      rssMbPerWindow: windows.map((w) => Math.round(w.rss / 102.4) / 10),
      rssGrowthPercent: Math.round(rssGrowth * 1000) / 10,
      checks,
      verdict: ok ? 'PASS' : 'FAIL',
    },
    null,
    2,
  ),
);
if (errors.length) console.log(`first errors:\n${errors.slice(0, 5).join('\n')}`);
process.exit(ok ? 0 : 1);

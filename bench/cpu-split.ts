import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cpuTimeMs, load } from './lib/load.ts';
import { dropBenchDatabase, freshBenchDatabase } from './lib/pg.ts';
import { startChild } from './lib/proc.ts';
import { mcpTarget } from './suites/read-path-mcp.ts';

/**
 * Where one endpoint's CPU goes, per request: the service process, its PostgreSQL backends (on PostgreSQL) and
 * the bare handler serving the same bytes, in alternating rounds (`pnpm bench:cpu-split --endpoint logs|mcp-list
 * [--store pglite] [--limiter off] [--log-pages off|entries] [--rounds 4] [--seconds 3]`). CPU time per request is the figure a busy machine moves least.
 */
const { values } = parseArgs({
  options: {
    endpoint: { type: 'string', default: 'logs' },
    store: { type: 'string', default: 'postgres' },
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '4' },
    // As deployed; `off` for none (what the limiter costs, side by side with `on`).
    limiter: { type: 'string', default: 'on' },
    // What the service keeps of log pages (`on` as deployed; `off`: every page composed whole by the database).
    'log-pages': { type: 'string', default: 'on' },
    // Keep the PostgreSQL database (its URL is printed), to look at the statements afterwards.
    keep: { type: 'boolean', default: false },
  },
});
const databaseUrl = values.store === 'postgres' ? await freshBenchDatabase('_cpu') : undefined;
const env = databaseUrl ? { DATABASE_URL: databaseUrl } : { INLAY_DATA_DIR: 'memory://' };
const svc = await startChild<{ url: string; apiKey: string; userId: string; workflowId: string }>(
  'servers/service.ts',
  ['--limiter', values.limiter!, '--log-pages', values['log-pages']!],
  env,
);
const { url, apiKey, userId, workflowId } = svc.info;
const mcp = values.endpoint!.startsWith('mcp-');
const target = mcp ? await mcpTarget(url, apiKey, userId) : undefined;
const rpc =
  target?.calls[values.endpoint === 'mcp-list' ? 'MCP tools/list' : 'MCP tools/call list_connectors_inlay'];
const paths: Record<string, string> = {
  workflows: `/workflows?userId=${userId}`,
  logs: `/workflows/${workflowId}/logs?userId=${userId}&limit=30`,
  token: `/users/${userId}/token`,
};
const request = target
  ? {
      url: target.endpoint,
      method: 'POST' as const,
      headers: target.headers,
      body: JSON.stringify(rpc),
    }
  : { url: `${url}${paths[values.endpoint!]}`, headers: { authorization: `Bearer ${apiKey}` } };
const first = await fetch(request.url, request);
const body = await first.text();
if (!first.ok) throw new Error(`${values.endpoint} answered ${first.status}: ${body}`);
const file = join(mkdtempSync(join(tmpdir(), 'inlay-cpu-')), 'bodies.json');
writeFileSync(file, JSON.stringify({ '/x': { body, type: first.headers.get('content-type') ?? '' } }));
const bare = await startChild<{ url: string }>('servers/bare.ts', [file]);

/** CPU of the bench database's backends (ms), from /proc. */
async function databaseCpuMs(): Promise<number> {
  if (!databaseUrl) return 0;
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows.reduce((s, r) => s + (cpuTimeMs(r.pid) ?? 0), 0);
  } finally {
    await c.end();
  }
}

/** Transactions committed in the bench database: statements per request, roughly. */
async function commits(): Promise<number> {
  if (!databaseUrl) return 0;
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string }>(
      'select xact_commit::text as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0]!.n);
  } finally {
    await c.end();
  }
}

const seconds = Number(values.seconds);
const fmt = (n: number) => n.toFixed(3);
process.stdout.write(
  `${values.endpoint} on ${values.store}, ${body.length} bytes, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
);
process.stdout.write('round  inlay req/s  svc ms/req  db ms/req | bare req/s  bare ms/req  ratio\n');
const ratios: number[] = [];
for (let i = 0; i < Number(values.rounds); i++) {
  const x0 = await commits();
  const db0 = await databaseCpuMs();
  const a = await load({ ...request, seconds, pid: svc.proc.pid, warmup: i === 0 });
  const db1 = await databaseCpuMs();
  const x1 = await commits();
  const b = await load({
    url: `${bare.info.url}/x`,
    method: request.method,
    headers: request.headers,
    body: 'body' in request ? request.body : undefined,
    seconds,
    pid: bare.proc.pid,
    warmup: i === 0,
  });
  if (a.errors || a.non2xx) throw new Error(`${a.errors} errors, ${a.non2xx} non-2xx`);
  ratios.push(a.rps / b.rps);
  if (databaseUrl)
    process.stdout.write(`   transactions per request ${((x1 - x0) / a.requests).toFixed(2)}\n`);
  process.stdout.write(
    `${i + 1}      ${String(a.rps).padStart(8)}  ${fmt(a.cpuMs ?? Number.NaN)}      ${fmt((db1 - db0) / a.requests)}     | ${String(b.rps).padStart(8)}  ${fmt(b.cpuMs ?? Number.NaN)}        ${(a.rps / b.rps).toFixed(2)}\n`,
  );
}
const sorted = [...ratios].sort((x, y) => x - y);
process.stdout.write(`median ratio ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}\n`);
await bare.stop();
await svc.stop();
if (databaseUrl && !values.keep) await dropBenchDatabase(databaseUrl);
else if (databaseUrl) process.stdout.write(`kept ${databaseUrl}\n`);

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { load } from './lib/load.ts';
import { dropBenchDatabase, freshBenchDatabase } from './lib/pg.ts';
import { startChild } from './lib/proc.ts';
import { mcpTarget } from './suites/read-path-mcp.ts';

/**
 * Profiles the service under load: `pnpm bench:profile --endpoint workflows|logs|token|mcp-list|mcp-call
 * [--store pglite] [--otel on|always_off]`.
 * Prints the functions with the most self time and the path of the .cpuprofile (open it in Chrome DevTools).
 */
const { values } = parseArgs({
  options: {
    endpoint: { type: 'string', default: 'workflows' },
    store: { type: 'string', default: 'postgres' },
    seconds: { type: 'string', default: '8' },
    top: { type: 'string', default: '30' },
    // As deployed: the default limiter (batched shared counters, quota out of reach); `off` for none.
    limiter: { type: 'string', default: 'on' },
    // `off`: keep no log pages or entries, so `--endpoint logs` profiles the page composed on every request;
    // `entries`: keep entries only, so it profiles the page assembled from them.
    'log-pages': { type: 'string', default: 'on' },
    // `on`: traces exported to a local OTLP receiver; `always_off`: the same with OTEL_TRACES_SAMPLER=always_off.
    otel: { type: 'string', default: 'off' },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'inlay-prof-'));
const databaseUrl = values.store === 'postgres' ? await freshBenchDatabase('_profile') : undefined;
const sink = values.otel === 'off' ? undefined : await startChild<{ url: string }>('servers/otlp-sink.ts');
const env = {
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { INLAY_DATA_DIR: 'memory://' }),
  ...(sink ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.info.url } : {}),
  ...(values.otel === 'always_off' ? { OTEL_TRACES_SAMPLER: 'always_off' } : {}),
};
const svc = await startChild<{ url: string; apiKey: string; userId: string; workflowId: string }>(
  'servers/service.ts',
  ['--limiter', values.limiter!, '--log-pages', values['log-pages']!],
  env,
  120_000,
  ['--cpu-prof', `--cpu-prof-dir=${dir}`],
);
const { url, apiKey, userId, workflowId } = svc.info;
const paths: Record<string, string> = {
  workflows: `/workflows?userId=${userId}`,
  logs: `/workflows/${workflowId}/logs?userId=${userId}&limit=30`,
  token: `/users/${userId}/token`,
};
// MCP: `tools/list`, or `tools/call` of list_connectors_inlay, POSTed as the read-path suite sends them.
const mcp = values.endpoint === 'mcp-list' || values.endpoint === 'mcp-call';
const target = mcp ? await mcpTarget(url, apiKey, userId) : undefined;
const rpc =
  target?.calls[values.endpoint === 'mcp-list' ? 'MCP tools/list' : 'MCP tools/call list_connectors_inlay'];
const r = await load(
  target
    ? {
        url: target.endpoint,
        method: 'POST',
        headers: target.headers,
        body: JSON.stringify(rpc),
        seconds: Number(values.seconds),
      }
    : {
        url: `${url}${paths[values.endpoint!]}`,
        headers: { authorization: `Bearer ${apiKey}` },
        seconds: Number(values.seconds),
      },
);
process.stdout.write(
  `${values.endpoint} on ${values.store}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms\n`,
);
await svc.stop();
await sink?.stop();
if (databaseUrl) await dropBenchDatabase(databaseUrl);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written in ${dir}`);
const prof = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: Node[] };
const total = prof.nodes.reduce((s, n) => s + n.hitCount, 0);
const self = new Map<string, number>();
for (const n of prof.nodes) {
  const f = n.callFrame;
  const where = f.url
    .replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '')
    .replace(/^file:\/\/.*\/work\/main\//, '');
  const k = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`;
  self.set(k, (self.get(k) ?? 0) + n.hitCount);
}
const byPkg = new Map<string, number>();
for (const [k, v] of self) {
  const where = k.split(' ')[1] ?? '';
  const pkg = where.startsWith('packages/')
    ? where.split('/').slice(0, 4).join('/')
    : (where.split('/')[0] ?? '');
  byPkg.set(pkg || '(native)', (byPkg.get(pkg || '(native)') ?? 0) + v);
}
const pct = (v: number) => `${((v / total) * 100).toFixed(1).padStart(5)}%`;
process.stdout.write(`\nself time by function (${join(dir, file)}):\n`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  process.stdout.write(`${pct(v)}  ${k}\n`);
process.stdout.write('\nself time by module:\n');
for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 25))
  process.stdout.write(`${pct(v)}  ${k}\n`);

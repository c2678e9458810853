/**
 * `pnpm bench:n8n`: Inlay against n8n 2.x on the same workflow (webhook → HTTP POST to a local echo server →
 * reshape), side by side in alternating rounds. Not part of CI: it installs n8n and Node 24 from the npm
 * registry into a temporary folder (see docs/performance.md#inlay-and-n8n).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEcho } from './lib/echo.ts';
import { installN8n, startN8n } from './lib/n8n.ts';
import { dropBenchDatabase, freshBenchDatabase, pgAvailable } from './lib/pg.ts';
import { startChild } from './lib/proc.ts';
import { percentile, type Side, sampleRss, startInlay } from './lib/side.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    runs: { type: 'string', default: '500' },
    'latency-runs': { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '10' },
    dir: { type: 'string' },
    'n8n-version': { type: 'string', default: '2.40.7' },
    'node-version': { type: 'string', default: '24' },
  },
});
const rounds = Number(values.rounds);
const runs = Number(values.runs);
const latencyRuns = Number(values['latency-runs']);
const concurrency = Number(values.concurrency);
const RESULTS = new URL('./results/', import.meta.url);

if (!(await pgAvailable())) {
  process.stderr.write('bench:n8n: Inlay runs on PostgreSQL at 127.0.0.1:5432, which does not answer\n');
  process.exit(1);
}

const log = (s: string) => process.stdout.write(`${s}\n`);
const install = await installN8n({
  dir: values.dir,
  n8nVersion: values['n8n-version']!,
  nodeVersion: values['node-version']!,
  log,
});
log(`n8n ${install.n8nVersion} on Node ${install.nodeVersion} in ${install.dir}`);

const echo = await startEcho();
const databaseUrl = await freshBenchDatabase('_n8n');
const sides: Side[] = [];
try {
  // A pool reconnects: a connection ended by the server (another process terminating backends on a shared
  // machine) costs one retried query, not the run.
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  db.on('error', () => {});
  const service = await startChild<{ url: string; apiKey: string }>('servers/service.ts', ['--serve-only'], {
    DATABASE_URL: databaseUrl,
    INLAY_EGRESS_ALLOW: new URL(echo.url).host,
    INLAY_RATE_LIMIT_PER_WEBHOOK: '10000000',
    LOG_LEVEL: 'warn',
  });
  sides.push(await startInlay(service, db, echo.url));
  log('Inlay: workflow installed');
  sides.push(await startN8n(install, echo.url, log));
  log('n8n: workflow imported and published');

  // Warm-up of both: code paths, connections, caches.
  for (const side of sides) await side.throughput(50, concurrency);

  const byName = () => Object.fromEntries(sides.map((s) => [s.name, [] as number[]]));
  const perSecond = byName();
  const latencies = byName();
  const rss = byName();
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const sampler = sampleRss(side.pid);
      const rate = await side.throughput(runs, concurrency);
      const lat: number[] = [];
      for (let i = 0; i < latencyRuns; i++) {
        await new Promise((ok) => setTimeout(ok, 20));
        lat.push(await side.once(i));
      }
      const peak = sampler.stop();
      perSecond[side.name]!.push(rate);
      latencies[side.name]!.push(...lat);
      rss[side.name]!.push(peak);
      log(
        `round ${r + 1} ${side.name}: ${rate.toFixed(1)} executions/s, p50 ${percentile(lat, 0.5).toFixed(1)} ms, peak RSS ${(peak / 1024).toFixed(0)} MiB`,
      );
    }
  }
  await db.end();

  const median = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const [a, b] = sides.map((s) => s.name) as [string, string];
  const row = (label: string, f: (n: string) => number, digits: number, unit: string) =>
    `| ${label} | ${f(a).toFixed(digits)} ${unit} | ${f(b).toFixed(digits)} ${unit} | ${(f(a) / f(b)).toFixed(2)} |`;
  const table = [
    `| Measure | ${a} | ${b} | ${a} ÷ ${b} |`,
    '|---|---:|---:|---:|',
    row('executions/s (median of rounds)', (n) => median(perSecond[n]!), 1, '/s'),
    row('latency p50', (n) => percentile(latencies[n]!, 0.5), 1, 'ms'),
    row('latency p99', (n) => percentile(latencies[n]!, 0.99), 1, 'ms'),
    row('peak RSS (median of rounds)', (n) => median(rss[n]!) / 1024, 0, 'MiB'),
  ].join('\n');
  const machine = `${new Date().toISOString()}; ${rounds} rounds × ${runs} runs (${concurrency} at a time) + ${latencyRuns} single runs; Inlay on PostgreSQL (in-process queue, Node ${process.versions.node}); n8n ${install.n8nVersion} on SQLite (Node ${install.nodeVersion})`;
  log(`\n${machine}\n\n${table}\n`);
  writeFileSync(new URL('n8n.md', RESULTS), `# Inlay and n8n\n\n${machine}\n\n${table}\n`);
  writeFileSync(
    new URL('n8n.json', RESULTS),
    JSON.stringify({ machine, rounds, runs, latencyRuns, concurrency, perSecond, latencies, rss }, null, 2),
  );
  log(`results: ${join(RESULTS.pathname, 'n8n.md')}`);
} finally {
  for (const s of sides.reverse()) await s.stop().catch(() => {});
  await echo.close();
  await dropBenchDatabase(databaseUrl);
  await install.cleanup();
}
process.exit(0);

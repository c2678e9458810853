import { parseArgs } from 'node:util';
import { pgAvailable, settlePostgres } from './lib/pg.ts';
import { type Measurement, pass, rerender, writeResults } from './lib/report.ts';
import { consoleBundle } from './suites/console.ts';
import { engine } from './suites/engine.ts';
import { expressions } from './suites/expressions.ts';
import { history } from './suites/history.ts';
import { limiter } from './suites/limiter.ts';
import { observability } from './suites/observability.ts';
import { proxy } from './suites/proxy.ts';
import { readPath } from './suites/read-path.ts';
import { start } from './suites/start.ts';
import { widget, widgetUnavailable } from './suites/widget.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    // Rewrites latest.md from latest.json without measuring (after a change to the report's format).
    render: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
if (values.render) {
  const { file } = rerender();
  process.stdout.write(`results: ${file}\n`);
  process.exit(0);
}
const quick = values.quick!;
const started = Date.now();
const hasPg = await pgAvailable();
const results: Measurement[] = [];
const skipped: string[] = [];

const suites: [string, () => Promise<Measurement[]>, boolean][] = [
  ['read-path-pglite', () => readPath({ quick, store: 'pglite' }), true],
  ['read-path-postgres', () => readPath({ quick, store: 'postgres' }), hasPg],
  ['limiter', () => limiter({ quick }), hasPg],
  ['history', () => history({ quick }), hasPg],
  ['engine', () => engine({ quick }), hasPg],
  ['expressions', () => expressions({ quick }), true],
  ['proxy', () => proxy({ quick, store: hasPg ? 'postgres' : 'pglite' }), true],
  ['observability', () => observability({ quick }), true],
  ['widget', () => widget({ quick }), widgetUnavailable() === undefined],
  ['console', () => consoleBundle(), true],
  ['start', () => start(), true],
];

for (const [name, run, available] of suites) {
  if (values.only && !values.only.split(',').includes(name)) continue;
  if (!available) {
    skipped.push(
      name === 'widget'
        ? `widget: not available (${widgetUnavailable()})`
        : `${name}: PostgreSQL at 127.0.0.1:5432 does not answer`,
    );
    continue;
  }
  process.stdout.write(`== ${name}\n`);
  try {
    if (hasPg) await settlePostgres();
    const got = await run();
    results.push(...got);
    for (const m of got) {
      const p = pass(m);
      const verdict = p === undefined ? '' : p ? '  PASS' : '  FAIL';
      process.stdout.write(
        `   ${m.name}: ${Math.round(m.value * 100) / 100} ${m.unit}${m.ratio !== undefined ? ` (×${Math.round(m.ratio * 100) / 100} of baseline)` : ''}${verdict}${m.target ? ` [target ${m.target.label}]` : ''}\n`,
      );
    }
  } catch (err) {
    skipped.push(`${name}: failed: ${(err as Error).message}`);
    process.stdout.write(`   failed: ${(err as Error).message}\n`);
  }
}

const { file } = writeResults(results, {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  ...(values.only ? { only: values.only } : {}),
  seconds: Math.round((Date.now() - started) / 1000),
  skipped,
});
for (const s of skipped) process.stdout.write(`skipped ${s}\n`);
process.stdout.write(`results: ${file} (${Math.round((Date.now() - started) / 1000)} s)\n`);
// A suite that failed half-way may leave a handle open; the results are written, so leave.
process.exit(0);

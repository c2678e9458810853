import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface Target {
  /** `>=` or `<=` against `value`. */
  op: '>=' | '<=';
  value: number;
  label: string;
}

export interface Measurement {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** The same figure for the baseline, measured in the same run. */
  baseline?: number;
  /** value ÷ baseline. */
  ratio?: number;
  /** What the target compares: the value itself or the ratio. */
  target?: Target & { on: 'value' | 'ratio' };
  note?: string;
}

export const pass = (m: Measurement) => {
  if (!m.target) return undefined;
  const x = m.target.on === 'ratio' ? m.ratio : m.value;
  if (x === undefined || Number.isNaN(x)) return false;
  return m.target.op === '>=' ? x >= m.target.value : x <= m.target.value;
};

export function machine() {
  const c = cpus();
  return {
    cpu: c[0]?.model ?? 'unknown',
    cores: c.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

const fmt = (n: number | undefined) =>
  n === undefined ? '' : Math.abs(n) >= 100 ? String(Math.round(n)) : String(Math.round(n * 100) / 100);

const DIR = fileURLToPath(new URL('../results', import.meta.url));

/** latest.md again from latest.json, machine and all, as they were measured. */
export function rerender(): { md: string; file: string } {
  const { machine: m, results, ...meta } = JSON.parse(readFileSync(`${DIR}/latest.json`, 'utf8'));
  delete meta.only;
  return writeResults(
    (results as (Measurement & { pass?: boolean })[]).map(({ pass: _p, ...r }) => r),
    meta,
    m,
  );
}

export function writeResults(
  results: Measurement[],
  meta: Record<string, unknown>,
  m: ReturnType<typeof machine> = machine(),
): { md: string; file: string } {
  const dir = DIR;
  mkdirSync(dir, { recursive: true });
  const json = { ...meta, machine: m, results: results.map((r) => ({ ...r, pass: pass(r) })) };
  const lines = [
    `# Inlay benchmarks`,
    '',
    `${meta.date} · ${meta.mode} run · ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB · Node ${m.node} · ${m.platform}`,
    '',
    '## Targets',
    '',
    '| Measure | Value | Target | Result |',
    '|---|---:|---|---|',
    ...results
      .filter((r) => r.target)
      .map((r) => {
        const shown =
          r.target!.on === 'ratio'
            ? `${fmt(r.ratio)} (${fmt(r.value)} ${r.unit})`
            : `${fmt(r.value)} ${r.unit}`;
        return `| ${r.suite}: ${r.name} | ${shown} | ${r.target!.label} | ${pass(r) ? 'PASS' : 'FAIL'} |`;
      }),
    '',
    '## All measurements',
    '',
    '| Suite | Measure | Value | Baseline | Ratio | Target | Result |',
    '|---|---|---:|---:|---:|---|---|',
    ...results.map((r) => {
      const p = pass(r);
      const target = r.target
        ? `${r.target.on === 'ratio' ? 'ratio ' : ''}${r.target.op} ${r.target.value}${r.target.on === 'value' ? ` ${r.unit}` : ''}`
        : '';
      return `| ${r.suite} | ${r.name}${r.note ? ` (${r.note})` : ''} | ${fmt(r.value)} ${r.unit} | ${r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit}`} | ${fmt(r.ratio)} | ${target} | ${p === undefined ? '' : p ? 'PASS' : 'FAIL'} |`;
    }),
    '',
    ...((meta.skipped as string[] | undefined)?.length
      ? [
          '## Not measured',
          '',
          ...(meta.skipped as string[]).map((x) => `- ${x.replace(/\s+/g, ' ').slice(0, 240)}`),
          '',
        ]
      : []),
  ];
  const md = lines.join('\n');
  // A run of some suites (--only) must not replace the record of a whole run.
  const base = meta.only ? 'partial' : 'latest';
  writeFileSync(`${dir}/${base}.md`, md);
  writeFileSync(`${dir}/${base}.json`, `${JSON.stringify(json, null, 2)}\n`);
  return { md, file: `${dir}/${base}.md` };
}

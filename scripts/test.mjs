#!/usr/bin/env node
// `pnpm test [tier …] [--no-build] [--filter <package>]`: builds the packages once (when a browser or pack tier
// runs), then runs each tier's script (`test:<tier>`) in every workspace package that has one, in tier order, and
// prints how many tests each tier executed. The scripts see INLAY_BUILT=1, so none builds again. Tiers: unit (no service), api (the shared service), system (own processes, faults, several nodes),
// browser (Chromium), pack (built bundles and tarballs). With no tier named it runs all of them.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const TIERS = ['unit', 'api', 'system', 'browser', 'pack'];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'no-build': { type: 'boolean', default: false },
    filter: { type: 'string', multiple: true },
  },
});
const unknown = positionals.filter((t) => !TIERS.includes(t));
if (unknown.length) {
  console.error(`test: unknown tier ${unknown.join(', ')}; the tiers are ${TIERS.join(', ')}`);
  process.exit(2);
}
const tiers = positionals.length ? TIERS.filter((t) => positionals.includes(t)) : TIERS;

/** Workspace packages (packages/*, apps/*, docs) with their test scripts, in a fixed order. */
function workspace() {
  const dirs = [
    ...['packages', 'apps'].flatMap((parent) =>
      readdirSync(join(ROOT, parent), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => join(ROOT, parent, d.name)),
    ),
    join(ROOT, 'docs'),
  ];
  return dirs.flatMap((dir) => {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return [{ dir, name: pkg.name, scripts: pkg.scripts ?? {} }];
    } catch {
      return [];
    }
  });
}

function run(cmd, args, cwd, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const tee = (stream, to) =>
      stream.on('data', (d) => {
        out += d;
        to.write(d);
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
const plain = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

/** vitest's summary line: `Tests  3 failed | 613 passed | 32 skipped (648)`, summed over the runs in `out`. */
export function countTests(out) {
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const line of plain(out).split('\n')) {
    const m = /^\s*Tests\s+(.*)\(\d+\)\s*$/.exec(line);
    if (!m) continue;
    for (const part of m[1].split('|')) {
      const [, n, what] = /(\d+)\s+(passed|failed|skipped|todo)/.exec(part) ?? [];
      if (n && what in total) total[what] += Number(n);
      else if (n && what === 'todo') total.skipped += Number(n);
    }
  }
  return total;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const packages = workspace().filter(
    (p) => !values.filter?.length || values.filter.some((f) => p.name === f || relative(ROOT, p.dir) === f),
  );
  // Only the browser tier (built console, demo and widget) and the pack tier (bundles, tarballs) read builds.
  if (!values['no-build'] && tiers.some((t) => t === 'browser' || t === 'pack')) {
    console.log('== test: building the packages once');
    const { code } = await run('pnpm', ['build'], ROOT);
    if (code !== 0) process.exit(code);
  }
  const rows = [];
  let failed = false;
  for (const tier of tiers) {
    for (const p of packages.filter((p) => p.scripts[`test:${tier}`])) {
      const label = `${tier} ${relative(ROOT, p.dir)}`;
      console.log(`== test: ${label}`);
      const t0 = Date.now();
      const { code, out } = await run('pnpm', ['run', `test:${tier}`], p.dir, { INLAY_BUILT: '1' });
      rows.push({
        tier,
        pkg: relative(ROOT, p.dir),
        code,
        seconds: (Date.now() - t0) / 1000,
        ...countTests(out),
      });
      if (code !== 0) failed = true;
    }
  }
  console.log('\n== test: executed tests by tier');
  for (const tier of tiers) {
    const mine = rows.filter((r) => r.tier === tier);
    const sum = (k) => mine.reduce((n, r) => n + r[k], 0);
    for (const r of mine)
      console.log(
        `   ${r.tier.padEnd(8)}${r.pkg.padEnd(22)}${String(r.passed).padStart(5)} passed${String(r.failed).padStart(4)} failed${String(r.skipped).padStart(4)} skipped ${r.seconds.toFixed(0).padStart(5)} s${r.code ? '  FAILED' : ''}`,
      );
    console.log(`tier ${tier}: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
  }
  const all = (k) => rows.reduce((n, r) => n + r[k], 0);
  console.log(`${all('passed')} passed, ${all('failed')} failed, ${all('skipped')} skipped`);
  console.log(`== test: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(failed ? 1 : 0);
}

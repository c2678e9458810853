import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Measurement } from '../lib/report.ts';

const CONSOLE = fileURLToPath(new URL('../../packages/console/', import.meta.url));
/** The console's own budget (packages/console/scripts/size.mjs), apart from the widget's 25 kB. */
const BUDGET_KB = 150;

/** The console as `inlay serve` ships it: a fresh production build, every script and style sheet, gzip. */
export async function consoleBundle(): Promise<Measurement[]> {
  const out = mkdtempSync(join(tmpdir(), 'inlay-bench-console-'));
  try {
    execFileSync(join(CONSOLE, 'node_modules/.bin/vite'), ['build', '--outDir', out, '--emptyOutDir'], {
      cwd: CONSOLE,
      stdio: 'pipe',
    });
    const files = readdirSync(out, { recursive: true })
      .map(String)
      .filter((f) => /\.(js|css)$/.test(f));
    const gz = (f: string) => gzipSync(readFileSync(join(out, f)), { level: 9 }).length;
    const js = files.filter((f) => f.endsWith('.js')).reduce((n, f) => n + gz(f), 0);
    const css = files.filter((f) => f.endsWith('.css')).reduce((n, f) => n + gz(f), 0);
    const kb = (n: number) => Math.round((n / 1024) * 100) / 100;
    const suite = 'console bundle';
    return [
      { suite, name: 'console JS gzip (React, react-query, uPlot included)', value: kb(js), unit: 'kB' },
      { suite, name: 'console CSS gzip', value: kb(css), unit: 'kB' },
      {
        suite,
        name: 'console total gzip',
        value: kb(js + css),
        unit: 'kB',
        target: { on: 'value', op: '<=', value: BUDGET_KB, label: `≤ ${BUDGET_KB} kB gzip` },
      },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

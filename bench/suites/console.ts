import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The console's own budgets (first load, and in all), apart from the widget's 25 kB.
import { CONSOLE_BUDGET, CONSOLE_TOTAL_BUDGET, consoleSize } from '../../packages/console/scripts/size.mjs';
import type { Measurement } from '../lib/report.ts';

const CONSOLE = fileURLToPath(new URL('../../packages/console/', import.meta.url));

/** The console as `inlay serve` ships it: a fresh production build, gzip, first load and lazy chunks. */
export async function consoleBundle(): Promise<Measurement[]> {
  const out = mkdtempSync(join(tmpdir(), 'inlay-bench-console-'));
  try {
    execFileSync(join(CONSOLE, 'node_modules/.bin/vite'), ['build', '--outDir', out, '--emptyOutDir'], {
      cwd: CONSOLE,
      stdio: 'pipe',
    });
    const size = consoleSize(out);
    const kb = (n: number) => Math.round((n / 1024) * 100) / 100;
    const suite = 'console bundle';
    return [
      {
        suite,
        name: 'console first load gzip (React, react-query, uPlot included)',
        value: kb(size.initial),
        unit: 'kB',
        target: {
          on: 'value',
          op: '<=',
          value: kb(CONSOLE_BUDGET),
          label: `≤ ${kb(CONSOLE_BUDGET)} kB gzip`,
        },
      },
      {
        suite,
        name: 'console on-demand chunks gzip (editor, run log, locales)',
        value: kb(size.lazy),
        unit: 'kB',
      },
      {
        suite,
        name: 'console total gzip',
        value: kb(size.total),
        unit: 'kB',
        target: {
          on: 'value',
          op: '<=',
          value: kb(CONSOLE_TOTAL_BUDGET),
          label: `≤ ${kb(CONSOLE_TOTAL_BUDGET)} kB gzip`,
        },
      },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

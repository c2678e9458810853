#!/usr/bin/env node
// `pnpm pack:packages [--out <dir>] [--no-build]`: builds the published packages and writes one installable
// tarball each (default `dist-packages/`). `pnpm pack` rewrites `workspace:` ranges to the real versions, so the
// set installs on its own into any npm or pnpm app (docs/embedding.md). Every package gets the root LICENSE
// copied in first, so the copies never drift from it.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** In dependency order; connectors ships because the service imports it at runtime. */
export const PACKAGES = ['contract', 'connectors', 'client', 'server', 'react', 'express', 'next', 'service'];

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'dist-packages' },
    'no-build': { type: 'boolean', default: false },
  },
});
const out = resolve(process.cwd(), values.out);
const pnpm = (args, cwd) =>
  execFileSync('pnpm', args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

if (!values['no-build']) {
  process.stderr.write('pack:packages: building\n');
  pnpm(['-r', ...PACKAGES.flatMap((p) => ['--filter', `./packages/${p}`]), 'run', 'build'], ROOT);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const name of PACKAGES) {
  const dir = join(ROOT, 'packages', name);
  copyFileSync(join(ROOT, 'LICENSE'), join(dir, 'LICENSE'));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const main = manifest.main?.replace(/^\.\//, '');
  try {
    readFileSync(join(dir, main));
  } catch {
    throw new Error(`${manifest.name}: ${main} is missing; build it first (or drop --no-build)`);
  }
  pnpm(['pack', '--pack-destination', out], dir);
}
for (const f of readdirSync(out).sort()) process.stdout.write(`${join(out, f)}\n`);

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const APP_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(APP_ROOT, '../..');
/** Where the built frontend notes what it was built from. */
const STAMP = join(APP_ROOT, 'dist', '.inputs');

/** What the frontend is built from: its own sources, and the workspace packages' it resolves to. */
const INPUTS = [
  'apps/demo/src',
  'apps/demo/index.html',
  'apps/demo/vite.config.ts',
  'packages/react/src',
  'packages/client/src',
  'packages/contract/src',
  'pnpm-lock.yaml',
];

function* files(path: string): Generator<string> {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)))
    yield* files(join(path, entry.name));
}

/** A fingerprint of the inputs: each file's path, size and modification time. */
export function inputsFingerprint(): string {
  const hash = createHash('sha256');
  for (const input of INPUTS)
    for (const f of files(join(REPO, input))) {
      const s = statSync(f);
      hash.update(`${relative(REPO, f)}\0${s.size}\0${s.mtimeMs}\n`);
    }
  return hash.digest('hex');
}

/**
 * Builds the demo's frontend with Vite unless `dist/` was built from the same inputs; answers whether it built.
 * A start after nothing changed skips the build.
 */
export async function buildIfStale(): Promise<boolean> {
  const fingerprint = inputsFingerprint();
  const current =
    existsSync(join(APP_ROOT, 'dist', 'index.html')) &&
    existsSync(STAMP) &&
    readFileSync(STAMP, 'utf8') === fingerprint;
  if (current) return false;
  const { build } = await import('vite');
  await build({ root: APP_ROOT, configFile: join(APP_ROOT, 'vite.config.ts'), logLevel: 'warn' });
  writeFileSync(STAMP, fingerprint);
  return true;
}

import { statSync, utimesSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { buildIfStale } from '../server/build-if-stale.ts';

const APP = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(APP, 'src', 'main.tsx');
const { atime, mtime } = statSync(source);
afterAll(async () => {
  // Back to the file's own times, and a dist/ that matches them.
  utimesSync(source, atime, mtime);
  await buildIfStale();
});

it('builds the frontend only when one of its inputs changed', async () => {
  await buildIfStale();
  // Nothing changed since: no build.
  expect(await buildIfStale()).toBe(false);
  // A source file changes: the next start builds again, the one after does not.
  utimesSync(source, new Date(), new Date(Date.now() + 5_000));
  expect(await buildIfStale()).toBe(true);
  expect(await buildIfStale()).toBe(false);
});

#!/usr/bin/env node
// `node scripts/await-built.mjs <package>/<file> …`: waits (up to 5 minutes) until each sibling package's built
// file exists. The packages' devDependencies on @inlay/service (for their API tests) close a cycle
// (client → service → express → server → client) that `pnpm -r run build` cannot order, so it starts the
// cycle's builds together; a build that reads a sibling's declarations waits for them here.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packages = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages');
const deadline = Date.now() + 300_000;
for (const file of process.argv.slice(2)) {
  while (!existsSync(join(packages, file))) {
    if (Date.now() > deadline) {
      console.error(`await-built: packages/${file} is missing; build that package first`);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

#!/usr/bin/env node
// The `inlay` command: the built CLI. A file of its own (not `dist/cli.js` itself), so that installing the
// workspace links the command before anything is built.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'inlay: the service is not built yet. Run "pnpm build" (or "pnpm inlay" from the sources).\n',
  );
  process.exit(1);
}
await import(cli.href);

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The built files (`dist/`) of the `@inlay/console` package installed where `from` resolves modules (a folder or a
 * `file:` URL; the working directory by default), or undefined when none is installed there. The service itself
 * does not depend on the console: the CLI or the host finds it and passes it to `createApp` as `consoleDir`.
 */
export function installedConsoleDir(from: string = process.cwd()): string | undefined {
  const base = from.startsWith('file:') ? from : pathToFileURL(join(from, 'index.js')).href;
  try {
    return join(dirname(createRequire(base).resolve('@inlay/console/package.json')), 'dist');
  } catch {
    return undefined;
  }
}

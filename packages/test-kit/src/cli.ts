import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** The service package's folder, found by name (the kit depends on @inlay/service). */
export const SERVICE_DIR = dirname(createRequire(import.meta.url).resolve('@inlay/service/package.json'));
/** The `inlay` bin's source, run with tsx as `pnpm inlay` does. */
export const CLI = join(SERVICE_DIR, 'src', 'cli.ts');

/** Starts `inlay <args>` from source, as `pnpm inlay` does. */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  return spawn(process.execPath, ['--conditions=@inlay/source', '--import', 'tsx', CLI, ...args], {
    cwd: SERVICE_DIR,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Calls `onLine` with each whole line `stream` prints, until the returned function stops it. A pipe may hand over
 * a long line (a logged error: several kB) in pieces, even inside a character (the log's `…` is three bytes), so
 * an unfinished line waits for the rest.
 */
export function onLines(stream: Readable, onLine: (line: string) => void): () => void {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  const onData = (d: Buffer) => {
    const lines = (partial + decoder.write(d)).split('\n');
    partial = lines.pop()!;
    for (const line of lines) onLine(line);
  };
  stream.on('data', onData);
  return () => stream.off('data', onData);
}

/**
 * Resolves once `predicate` sees a whole line on stdout or stderr; rejects after `ms` (a cold `tsx` start with
 * PGlite's migrations took over 30 s at load average 8 in CI; the test itself has 90 s), quoting the last lines
 * the child printed.
 */
export function waitForOutput(child: ChildProcess, predicate: (line: string) => boolean, ms = 75_000) {
  return new Promise<string>((resolve, reject) => {
    const seen: string[] = [];
    let settled = false;
    const done = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const stop of stops) stop();
      settle();
    };
    const stops = [child.stdout!, child.stderr!].map((stream) =>
      onLines(stream, (line) => {
        seen.push(line);
        if (seen.length > 80) seen.shift();
        if (predicate(line)) done(() => resolve(line));
      }),
    );
    const timer = setTimeout(
      () =>
        done(() =>
          reject(
            new Error(
              `timed out waiting for output; the last lines were:\n${seen.map((l) => l.slice(0, 300)).join('\n')}`,
            ),
          ),
        ),
      ms,
    );
  });
}

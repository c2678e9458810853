import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
export const SERVICE_DIR = fileURLToPath(new URL('../..', import.meta.url));

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
 * Resolves once `predicate` sees a line on stdout or stderr; rejects after `ms` (a cold `tsx` start with PGlite's
 * migrations took over 30 s at load average 8 in CI; the test itself has 90 s).
 */
export function waitForOutput(child: ChildProcess, predicate: (line: string) => boolean, ms = 75_000) {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out waiting for output')), ms);
    const onData = (d: Buffer) => {
      for (const line of d.toString().split('\n'))
        if (predicate(line)) {
          clearTimeout(timer);
          resolve(line);
        }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
}

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Child<T> {
  info: T;
  proc: ChildProcess;
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs a bench server script in its own process (from source, as `pnpm inlay` does) and waits for its ready line. */
export function startChild<T>(
  script: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
  timeoutMs = 120_000,
  nodeArgs: string[] = [],
): Promise<Child<T>> {
  const proc = spawn(
    process.execPath,
    [...nodeArgs, '--conditions=@inlay/source', '--import', 'tsx', `${ROOT}/${script}`, ...args],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${stderr}`)), timeoutMs);
    let buf = '';
    proc.stdout!.on('data', (d) => {
      buf += d;
      for (const line of buf.split('\n')) {
        if (!line.startsWith('{"ready":')) continue;
        clearTimeout(timer);
        const info = JSON.parse(line).ready as T;
        resolve({
          info,
          proc,
          stop: () =>
            new Promise((done) => {
              if (proc.exitCode !== null) return done();
              proc.once('exit', () => done());
              proc.kill('SIGTERM');
              setTimeout(() => proc.kill('SIGKILL'), 5_000).unref();
            }),
        });
      }
    });
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${stderr}`)));
  });
}

/** What a bench server prints once it listens. */
export const ready = (info: unknown) => process.stdout.write(`${JSON.stringify({ ready: info })}\n`);

/**
 * CPU time (user and system, ms) a process has used so far, from `/proc/<pid>/stat` at Linux's 100 ticks a
 * second; undefined where there is no `/proc`. A figure that, unlike latency, a busy neighbour barely moves.
 */
export function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExpressionPool, type WorkerStartFailure } from '../src/index.ts';

// Runs in a vitest process of its own (vitest.config.ts): the close test counts this process's children.

// A runaway: JSONata evaluates it in microtasks, so only killing its worker stops it.
const RUNAWAY = '($f := function($n){ $n > 0 ? $f($n-1) : 0 }; $f(2000000))';
const realJsonata = createRequire(import.meta.url).resolve('jsonata');

const pools: ExpressionPool[] = [];
const dirs: string[] = [];
function pool(opts: Partial<ConstructorParameters<typeof ExpressionPool>[0]> = {}) {
  const p = new ExpressionPool({ workers: 1, memoryMb: 64, ...opts });
  pools.push(p);
  return p;
}
/** A JSONata module of the test's own, in a folder it can take away (a broken install). */
function jsonataShim(source = `module.exports = require(${JSON.stringify(realJsonata)});`) {
  const dir = mkdtempSync(join(tmpdir(), 'inlay-jsonata-'));
  dirs.push(dir);
  const file = join(dir, 'jsonata.cjs');
  writeFileSync(file, source);
  return file;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const rejection = (p: Promise<unknown>) =>
  p.then(
    (v) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(v)}`);
    },
    (e: { code?: string; message: string; transient?: boolean; retryAfterMs?: number }) => e,
  );

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
};

/** Expression workers among this process's children, read from /proc (what ps would list). */
function workerChildren(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('INLAY_EXPRESSION_WORKER'))
        out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
const hasProc = existsSync('/proc/self/stat');

/** Waits until no worker is starting (each start ends in `worker-ready`, or the test times out). */
async function allStarted(p: ExpressionPool) {
  while (p.stats().starting > 0) await once(p, 'worker-ready');
}

describe('expression pool: a warm replacement after a worker ends', () => {
  it('after a runaway is stopped, its replacement reports ready before the next call, which it serves', async () => {
    const p = pool();
    expect(await p.evaluate('1 + 1', {}, { timeoutMs: 30_000 })).toBe(2);
    const [first] = p.stats().pids;
    expect(p.stats()).toMatchObject({ ready: 1, busy: 0, starting: 0, started: 1 });

    const replaced = once(p, 'worker-ready');
    const stuck = await rejection(p.evaluate(RUNAWAY, {}, { timeoutMs: 300 }));
    expect(stuck.code).toBe('expression_timeout');
    // No expression was asked for since: the pool started the replacement on its own.
    const [pid] = (await replaced) as [number];
    expect(pid).not.toBe(first);
    expect(p.stats()).toMatchObject({ ready: 1, busy: 0, starting: 0, queued: 0, started: 2, pids: [pid] });

    expect(await p.evaluate('$sum(values)', { values: [1, 2, 3] }, { timeoutMs: 30_000 })).toBe(6);
    // Served by the replacement: no other process was started for it.
    expect(p.stats()).toMatchObject({ ready: 1, started: 2, pids: [pid] });
  });

  it('a worker that dies with its expression (heap abort) is replaced at once; the pool keeps its size', async () => {
    const p = pool({ workers: 2 });
    // Two at once: the pool grows to two workers.
    expect(
      await Promise.all([
        p.evaluate('1', {}, { timeoutMs: 30_000 }),
        p.evaluate('2', {}, { timeoutMs: 30_000 }),
      ]),
    ).toEqual([1, 2]);
    await allStarted(p);
    expect(p.stats()).toMatchObject({ ready: 2, started: 2 });

    const replaced = once(p, 'worker-ready');
    // One allocation past V8's limit aborts the worker's process.
    const hog = await rejection(p.evaluate('$length($pad("", 500000000))', {}, { timeoutMs: 60_000 }));
    expect(hog.code).toBe('expression_memory');
    await replaced;
    expect(p.stats()).toMatchObject({ ready: 2, busy: 0, starting: 0, started: 3, startFailures: 0 });
  });

  it('an idle worker killed from outside is replaced after the first backoff step', async () => {
    const p = pool();
    expect(await p.evaluate('1 + 1', {}, { timeoutMs: 30_000 })).toBe(2);
    const [pid] = p.stats().pids;
    const failed = once(p, 'worker-start-failed');
    const replaced = once(p, 'worker-ready');
    process.kill(pid!, 'SIGKILL');
    const [f] = (await failed) as [WorkerStartFailure];
    expect(f).toMatchObject({ failures: 1, retryInMs: 100 });
    expect(f.reason).toContain('idle worker exited (signal SIGKILL)');
    // No start has failed: an expression asked for during the backoff waits for the replacement.
    const during = p.evaluate('1 + 2', {}, { timeoutMs: 30_000 });
    await replaced;
    expect(await during).toBe(3);
    expect(p.stats()).toMatchObject({ ready: 1, started: 2 });
    expect(await p.evaluate('2 + 2', {}, { timeoutMs: 30_000 })).toBe(4);
    // A worker answered: the failure count starts over.
    expect(p.stats().startFailures).toBe(0);
  });
});

describe('expression pool: a replacement that cannot start', () => {
  it('backs off instead of spinning, fails callers at once with a clear error, and recovers', async () => {
    const shim = jsonataShim();
    const p = pool({ jsonataPath: shim });
    expect(await p.evaluate('1 + 1', {}, { timeoutMs: 30_000 })).toBe(2);
    // The running worker has JSONata loaded; its replacement will not find it.
    const source = readFileSync(shim, 'utf8');
    rmSync(shim);

    const failures: WorkerStartFailure[] = [];
    const starts: number[] = [];
    p.on('worker-start-failed', (f) => {
      failures.push(f);
      starts.push(p.stats().started);
    });
    const failedOnce = once(p, 'worker-start-failed');
    expect((await rejection(p.evaluate(RUNAWAY, {}, { timeoutMs: 300 }))).code).toBe('expression_timeout');
    await failedOnce;
    expect(failures[0]).toMatchObject({ failures: 1, retryInMs: 100 });
    expect(failures[0]!.reason).toBe('the worker exited before it was ready (exit code 1)');
    expect(failures[0]!.stderr).toContain('Cannot find module');
    expect([2, 3]).toContain(starts[0]);

    // Twenty callers while no worker can start: each gets the error (long deadlines: a hang fails the test).
    const errors = await Promise.all(
      Array.from({ length: 20 }, (_, i) => rejection(p.evaluate(`${i} + 1`, {}, { timeoutMs: 60_000 }))),
    );
    for (const e of errors) {
      expect(e.code).toBe('expression_error');
      expect(e.transient).toBe(true);
      expect(e.message).toMatch(
        /^No expression worker could start \(\d+ failed in a row; next attempt in \d+ ms\): the worker exited before it was ready \(exit code 1\)$/,
      );
    }

    // The next attempts come one at a time, each after a doubled wait, not one per caller.
    while (failures.length < 3) await once(p, 'worker-start-failed');
    expect(failures.slice(0, 3).map((f) => [f.failures, f.retryInMs])).toEqual([
      [1, 100],
      [2, 200],
      [3, 400],
    ]);
    // Starts so far when the k-th failure was told: the k + 1 that failed (the first worker included), and at
    // most one more begun since. Twenty callers started none.
    for (const [k, n] of starts.slice(0, 3).entries()) expect([k + 2, k + 3]).toContain(n);

    // The install is back: the next attempt starts a worker and expressions run again.
    writeFileSync(shim, source);
    await once(p, 'worker-ready');
    expect(await p.evaluate('1 + 2', {}, { timeoutMs: 30_000 })).toBe(3);
    expect(p.stats()).toMatchObject({ ready: 1, startFailures: 0 });
  });

  it('a pool whose first worker cannot start fails its first caller with the reason, not at the deadline', async () => {
    const p = pool({ jsonataPath: join(tmpdir(), 'inlay-no-such-jsonata.cjs') });
    const e = await rejection(p.evaluate('1 + 1', {}, { timeoutMs: 60_000 }));
    expect(e).toMatchObject({ code: 'expression_error', transient: true });
    expect(e.message).toContain('the worker exited before it was ready (exit code 1)');
    expect(e.retryAfterMs).toBeGreaterThanOrEqual(0);
  });

  it('a worker that hangs while starting is killed at the start timeout and counted as a failed start', async () => {
    // Loading "JSONata" blocks forever, without burning CPU.
    const shim = jsonataShim('Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);');
    const p = pool({ jsonataPath: shim, startTimeoutMs: 500 });
    const failed = once(p, 'worker-start-failed');
    const call = rejection(p.evaluate('1 + 1', {}, { timeoutMs: 60_000 }));
    const [hung] = p.stats().pids;
    expect(p.stats()).toMatchObject({ starting: 1, queued: 1 });
    const e = await call;
    expect(e.message).toContain('the worker did not start within 500 ms');
    // The event comes once the hung process is gone.
    const [f] = (await failed) as [WorkerStartFailure];
    expect(f).toMatchObject({ failures: 1, reason: 'the worker did not start within 500 ms' });
    expect(alive(hung!)).toBe(false);
  });
});

describe('expression pool: priority', () => {
  it('runs its workers at niceness 19 unless told otherwise, and at the niceness it is given', async () => {
    const lowest = pool();
    const given = pool({ nice: 5 });
    expect(await lowest.evaluate('1 + 1', {}, { timeoutMs: 30_000 })).toBe(2);
    expect(await given.evaluate('2 + 2', {}, { timeoutMs: 30_000 })).toBe(4);
    const [a] = lowest.stats().pids;
    const [b] = given.stats().pids;
    expect(getPriority(a!)).toBe(19);
    expect(getPriority(b!)).toBe(5);
  });
});

describe('expression pool: close', () => {
  it('leaves no worker process alive: busy, idle and starting ones alike', async () => {
    const p = pool({ workers: 2 });
    const seen = new Set<number>();
    p.on('worker-ready', (pid) => seen.add(pid));
    const longRunaway = rejection(p.evaluate(RUNAWAY, {}, { timeoutMs: 60_000 }));
    expect(await p.evaluate('1 + 1', {}, { timeoutMs: 30_000 })).toBe(2);
    for (const pid of p.stats().pids) seen.add(pid);
    // Stop a second runaway: its replacement is starting when the pool closes.
    const cancel = new AbortController();
    const cancelled = rejection(p.evaluate(RUNAWAY, {}, { timeoutMs: 60_000, signal: cancel.signal }));
    cancel.abort(new Error('run cancelled'));
    expect((await cancelled).message).toBe('run cancelled');
    expect(p.stats()).toMatchObject({ busy: 1, starting: 1 });
    for (const pid of p.stats().pids) seen.add(pid);
    expect(seen.size).toBe(3);
    if (hasProc) expect(workerChildren().length).toBeGreaterThanOrEqual(2);

    await p.close();
    expect((await longRunaway).code).toBe('expression_error');
    expect(p.stats()).toMatchObject({ ready: 0, busy: 0, starting: 0, pids: [] });
    for (const pid of seen) expect(alive(pid), `worker ${pid}`).toBe(false);
    if (hasProc) expect(workerChildren()).toEqual([]);
    // Closed stays closed: no worker starts for a late caller.
    expect((await rejection(p.evaluate('1', {}, { timeoutMs: 1_000 }))).message).toBe(
      'The expression pool is closed',
    );
    expect(p.stats().started).toBe(3);
  });
});

describe('turns between tenants', () => {
  it('serves a tenant with one expression between the expressions of a tenant with many', async () => {
    const p = pool({ workers: 1 });
    const done: string[] = [];
    const run = (tenant: string, n: number) =>
      p
        .evaluate('$sum([1..20000])', {}, { timeoutMs: 60_000, tenant })
        .then(() => done.push(`${tenant}${n}`));
    const busy = Array.from({ length: 12 }, (_, n) => run('a', n));
    const other = run('b', 0);
    expect(p.stats().queued).toBe(13);
    await Promise.all([...busy, other]);
    // One worker: tenant a's first expression, then b's, then the rest of a's in their order.
    expect(done.slice(0, 3)).toEqual(['a0', 'b0', 'a1']);
    expect(done.filter((d) => d.startsWith('a'))).toEqual(Array.from({ length: 12 }, (_, n) => `a${n}`));
  });

  it('takes a timed-out wait out of its tenant’s line without disturbing the others', async () => {
    const p = pool({ workers: 1 });
    const first = p.evaluate('$sum([1..20000])', {}, { timeoutMs: 60_000, tenant: 'a' });
    const gone = rejection(p.evaluate('1', {}, { timeoutMs: 1, tenant: 'b' }));
    const kept = p.evaluate('2', {}, { timeoutMs: 60_000, tenant: 'b' });
    expect((await gone).code).toBe('expression_timeout');
    expect(await Promise.all([first, kept])).toEqual([200010000, 2]);
    expect(p.stats().queued).toBe(0);
  });
});

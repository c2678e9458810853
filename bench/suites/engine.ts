import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { echoReshapeSteps, startEcho } from '../lib/echo.ts';
import { dropBenchDatabase, freshBenchDatabase } from '../lib/pg.ts';
import { startChild } from '../lib/proc.ts';
import type { Measurement } from '../lib/report.ts';
import { percentile, postJson as postWebhook, startInlay, wallMs } from '../lib/side.ts';

interface Seeded {
  url: string;
  apiKey: string;
  accountId: string;
}

const CLI = fileURLToPath(new URL('../../packages/service/src/cli.ts', import.meta.url));
const EVENT = 'bench.echo';
const LOOP_EVENT = 'bench.loop';
/** Iterations of the loop workflow. */
const LOOP = 100;
/**
 * Mean of the middle 80%: the runs' timestamps have whole milliseconds, so a median would move in 1 ms steps
 * (0.5 ms per step of the result); averaging the middle keeps sub-millisecond resolution without the outliers.
 */
const trimmedMean = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const middle = s.slice(Math.floor(s.length * 0.1), Math.ceil(s.length * 0.9));
  return middle.reduce((a, b) => a + b, 0) / middle.length;
};

/** The workflow under test: event trigger → `http` POST to the echo server → `transform` of its answer. */
const definition = (echoUrl: string) => ({
  trigger: { type: 'event', event: EVENT },
  steps: echoReshapeSteps(echoUrl),
  config: [],
});

/** The loop workflow: event trigger → `forEach` over 100 items → `http` POST of each item to the echo server. */
const loopDefinition = (echoUrl: string) => ({
  trigger: { type: 'event', event: LOOP_EVENT },
  steps: [
    {
      id: randomUUID(),
      type: 'forEach',
      items: `{{ [1..${LOOP}] }}`,
      steps: [
        {
          id: randomUUID(),
          connector: 'http',
          action: 'request',
          input: { method: 'POST', url: `${echoUrl}/echo`, body: { n: '{{ item }}' } },
        },
      ],
    },
  ],
  config: [],
});

async function api(base: string, apiKey: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Publishes and installs the echo workflow for a fresh user; returns what a run needs. */
async function setUp(svc: Seeded, echoUrl: string) {
  const { integrationId } = await api(svc.url, svc.apiKey, 'POST', '/integrations', { name: 'Bench engine' });
  const { workflowId } = await api(svc.url, svc.apiKey, 'POST', '/workflows', {
    integrationId,
    name: 'Echo and map',
    definition: definition(echoUrl),
  });
  const loop = await api(svc.url, svc.apiKey, 'POST', '/workflows', {
    integrationId,
    name: 'Loop of echoes',
    definition: loopDefinition(echoUrl),
  });
  const { userId } = await api(svc.url, svc.apiKey, 'POST', '/users', {
    username: `engine-${randomUUID().slice(0, 8)}`,
  });
  await api(svc.url, svc.apiKey, 'POST', '/installations', {
    userId,
    workflowIds: [workflowId, loop.workflowId],
    credentialIds: {},
    values: [],
  });
  return { workflowId, userId };
}

/** Fires `n` events, `concurrency` at a time; returns the execution ids. */
async function fire(
  svc: Seeded,
  userId: string,
  n: number,
  concurrency = 10,
  event = EVENT,
): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const r = await api(svc.url, svc.apiKey, 'POST', '/run/event', {
          event,
          userId,
          data: { n: i },
        });
        ids.push(...r.executionIds);
      }
    }),
  );
  if (ids.length !== n) throw new Error(`${n} events started ${ids.length} executions`);
  return ids;
}

function postJson(url: string, body: unknown, agent: Agent): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Waits until every execution finished; fails on any run that did not succeed. */
async function waitFinished(db: pg.Client, ids: string[], timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ done: number; failed: number; last: Date | null; first: Date | null }>(
      `select count(*) filter (where finished)::int as done, count(*) filter (where status = 'failed')::int as failed,
              max(stopped_at) as last, min(started_at) as first
       from executions where id = any($1::uuid[])`,
      [ids],
    );
    const r = rows[0]!;
    if (r.failed) {
      const { rows: bad } = await db.query(
        `select e.error, s.error as step_error from executions e left join execution_steps s on s.execution_id = e.id
         where e.id = any($1::uuid[]) and e.status = 'failed' limit 1`,
        [ids],
      );
      throw new Error(`${r.failed} executions failed: ${JSON.stringify(bad[0])}`);
    }
    if (r.done === ids.length) return { first: r.first!, last: r.last! };
    if (Date.now() > until) throw new Error(`only ${r.done} of ${ids.length} executions finished in time`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Starts one `inlay worker` process. */
function startWorker(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--conditions=@inlay/source', '--import', 'tsx', CLI, 'worker'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.resume();
  return child;
}

const stop = (c: ChildProcess) =>
  new Promise<void>((done) => {
    if (c.exitCode !== null) return done();
    c.once('exit', () => done());
    c.kill('SIGTERM');
    setTimeout(() => c.kill('SIGKILL'), 10_000).unref();
  });

/** End-to-end executions per second on one queue, after a warm-up batch. */
async function throughput(
  queue: 'memory' | 'pg-boss',
  opts: { quick: boolean },
  echoUrl: string,
): Promise<{
  perSecond: number;
  n: number;
  latency?: { run: number; direct: number };
  /** One run of the 100-iteration loop, and 100 direct echo calls in a row (ms). */
  loop?: { run: number; direct: number };
  /** pg-boss: enqueue to finished of single runs on idle workers, median (ms). */
  idleP50?: number;
  /** pg-boss: webhook sent to an API node (limiter on) to finished on a worker, single runs (ms). */
  webhook?: { p50: number; p99: number; n: number; answered: number; queued: number };
}> {
  const databaseUrl = await freshBenchDatabase(`_${queue.replace('-', '')}`);
  const common = {
    DATABASE_URL: databaseUrl,
    INLAY_QUEUE: queue,
    INLAY_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
    INLAY_RATE_LIMIT_PER_KEY: '0',
    INLAY_RATE_LIMIT_PER_USER: '0',
    // The echo server listens on loopback, which the egress policy refuses unless it is opened.
    INLAY_EGRESS_ALLOW: new URL(echoUrl).host,
    LOG_LEVEL: 'warn',
  };
  const svc = await startChild<Seeded>(
    'servers/service.ts',
    [],
    queue === 'pg-boss' ? { ...common, INLAY_RUN_WORKERS: 'false' } : common,
  );
  const workers = queue === 'pg-boss' ? [startWorker(common), startWorker(common)] : [];
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { userId } = await setUp(svc.info, echoUrl);
    // Warm-up: loads connectors, compiles templates, and (pg-boss) waits for both workers to be polling.
    await waitFinished(db, await fire(svc.info, userId, 20), 120_000);
    const n = opts.quick ? 100 : 2000;
    const t0 = new Date();
    const ids = await fire(svc.info, userId, n);
    const { last } = await waitFinished(db, ids, 600_000);
    const perSecond = n / ((last.getTime() - t0.getTime()) / 1000);
    if (queue !== 'memory') {
      // Low load, as a webhook arrives now and then: one run at a time on idle workers polling at the default
      // 2 s, from the row's creation (API node) to its end (worker), both stamped by the database's clock.
      const idle: number[] = [];
      for (let i = 0; i < (opts.quick ? 10 : 50); i++) {
        await new Promise((r) => setTimeout(r, 100));
        const [id] = await fire(svc.info, userId, 1, 1);
        await waitFinished(db, [id!], 30_000);
        const { rows } = await db.query<{ ms: number }>(
          `select extract(epoch from stopped_at - created_at) * 1000 as ms from executions where id = $1`,
          [id],
        );
        idle.push(Number(rows[0]!.ms));
      }
      idle.sort((a, b) => a - b);
      return {
        perSecond,
        n,
        idleP50: idle[Math.floor(idle.length / 2)],
        webhook: await webhookLatency(databaseUrl, common, echoUrl, opts),
      };
    }

    // Per-step overhead: runs one at a time, enqueue to finish as the engine records it, against the
    // bench calling the echo server directly the same number of times.
    const m = opts.quick ? 20 : 200;
    const runs: number[] = [];
    for (let i = 0; i < m; i++) {
      const [id] = await fire(svc.info, userId, 1, 1);
      const { first, last: end } = await waitFinished(db, [id!], 30_000);
      runs.push(end.getTime() - first.getTime());
    }
    // The same call the http step makes (node:http, kept alive), and like each run above it meets an echo server
    // idle since the previous one: the bench polls for the end of a run every 50 ms.
    const agent = new Agent({ keepAlive: true });
    const direct: number[] = [];
    for (let i = 0; i < m; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const t = performance.now();
      await postJson(`${echoUrl}/echo`, { n: i }, agent);
      direct.push(performance.now() - t);
    }
    // The loop: one run of 100 iterations at a time, against 100 direct calls in a row.
    const k = opts.quick ? 3 : 10;
    const loopRuns: number[] = [];
    const loopDirect: number[] = [];
    for (let i = 0; i < k; i++) {
      const [id] = await fire(svc.info, userId, 1, 1, LOOP_EVENT);
      const { first, last: end } = await waitFinished(db, [id!], 60_000);
      loopRuns.push(end.getTime() - first.getTime());
      const t = performance.now();
      for (let j = 0; j < LOOP; j++) await postJson(`${echoUrl}/echo`, { n: j }, agent);
      loopDirect.push(performance.now() - t);
    }
    agent.destroy();
    return {
      perSecond,
      n,
      latency: { run: trimmedMean(runs), direct: trimmedMean(direct) },
      loop: { run: trimmedMean(loopRuns), direct: trimmedMean(loopDirect) },
    };
  } finally {
    await db.end();
    await Promise.all(workers.map(stop));
    await svc.stop();
    await dropBenchDatabase(databaseUrl);
  }
}

/**
 * The deployed topology: a webhook POSTed to an API node that runs no work, with the rate limiter on as deployed
 * (batched PostgreSQL counters; quotas out of reach), its run taken by one of the two `inlay worker` processes
 * already polling at the default interval and woken by the enqueue's NOTIFY. One call at a time, 100 ms apart:
 * from the bench sending the webhook to the run's `stopped_at` (PostgreSQL's clock, the same machine's).
 */
async function webhookLatency(
  databaseUrl: string,
  common: Record<string, string>,
  echoUrl: string,
  opts: { quick: boolean },
): Promise<{ p50: number; p99: number; n: number; answered: number; queued: number }> {
  const node = await startChild<{ url: string; apiKey: string }>(
    'servers/service.ts',
    ['--serve-only', '--limiter', 'on'],
    { ...common, INLAY_RUN_WORKERS: 'false', INLAY_RATE_LIMIT_PER_WEBHOOK: '10000000' },
  );
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const side = await startInlay(node, pool, echoUrl);
    for (let i = 0; i < 5; i++) await side.once(i);
    const n = opts.quick ? 20 : 100;
    const total: number[] = [];
    const answered: number[] = [];
    const queued: number[] = [];
    for (let i = 0; i < n; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const sent = wallMs();
      const { executionIds } = (await postWebhook(side.webhookUrl, { n: i })) as { executionIds: string[] };
      answered.push(wallMs() - sent);
      const row = await finishedRow(pool, executionIds[0]!);
      total.push(row.stopped - sent);
      queued.push(row.created - sent);
    }
    return {
      p50: percentile(total, 0.5),
      p99: percentile(total, 0.99),
      n,
      answered: percentile(answered, 0.5),
      queued: percentile(queued, 0.5),
    };
  } finally {
    await pool.end();
    await node.stop();
  }
}

/** A run's creation and end (ms since epoch, PostgreSQL's clock), once it stopped; fails unless it succeeded. */
async function finishedRow(pool: pg.Pool, id: string): Promise<{ created: number; stopped: number }> {
  const until = Date.now() + 30_000;
  for (;;) {
    const { rows } = await pool.query<{ status: string; created: number; stopped: number | null }>(
      `select status, extract(epoch from created_at) * 1000 as created, extract(epoch from stopped_at) * 1000 as stopped
       from executions where id = $1`,
      [id],
    );
    const r = rows[0];
    if (r?.stopped != null) {
      if (r.status !== 'succeeded') throw new Error(`webhook run ${id} ${r.status}`);
      return { created: Number(r.created), stopped: Number(r.stopped) };
    }
    if (Date.now() > until) throw new Error(`webhook run ${id} did not finish`);
    await new Promise((ok) => setTimeout(ok, 5));
  }
}

/** The engine end to end on PostgreSQL: in-process queue, pg-boss with two workers, and per-step overhead. */
export async function engine(opts: { quick: boolean }): Promise<Measurement[]> {
  const suite = 'engine (PostgreSQL)';
  const echo = await startEcho();
  try {
    const mem = await throughput('memory', opts, echo.url);
    const boss = await throughput('pg-boss', opts, echo.url);
    const out: Measurement[] = [
      {
        suite,
        name: 'executions/s, in-process queue',
        value: mem.perSecond,
        unit: 'runs/s',
        note: `${mem.n} runs of event → http echo → transform`,
      },
      {
        suite,
        name: 'executions/s, pg-boss + 2 workers',
        value: boss.perSecond,
        unit: 'runs/s',
        baseline: mem.perSecond,
        ratio: boss.perSecond / mem.perSecond,
        note: `${boss.n} runs; baseline is the in-process queue`,
      },
      {
        suite,
        name: 'pg-boss, enqueue to finished at low load, p50',
        value: boss.idleP50!,
        unit: 'ms',
        note: 'API node + 2 workers, default poll; workers woken by NOTIFY; run row created to finished',
      },
      {
        suite,
        name: 'pg-boss, webhook to finished at low load, p50',
        value: boss.webhook!.p50,
        unit: 'ms',
        note: `${boss.webhook!.n} webhooks 100 ms apart to an API node (limiter on, no workers) + 2 inlay worker processes woken by NOTIFY; sent to stopped_at`,
        target: { on: 'value', op: '<=', value: 30, label: '≤ 30 ms' },
      },
      {
        suite,
        name: 'pg-boss, webhook to finished at low load, p99',
        value: boss.webhook!.p99,
        unit: 'ms',
      },
      {
        suite,
        name: 'pg-boss, webhook answered (run queued), p50',
        value: boss.webhook!.answered,
        unit: 'ms',
        note: `sent to the run row's created_at: p50 ${boss.webhook!.queued.toFixed(1)} ms`,
      },
    ];
    if (mem.latency) {
      const { run, direct } = mem.latency;
      // Two steps run (http, transform); the trigger is the run's input, not a step.
      const perStep = (run - direct) / 2;
      out.push(
        {
          suite,
          name: 'one run, enqueue to finish (mean of the middle 80%)',
          value: run,
          unit: 'ms',
          baseline: direct,
          ratio: direct ? run / direct : undefined,
          note: 'baseline: the echo server called directly, after the same 50 ms pause',
        },
        {
          suite,
          name: 'engine overhead per step',
          value: perStep,
          unit: 'ms',
          note: '(run − direct echo call) ÷ 2 steps',
          target: { on: 'value', op: '<=', value: 2, label: '≤ 2 ms per step' },
        },
      );
    }
    if (mem.loop) {
      const { run, direct } = mem.loop;
      // 101 step occurrences: the forEach and its 100 iterations' http steps.
      out.push({
        suite,
        name: `engine overhead per step, ${LOOP}-iteration forEach`,
        value: (run - direct) / (LOOP + 1),
        unit: 'ms',
        note: `(one run − ${LOOP} direct echo calls in a row) ÷ ${LOOP + 1} step occurrences`,
        target: { on: 'value', op: '<=', value: 2, label: '≤ 2 ms per step' },
      });
    }
    return out;
  } finally {
    await echo.close();
  }
}

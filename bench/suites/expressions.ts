import { randomUUID } from 'node:crypto';
import { configureExpressions, ExpressionPool, evaluateExpression } from '@inlay/connectors';
import jsonata from 'jsonata';
import { percentile, roundTrips } from '../lib/latency.ts';
import { startChild } from '../lib/proc.ts';
import type { Measurement } from '../lib/report.ts';

const SUITE = 'expressions';
/** A runaway: in-thread it would hold the event loop for as long as it runs. */
const RUNAWAY = '($f := function($n){ $n > 0 ? $f($n-1) : 0 }; $f(2000000))';
/** The engine suite's transform, over the scope a run gives it. */
const EXPRESSION = '{"n": steps.echo.body.body.n, "status": steps.echo.status}';
const scope = (n: number) => ({
  trigger: { n },
  config: {},
  steps: { echo: { status: 200, headers: { 'content-type': 'application/json' }, body: { body: { n } } } },
  user: { userId: randomUUID(), username: 'bench', fullName: null },
  execution: { id: randomUUID(), attempt: 1 },
});

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out;
}

/**
 * Per-step cost of a transform's evaluation before this change (JSONata compiled once, evaluated in the
 * event loop, result copied as JSON) and after (the worker pool: a message each way), in this process.
 */
async function perStep(quick: boolean): Promise<Measurement[]> {
  const n = quick ? 500 : 3_000;
  configureExpressions({ workers: 2, memoryMb: 64 });
  const compiled = jsonata(EXPRESSION);
  const before = async (i: number) => JSON.parse(JSON.stringify(await compiled.evaluate(scope(i))));
  const after = (i: number) => evaluateExpression(EXPRESSION, scope(i), { timeoutMs: 30_000 });
  const path = (i: number) => evaluateExpression('steps.echo.body.body.n', scope(i), { timeoutMs: 30_000 });
  // Warm both (JIT, the pool's workers and their compiled-expression cache), then alternate in blocks.
  await timed(300, before);
  await timed(300, after);
  const b: number[] = [];
  const a: number[] = [];
  for (let block = 0; block < 5; block++) {
    b.push(...(await timed(n / 5, before)));
    a.push(...(await timed(n / 5, after)));
  }
  const p = await timed(n, path);
  const overhead = mean(a) - mean(b);
  return [
    { suite: SUITE, name: 'transform step, in the event loop (before)', value: mean(b), unit: 'ms' },
    { suite: SUITE, name: 'transform step, worker pool (after)', value: mean(a), unit: 'ms' },
    {
      suite: SUITE,
      name: 'per-step overhead of the worker pool',
      value: overhead,
      unit: 'ms',
      note: `mean of ${n} sequential evaluations each; p99 ${Math.round(percentile(a, 99) * 100) / 100} ms after`,
      target: { op: '<=', value: 2, label: '<= 2 ms', on: 'value' },
    },
    { suite: SUITE, name: 'plain-path template (looked up in place)', value: mean(p), unit: 'ms' },
  ];
}

/** How long one expression takes when it is the first after a runaway stopped its pool's only worker. */
async function afterRunaway(quick: boolean): Promise<Measurement[]> {
  const rounds = quick ? 5 : 15;
  const PAUSE_MS = 100;
  const pool = new ExpressionPool({ workers: 1, memoryMb: 64 });
  const evaluate = (expression: string, timeoutMs = 30_000) =>
    pool.evaluate(expression, scope(1), { timeoutMs });
  const stopRunaway = async () => {
    const err = await evaluate(RUNAWAY, 200).then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    if (err?.code !== 'expression_timeout')
      throw new Error(`the runaway ended with ${err?.code ?? 'a value'}`);
  };
  try {
    // A started worker and its compiled expression: the baseline is an ordinary evaluation.
    await timed(50, () => evaluate(EXPRESSION));
    const warm = await timed(rounds * 20, () => evaluate(EXPRESSION));
    const atOnce: number[] = [];
    const paused: number[] = [];
    for (let i = 0; i < rounds; i++) {
      await stopRunaway();
      atOnce.push(...(await timed(1, () => evaluate(EXPRESSION))));
      await stopRunaway();
      await new Promise((r) => setTimeout(r, PAUSE_MS));
      paused.push(...(await timed(1, () => evaluate(EXPRESSION))));
    }
    const base = percentile(warm, 50);
    const note = `median of ${rounds}; one worker, its runaway stopped at 200 ms; baseline: median of ${warm.length} evaluations on a started worker`;
    return [
      {
        suite: SUITE,
        name: 'first expression after a runaway, called at once',
        value: percentile(atOnce, 50),
        unit: 'ms',
        baseline: base,
        ratio: percentile(atOnce, 50) / base,
        note: `${note}; max ${Math.round(Math.max(...atOnce) * 100) / 100} ms`,
      },
      {
        suite: SUITE,
        name: `first expression after a runaway, called ${PAUSE_MS} ms later`,
        value: percentile(paused, 50),
        unit: 'ms',
        baseline: base,
        ratio: percentile(paused, 50) / base,
        note: `${note}; max ${Math.round(Math.max(...paused) * 100) / 100} ms`,
      },
    ];
  } finally {
    await pool.close();
  }
}

interface Seeded {
  url: string;
  apiKey: string;
}

async function api(svc: Seeded, method: string, path: string, body?: unknown) {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${svc.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** `/healthz` p99 of a service process while four runaway transforms run in it (four expression workers). */
async function healthUnderRunaways(quick: boolean): Promise<Measurement[]> {
  const svc = await startChild<Seeded>('servers/service.ts', [], {
    INLAY_DATA_DIR: 'memory://',
    INLAY_EXPRESSION_WORKERS: '4',
    INLAY_WORKER_CONCURRENCY: '8',
    INLAY_STEP_RETRIES: '0',
  });
  try {
    const { url } = svc.info;
    const n = quick ? 300 : 2_000;
    const idle = await roundTrips(`${url}/healthz`, {}, n);
    const { integrationId } = await api(svc.info, 'POST', '/integrations', { name: 'Runaways' });
    const { workflowId } = await api(svc.info, 'POST', '/workflows', {
      integrationId,
      name: 'Runaway',
      definition: {
        trigger: { type: 'manual' },
        steps: [
          {
            id: randomUUID(),
            connector: 'transform',
            action: 'map',
            timeoutMs: 120_000,
            input: { expression: RUNAWAY },
          },
        ],
        config: [],
      },
    });
    const { userId } = await api(svc.info, 'POST', '/users', { username: 'runaway' });
    await api(svc.info, 'POST', '/installations', {
      userId,
      workflowIds: [workflowId],
      credentialIds: {},
      values: [],
    });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push(
        ...(await api(svc.info, 'POST', '/run/workflow', { workflowId, userId, data: {} })).executionIds,
      );
    // Let the four reach their workers before measuring.
    await new Promise((r) => setTimeout(r, 500));
    const busy = await roundTrips(`${url}/healthz`, {}, n);
    // They must still be running after the measurement, or it measured something else.
    const logs = await api(svc.info, 'GET', `/workflows/${workflowId}/logs?userId=${userId}&limit=10`);
    const stillRunning = (logs.data as { stoppedAt?: string }[]).filter((l) => !l.stoppedAt).length;
    if (ids.length !== 4 || stillRunning !== 4)
      throw new Error(`expected 4 runaway runs in progress during the measurement, saw ${stillRunning}`);
    return [
      { suite: SUITE, name: '/healthz p99, idle', value: percentile(idle, 99), unit: 'ms' },
      {
        suite: SUITE,
        name: '/healthz p99 while 4 runaway expressions run',
        value: percentile(busy, 99),
        unit: 'ms',
        note: `${n} sequential requests; p50 ${Math.round(percentile(busy, 50) * 100) / 100} ms`,
        target: { op: '<=', value: 50, label: '< 50 ms', on: 'value' },
      },
    ];
  } finally {
    await svc.stop();
  }
}

export async function expressions(opts: { quick: boolean }): Promise<Measurement[]> {
  return [
    ...(await perStep(opts.quick)),
    ...(await afterRunaway(opts.quick)),
    ...(await healthUnderRunaways(opts.quick)),
  ];
}

import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { onLines, spawnCli, waitForOutput } from '@inlay/test-kit/cli';
import { install, publish, startUpstream, type Upstream, waitForRuns } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser } from '@inlay/test-kit/fixtures';
import { spanAttr as attr, type OtlpReceiver, startOtlpReceiver } from '@inlay/test-kit/otlp-receiver';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { onPostgres, type Service, startService, TEST_MASTER_KEY } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

if (!onPostgres)
  console.warn(
    'tracing-pgboss: the API node plus pg-boss worker trace needs PostgreSQL; set DATABASE_URL to run it',
  );

const SECRET = `hv-${randomBytes(12).toString('hex')}`;
const MARKER = `order-${randomBytes(6).toString('hex')}`;

const otel = (receiver: OtlpReceiver, name: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_SERVICE_NAME: name,
  OTEL_BSP_SCHEDULE_DELAY: '50',
});

describe.skipIf(!onPostgres)('a trace across an API node and a pg-boss worker (PostgreSQL only)', () => {
  let receiver: OtlpReceiver;
  let echo: Upstream;
  let api: Service;
  let db: Awaited<ReturnType<typeof privateDatabase>>;
  let worker: ChildProcess;
  const workerLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    // A database of their own: another file's engine would otherwise take this run from the queue.
    db = await privateDatabase('inlay_trace_boss');
    receiver = await startOtlpReceiver();
    echo = await startUpstream(() => ({ body: { ok: true } }));
    // The API node only enqueues: the run reaches the worker (a process of its own, as deployed) through pg-boss.
    api = await startService({
      env: {
        DATABASE_URL: db.url,
        INLAY_QUEUE: 'pg-boss',
        INLAY_RUN_WORKERS: 'false',
        ...otel(receiver, 'inlay-api'),
      },
    });
    worker = spawnCli(['worker'], {
      DATABASE_URL: db.url,
      INLAY_QUEUE: 'pg-boss',
      INLAY_MASTER_KEY: TEST_MASTER_KEY,
      INLAY_QUEUE_POLL_MS: '500',
      INLAY_EGRESS_ALLOW: new URL(echo.url).host,
      INLAY_STEP_RETRIES: '0',
      LOG_LEVEL: 'info',
      ...otel(receiver, 'inlay-worker'),
    });
    onLines(worker.stdout!, (line) => {
      try {
        workerLines.push(JSON.parse(line));
      } catch {}
    });
    await waitForOutput(worker, (l) => l.includes('inlay worker started'), 60_000);
  }, 120_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
    await api?.close();
    await echo?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('webhook request → pg-boss publish → run on the worker (linked root) → http step → the echo call', async () => {
    const { apiKey } = await api.account('tracing-boss');
    const alice = await createUser(api, apiKey, 'alice');
    const cred = await api.call('POST', '/credentials', {
      auth: apiKey,
      body: {
        userId: alice,
        connector: 'http',
        name: 'Echo',
        data: { headerName: 'x-echo-key', headerValue: SECRET, origins: echo.url },
      },
    });
    expect(cred.status, cred.text).toBe(201);
    const wf = await publish(api, apiKey, {
      trigger: { type: 'webhook' },
      steps: [
        {
          id: randomUUID(),
          connector: 'http',
          action: 'request',
          input: {
            method: 'POST',
            url: `${echo.url}/orders/90817263544536271`,
            body: { order: '{{ trigger.order }}' },
          },
        },
      ],
      config: [],
    });
    const inst = await install(api, apiKey, alice, [wf], {
      credentialIds: { http: cred.body.data.credentialId as string },
    });
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const hook = await api.call('POST', inst.webhookUrl!.slice(api.url.length), {
      body: { order: MARKER },
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(hook.status, hook.text).toBe(200);
    const [executionId] = hook.body.executionIds as string[];
    const [row] = await waitForRuns(api, [executionId!], 30_000);
    expect(row!.status).toBe('succeeded');

    // The run's span ends last on the worker, the request's on the API node.
    const spans = await eventually('the spans of both processes to be exported', async () =>
      receiver.spans.some((s) => s.name === 'inlay.run' && attr(s, 'inlay.execution.id') === executionId) &&
      receiver.spans.some((s) => s.name === 'POST /hooks/:installationId/:secret')
        ? receiver.spans
        : undefined,
    );
    // On the API node: the request continues the caller's trace; the hand-off to pg-boss is its child.
    const request = spans.find((s) => s.name === 'POST /hooks/:installationId/:secret')!;
    expect(request).toMatchObject({ traceId, parentSpanId: callerSpan, kind: 2 });
    const handOff = spans.find((s) => s.name === 'inlay.queue publish' && s.parentSpanId === request.spanId)!;
    expect(handOff).toMatchObject({ traceId, kind: 4 });
    expect(attr(handOff, 'messaging.system')).toBe('pg-boss');
    // On the worker: the run is a root of its own trace, linked to the hand-off through the job's data.
    const run = spans.find((s) => s.name === 'inlay.run' && attr(s, 'inlay.execution.id') === executionId)!;
    expect(run.parentSpanId ?? '').toBe('');
    expect(run.traceId).not.toBe(traceId);
    expect(run.kind).toBe(5);
    expect(run.links).toEqual([expect.objectContaining({ traceId, spanId: handOff.spanId })]);
    expect(attr(run, 'messaging.system')).toBe('pg-boss');
    expect(attr(run, 'inlay.run.status')).toBe('succeeded');
    expect(attr(run, 'inlay.run.trigger')).toBe('webhook');
    const step = spans.find((s) => s.name === 'inlay.step http.request' && s.parentSpanId === run.spanId)!;
    expect(step).toMatchObject({ traceId: run.traceId });
    expect(attr(step, 'inlay.connector')).toBe('http');
    expect(attr(step, 'inlay.action')).toBe('request');
    expect(attr(step, 'inlay.step.status')).toBe('succeeded');
    const call = spans.find((s) => s.name === 'POST /orders/:id')!;
    expect(call).toMatchObject({ traceId: run.traceId, parentSpanId: step.spanId, kind: 3 });
    expect(attr(call, 'http.response.status_code')).toBe(200);
    expect(attr(call, 'server.address')).toBe('127.0.0.1');
    // It was the worker that ran it: its log line names the run's span.
    expect(
      workerLines.find((l) => l.msg === 'execution finished' && l.executionId === executionId),
    ).toMatchObject({
      trace_id: run.traceId,
      span_id: run.spanId,
    });
    // Neither process exported a secret or the run's data.
    const exported = receiver.bodies.join('\n');
    expect(exported).not.toContain(SECRET);
    expect(exported).not.toContain(MARKER);
    expect(exported).not.toContain('90817263544536271');
  });
});

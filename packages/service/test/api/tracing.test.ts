import { randomBytes, randomUUID } from 'node:crypto';
import { install, publish, startUpstream, type Upstream, waitForRuns } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser } from '@inlay/test-kit/fixtures';
import { spanAttr as attr, type OtlpReceiver, startOtlpReceiver } from '@inlay/test-kit/otlp-receiver';
import { type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { credentials } from '../../src/store/schema.ts';

const SECRET = `hv-${randomBytes(12).toString('hex')}`;
const MARKER = `order-${randomBytes(6).toString('hex')}`;

let receiver: OtlpReceiver;
let echo: Upstream;
let svc: Service;
const logs: string[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  echo = await startUpstream(() => ({ body: { ok: true } }));
  svc = await startService({
    logs,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'inlay-test',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      INLAY_EGRESS_ALLOW: new URL(echo.url).host,
      INLAY_STEP_RETRIES: '0',
    },
  });
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await echo?.close();
  await receiver?.close();
});

it('one connected trace: webhook request → queue → run (linked root) → http step → the echo call', async () => {
  const { apiKey } = await svc.account('tracing');
  const alice = await createUser(svc, apiKey, 'alice');
  const cred = await svc.call('POST', '/credentials', {
    auth: apiKey,
    body: {
      userId: alice,
      connector: 'http',
      name: 'Echo',
      data: { headerName: 'x-echo-key', headerValue: SECRET, origins: echo.url },
    },
  });
  expect(cred.status, cred.text).toBe(201);
  const credentialId = cred.body.data.credentialId as string;
  const wf = await publish(svc, apiKey, {
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
  const inst = await install(svc, apiKey, alice, [wf], { credentialIds: { http: credentialId } });
  const traceId = randomBytes(16).toString('hex');
  const callerSpan = randomBytes(8).toString('hex');
  const hook = await svc.call('POST', inst.webhookUrl!.slice(svc.url.length), {
    body: { order: MARKER },
    headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
  });
  expect(hook.status).toBe(200);
  const [executionId] = hook.body.executionIds as string[];
  const [row] = await waitForRuns(svc, [executionId!]);
  expect(row!.status).toBe('succeeded');
  expect(echo.seen.at(-1)?.headers['x-echo-key']).toBe(SECRET);

  // The run's span ends after its steps' and may leave in a later batch: wait for both ends of the chain.
  const spans = await eventually('the run’s spans to be exported', async () => {
    const call = receiver.spans.find((s) => s.name === 'POST /orders/:id');
    const ran = receiver.spans.find(
      (s) => s.name === 'inlay.run' && attr(s, 'inlay.execution.id') === executionId,
    );
    return call && ran ? receiver.spans : undefined;
  });
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  // The API request continues the caller's trace.
  const request = spans.find((s) => s.name === 'POST /hooks/:installationId/:secret')!;
  expect(request).toMatchObject({ traceId, parentSpanId: callerSpan, kind: 2 });
  expect(attr(request, 'http.response.status_code')).toBe(200);
  // The hand-off to the queue is a producer span inside the request.
  const publish_ = spans.find((s) => s.name === 'inlay.queue publish' && s.parentSpanId === request.spanId)!;
  expect(publish_).toMatchObject({ traceId, kind: 4 });
  // The run is a root, linked to the hand-off that queued it.
  const run = spans.find((s) => s.name === 'inlay.run' && attr(s, 'inlay.execution.id') === executionId)!;
  expect(run.parentSpanId ?? '').toBe('');
  expect(run.traceId).not.toBe(traceId);
  expect(run.links).toEqual([expect.objectContaining({ traceId, spanId: publish_.spanId })]);
  expect(attr(run, 'inlay.run.status')).toBe('succeeded');
  expect(attr(run, 'inlay.run.trigger')).toBe('webhook');
  // The step inside the run, and the provider call inside the step.
  const step = spans.find((s) => s.name === 'inlay.step http.request' && s.parentSpanId === run.spanId)!;
  expect(step).toBeDefined();
  expect(attr(step, 'inlay.connector')).toBe('http');
  expect(attr(step, 'inlay.action')).toBe('request');
  expect(Number(attr(step, 'inlay.step.attempts'))).toBe(1);
  const call = spans.find((s) => s.name === 'POST /orders/:id')!;
  expect(byId.get(call.parentSpanId!)?.spanId).toBe(step.spanId);
  expect(call).toMatchObject({ traceId: run.traceId, kind: 3 });
  expect(attr(call, 'http.response.status_code')).toBe(200);
  expect(attr(call, 'server.address')).toBe('127.0.0.1');

  // No secret and no step data in any span: the credential's sealed values, its ciphertext, the trigger's data.
  const [sealed] = await svc.db.select().from(credentials).where(eq(credentials.id, credentialId));
  const exported = receiver.bodies.join('\n');
  expect(exported).not.toContain(SECRET);
  expect(exported).not.toContain(MARKER);
  // The path's id (route templates keep ids out); long enough that no trace id or timestamp holds it by chance.
  expect(exported).not.toContain('90817263544536271');
  for (const value of Object.values(sealed!))
    if (typeof value === 'string' && value.length > 20) expect(exported).not.toContain(value);
  expect(exported).not.toContain(inst.webhookUrl!.split('/').at(-1)!);

  // Log lines inside a span name it.
  const finished = logs
    .map((l) => JSON.parse(l))
    .find((l) => l.msg === 'execution finished' && l.executionId === executionId);
  expect(finished).toMatchObject({ trace_id: run.traceId, span_id: run.spanId });
});

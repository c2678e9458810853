import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { expressionPoolEvents, expressionPoolStats } from '@inlay/connectors';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { install, publish } from '@inlay/test-kit/engine';
import { createUser } from '@inlay/test-kit/fixtures';
import { connectV2 } from '@inlay/test-kit/mcp';
import { type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps, executions } from '../../src/store/schema.ts';

// A runaway: JSONata evaluates it in microtasks, so in-thread it never yields to a timer.
const RUNAWAY = '($f := function($n){ $n > 0 ? $f($n-1) : 0 }; $f(2000000))';
// Builds a hundred thousand small objects: the heap grows step by step past the budget.
const HOG = '$count($map([1..2000000], function($v){ {"a": [1..50], "b": $string($v)} }))';

let svc: Service;
let apiKey: string;
let alice: string;

const transformStep = (expression: string, timeoutMs: number) => ({
  id: randomUUID(),
  connector: 'transform',
  action: 'map',
  timeoutMs,
  input: { expression },
});

const manual = (...steps: WorkflowDefinitionInput['steps']): WorkflowDefinitionInput => ({
  trigger: { type: 'manual' },
  steps,
  config: [],
});

/** Installs and runs a manual workflow; polls `/healthz` until the run ends, counting answers meanwhile. */
async function runWatchingHealth(definition: WorkflowDefinitionInput, data: unknown = {}) {
  const workflowId = await publish(svc, apiKey, definition, `wf-${randomUUID().slice(0, 8)}`);
  await install(svc, apiKey, alice, [workflowId]);
  const r = await svc.call('POST', '/run/workflow', {
    auth: apiKey,
    body: { workflowId, userId: alice, data },
  });
  expect(r.status).toBe(200);
  const [executionId] = r.body.executionIds as string[];
  let healthyDuringRun = 0;
  for (;;) {
    const health = await svc.call('GET', '/healthz');
    const [row] = await svc.db.select().from(executions).where(eq(executions.id, executionId!));
    // This answer came back while the run was still going: the event loop was free.
    if (health.status === 200 && row?.status !== 'succeeded' && row?.status !== 'failed') healthyDuringRun++;
    if (row?.status === 'succeeded' || row?.status === 'failed') {
      const steps = await svc.db
        .select()
        .from(executionSteps)
        .where(eq(executionSteps.executionId, executionId!));
      return { row, steps: steps.sort((a, b) => a.position - b.position), healthyDuringRun };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  // The MCP case runs at the default step timeout: 4 s leaves a loaded CI machine room for the call after
  // its runaway (at 1 s, "1 + 1" timed out there when it still had to start a worker process; the pool now
  // starts the replacement as soon as the runaway is stopped). Workflow steps set their own 1 s timeouts below.
  svc = await startService({
    // The heap hogs must reach their budget within the pool's 30 s on a machine busy with CI's two lanes: at
    // nice 19 the workers got so little CPU there that even a 16 MB budget ran out of time. Niceness 0 and the
    // smallest budget; the runaway cases do not depend on it.
    env: {
      INLAY_STEP_TIMEOUT_MS: '4000',
      INLAY_STEP_RETRIES: '0',
      INLAY_EXPRESSION_MEMORY_MB: '16',
      INLAY_EXPRESSION_NICE: '0',
    },
  });
  ({ apiKey } = await svc.account('expressions'));
  alice = await createUser(svc, apiKey, 'alice');
});
afterAll(async () => {
  await svc?.close();
});

describe('expressions run where they can be stopped', () => {
  it('a runaway transform fails with expression_timeout at its step timeout while /healthz answers', async () => {
    const { row, steps, healthyDuringRun } = await runWatchingHealth(manual(transformStep(RUNAWAY, 1000)));
    expect(row.status).toBe('failed');
    expect(row.error).toMatchObject({ code: 'expression_timeout' });
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'expression_timeout' } });
    expect(healthyDuringRun).toBeGreaterThan(0);
  });

  it('a runaway {{ }} template fails its step with expression_timeout', async () => {
    const { row, steps, healthyDuringRun } = await runWatchingHealth(
      manual(transformStep(`{{ ${RUNAWAY} }}`, 1000)),
    );
    expect(row.error).toMatchObject({ code: 'expression_timeout' });
    expect(steps[0]!.error).toMatchObject({ code: 'expression_timeout' });
    expect((steps[0]!.error as { message: string }).message).toContain('input.expression');
    expect(healthyDuringRun).toBeGreaterThan(0);
  });

  it('an expression that grows its heap past the budget fails with expression_memory', async () => {
    const { row, steps } = await runWatchingHealth(manual(transformStep(HOG, 60_000)));
    expect(row.error).toMatchObject({ code: 'expression_memory' });
    expect(steps[0]).toMatchObject({ status: 'failed', error: { code: 'expression_memory' } });
  });

  it('large allocations in one step fail with expression_memory instead of aborting the process', async () => {
    // Before the per-step heap check, the third range was one allocation past V8's limit: a process abort.
    const { row } = await runWatchingHealth(
      manual(transformStep('[[1..10000000], [1..10000000], [1..10000000]] ~> $count()', 60_000)),
    );
    expect(row.error).toMatchObject({ code: 'expression_memory' });
    expect((await svc.call('GET', '/healthz')).status).toBe(200);
  });

  it('one allocation past any heap limit ends its worker, not the service: expression_memory', async () => {
    // JSONata pads with `new Array(width + 1).join(char)`: half a billion slots at once. In a worker thread
    // this aborted the whole process; in a worker process only the worker goes.
    const { row, healthyDuringRun } = await runWatchingHealth(
      manual(transformStep('$length($pad("", 500000000))', 60_000)),
    );
    expect(row.error).toMatchObject({ code: 'expression_memory' });
    expect(healthyDuringRun).toBeGreaterThan(0);
    expect((await svc.call('GET', '/healthz')).status).toBe(200);
  });

  it('the node keeps evaluating after workers were stopped: values, paths and errors as before', async () => {
    const first = transformStep('{"sum": $sum(trigger.values), "name": trigger.name}', 5_000);
    const { row, steps } = await runWatchingHealth(
      manual(first, {
        id: randomUUID(),
        connector: 'transform',
        action: 'map',
        input: {
          // The template (a plain path, looked up in place) yields the text the transform then evaluates.
          expression: '{{ trigger.formula }}',
        },
      }),
      { values: [1, 2, 3], name: 'Ada', formula: `$lookup(steps, "${first.id}").sum * 2` },
    );
    expect(row.status).toBe('succeeded');
    expect(steps[0]!.data).toEqual([[expect.objectContaining({ json: { sum: 6, name: 'Ada' } })]]);
    expect(steps[1]!.data).toEqual([[expect.objectContaining({ json: { value: 12 } })]]);
  });

  it('config fields and steps named after prototype properties are values, not prototypes', async () => {
    const first = { ...transformStep('{"first": true}', 5_000), name: '__proto__' };
    const second = transformStep(
      '{"proto": $lookup(config, "__proto__"), "ctor": config.constructor, "step": $lookup(steps, "__proto__")}',
      5_000,
    );
    const { row, steps } = await runWatchingHealth({
      ...manual(first, second),
      config: [
        { stepId: second.id, name: '__proto__', displayName: 'P', type: 'text', default: 'p' },
        { stepId: second.id, name: 'constructor', displayName: 'C', type: 'text', default: 'c' },
      ],
    });
    expect(row.status).toBe('succeeded');
    expect(steps[1]!.data).toEqual([
      [expect.objectContaining({ json: { proto: 'p', ctor: 'c', step: { first: true } } })],
    ]);
  });

  it('a failing expression is expression_error, not a timeout', async () => {
    const { row } = await runWatchingHealth(manual(transformStep('$error("no")', 5_000)));
    expect(row.error).toMatchObject({ code: 'expression_error' });
  });

  it('an MCP transform that runs away fails at the step timeout, and the next one answers', async () => {
    const server = (
      await svc.call('POST', '/mcp-servers', {
        auth: apiKey,
        body: { name: 'transforms', restrictions: { connectors: { allow: ['transform'] } } },
      })
    ).body;
    const client = await connectV2(server.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': 'alice',
    });
    const startedBefore = expressionPoolStats().started;
    const stuck = (await client.callTool({
      name: 'execute_action_inlay',
      arguments: { connectorId: 'transform', actionId: 'map', parameters: { expression: RUNAWAY } },
    })) as any;
    expect(stuck.isError).toBe(true);
    const executionId = /executionId ([0-9a-f-]{36})/.exec(JSON.stringify(stuck.content))![1]!;
    const [step] = await svc.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionId, executionId));
    expect(step!.error).toMatchObject({ code: 'expression_timeout' });

    // The runaway's worker was killed and its replacement started in the background: before the next call
    // is made, the pool has a started worker and none starting (a start that failed would hang this wait).
    while (expressionPoolStats().starting > 0 || expressionPoolStats().ready === 0)
      await once(expressionPoolEvents, 'worker-ready');
    const started = expressionPoolStats().started;
    expect(started).toBe(startedBefore + 1);
    const ok = (await client.callTool({
      name: 'execute_action_inlay',
      arguments: { connectorId: 'transform', actionId: 'map', parameters: { expression: '1 + 1' } },
    })) as any;
    expect(ok.isError, JSON.stringify(ok.content)).toBeFalsy();
    expect(ok.structuredContent.output).toBe(2);
    // It ran on a worker that was already up: no process was started for it.
    expect(expressionPoolStats().started).toBe(started);
    await client.close();
  });
});

// biome-ignore-all lint/suspicious/noThenProperty: `then` is the if step's branch, as the definition spells it
import { randomUUID } from 'node:crypto';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { install, logsOf, publish, startUpstream, type Upstream, waitForRuns } from '@inlay/test-kit/engine';
import { createUser } from '@inlay/test-kit/fixtures';
import { type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps } from '../../src/store/schema.ts';

let svc: Service;
let apiKey: string;
let alice: string;
/** Answers after a short wait, counting how many requests it holds at once; `/fail` answers 400. */
let echo: Upstream & { max: () => number; reset: () => void };

const id = () => randomUUID();
const transform = (expression: string, extra: Record<string, unknown> = {}) => ({
  id: id(),
  connector: 'transform',
  action: 'map',
  input: { expression },
  ...extra,
});
const call = (path: string, extra: Record<string, unknown> = {}) => ({
  id: id(),
  connector: 'http',
  action: 'request',
  input: { method: 'POST', url: `${echo.url}${path}`, body: { item: '{{ item }}', index: '{{ index }}' } },
  retries: 0,
  ...extra,
});

/** Publishes and installs a manual workflow, runs it with `data`, and returns its log entry once it ended. */
async function runOnce(steps: unknown[], data: unknown = {}) {
  const workflowId = await publish(svc, apiKey, {
    trigger: { type: 'manual' },
    steps,
  } as WorkflowDefinitionInput);
  await install(svc, apiKey, alice, [workflowId]);
  const r = await svc.call('POST', '/run/workflow', {
    auth: apiKey,
    body: { workflowId, userId: alice, data },
  });
  expect(r.status).toBe(200);
  await waitForRuns(svc, r.body.executionIds, 60_000);
  const [entry] = await logsOf(svc, apiKey, workflowId, alice, 1);
  return entry;
}

beforeAll(async () => {
  let now = 0;
  let max = 0;
  const up = await startUpstream(async (s) => {
    now++;
    max = Math.max(max, now);
    await new Promise((r) => setTimeout(r, 40));
    now--;
    if (s.path === '/fail') return { status: 400, body: { message: 'no such thing' } };
    return { body: { got: s.body } };
  });
  echo = Object.assign(up, {
    max: () => max,
    reset: () => {
      max = 0;
    },
  });
  svc = await startService({ env: { INLAY_EGRESS_ALLOW: '127.0.0.1' } });
  ({ apiKey } = await svc.account('flow'));
  alice = await createUser(svc, apiKey, 'alice');
});

afterAll(async () => {
  await svc?.close();
  await echo?.close();
});

describe('control flow steps', () => {
  it('an if runs the branch its condition picks; the other branch is absent from the log', async () => {
    const check = { id: id(), type: 'if', condition: '{{ trigger.amount > 10000 }}' };
    const big = transform('"big " & trigger.name');
    const small = transform('"small " & trigger.name');
    const after = transform(`steps.\`${check.id}\`.branch`);
    const steps = [{ ...check, then: [big], else: [small] }, after];
    const yes = await runOnce(steps, { amount: 20000, name: 'Acme' });
    expect(yes.status).toBe('succeeded');
    expect(yes.results.map((r: any) => r.stepId)).toEqual([check.id, big.id, after.id]);
    expect(yes.results[0]).toMatchObject({ connector: 'if', branch: 'then', status: 'succeeded' });
    expect(yes.results[0]).not.toHaveProperty('iteration');
    expect(yes.results[1]).toMatchObject({
      parentStepId: check.id,
      data: [[{ json: { value: 'big Acme' } }]],
    });
    expect(yes.results[2].data[0][0].json).toEqual({ value: 'then' });
    expect(yes.inputs).toHaveLength(3);
    expect(yes.inputs[0].data).toEqual({ condition: true });

    const no = await runOnce(steps, { amount: 5, name: 'Tiny' });
    expect(no.results.map((r: any) => r.stepId)).toEqual([check.id, small.id, after.id]);
    expect(no.results[0].branch).toBe('else');
    expect(no.results[1].data[0][0].json).toEqual({ value: 'small Tiny' });
  });

  it('a forEach runs its steps per item with item and index; its output is each last output', async () => {
    const first = transform('{"n": item.n * 10, "at": index}');
    const second = transform(`steps.\`${first.id}\`.n + index`);
    const loop = { id: id(), type: 'forEach', items: '{{ trigger.lines }}', steps: [first, second] };
    const total = transform(`$sum(steps.\`${loop.id}\`)`);
    const entry = await runOnce([loop, total], { lines: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    expect(entry.status).toBe('succeeded');
    const inner = entry.results.filter((r: any) => r.parentStepId === loop.id);
    expect(inner.map((r: any) => [r.stepId, r.iteration])).toEqual([
      [first.id, 0],
      [second.id, 0],
      [first.id, 1],
      [second.id, 1],
      [first.id, 2],
      [second.id, 2],
    ]);
    expect(inner[2].data[0][0].json).toEqual({ n: 20, at: 1 });
    const loopResult = entry.results.find((r: any) => r.stepId === loop.id);
    expect(loopResult.data[0].map((i: any) => i.json)).toEqual([{ value: 10 }, { value: 21 }, { value: 32 }]);
    expect(entry.results.at(-1).data[0][0].json).toEqual({ value: 63 });
    expect(entry.results).toHaveLength(8);
    expect(entry.inputs).toHaveLength(8);
  });

  it('a forEach nested in an if calls the provider once per item, in order with concurrency 1', async () => {
    echo.reset();
    const before = echo.seen.length;
    const post = call('/nested');
    const loop = { id: id(), type: 'forEach', items: '{{ trigger.ids }}', as: 'item', steps: [post] };
    const gate = { id: id(), type: 'if', condition: '{{ $count(trigger.ids) > 0 }}', then: [loop], else: [] };
    const entry = await runOnce([gate], { ids: ['a', 'b', 'c'] });
    expect(entry.status).toBe('succeeded');
    const bodies = echo.seen.slice(before).map((s) => s.body);
    expect(bodies).toEqual([
      { item: 'a', index: 0 },
      { item: 'b', index: 1 },
      { item: 'c', index: 2 },
    ]);
    expect(echo.max()).toBe(1);
    // The forEach comes before its iterations (its output is written once they ended).
    expect(entry.results.map((r: any) => [r.connector, r.parentStepId ?? null, r.iteration ?? null])).toEqual(
      [
        ['if', null, null],
        ['forEach', gate.id, null],
        ['http', loop.id, 0],
        ['http', loop.id, 1],
        ['http', loop.id, 2],
      ],
    );
    expect(entry.results[0].branch).toBe('then');
  });

  it('a forEach in a forEach running side by side: each result says which outer iteration it belongs to', async () => {
    const cell = transform('order * 10 + line');
    const inner = { id: id(), type: 'forEach', items: '{{ [0, 1] }}', as: 'line', steps: [cell] };
    const outer = {
      id: id(),
      type: 'forEach',
      items: '{{ [0, 1, 2] }}',
      as: 'order',
      concurrency: 3,
      steps: [inner],
    };
    const entry = await runOnce([outer, transform('1')]);
    expect(entry.status).toBe('succeeded');
    const cells = entry.results.filter((r: any) => r.stepId === cell.id);
    expect(cells).toHaveLength(6);
    // `iteration` is the inner index only, and `parentStepId` the same inner loop for all six: the path tells
    // them apart, and matches what each computed.
    for (const r of cells) {
      expect(r).toMatchObject({ parentStepId: inner.id, iteration: r.iterationPath[1] });
      expect(r.data[0][0].json.value).toBe(r.iterationPath[0] * 10 + r.iterationPath[1]);
    }
    expect(cells.map((r: any) => r.iterationPath.join('.')).sort()).toEqual([
      '0.0',
      '0.1',
      '1.0',
      '1.1',
      '2.0',
      '2.1',
    ]);
    const inners = entry.results.filter((r: any) => r.stepId === inner.id);
    expect(inners.map((r: any) => [r.parentStepId, r.iteration, r.iterationPath])).toEqual(
      expect.arrayContaining([
        [outer.id, 0, [0]],
        [outer.id, 1, [1]],
        [outer.id, 2, [2]],
      ]),
    );
    // Top-level results have no path.
    expect(entry.results.filter((r: any) => 'iterationPath' in r)).toHaveLength(9);
    expect(entry.results[0]).not.toHaveProperty('iterationPath');
    expect(entry.results.at(-1)).not.toHaveProperty('iterationPath');
  });

  it('concurrency is honoured: the echo server never holds more requests than it allows', async () => {
    echo.reset();
    const loop = {
      id: id(),
      type: 'forEach',
      items: '{{ [1..12] }}',
      concurrency: 4,
      steps: [call('/wide')],
    };
    const entry = await runOnce([loop]);
    expect(entry.status).toBe('succeeded');
    expect(echo.max()).toBe(4);
    const out = entry.results.find((r: any) => r.stepId === loop.id).data[0];
    expect(out.map((i: any) => i.json.body.got.item)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('1000 items run; 1001 fail the forEach cleanly, before any iteration', async () => {
    const inner = transform('item * 2');
    const loop = {
      id: id(),
      type: 'forEach',
      items: '{{ [1..trigger.n] }}',
      concurrency: 10,
      steps: [inner],
    };
    const ok = await runOnce([loop], { n: 1000 });
    expect(ok.status, JSON.stringify(ok.error)).toBe('succeeded');
    expect(ok.results).toHaveLength(1001);
    const out = ok.results[0];
    expect(out.stepId).toBe(loop.id);
    expect(out.data[0]).toHaveLength(1000);
    expect(out.data[0][999].json).toEqual({ value: 2000 });
    const rows = await svc.db.select().from(executionSteps).where(eq(executionSteps.stepId, inner.id));
    expect(new Set(rows.map((r) => r.iteration)).size).toBe(1000);

    const tooMany = await runOnce([loop], { n: 1001 });
    expect(tooMany.status).toBe('failed');
    expect(tooMany.error.code).toBe('too_many_items');
    expect(tooMany.error.message).toMatch(/1001 items; the most is 1000/);
    expect(tooMany.results).toHaveLength(1);
    expect(tooMany.results[0]).toMatchObject({ stepId: loop.id, status: 'failed' });
  }, 120_000);

  it('onError continue records the error and goes on; fail (the default) ends the run', async () => {
    const failing = call('/fail', { onError: 'continue' });
    const reader = transform(`steps.\`${failing.id}\`.error.statusCode`);
    const cont = await runOnce([failing, reader]);
    expect(cont.status).toBe('succeeded');
    expect(cont.results[0]).toMatchObject({ status: 'failed', error: { statusCode: 400 } });
    expect(cont.results[1].data[0][0].json).toEqual({ value: 400 });

    const strict = { ...call('/fail'), id: id() };
    const never = transform('"never"');
    const fail = await runOnce([strict, never]);
    expect(fail.status).toBe('failed');
    expect(fail.error.message).toMatch(/^Step 1 \(http\.request\) failed/);
    expect(fail.results.map((r: any) => r.stepId)).toEqual([strict.id]);
  });

  it('an iteration that fails ends the forEach, and with it the run, unless the forEach continues', async () => {
    const inner = transform('item = 2 ? $error("two is bad") : item');
    const loop = { id: id(), type: 'forEach', items: '{{ [1, 2, 3] }}', steps: [inner] };
    const failed = await runOnce([loop]);
    expect(failed.status).toBe('failed');
    expect(failed.error.message).toMatch(/iteration 1/);
    expect(failed.results.filter((r: any) => r.stepId === inner.id)).toHaveLength(2);

    const tolerant = { ...loop, id: id(), onError: 'continue' };
    const after = transform(`steps.\`${tolerant.id}\`.error.message`);
    const ok = await runOnce([tolerant, after]);
    expect(ok.status).toBe('succeeded');
    expect(ok.results.at(-1).data[0][0].json.value).toMatch(/two is bad/);
  });
});

describe('config of a nested step', () => {
  it('an install gives values to a step inside a forEach inside an if, and the step reads them', async () => {
    const before = echo.seen.length;
    const post = {
      ...call('/configured'),
      input: { method: 'POST', url: `${echo.url}/configured`, body: { label: '{{ config.label }}' } },
    };
    const loop = { id: id(), type: 'forEach', items: '{{ [1, 2] }}', steps: [post] };
    const gate = { id: id(), type: 'if', condition: '{{ true }}', then: [loop] };
    const workflowId = await publish(svc, apiKey, {
      trigger: { type: 'manual' },
      steps: [gate],
      config: [{ stepId: post.id, name: 'label', displayName: 'Label', type: 'text', required: true }],
    } as WorkflowDefinitionInput);
    const bob = await createUser(svc, apiKey, `bob-${id()}`);
    const body = (values: unknown[]) => ({
      userId: bob,
      workflowIds: [workflowId],
      credentialIds: {},
      values,
    });

    // Required at install time, though the step is two levels down.
    const missing = await svc.call('POST', '/installations', { auth: apiKey, body: body([]) });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      expect.objectContaining({
        field: 'body.values',
        rule: 'required',
        message: expect.stringContaining(post.id),
      }),
    ]);
    const values = [{ workflowId, blockId: post.id, fields: [{ name: 'label', value: 'Nested' }] }];
    const made = await svc.call('POST', '/installations', { auth: apiKey, body: body(values) });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.formData).toEqual([
      expect.objectContaining({ workflowId, app: 'http', blockId: post.id }),
    ]);

    const r = await svc.call('POST', '/run/workflow', { auth: apiKey, body: { workflowId, userId: bob } });
    await waitForRuns(svc, r.body.executionIds, 60_000);
    expect(echo.seen.slice(before).map((s) => [s.path, s.body])).toEqual([
      ['/configured', { label: 'Nested' }],
      ['/configured', { label: 'Nested' }],
    ]);
  });
});

describe('publishing control flow', () => {
  const wf = async (steps: unknown[], config: unknown[] = []) => {
    const i = await svc.call('POST', '/integrations', { auth: apiKey, body: { name: 'pub' } });
    return svc.call('POST', '/workflows', {
      auth: apiKey,
      body: {
        integrationId: i.body.integrationId,
        name: 'pub',
        definition: { trigger: { type: 'manual' }, steps, config },
      },
    });
  };

  it('names the nested path of a step that does not exist or does not parse', async () => {
    const bad = await wf([
      {
        id: id(),
        type: 'forEach',
        items: '{{ [1] }}',
        steps: [{ id: id(), connector: 'nope', action: 'x' }],
      },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('body.definition.steps[0].steps[0].connector');

    const deep = await wf([
      {
        id: id(),
        type: 'if',
        condition: '{{ true }}',
        then: [{ id: id(), type: 'forEach', items: '{{ [1] }}', steps: [{ id: id(), action: 'map' }] }],
      },
    ]);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].field).toBe('body.definition.steps[0].then[0].steps[0].connector');

    const template = await wf([{ id: id(), type: 'if', condition: '{{ foo( }}', then: [transform('1')] }]);
    expect(template.status).toBe(422);
    expect(template.body.errors[0].field).toBe('body.definition.steps[0].condition');

    const wide = await wf([
      { id: id(), type: 'forEach', items: '{{ [1] }}', concurrency: 11, steps: [transform('1')] },
    ]);
    expect(wide.status).toBe(400);
    expect(wide.body.errors[0].field).toBe('body.definition.steps[0].concurrency');

    const same = id();
    const dup = await wf([
      { id: same, type: 'forEach', items: '{{ [1] }}', steps: [{ ...transform('1'), id: same }] },
    ]);
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0].field).toBe('body.definition.steps[0].steps[0].id');
  });

  it('a config field may name a nested step', async () => {
    const post = call('/x');
    const r = await wf(
      [{ id: id(), type: 'forEach', items: '{{ [1] }}', steps: [post] }],
      [{ stepId: post.id, name: 'channel', displayName: 'Channel', type: 'text' }],
    );
    expect(r.status).toBe(201);
  });
});

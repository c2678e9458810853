// What started a run, as its log entry tells it: the trigger (kind, event name, data), the one-line summary
// the definition declares, reruns linked both ways, and one entry read on its own.
import { randomUUID } from 'node:crypto';
import { install, logsOf, publish, waitForRuns } from '@inlay/test-kit/engine';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, type Service, sharedService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let svc: Service;
let apiKey: string;
let userId: string;
let workflowId: string;
let plainWorkflowId: string;

const step = () => ({
  id: randomUUID(),
  name: 'Shape the deal',
  connector: 'transform',
  action: 'map',
  input: { expression: '1' },
});

beforeAll(async () => {
  svc = await sharedService();
  ({ apiKey } = await svc.account('summary'));
  userId = await createUser(svc, apiKey, 'summer');
  workflowId = await publish(svc, apiKey, {
    trigger: { type: 'event', event: 'deal.won' },
    summary: 'Deal {{ trigger.name }} · {{ $formatNumber(trigger.amount, "#,##0") }}',
    steps: [step()],
  });
  plainWorkflowId = await publish(svc, apiKey, { trigger: { type: 'manual' }, steps: [step()] });
  await install(svc, apiKey, userId, [workflowId]);
  await install(svc, apiKey, userId, [plainWorkflowId]);
});
afterAll(() => svc?.close());

const fire = async (event: string, data: unknown) => {
  const r = await svc.call('POST', '/run/event', { auth: apiKey, body: { event, userId, data } });
  expect(r.status).toBe(200);
  await waitForRuns(svc, r.body.executionIds);
  return r.body.executionIds as string[];
};

describe('run summary and trigger in the log', () => {
  it('evaluates the definition’s summary over the trigger data and lists the trigger', async () => {
    const [id] = await fire('deal.won', { name: 'Acme', amount: 12000 });
    const [entry] = (await logsOf(svc, apiKey, workflowId, userId)).filter((e) => e.executionId === id);
    expect(entry.summary).toBe('Deal Acme · 12,000');
    expect(entry.trigger).toEqual({
      type: 'event',
      event: 'deal.won',
      data: { name: 'Acme', amount: 12000 },
    });
    expect(entry.reruns).toEqual([]);
    expect(entry.results.map((r: { name?: string }) => r.name)).toEqual(['Shape the deal']);
  });

  it('keeps the summary to one line of at most 200 characters', async () => {
    const [id] = await fire('deal.won', { name: `a\n\n  b${'x'.repeat(300)}`, amount: 1 });
    const [entry] = (await logsOf(svc, apiKey, workflowId, userId)).filter((e) => e.executionId === id);
    expect(entry.summary).toHaveLength(200);
    expect(entry.summary.startsWith('Deal a b')).toBe(true);
    expect(entry.summary.endsWith('…')).toBe(true);
  });

  it('leaves the summary null when the template fails on this data, and the run still succeeds', async () => {
    const [id] = await fire('deal.won', { name: 'Bad', amount: 'not a number' });
    const [entry] = (await logsOf(svc, apiKey, workflowId, userId)).filter((e) => e.executionId === id);
    expect(entry.status).toBe('succeeded');
    expect(entry.summary).toBeNull();
  });

  it('has no summary when the definition declares none; a manual run has no event', async () => {
    const r = await svc.call('POST', '/run/workflow', {
      auth: apiKey,
      body: { workflowId: plainWorkflowId, userId, data: { name: 'x' } },
    });
    await waitForRuns(svc, r.body.executionIds);
    const [entry] = await logsOf(svc, apiKey, plainWorkflowId, userId);
    expect(entry.summary).toBeNull();
    expect(entry.trigger).toEqual({ type: 'manual', data: { name: 'x' } });
  });

  it('refuses a summary template that does not compile, naming the field', async () => {
    const i = await svc.call('POST', '/integrations', { auth: apiKey, body: { name: 'bad' } });
    const r = await svc.call('POST', '/workflows', {
      auth: apiKey,
      body: {
        integrationId: i.body.integrationId,
        name: 'bad summary',
        definition: { trigger: { type: 'manual' }, summary: 'Deal {{ trigger.name + }}', steps: [step()] },
      },
    });
    expectProblem(r, 422, 'unprocessable', 'body.definition.summary', 'template');
  });
});

describe('status filter', () => {
  it('lists only runs in the given states, paged over the filtered runs', async () => {
    const failing = await publish(svc, apiKey, {
      trigger: { type: 'event', event: 'maybe.fail' },
      steps: [
        {
          id: randomUUID(),
          connector: 'transform',
          action: 'map',
          input: { expression: 'trigger.fail = 1 ? $error("boom") : 1' },
        },
      ],
    });
    await install(svc, apiKey, userId, [failing]);
    // Three runs fail ($error), two succeed.
    for (const fail of [true, false, true, false, true]) await fire('maybe.fail', fail ? { fail: 1 } : {});
    const get = (q: string) =>
      svc.call('GET', `/workflows/${failing}/logs?userId=${userId}&${q}`, { auth: apiKey });
    const failed = (await get('status=failed')).body.data;
    expect(failed.map((e: { status: string }) => e.status)).toEqual(['failed', 'failed', 'failed']);
    expect((await get('status=succeeded')).body.data).toHaveLength(2);
    expect((await get('status=succeeded,failed')).body.data).toHaveLength(5);
    expect((await get('status=queued,running')).body.data).toEqual([]);
    const page2 = (await get('status=failed&limit=2&page=2')).body.data;
    expect(page2.map((e: { executionId: string }) => e.executionId)).toEqual([failed[2].executionId]);
    const bad = await get('status=broken');
    expectProblem(bad, 400, 'invalid_request', 'query.status');
    expect(bad.body.errors[0].message).toContain('queued, running, succeeded, failed');
  });
});

describe('reruns and one entry', () => {
  it('links a rerun to its original both ways, with the trigger, event and summary of the original', async () => {
    const [original] = await fire('deal.won', { name: 'Rerun me', amount: 5 });
    const jwt = await tokenFor(svc, apiKey, userId);
    const r = await svc.call('POST', `/workflows/${workflowId}/rerun/${original}`, { auth: jwt });
    expect(r.status).toBe(200);
    await waitForRuns(svc, [r.body.executionId]);
    const r2 = await svc.call('POST', `/workflows/${workflowId}/rerun/${original}`, { auth: jwt });
    await waitForRuns(svc, [r2.body.executionId]);

    const one = await svc.call('GET', `/workflows/${workflowId}/logs/${original}`, { auth: jwt });
    expect(one.status).toBe(200);
    expect(one.body.data.executionId).toBe(original);
    expect(one.body.data.reruns).toEqual([r.body.executionId, r2.body.executionId]);

    const page = await logsOf(svc, apiKey, workflowId, userId);
    const byId = new Map(page.map((e) => [e.executionId, e]));
    expect(byId.get(original).reruns).toEqual([r.body.executionId, r2.body.executionId]);
    const rerun = byId.get(r.body.executionId);
    expect(rerun.rerunOf).toBe(original);
    expect(rerun.trigger).toEqual({
      type: 'event',
      event: 'deal.won',
      data: { name: 'Rerun me', amount: 5 },
    });
    expect(rerun.summary).toBe('Deal Rerun me · 5');
    expect(rerun.reruns).toEqual([]);
  });

  it('answers 404 for another user’s run, a run of another workflow, and a malformed id', async () => {
    const [id] = await fire('deal.won', { name: 'Mine', amount: 1 });
    const other = await createUser(svc, apiKey, 'other-summer');
    const otherJwt = await tokenFor(svc, apiKey, other);
    expectProblem(
      await svc.call('GET', `/workflows/${workflowId}/logs/${id}`, { auth: otherJwt }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('GET', `/workflows/${plainWorkflowId}/logs/${id}?userId=${userId}`, { auth: apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('GET', `/workflows/${workflowId}/logs/nope?userId=${userId}`, { auth: apiKey }),
      400,
      'invalid_request',
      'path.executionId',
    );
    const ok = await svc.call('GET', `/workflows/${workflowId}/logs/${id}?userId=${userId}`, {
      auth: apiKey,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.summary).toBe('Deal Mine · 1');
  });
});

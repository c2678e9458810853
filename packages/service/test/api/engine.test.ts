import { randomUUID } from 'node:crypto';
import { connectorUuid, REDACTED } from '@inlay/connectors';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import {
  BOT_TOKEN,
  CHANNEL,
  discordCredential,
  install,
  logsOf,
  publish,
  startDiscord,
  startUpstream,
  type Upstream,
  waitForRuns,
} from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, ISO_MS_RE, type Service, startService, UUID_RE } from '@inlay/test-kit/service';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps, executions, userWorkflows } from '../../src/store/schema.ts';

let svc: Service;
let discord: Awaited<ReturnType<typeof startDiscord>>;
let hooks: Upstream;
let apiKey: string;
let alice: string;
let bob: string;
let aliceCred: string;
const wf = {} as { deal: string; echo: string; lost: string; manual: string };
const steps = { shape: randomUUID(), post: randomUUID(), read: randomUUID() };

const dealToDiscord = (trigger: WorkflowDefinitionInput['trigger']): WorkflowDefinitionInput => ({
  trigger,
  steps: [
    {
      id: steps.shape,
      name: 'shape',
      connector: 'transform',
      action: 'map',
      input: {
        expression:
          '{"text": "New deal " & trigger.name & " for " & user.username, "amount": trigger.amount * 2}',
      },
    },
    {
      id: steps.post,
      name: 'post',
      connector: 'discord',
      action: 'send_message',
      // By step name and by step id (JSONata backticks), in a mixed string.
      input: {
        channelId: '{{ config.channel }}',
        content: `{{ steps.shape.text }} ({{ steps.\`${steps.shape}\`.amount }})`,
      },
    },
    {
      id: steps.read,
      connector: 'discord',
      action: 'list_messages',
      input: { channelId: '{{ config.channel }}', limit: '{{ $number(config.howMany) }}' },
    },
  ],
  config: [
    {
      stepId: steps.post,
      name: 'channel',
      displayName: 'Channel',
      type: 'select',
      required: true,
      options: { source: 'channels' },
    },
    { stepId: steps.read, name: 'howMany', displayName: 'How many', type: 'text', default: '1' },
  ],
});

const transformOnly = (
  trigger: WorkflowDefinitionInput['trigger'],
  expression: string,
): WorkflowDefinitionInput => ({
  trigger,
  steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression } }],
  config: [],
});

const discordValues = (workflowId: string) => [
  { workflowId, blockId: steps.post, fields: [{ name: 'channel', value: CHANNEL }] },
];

beforeAll(async () => {
  discord = await startDiscord();
  hooks = await startUpstream(() => ({ body: { ok: true } }));
  svc = await startService({
    env: {
      INLAY_CONNECTOR_DISCORD_BASE_URL: discord.url,
      // The http steps below call upstream fakes on loopback, which the egress policy refuses unless opened.
      INLAY_EGRESS_ALLOW: '127.0.0.1',
      INLAY_RETRY_BASE_MS: '5',
      INLAY_RETRY_MAX_MS: '40',
      INLAY_STEP_RETRIES: '2',
      INLAY_SCHEDULER_INTERVAL_MS: '50',
      INLAY_MAX_STEP_OUTPUT_BYTES: '2048',
    },
  });
  ({ apiKey } = await svc.account('engine'));
  alice = await createUser(svc, apiKey, 'alice');
  bob = await createUser(svc, apiKey, 'bob');
  aliceCred = await discordCredential(svc, apiKey, alice);
  wf.deal = await publish(svc, apiKey, dealToDiscord({ type: 'event', event: 'deal.created' }), 'deal');
  wf.echo = await publish(
    svc,
    apiKey,
    transformOnly({ type: 'event', event: 'deal.created' }, '{"echo": trigger.name}'),
    'echo',
  );
  wf.lost = await publish(svc, apiKey, transformOnly({ type: 'event', event: 'deal.lost' }, '1'), 'lost');
  wf.manual = await publish(
    svc,
    apiKey,
    transformOnly({ type: 'manual' }, '{"sum": $sum(trigger.values), "who": user.fullName}'),
    'manual',
  );
  await install(svc, apiKey, alice, [wf.deal], {
    credentialIds: { discord: aliceCred },
    values: discordValues(wf.deal),
  });
  await install(svc, apiKey, alice, [wf.echo]);
  await install(svc, apiKey, alice, [wf.lost]);
  await install(svc, apiKey, alice, [wf.manual]);
  await install(svc, apiKey, bob, [wf.echo]);
});
afterAll(async () => {
  await svc?.close();
  await discord?.close();
  await hooks?.close();
});

const runOf = async (
  workflowId: string,
  data: unknown,
  auth = apiKey,
  userId: string | undefined = alice,
) => {
  const r = await svc.call('POST', '/run/workflow', {
    auth,
    body: { workflowId, ...(userId ? { userId } : {}), data },
  });
  expect(r.status, r.text).toBe(200);
  expect(r.body).toEqual({ message: 'success', executionIds: [expect.stringMatching(UUID_RE)] });
  await waitForRuns(svc, r.body.executionIds);
  return r.body.executionIds[0] as string;
};

const entry = async (workflowId: string, executionId: string, userId = alice) =>
  (await logsOf(svc, apiKey, workflowId, userId)).find((e) => e.executionId === executionId);

describe('event trigger', () => {
  it('fans out to every active workflow of the user listening to the event, and logs each run in the seed shape', async () => {
    const r = await svc.call('POST', '/run/event', {
      auth: apiKey,
      body: { event: 'deal.created', userId: 'alice', data: { name: 'Acme', amount: 21 } },
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('success');
    expect(r.body.executionIds).toHaveLength(2);
    const rows = await waitForRuns(svc, r.body.executionIds);
    expect(rows.map((x) => x.workflowId).sort()).toEqual([wf.deal, wf.echo].sort());
    expect(rows.every((x) => x.userId === alice && x.triggerType === 'event')).toBe(true);

    const id = rows.find((x) => x.workflowId === wf.deal)!.id;
    const e = await entry(wf.deal, id);
    expect(Object.keys(e).sort()).toEqual(
      [
        'executionId',
        'startedAt',
        'stoppedAt',
        'finished',
        'results',
        'inputs',
        'status',
        'error',
        'rerunOf',
        'workflowId',
        'version',
        'trigger',
        'summary',
        'reruns',
      ].sort(),
    );
    expect(e).toMatchObject({
      trigger: { type: 'event', event: 'deal.created', data: { name: 'Acme', amount: 21 } },
      summary: null,
      reruns: [],
      executionId: id,
      startedAt: expect.stringMatching(ISO_MS_RE),
      stoppedAt: expect.stringMatching(ISO_MS_RE),
      finished: true,
      status: 'succeeded',
      error: null,
      rerunOf: null,
      workflowId: wf.deal,
      version: 1,
    });
    expect(Date.parse(e.stoppedAt)).toBeGreaterThanOrEqual(Date.parse(e.startedAt));
    expect(e.results).toHaveLength(3);
    for (const res of e.results) {
      expect(res.startedAt).toMatch(ISO_MS_RE);
      expect(res.stoppedAt).toMatch(ISO_MS_RE);
      expect(res.data).toHaveLength(1);
      expect(res.data[0]).toHaveLength(1);
      expect(res.data[0][0].id).toMatch(UUID_RE);
      expect(res.status).toBe('succeeded');
      expect(res.attempts).toBe(1);
    }
    expect(new Set(e.results.map((x: any) => x.data[0][0].id)).size).toBe(3);
    const [shape, post, read] = e.results;
    expect(shape).toMatchObject({
      connectorId: connectorUuid('transform'),
      stepId: steps.shape,
      action: 'map',
    });
    expect(shape.data[0][0]).toEqual({
      id: expect.any(String),
      json: { text: 'New deal Acme for alice', amount: 42 },
    });
    expect(post).toMatchObject({
      connectorId: connectorUuid('discord'),
      connector: 'discord',
      action: 'send_message',
    });
    expect(post.data[0][0]).toEqual({
      id: expect.any(String),
      statusCode: 200,
      json: {
        id: expect.any(String),
        channelId: CHANNEL,
        content: 'New deal Acme for alice (42)',
        timestamp: '2026-01-01T00:00:00.000+00:00',
        author: { id: '7', username: 'inlay-bot', bot: true },
      },
    });
    // A list is one output item per element, each with the provider's status.
    expect(read.data[0].map((i: { json: unknown }) => i.json)).toEqual([post.data[0][0].json]);
    expect(read.data[0].map((i: { statusCode: number }) => i.statusCode)).toEqual([200]);
    expect(e.inputs).toEqual([
      { connectorId: connectorUuid('transform'), data: { expression: expect.stringContaining('New deal') } },
      {
        connectorId: connectorUuid('discord'),
        data: { channelId: CHANNEL, content: 'New deal Acme for alice (42)' },
      },
      { connectorId: connectorUuid('discord'), data: { channelId: CHANNEL, limit: 1 } },
    ]);
    // What the provider received: the credential applied by the connector, the resolved input.
    const sent = discord.seen.find(
      (s) => s.method === 'POST' && s.body?.content === 'New deal Acme for alice (42)',
    )!;
    expect(sent.path).toBe(`/channels/${CHANNEL}/messages`);
    expect(sent.headers.authorization).toBe(`Bot ${BOT_TOKEN}`);
    expect(sent.body).toEqual({ content: 'New deal Acme for alice (42)', allowed_mentions: { parse: [] } });

    const echo = await entry(wf.echo, rows.find((x) => x.workflowId === wf.echo)!.id);
    expect(echo.results[0].data[0][0].json).toEqual({ echo: 'Acme' });
  });

  it('runs nothing for an event nobody listens to, nor for another user’s workflows', async () => {
    const none = await svc.call('POST', '/run/event', {
      auth: apiKey,
      body: { event: 'deal.won', userId: alice, data: {} },
    });
    expect(none.body).toEqual({ message: 'success', executionIds: [] });
    const jwt = await tokenFor(svc, apiKey, bob);
    const r = await svc.call('POST', '/run/event', {
      auth: jwt,
      body: { event: 'deal.created', data: { name: 'B' } },
    });
    const rows = await waitForRuns(svc, r.body.executionIds);
    expect(rows.map((x) => [x.workflowId, x.userId])).toEqual([[wf.echo, bob]]);
  });

  it('ignores events for a deactivated workflow until it is activated again', async () => {
    const off = await svc.call('PUT', '/workflows/deactivate', {
      auth: apiKey,
      body: { userId: alice, workflowId: wf.echo },
    });
    expect(off.status).toBe(200);
    const r = await svc.call('POST', '/run/event', {
      auth: apiKey,
      body: { event: 'deal.created', userId: alice, data: { name: 'Off', amount: 1 } },
    });
    const rows = await waitForRuns(svc, r.body.executionIds);
    expect(rows.map((x) => x.workflowId)).toEqual([wf.deal]);
    await svc.call('PUT', '/workflows/activate', {
      auth: apiKey,
      body: { userId: alice, workflowId: wf.echo },
    });
    const again = await svc.call('POST', '/run/event', {
      auth: apiKey,
      body: { event: 'deal.lost', userId: alice, data: {} },
    });
    expect((await waitForRuns(svc, again.body.executionIds)).map((x) => x.workflowId)).toEqual([wf.lost]);
  });
});

describe('disabled installation', () => {
  it('ignores events and refuses explicit runs while the installation is disabled', async () => {
    const inst = (await svc.call('GET', `/installations?userId=${alice}`, { auth: apiKey })).body.data.find(
      (i: { workflowIds: string[] }) => i.workflowIds.includes(wf.lost),
    );
    const patch = (enabled: boolean) =>
      svc.call('PATCH', `/installations/${inst.installationId}`, {
        auth: apiKey,
        body: { userId: alice, enabled },
      });
    expect((await patch(false)).status).toBe(200);
    const r = await svc.call('POST', '/run/event', {
      auth: apiKey,
      body: { event: 'deal.lost', userId: alice },
    });
    expect(r.body.executionIds).toEqual([]);
    expectProblem(
      await svc.call('POST', '/run/workflow', { auth: apiKey, body: { workflowId: wf.lost, userId: alice } }),
      409,
      'conflict',
      'body.workflowId',
    );
    expect((await patch(true)).status).toBe(200);
    const back = await svc.call('POST', '/run/event', {
      auth: apiKey,
      body: { event: 'deal.lost', userId: alice },
    });
    expect(back.body.executionIds).toHaveLength(1);
    await waitForRuns(svc, back.body.executionIds);
  });
});

describe('manual trigger', () => {
  it('runs an installed workflow with the API key or the user’s JWT; templates see trigger and user', async () => {
    const id = await runOf(wf.manual, { values: [1, 2, 3.5] });
    const e = await entry(wf.manual, id);
    expect(e.results[0].data[0][0].json).toEqual({ sum: 6.5, who: null });
    const jwt = await tokenFor(svc, apiKey, alice);
    const viaJwt = await runOf(wf.manual, { values: [] }, jwt, undefined);
    expect((await entry(wf.manual, viaJwt)).results[0].data[0][0].json).toEqual({ sum: 0, who: null });
  });

  it('refuses a deactivated workflow with 409 naming the field, and an uninstalled one with 404', async () => {
    await svc.call('PUT', '/workflows/deactivate', {
      auth: apiKey,
      body: { userId: alice, workflowId: wf.manual },
    });
    expectProblem(
      await svc.call('POST', '/run/workflow', {
        auth: apiKey,
        body: { workflowId: wf.manual, userId: alice },
      }),
      409,
      'conflict',
      'body.workflowId',
      'active',
    );
    await svc.call('PUT', '/workflows/activate', {
      auth: apiKey,
      body: { userId: alice, workflowId: wf.manual },
    });
    expectProblem(
      await svc.call('POST', '/run/workflow', { auth: apiKey, body: { workflowId: wf.manual, userId: bob } }),
      404,
      'not_found',
    );
  });

  it('answers bad input with problem+json naming the field', async () => {
    const bad = async (path: string, body: unknown, field: string) =>
      expectProblem(await svc.call('POST', path, { auth: apiKey, body }), 400, 'invalid_request', field);
    await bad('/run/workflow', { userId: alice }, 'body.workflowId');
    await bad('/run/workflow', { userId: alice, workflowId: 'nope' }, 'body.workflowId');
    await bad('/run/workflow', { userId: alice, workflowId: wf.manual, data: [1] }, 'body.data');
    await bad('/run/workflow', { workflowId: wf.manual }, 'body.userId');
    await bad('/run/event', { userId: alice, event: 5 }, 'body.event');
    await bad('/run/event', { userId: alice }, 'body.event');
    expectProblem(
      await svc.call('POST', '/run/event', {
        auth: apiKey,
        rawBody: '{"event":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_request',
    );
    expectProblem(
      await svc.call('POST', `/workflows/${wf.manual}/rerun/not-a-uuid?userId=${alice}`, { auth: apiKey }),
      400,
      'invalid_request',
      'path.executionId',
    );
  });
});

describe('step failures and retries', () => {
  it('retries a 503 twice, then succeeds; the retry count is in the result', async () => {
    const id = await runOf(wf.deal, { name: 'flaky', amount: 1 });
    const e = await entry(wf.deal, id);
    expect(e).toMatchObject({ status: 'succeeded', finished: true, error: null });
    expect(e.results[1]).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(e.results[1].data[0][0].statusCode).toBe(200);
    expect(discord.tries.get('New deal flaky for alice (2)')).toBe(3);
  });

  it('retries a 429 after its Retry-After', async () => {
    const id = await runOf(wf.deal, { name: 'throttle', amount: 1 });
    expect((await entry(wf.deal, id)).results[1]).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('does not retry a 400: the run fails, later steps do not run, and the log carries the error', async () => {
    const id = await runOf(wf.deal, { name: 'reject', amount: 1 });
    expect(discord.tries.get('New deal reject for alice (2)')).toBe(1);
    const e = await entry(wf.deal, id);
    expect(e.finished).toBe(false);
    expect(e.status).toBe('failed');
    expect(e.stoppedAt).toMatch(ISO_MS_RE);
    expect(e.error).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^Step 2 \("post"\) failed: .*Invalid Form Body/),
    });
    expect(e.results).toHaveLength(2);
    expect(e.inputs).toHaveLength(2);
    expect(e.results[1]).toMatchObject({ status: 'failed', attempts: 1, error: { statusCode: 400 } });
    // The provider's error body is logged, with the credential scrubbed out of it.
    expect(e.results[1].data[0][0]).toEqual({
      id: expect.stringMatching(UUID_RE),
      statusCode: 400,
      json: { message: 'Invalid Form Body', code: 50035, echo: `Bot ${REDACTED}` },
    });
  });

  it('retries network errors up to the configured count, then fails with the reason', async () => {
    const dead = await startUpstream(() => 'drop');
    const w = await publish(
      svc,
      apiKey,
      {
        trigger: { type: 'manual' },
        steps: [{ id: randomUUID(), connector: 'http', action: 'request', input: { url: `${dead.url}/x` } }],
        config: [],
      },
      'dead',
    );
    await install(svc, apiKey, alice, [w]);
    const id = await runOf(w, {});
    const e = await entry(w, id);
    expect(e.status).toBe('failed');
    expect(e.results[0]).toMatchObject({ status: 'failed', attempts: 3 });
    expect(e.results[0].data).toEqual([[]]);
    expect(dead.seen).toHaveLength(3);
    await dead.close();
  });

  it('times a step out, and logs a failing template with the field it came from', async () => {
    const slow = await startUpstream(() => 'hang');
    const w = await publish(
      svc,
      apiKey,
      {
        trigger: { type: 'manual' },
        steps: [
          {
            id: randomUUID(),
            connector: 'http',
            action: 'request',
            input: { url: `${slow.url}/slow` },
            timeoutMs: 150,
            retries: 0,
          },
        ],
        config: [],
      },
      'slow',
    );
    const t = await publish(
      svc,
      apiKey,
      {
        trigger: { type: 'manual' },
        steps: [
          { id: randomUUID(), connector: 'http', action: 'request', input: { url: '{{ $number("abc") }}' } },
        ],
        config: [],
      },
      'template',
    );
    await install(svc, apiKey, alice, [w]);
    await install(svc, apiKey, alice, [t]);
    const e = await entry(w, await runOf(w, {}));
    expect(e.error).toMatchObject({ code: 'timeout', message: expect.stringContaining('150 ms') });
    expect(e.results[0].attempts).toBe(1);
    const te = await entry(t, await runOf(t, {}));
    expect(te.status).toBe('failed');
    expect(te.results[0].error).toMatchObject({
      code: 'expression_error',
      message: expect.stringContaining('input.url'),
    });
    await slow.close();
  });

  it('stores a large output truncated with a marker, never dropped', async () => {
    const w = await publish(
      svc,
      apiKey,
      transformOnly({ type: 'manual' }, '{"big": $join([1..600].("abcdefgh"))}'),
      'big',
    );
    await install(svc, apiKey, alice, [w]);
    const e = await entry(w, await runOf(w, {}));
    expect(e.status).toBe('succeeded');
    const json = e.results[0].data[0][0].json;
    expect(e.results[0].truncated).toBe(true);
    expect(json).toMatchObject({
      truncated: true,
      originalBytes: JSON.stringify({ big: 'abcdefgh'.repeat(600) }).length,
      marker: expect.stringContaining('truncated'),
    });
    expect(json.preview.startsWith('{"big":"abcdefgh')).toBe(true);
  });
});

describe('webhook trigger', () => {
  it('runs the installation’s webhook workflows from a public secret URL with the JSON body as trigger', async () => {
    const w = await publish(
      svc,
      apiKey,
      {
        trigger: { type: 'webhook' },
        steps: [
          {
            id: randomUUID(),
            connector: 'http',
            action: 'request',
            input: {
              method: 'POST',
              url: `${hooks.url}/forward`,
              body: { order: '{{ trigger.order }}', who: '{{ user.username }}' },
            },
          },
        ],
        config: [],
      },
      'hook',
    );
    const inst = await install(svc, apiKey, alice, [w]);
    expect(inst.webhookUrl).toMatch(
      new RegExp(`^${svc.url}/hooks/${inst.installationId}/[A-Za-z0-9_-]{20,}$`),
    );
    const path = inst.webhookUrl!.slice(svc.url.length);
    const r = await svc.call('POST', path, { body: { order: { id: 7, total: 9.5 } } });
    expect(r.status).toBe(200);
    expect(r.body.executionIds).toHaveLength(1);
    const [row] = await waitForRuns(svc, r.body.executionIds);
    expect(row).toMatchObject({
      triggerType: 'webhook',
      trigger: { order: { id: 7, total: 9.5 } },
      status: 'succeeded',
    });
    expect(hooks.seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/forward',
      body: { order: { id: 7, total: 9.5 }, who: 'alice' },
    });
    const e = await entry(w, row!.id);
    expect(e.results[0].data[0][0]).toMatchObject({
      statusCode: 200,
      json: { status: 200, body: { ok: true } },
    });

    // Wrong secret and unknown installation: the same 404.
    const wrong = await svc.call('POST', `/hooks/${inst.installationId}/wrong-secret`, { body: {} });
    expectProblem(wrong, 404, 'not_found');
    const unknown = await svc.call('POST', `/hooks/${randomUUID()}/x`, { body: {} });
    expect(unknown.body.message).toBe(wrong.body.message);
    expectProblem(
      await svc.call('POST', path, { rawBody: 'x=1', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );

    // Deactivated: accepted, nothing runs.
    await svc.call('PUT', '/workflows/deactivate', { auth: apiKey, body: { userId: alice, workflowId: w } });
    const off = await svc.call('POST', path, { body: { order: { id: 8 } } });
    expect(off.body).toEqual({ message: 'success', executionIds: [] });
  });
});

describe('schedule trigger', () => {
  it('fires on its cron through the scheduler, and stops when deactivated', async () => {
    const w = await publish(
      svc,
      apiKey,
      transformOnly(
        { type: 'schedule', cron: '* * * * * *' },
        '{"at": trigger.scheduledAt, "cron": trigger.cron}',
      ),
      'tick',
    );
    await install(svc, apiKey, alice, [w]);
    const ids = await eventually(
      'two scheduled runs',
      async () => {
        const found = (
          await svc.db.select({ id: executions.id }).from(executions).where(eq(executions.workflowId, w))
        ).map((x) => x.id);
        return found.length >= 2 && found;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const rows = await waitForRuns(svc, ids);
    expect(rows.every((x) => x.triggerType === 'schedule' && x.status === 'succeeded')).toBe(true);
    const e = await entry(w, rows[0]!.id);
    expect(e.results[0].data[0][0].json).toEqual({
      at: expect.stringMatching(ISO_MS_RE),
      cron: '* * * * * *',
    });
    // Two ticks are never the same second.
    const ats = new Set(rows.map((x) => (x.trigger as { scheduledAt: string }).scheduledAt));
    expect(ats.size).toBe(rows.length);

    // A second schedule on the same cron that stays on: a scheduler pass that fires it finds `w` due as well,
    // so its runs show passes that would have fired `w` had the switch not stopped it.
    const pacer = await publish(
      svc,
      apiKey,
      transformOnly({ type: 'schedule', cron: '* * * * * *' }, '1'),
      'pacer',
    );
    await install(svc, apiKey, alice, [pacer]);
    try {
      await svc.call('PUT', '/workflows/deactivate', {
        auth: apiKey,
        body: { userId: alice, workflowId: w },
      });
      const [uw] = await svc.db
        .select()
        .from(userWorkflows)
        .where(and(eq(userWorkflows.userId, alice), eq(userWorkflows.workflowId, w)));
      expect(uw!.nextRunAt).toBeNull();
      const count = async (workflowId: string) =>
        (await svc.db.select().from(executions).where(eq(executions.workflowId, workflowId))).length;
      const pacerRuns = async (more: number) => {
        const from = await count(pacer);
        await eventually(`${more} more run(s) of the pacer`, async () => (await count(pacer)) >= from + more);
      };
      // A tick the scheduler claimed just before the switch may still land, in the same transaction as that
      // pass's run of the pacer: once the pacer ran again, that pass is over.
      await pacerRuns(1);
      const before = await count(w);
      // Two later passes fired the pacer, each starting after the switch: neither fired `w`.
      await pacerRuns(2);
      expect(await count(w)).toBe(before);
      await svc.call('PUT', '/workflows/activate', { auth: apiKey, body: { userId: alice, workflowId: w } });
      const [again] = await svc.db
        .select()
        .from(userWorkflows)
        .where(and(eq(userWorkflows.userId, alice), eq(userWorkflows.workflowId, w)));
      expect(again!.nextRunAt).toBeInstanceOf(Date);
    } finally {
      for (const workflowId of [w, pacer])
        await svc.call('PUT', '/workflows/deactivate', { auth: apiKey, body: { userId: alice, workflowId } });
    }
  });
});

describe('rerun', () => {
  it('runs the installed version again with the original trigger input; the new entry carries rerunOf', async () => {
    const first = await runOf(wf.deal, { name: 'Again', amount: 5 });
    const r = await svc.call('POST', `/workflows/${wf.deal}/rerun/${first}?userId=alice`, { auth: apiKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ executionId: expect.stringMatching(UUID_RE) });
    expect(r.body.executionId).not.toBe(first);
    const [row] = await waitForRuns(svc, [r.body.executionId]);
    expect(row).toMatchObject({
      trigger: { name: 'Again', amount: 5 },
      triggerType: 'manual',
      rerunOf: first,
    });
    const e = await entry(wf.deal, r.body.executionId);
    expect(e).toMatchObject({ rerunOf: first, status: 'succeeded', finished: true });
    expect(e.inputs[1].data.content).toBe('New deal Again for alice (10)');
  });

  it('answers 404 for another user’s, another workflow’s or another account’s execution', async () => {
    const first = await runOf(wf.manual, { values: [1] });
    expectProblem(
      await svc.call('POST', `/workflows/${wf.manual}/rerun/${first}?userId=bob`, { auth: apiKey }),
      404,
      'not_found',
    );
    const bobJwt = await tokenFor(svc, apiKey, bob);
    expectProblem(
      await svc.call('POST', `/workflows/${wf.manual}/rerun/${first}`, { auth: bobJwt }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('POST', `/workflows/${wf.manual}/rerun/${first}?userId=alice`, { auth: bobJwt }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('POST', `/workflows/${wf.deal}/rerun/${first}?userId=alice`, { auth: apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('POST', `/workflows/${wf.manual}/rerun/${randomUUID()}?userId=alice`, { auth: apiKey }),
      404,
      'not_found',
    );
  });
});

describe('tenant isolation', () => {
  it('keeps another account out of every run route: 404, exactly like a missing object', async () => {
    const other = await svc.account('other');
    const carol = await createUser(svc, other.apiKey, 'carol');
    const first = await runOf(wf.manual, { values: [2] });
    const missing = await svc.call('POST', '/run/workflow', {
      auth: other.apiKey,
      body: { workflowId: wf.manual, userId: randomUUID() },
    });
    expectProblem(missing, 404, 'not_found');
    const foreignUser = await svc.call('POST', '/run/workflow', {
      auth: other.apiKey,
      body: { workflowId: wf.manual, userId: alice },
    });
    expectProblem(foreignUser, 404, 'not_found');
    expect(foreignUser.body.message).toBe(missing.body.message);
    expectProblem(
      await svc.call('POST', '/run/workflow', {
        auth: other.apiKey,
        body: { workflowId: wf.manual, userId: carol },
      }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('POST', '/run/event', {
        auth: other.apiKey,
        body: { event: 'deal.created', userId: alice },
      }),
      404,
      'not_found',
    );
    const none = await svc.call('POST', '/run/event', {
      auth: other.apiKey,
      body: { event: 'deal.created', userId: carol },
    });
    expect(none.body.executionIds).toEqual([]);
    expectProblem(
      await svc.call('POST', `/workflows/${wf.manual}/rerun/${first}?userId=carol`, { auth: other.apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('POST', `/workflows/${wf.manual}/rerun/${first}?userId=alice`, { auth: other.apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('GET', `/workflows/${wf.manual}/logs?userId=carol`, { auth: other.apiKey }),
      404,
      'not_found',
    );
    // A JWT naming another user is a 404 too.
    const bobJwt = await tokenFor(svc, apiKey, bob);
    expectProblem(
      await svc.call('POST', '/run/workflow', {
        auth: bobJwt,
        body: { workflowId: wf.manual, userId: alice },
      }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('POST', '/run/event', { auth: bobJwt, body: { event: 'deal.created', userId: alice } }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('POST', '/run/workflow', { body: { workflowId: wf.manual, userId: alice } }),
      401,
      'unauthorized',
    );
  });
});

describe('compliance delete', () => {
  it('cancels a running execution of the user and deletes every row; it never comes back', async () => {
    const w = await publish(
      svc,
      apiKey,
      {
        trigger: { type: 'manual' },
        steps: [
          { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '1' } },
          { id: randomUUID(), connector: 'delay', action: 'wait', input: { ms: 60_000 } },
        ],
        config: [],
      },
      'long',
    );
    const dave = await createUser(svc, apiKey, 'dave');
    await install(svc, apiKey, dave, [w]);
    const r = await svc.call('POST', '/run/workflow', {
      auth: apiKey,
      body: { workflowId: w, userId: dave },
    });
    const id = r.body.executionIds[0];
    await eventually(
      'the first step to be recorded',
      async () =>
        (await svc.db.select().from(executionSteps).where(eq(executionSteps.executionId, id))).length === 1,
      { timeout: 10_000, interval: 20 },
    );
    const del = await svc.call('DELETE', `/users/${dave}/logs?userId=${dave}`, { auth: apiKey });
    expect(del.body).toEqual({ message: 'Success' });
    // A deliberate absence check: the cancelled run writes nothing back in the 300 ms after the delete.
    await new Promise((res) => setTimeout(res, 300));
    expect(await svc.db.select().from(executions).where(eq(executions.userId, dave))).toEqual([]);
    expect(await svc.db.select().from(executionSteps).where(eq(executionSteps.userId, dave))).toEqual([]);
  });
});

describe('secrets', () => {
  it('never stores a credential secret in any execution row of this account', async () => {
    const mine = await svc.db
      .select()
      .from(executions)
      .where(inArray(executions.userId, [alice, bob]));
    expect(mine.length).toBeGreaterThan(10);
    const stepRows = await svc.db
      .select()
      .from(executionSteps)
      .where(inArray(executionSteps.userId, [alice, bob]));
    const text = JSON.stringify([mine, stepRows]);
    expect(text.includes(BOT_TOKEN)).toBe(false);
    // The token did reach the log pipeline (the 400 quoted it back) and was scrubbed there.
    expect(text.includes(`Bot ${REDACTED}`)).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { githubSignature } from '@inlay/connectors';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { setUpAppTrigger, stateOf, triggeredIds } from '@inlay/test-kit/app-trigger-setup';
import { eventually } from '@inlay/test-kit/eventually';
import { readJsonFixture } from '@inlay/test-kit/fixture-files';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { expectProblem, onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { testResolver } from '@inlay/test-kit/ssrf';
import { startFakeGithub, startFakeStripe } from '@inlay/test-kit/trigger-fakes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '../../src/store/schema.ts';

/**
 * The Stripe and GitHub connectors written as data (the connectors package's JSON fixtures), stored by an
 * account under ids of its own and pointed at fakes on 127.0.0.1: their triggers arm, poll and subscribe
 * through the same service code as the built-ins'.
 */
const fixture = (name: string, id: string, baseUrl: string) => ({
  ...readJsonFixture<any>(name),
  id,
  baseUrl,
});

let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let github: Awaited<ReturnType<typeof startFakeGithub>>;
let svc: Service;
let db: Awaited<ReturnType<typeof privateDatabase>> | undefined;
let apiKey: string;
let otherKey: string;
let accountId: string;
let integrationId: string;

const newCustomer = (connector = 'billing'): WorkflowDefinitionInput => ({
  trigger: { type: 'app', connector, trigger: 'new_customer', input: {}, every: '150ms' },
  steps: [
    {
      id: randomUUID(),
      connector: 'transform',
      action: 'map',
      input: { expression: '{"id": trigger.id, "email": trigger.email}' },
    },
  ],
});

beforeAll(async () => {
  stripe = await startFakeStripe();
  github = await startFakeGithub();
  db = onPostgres ? await privateDatabase('inlay_custom_trig') : undefined;
  svc = await startService({
    ownStore: true,
    env: {
      INLAY_EGRESS_ALLOW: [stripe.url, github.url].map((u) => new URL(u).host).join(','),
      INLAY_POLL_MIN_INTERVAL_MS: '100',
      INLAY_SCHEDULER_INTERVAL_MS: '50',
      ...(db ? { DATABASE_URL: db.url } : {}),
    },
    resolve: testResolver(),
  });
  ({ apiKey, accountId } = await svc.account('custom-triggers'));
  ({ apiKey: otherKey } = await svc.account('someone-else'));
  integrationId = (await svc.call('POST', '/integrations', { auth: apiKey, body: { name: 'i' } })).body
    .integrationId;
  for (const body of [
    fixture('stripe.json', 'billing', stripe.url),
    fixture('github.json', 'gh', github.url),
  ]) {
    const r = await svc.call('POST', '/connectors', { auth: apiKey, body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await db?.drop();
  await stripe?.close();
  await github?.close();
});

describe('custom connectors with triggers', () => {
  it('GET /connectors lists their triggers with input schemas, for their account only', async () => {
    const mine = await svc.call('GET', '/connectors', { auth: apiKey });
    const billing = mine.body.data.find((c: { id: string }) => c.id === 'billing');
    expect(billing.custom).toBe(true);
    expect(billing.triggers).toEqual([
      {
        id: 'new_customer',
        name: 'New customer',
        description: expect.stringContaining('GET /v1/customers'),
        kind: 'poll',
        input: expect.objectContaining({ type: 'object' }),
      },
      expect.objectContaining({ id: 'new_customer_webhook', kind: 'webhook' }),
    ]);
    const gh = mine.body.data.find((c: { id: string }) => c.id === 'gh');
    expect(gh.triggers[0].input).toMatchObject({
      type: 'object',
      properties: { owner: expect.any(Object), repo: expect.any(Object) },
      required: ['repo'],
    });
    const theirs = await svc.call('GET', '/connectors', { auth: otherKey });
    expect(theirs.body.data.map((c: { id: string }) => c.id)).not.toContain('billing');
  });

  it('the OpenAPI document carries the trigger format as JSON Schema', async () => {
    const doc = (await svc.call('GET', '/openapi.json')).body;
    const schemas = doc.components.schemas;
    expect(schemas.DeclarativeConnector.properties.triggers.items.$ref).toBe(
      '#/components/schemas/DeclarativeTrigger',
    );
    const kinds = schemas.DeclarativeTrigger.oneOf ?? schemas.DeclarativeTrigger.anyOf;
    expect(kinds.map((k: { properties: { kind: { const: string } } }) => k.properties.kind.const)).toEqual([
      'poll',
      'webhook',
    ]);
    expect(kinds[1].properties.signature.enum).toEqual(['github', 'stripe']);
    expect(kinds[0].required).toEqual(expect.arrayContaining(['request', 'items', 'itemId']));
  });

  it('refuses a trigger definition naming the field', async () => {
    const body = fixture('stripe.json', 'broken', stripe.url);
    body.triggers[0] = { ...body.triggers[0], itemId: 'id ++ )' };
    const bad = await svc.call('POST', '/connectors', { auth: apiKey, body });
    expectProblem(bad, 400, 'invalid_request', 'body.triggers[0].itemId', 'jsonata');
    const wrongKind = fixture('stripe.json', 'broken', stripe.url);
    wrongKind.triggers[1] = { ...wrongKind.triggers[1], signature: 'md5' };
    expectProblem(
      await svc.call('POST', '/connectors', { auth: apiKey, body: wrongKind }),
      400,
      'invalid_request',
      'body.triggers[1].signature',
    );
    const missing = await svc.call('GET', '/connectors', { auth: apiKey });
    expect(missing.body.data.map((c: { id: string }) => c.id)).not.toContain('broken');
  });

  it('publishing validates the trigger against the custom connector; another account cannot use it', async () => {
    const post = (auth: string, trigger: Record<string, unknown>, integration = integrationId) =>
      svc.call('POST', '/workflows', {
        auth,
        body: {
          integrationId: integration,
          name: 'w',
          definition: { ...newCustomer(), trigger } as WorkflowDefinitionInput,
        },
      });
    const base = { type: 'app', connector: 'billing', trigger: 'new_customer', input: {} };
    expectProblem(
      await post(apiKey, { ...base, trigger: 'gone' }),
      422,
      'unprocessable',
      'body.definition.trigger.trigger',
      'exists',
    );
    expectProblem(
      await post(apiKey, {
        ...base,
        connector: 'gh',
        trigger: 'new_issue',
        input: { owner: 'acme', repo: 'a b' },
      }),
      422,
      'unprocessable',
      'body.definition.trigger.input.repo',
      'schema',
    );
    const otherIntegration = (
      await svc.call('POST', '/integrations', { auth: otherKey, body: { name: 'o' } })
    ).body.integrationId;
    const theirs = await post(otherKey, base, otherIntegration);
    const missing = await post(otherKey, { ...base, connector: 'nope' }, otherIntegration);
    expectProblem(theirs, 422, 'unprocessable', 'body.definition.trigger.connector', 'exists');
    expect(theirs.body.detail).toBe(missing.body.detail.replace('nope', 'billing'));
  });

  it('installing arms a poll: a baseline first, then one run per new item, never twice', async () => {
    stripe.customers.length = 0;
    stripe.add('cus_old1', 'cus_old2');
    const { userId, workflowId } = await setUpAppTrigger(svc, {
      accountId,
      apiKey,
      username: 'alice',
      connector: 'billing',
      credential: { name: 'Billing', type: 'apiKey', secrets: { fields: { apiKey: 'rk_test_custom' } } },
      definition: newCustomer(),
      workflowName: 'new customers',
    });
    const row = await eventually('the baseline', async () => {
      const r = await stateOf(svc, userId, workflowId);
      return r?.triggerState?.baseline ? r : undefined;
    });
    expect(row.triggerState!.seen).toEqual(expect.arrayContaining(['cus_old1', 'cus_old2']));
    expect(await triggeredIds(svc, workflowId)).toEqual([]);
    // The custom connector's auth applied the credential as its definition says.
    expect(stripe.requests.at(-1)!.auth).toBe('Bearer rk_test_custom');

    stripe.add('cus_a', 'cus_b');
    await eventually('two runs', async () => (await triggeredIds(svc, workflowId)).length >= 2);
    const from = stripe.requests.length;
    await eventually('four more polls', () => stripe.requests.length >= from + 4);
    expect(await triggeredIds(svc, workflowId)).toEqual(['cus_a', 'cus_b']);
    const [run] = await svc.db
      .select()
      .from(executions)
      .where(eq(executions.workflowId, workflowId))
      .limit(1);
    expect(run!.triggerType).toBe('app');
    // The run's trigger is the fixture's `output` mapping: `created` as ISO time, not Stripe's seconds.
    expect(run!.trigger).toMatchObject({
      email: expect.stringMatching(/^cus_[ab]@x\.test$/),
      created: expect.stringMatching(/^2025-01-02T10:00:0\dZ$|^2025-01-02T10:00:0\d\.000Z$/),
    });
    // `since` reached the request template: later polls ask only for what is newer than the high-water mark.
    expect(stripe.requests.at(-1)!.query.get('created[gte]')).toBe(String(stripe.customers.at(-1)!.created));
  });

  it('installing a webhook trigger subscribes; a signed delivery starts a run; uninstalling unsubscribes', async () => {
    const {
      userId,
      workflowId,
      install: installIt,
    } = await setUpAppTrigger(svc, {
      accountId,
      apiKey,
      username: 'bob',
      connector: 'gh',
      credential: {
        name: 'GitHub',
        type: 'oauth2',
        secrets: { fields: {}, oauth: { accessToken: 'gho_custom' } },
      },
      trigger: { trigger: 'new_issue_webhook', input: { repo: 'acme/api' } },
      workflowName: 'issues',
      installNow: false,
    });
    const before = github.hooks.size;
    const inst = await installIt();
    await eventually('the subscription', () => github.hooks.size > before);
    const [hookId, hook] = [...github.hooks.entries()].at(-1)!;
    await eventually(
      'the stored subscription',
      async () => (await stateOf(svc, userId, workflowId))?.triggerState?.subscription,
    );
    expect(hook.events).toEqual(['issues']);
    expect(hook.url.startsWith(`${svc.url}/hooks/app/${inst.installationId}/${workflowId}/`)).toBe(true);

    const payload = {
      action: 'opened',
      issue: {
        id: 77,
        number: 3,
        title: 'Data as code',
        state: 'open',
        html_url: 'u',
        created_at: '2025-01-02T00:00:00Z',
      },
    };
    const raw = JSON.stringify(payload);
    const deliver = (signature: string, event = 'issues') =>
      svc.call('POST', hook.url.slice(svc.url.length), {
        rawBody: raw,
        headers: {
          'content-type': 'application/json',
          'x-github-event': event,
          'x-hub-signature-256': signature,
        },
      });
    expectProblem(await deliver(githubSignature(raw, 'not-the-secret')), 401, 'unauthorized');
    expect((await deliver(githubSignature(raw, hook.secret), 'ping')).body.executionIds).toEqual([]);
    const ok = await deliver(githubSignature(raw, hook.secret));
    expect(ok.status).toBe(200);
    expect(ok.body.executionIds).toHaveLength(1);
    const runs = await svc.db.select().from(executions).where(eq(executions.workflowId, workflowId));
    // The fixture's output mapping: `html_url` became `url`.
    expect(runs.map((r) => r.trigger)).toEqual([
      expect.objectContaining({ number: 3, url: 'u', title: 'Data as code' }),
    ]);

    // Bytes as sent: a signature over a gzip body is over the compressed bytes, checked before inflating.
    const send = (body: Buffer, signature: string, extra: Record<string, string> = {}) =>
      fetch(hook.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issues',
          'x-hub-signature-256': signature,
          ...extra,
        },
      });
    const issue = (id: number, title = `Issue ${id}`) => ({
      id,
      number: id,
      title,
      state: 'open',
      html_url: `u${id}`,
      created_at: '2025-01-02T00:00:00Z',
    });
    const zipped = gzipSync(JSON.stringify({ action: 'opened', issue: issue(78) }));
    const overText = await send(zipped, githubSignature(gunzipSync(zipped), hook.secret), {
      'content-encoding': 'gzip',
    });
    expect(overText.status).toBe(401);
    const overBytes = await send(zipped, githubSignature(zipped, hook.secret), {
      'content-encoding': 'gzip',
    });
    expect(overBytes.status).toBe(200);
    expect(((await overBytes.json()) as { executionIds: string[] }).executionIds).toHaveLength(1);
    // A genuine body that is not UTF-8 (a Latin-1 é) verifies over its bytes.
    const latin1 = Buffer.concat([
      Buffer.from('{"action":"opened","issue":{"id":79,"number":79,"title":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('","state":"open","html_url":"u","created_at":"2025-01-02T00:00:00Z"}}'),
    ]);
    const nonUtf8 = await send(latin1, githubSignature(latin1, hook.secret));
    expect(nonUtf8.status).toBe(200);
    expect(((await nonUtf8.json()) as { executionIds: string[] }).executionIds).toHaveLength(1);
    // A gzip bomb is cut at 1 MB once inflated: a 413 after the signature verified, no run.
    const bomb = gzipSync(Buffer.alloc(5 * 1024 * 1024, 0x20));
    const inflated = await send(bomb, githubSignature(bomb, hook.secret), { 'content-encoding': 'gzip' });
    expect(inflated.status).toBe(413);
    expect(await inflated.json()).toMatchObject({ code: 'payload_too_large' });
    // Many items: 300 start 300 runs (inserted in chunks); more than 1000 are refused whole, never a 500.
    const many = Buffer.from(
      JSON.stringify({ action: 'opened', issue: Array.from({ length: 300 }, (_, i) => issue(1000 + i)) }),
    );
    const accepted = await send(many, githubSignature(many, hook.secret));
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { executionIds: string[] }).executionIds).toHaveLength(300);
    const flood = Buffer.from(
      JSON.stringify({ action: 'opened', issue: Array.from({ length: 5000 }, (_, i) => issue(9000 + i)) }),
    );
    const refused = await send(flood, githubSignature(flood, hook.secret));
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      code: 'unprocessable',
      errors: [{ field: 'body', rule: 'items', message: expect.stringContaining('at most 1000') }],
    });

    const del = await svc.call('DELETE', `/installations/${inst.installationId}?userId=${userId}`, {
      auth: apiKey,
    });
    expect(del.status).toBe(200);
    expect(github.deleted).toContain(hookId);
  });

  it('refuses a version that drops an installed trigger', async () => {
    const body = fixture('stripe.json', 'billing', stripe.url);
    const refused = await svc.call('PUT', '/connectors/billing', {
      auth: apiKey,
      body: { ...body, triggers: body.triggers.slice(1) },
    });
    expectProblem(refused, 409, 'conflict');
    expect(refused.body.detail).toContain('new_customer');
  });
});

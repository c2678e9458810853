import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { githubSignature } from '@inlay/connectors';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { setUpAppTrigger, stateOf, triggeredIds } from '@inlay/test-kit/app-trigger-setup';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser } from '@inlay/test-kit/fixtures';
import { connectV2 } from '@inlay/test-kit/mcp';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { expectProblem, onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { startFakeGithub, startFakeStripe } from '@inlay/test-kit/trigger-fakes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '../../src/store/schema.ts';

let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let github: Awaited<ReturnType<typeof startFakeGithub>>;

const env = () => ({
  INLAY_CONNECTOR_STRIPE_BASE_URL: stripe.url,
  INLAY_CONNECTOR_GITHUB_BASE_URL: github.url,
  INLAY_POLL_MIN_INTERVAL_MS: '100',
  INLAY_SCHEDULER_INTERVAL_MS: '50',
});

const copyCustomer = (trigger: WorkflowDefinitionInput['trigger']): WorkflowDefinitionInput => ({
  trigger,
  steps: [
    {
      id: randomUUID(),
      connector: 'transform',
      action: 'map',
      input: { expression: '{"id": trigger.id, "email": trigger.email}' },
    },
  ],
});
const newCustomer = (every = '150ms') =>
  copyCustomer({ type: 'app', connector: 'stripe', trigger: 'new_customer', input: {}, every });

/** An account, a user with a Stripe credential, and a polling workflow installed for the user. */
async function setUp(svc: Service, name: string) {
  const { accountId, apiKey } = await svc.account(name);
  const set = await setUpAppTrigger(svc, {
    accountId,
    apiKey,
    username: 'alice',
    connector: 'stripe',
    credential: { name: 'Stripe', type: 'apiKey', secrets: { fields: { apiKey: 'rk_test_good' } } },
    definition: newCustomer(),
    workflowName: 'new customers',
  });
  return { accountId, apiKey, ...set, installationId: set.installationId! };
}

const githubToken = {
  name: 'GitHub',
  type: 'oauth2' as const,
  secrets: { fields: {}, oauth: { accessToken: 'gho_test_token' } },
};

/** Waits until the trigger has polled `n` more times than now. */
async function polls(n: number) {
  const from = stripe.requests.length;
  await eventually(`${n} polls`, () => stripe.requests.length >= from + n);
}

beforeAll(async () => {
  stripe = await startFakeStripe();
  github = await startFakeGithub();
});
afterAll(async () => {
  await stripe?.close();
  await github?.close();
});

describe('publishing an app trigger', () => {
  let svc: Service;
  let apiKey: string;
  let integrationId: string;
  beforeAll(async () => {
    svc = await startService({ env: env() });
    ({ apiKey } = await svc.account('publish'));
    integrationId = (await svc.call('POST', '/integrations', { auth: apiKey, body: { name: 'i' } })).body
      .integrationId;
  });
  afterAll(() => svc?.close());

  const post = (trigger: Record<string, unknown>) =>
    svc.call('POST', '/workflows', {
      auth: apiKey,
      body: {
        integrationId,
        name: 'w',
        definition: copyCustomer(trigger as WorkflowDefinitionInput['trigger']),
      },
    });

  it('names the field that does not fit', async () => {
    const base = { type: 'app', connector: 'stripe', trigger: 'new_customer', input: {} };
    expectProblem(
      await post({ ...base, connector: 'nope' }),
      422,
      'unprocessable',
      'body.definition.trigger.connector',
      'exists',
    );
    expectProblem(
      await post({ ...base, trigger: 'gone' }),
      422,
      'unprocessable',
      'body.definition.trigger.trigger',
      'exists',
    );
    expectProblem(
      await post({
        ...base,
        connector: 'github',
        trigger: 'new_issue',
        input: { owner: 'acme', repo: 'a b' },
      }),
      422,
      'unprocessable',
      'body.definition.trigger.input.repo',
      'schema',
    );
    expectProblem(
      await post({ ...base, every: '50ms' }),
      422,
      'unprocessable',
      'body.definition.trigger.every',
      'minimum',
    );
    expectProblem(
      await post({ ...base, every: 'soon' }),
      400,
      'invalid_request',
      'body.definition.trigger.every',
    );
    expect((await post({ ...base, every: '100ms' })).status).toBe(201);
  });

  it('lists the trigger connector among the workflow’s apps', async () => {
    const created = await post({
      type: 'app',
      connector: 'github',
      trigger: 'new_issue',
      input: { repo: 'acme/api' },
    });
    const w = await svc.call(
      'GET',
      `/workflows/${created.body.workflowId}?userId=${await createUser(svc, apiKey, 'x')}`,
      {
        auth: apiKey,
      },
    );
    expect(w.body.data.trigger).toEqual({ type: 'app', connector: 'github', trigger: 'new_issue' });
    expect(w.body.data.connectors.map((c: { connector: string }) => c.connector)).toEqual(['github']);
  });
});

describe('where triggers show', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService({ env: env() });
  });
  afterAll(() => svc?.close());

  it('GET /connectors and MCP get_connector_resources_inlay list them with their input schema', async () => {
    const { apiKey } = await svc.account('listing');
    const list = await svc.call('GET', '/connectors?category=developer', { auth: apiKey });
    const gh = list.body.data.find((c: { id: string }) => c.id === 'github');
    expect(gh.triggers.map((t: { id: string; kind: string }) => `${t.id}:${t.kind}`)).toEqual([
      'new_issue:poll',
      'new_pull_request:poll',
      'new_issue_webhook:webhook',
      'new_pull_request_webhook:webhook',
    ]);
    expect(gh.triggers[0]).toMatchObject({
      name: 'New issue',
      description: expect.stringContaining('GET /repos/{owner}/{repo}/issues'),
      input: {
        type: 'object',
        properties: { owner: expect.any(Object), repo: expect.any(Object) },
        required: ['repo'],
      },
    });

    const server = (await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'agents' } })).body;
    const client = await connectV2(server.url, { authorization: `Bearer ${apiKey}` });
    try {
      const res = (await client.callTool({
        name: 'get_connector_resources_inlay',
        arguments: { connectorId: 'stripe' },
      })) as { structuredContent: { triggers: { id: string; kind: string; input: unknown }[] } };
      expect(res.structuredContent.triggers).toEqual([
        expect.objectContaining({
          id: 'new_customer',
          kind: 'poll',
          input: expect.objectContaining({ type: 'object' }),
        }),
        expect.objectContaining({ id: 'new_customer_webhook', kind: 'webhook' }),
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('polling', () => {
  let svc: Service;
  let dir: string;
  let s: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inlay-poll-'));
    const db = onPostgres ? await privateDatabase('inlay_poll') : undefined;
    afterAll(() => db?.drop());
    const more: Record<string, string> = db ? { DATABASE_URL: db.url } : { INLAY_DATA_DIR: dir };
    svc = await startService({ env: { ...env(), ...more } });
    stripe.customers.length = 0;
    stripe.add('cus_old1', 'cus_old2');
    s = await setUp(svc, 'polling');
    // Restart needs the same database: kept on the service for the restart test below.
    (svc as Service & { more?: object }).more = more;
  });
  afterAll(async () => {
    await svc?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('records a baseline first and starts nothing for what already exists', async () => {
    const row = await eventually('the baseline', async () => {
      const r = await stateOf(svc, s.userId, s.workflowId);
      return r?.triggerState?.baseline ? r : undefined;
    });
    expect(row.triggerState!.seen).toEqual(expect.arrayContaining(['cus_old1', 'cus_old2']));
    await polls(3);
    expect(await triggeredIds(svc, s.workflowId)).toEqual([]);
    // The credential went to the app through the egress policy, as the connector sends it.
    expect(stripe.requests.at(-1)!.auth).toBe('Bearer rk_test_good');
  });

  it('starts one run per new item, with the item as trigger, and never twice', async () => {
    stripe.add('cus_a', 'cus_b');
    await eventually('two runs', async () => (await triggeredIds(svc, s.workflowId)).length === 2);
    await polls(4);
    expect(await triggeredIds(svc, s.workflowId)).toEqual(['cus_a', 'cus_b']);
    const [run] = await svc.db
      .select()
      .from(executions)
      .where(eq(executions.workflowId, s.workflowId))
      .limit(1);
    expect(run!.triggerType).toBe('app');
    expect(run!.trigger).toMatchObject({
      email: expect.stringMatching(/^cus_[ab]@x\.test$/),
      created: expect.any(String),
    });
    // Later polls ask only for what is newer than the high-water mark.
    expect(stripe.requests.at(-1)!.query.get('created[gte]')).toBe(String(stripe.customers.at(-1)!.created));
  });

  it('survives a restart: seen items never run again, new ones do', async () => {
    const more = (svc as Service & { more?: Record<string, string> }).more!;
    await svc.close();
    stripe.add('cus_c');
    svc = await startService({ env: { ...env(), ...more } });
    await eventually(
      'the run after the restart',
      async () => (await triggeredIds(svc, s.workflowId)).length >= 3,
    );
    await polls(3);
    expect(await triggeredIds(svc, s.workflowId)).toEqual(['cus_a', 'cus_b', 'cus_c']);
  });

  it('backs off on errors and sets the workflow’s attention after repeated failures', async () => {
    stripe.state.fail = 500;
    try {
      const row = await eventually('three failures', async () => {
        const r = await stateOf(svc, s.userId, s.workflowId);
        return (r?.triggerState?.failures ?? 0) >= 3 ? r : undefined;
      });
      // Backed off: each wait doubles the 150 ms interval, so after f failures the next poll is at least
      // 150 × (2^f − 1) ms after the first (an interval that never grew could be as close as 150 × f). Read off
      // the row, not the clock, so a slow machine cannot fail it.
      const f = row.triggerState!.failures!;
      const since = Date.parse(row.triggerState!.failingSince!);
      expect(row.nextRunAt!.getTime() - since).toBeGreaterThanOrEqual(150 * (2 ** f - 1));
      const w = await svc.call('GET', `/workflows/${s.workflowId}?userId=${s.userId}`, { auth: s.apiKey });
      // A sentence for the user; the provider's own words in `detail`.
      expect(w.body.data.attention).toMatchObject({
        code: 'failing',
        // Read after the row: a poll may have failed once more in between.
        message: expect.stringMatching(/failed ([3-9]|\d{2,}) times in a row/),
        detail: expect.stringContaining('500: boom'),
      });
    } finally {
      stripe.state.fail = 0;
    }
    await eventually(
      'recovery',
      async () => (await stateOf(svc, s.userId, s.workflowId))?.triggerState?.failures === undefined,
      { timeout: 30_000 },
    );
    const w = await svc.call('GET', `/workflows/${s.workflowId}?userId=${s.userId}`, { auth: s.apiKey });
    expect(w.body.data.attention).toBeNull();
  });

  it('an auth failure marks the credential needs_reconnect', async () => {
    stripe.state.fail = 401;
    try {
      await eventually('the credential to need reconnecting', async () => {
        const c = await svc.call('GET', `/credentials/${s.credentialId}?userId=${s.userId}`, {
          auth: s.apiKey,
        });
        return c.body.data.status === 'needs_reconnect';
      });
      const w = await svc.call('GET', `/workflows/${s.workflowId}?userId=${s.userId}`, { auth: s.apiKey });
      expect(w.body.data.attention).toMatchObject({ code: 'needs_reconnect', credentialId: s.credentialId });
    } finally {
      stripe.state.fail = 0;
    }
  });

  it('deactivating disarms the trigger; nothing polls', async () => {
    const r = await svc.call('PUT', '/workflows/deactivate', {
      auth: s.apiKey,
      body: { userId: s.userId, workflowId: s.workflowId },
    });
    expect(r.status).toBe(200);
    const row = await stateOf(svc, s.userId, s.workflowId);
    expect(row!.nextRunAt).toBeNull();
  });
});

describe('webhook subscriptions', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService({ env: env() });
  });
  afterAll(() => svc?.close());

  it('subscribes on install, verifies signatures, dedupes redeliveries and unsubscribes on uninstall', async () => {
    const { accountId, apiKey } = await svc.account('hooks');
    const {
      userId,
      workflowId,
      install: installIt,
    } = await setUpAppTrigger(svc, {
      accountId,
      apiKey,
      username: 'alice',
      connector: 'github',
      credential: githubToken,
      trigger: { trigger: 'new_issue_webhook', input: { owner: 'acme', repo: 'api' } },
      workflowName: 'issues',
      installNow: false,
    });
    const before = github.hooks.size;
    const inst = await installIt();
    await eventually('the subscription', () => github.hooks.size > before);
    const [hookId, hook] = [...github.hooks.entries()].at(-1)!;
    // The provider answers before the subscription is stored.
    await eventually(
      'the stored subscription',
      async () => (await stateOf(svc, userId, workflowId))?.triggerState?.subscription,
    );
    expect(hook.events).toEqual(['issues']);
    expect(hook.url).toMatch(
      new RegExp(`^${svc.url}/hooks/app/${inst.installationId}/${workflowId}/[A-Za-z0-9_-]{32}$`),
    );
    const row = await stateOf(svc, userId, workflowId);
    expect(row!.triggerState!.subscription!.id).toBe(hookId);
    // Secrets are stored sealed, never as given.
    expect(JSON.stringify(row!.triggerState)).not.toContain(hook.secret);

    const payload = {
      action: 'opened',
      issue: {
        id: 9001,
        number: 7,
        title: 'Broken login',
        state: 'open',
        html_url: 'u',
        created_at: '2025-01-02T00:00:00Z',
      },
    };
    const raw = JSON.stringify(payload);
    const path = hook.url.slice(svc.url.length);
    const deliver = (signature: string, event = 'issues') =>
      svc.call('POST', path, {
        rawBody: raw,
        headers: {
          'content-type': 'application/json',
          'x-github-event': event,
          'x-hub-signature-256': signature,
        },
      });

    const bad = await deliver(githubSignature(raw, 'not-the-secret'));
    expectProblem(bad, 401, 'unauthorized');
    expect(await triggeredIds(svc, workflowId)).toEqual([]);

    const ok = await deliver(githubSignature(raw, hook.secret));
    expect(ok.status).toBe(200);
    expect(ok.body.executionIds).toHaveLength(1);
    const again = await deliver(githubSignature(raw, hook.secret));
    expect(again.body.executionIds).toEqual([]);
    const ping = await deliver(githubSignature(raw, hook.secret), 'ping');
    expect(ping.body.executionIds).toEqual([]);
    const runs = await svc.db.select().from(executions).where(eq(executions.workflowId, workflowId));
    expect(runs.map((r) => (r.trigger as { number: number }).number)).toEqual([7]);

    // A wrong URL secret is a 404, exactly like an unknown installation.
    const wrong = await svc.call('POST', `${path.slice(0, path.lastIndexOf('/'))}/${'x'.repeat(32)}`, {
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(wrong, 404, 'not_found');

    const del = await svc.call('DELETE', `/installations/${inst.installationId}?userId=${userId}`, {
      auth: apiKey,
    });
    expect(del.status).toBe(200);
    expect(github.deleted).toContain(hookId);
    expect(github.hooks.has(hookId)).toBe(false);
    expectProblem(await deliver(githubSignature(raw, hook.secret)), 404, 'not_found');
  });

  it('deactivating and deleting the user unsubscribe too', async () => {
    const { accountId, apiKey } = await svc.account('hooks2');
    const {
      userId,
      workflowId,
      install: installIt,
    } = await setUpAppTrigger(svc, {
      accountId,
      apiKey,
      username: 'bob',
      connector: 'github',
      credential: githubToken,
      trigger: { trigger: 'new_pull_request_webhook', input: { repo: 'acme/api' } },
      workflowName: 'prs',
      installNow: false,
    });
    const subscribed = async () => {
      const r = await stateOf(svc, userId, workflowId);
      return r?.triggerState?.subscription?.id;
    };
    await installIt();
    const first = await eventually('the subscription', subscribed);
    await svc.call('PUT', '/workflows/deactivate', { auth: apiKey, body: { userId, workflowId } });
    expect(github.deleted).toContain(first);
    await svc.call('PUT', '/workflows/activate', { auth: apiKey, body: { userId, workflowId } });
    const second = await eventually('the new subscription', subscribed);
    expect(second).not.toBe(first);
    expect((await svc.call('DELETE', `/users/${userId}`, { auth: apiKey })).status).toBe(200);
    expect(github.deleted).toContain(second);
  });
});

describe.skipIf(!onPostgres)('two nodes on PostgreSQL', () => {
  it('poll the same installations without starting a duplicate run', async () => {
    const db = await privateDatabase('inlay_poll2');
    const nodes: Service[] = [];
    try {
      const more = { ...env(), DATABASE_URL: db.url };
      nodes.push(await startService({ env: more }), await startService({ env: more }));
      stripe.customers.length = 0;
      stripe.add('cus_base');
      const sets: Awaited<ReturnType<typeof setUp>>[] = [];
      for (let i = 0; i < 4; i++) sets.push(await setUp(nodes[0]!, `two-${i}`));
      await eventually('every baseline', async () => {
        for (const s of sets)
          if (!(await stateOf(nodes[0]!, s.userId, s.workflowId))?.triggerState?.baseline) return false;
        return true;
      });
      const added: string[] = [];
      for (let round = 0; round < 5; round++) {
        const ids = [`cus_r${round}a`, `cus_r${round}b`];
        stripe.add(...ids);
        added.push(...ids);
        await polls(8);
      }
      for (const s of sets)
        await eventually(
          'every run',
          async () => (await triggeredIds(nodes[0]!, s.workflowId)).length >= added.length,
        );
      await polls(10);
      for (const s of sets) expect(await triggeredIds(nodes[1]!, s.workflowId)).toEqual([...added].sort());
    } finally {
      for (const n of nodes) await n.close();
      await db.drop();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { catalog } from '@inlay/connectors';
import { setUpAppTrigger } from '@inlay/test-kit/app-trigger-setup';
import { install, publish, waitForRuns } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { GOOD_KEY, type Provider, providerConnectors, startProvider } from '@inlay/test-kit/providers';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { startFakeStripe } from '@inlay/test-kit/trigger-fakes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeProviderCalls } from '../../src/provider-calls/provider-call-retention.ts';
import { routeTemplate } from '../../src/provider-calls/route-template.ts';
import { providerCalls } from '../../src/store/schema.ts';

let provider: Provider;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let svc: Service;
let accountId: string;
let apiKey: string;
let alice: string;
let bob: string;
let credentialId: string;
let executionId: string;

type Call = {
  providerCallId: string;
  at: string;
  kind: string;
  userId: string | null;
  credentialId: string | null;
  connector: string;
  method: string;
  route: string;
  status: number | null;
  durationMs: number;
  bytes: number;
  executionId: string | null;
};

const calls = async (query: string, auth = apiKey): Promise<Call[]> => {
  const r = await svc.call('GET', `/provider-calls${query}`, { auth });
  expect(r.status, r.text).toBe(200);
  return r.body.data;
};

beforeAll(async () => {
  provider = await startProvider();
  stripe = await startFakeStripe();
  svc = await startService({
    connectors: [...catalog, ...providerConnectors(provider.url)],
    env: {
      INLAY_CONNECTOR_STRIPE_BASE_URL: stripe.url,
      INLAY_EGRESS_ALLOW: '127.0.0.1',
      INLAY_POLL_MIN_INTERVAL_MS: '100',
      INLAY_SCHEDULER_INTERVAL_MS: '50',
      INLAY_STEP_RETRIES: '0',
    },
  });
  ({ accountId, apiKey } = await svc.account('calls'));
  alice = await createUser(svc, apiKey, 'alice');
  bob = await createUser(svc, apiKey, 'bob');

  // test: the connection's test request when it is saved
  const cred = await svc.call('POST', '/credentials', {
    auth: apiKey,
    body: { userId: alice, connector: 'keyco', data: { apiKey: GOOD_KEY } },
  });
  expect(cred.status, cred.text).toBe(201);
  credentialId = cred.body.data.credentialId;
  // options: a dynamic option list
  const opts = await svc.call(
    'GET',
    `/connectors/keyco/options/lists?userId=${alice}&credentialId=${credentialId}`,
    { auth: apiKey },
  );
  expect(opts.status, opts.text).toBe(200);
  // proxy: one answered, one the provider refuses
  expect(
    (await svc.call('GET', `/connectors/keyco/proxy/lists/12345?userId=${alice}&secret=q`, { auth: apiKey }))
      .status,
  ).toBe(404);
  // step: a webhook-started run calling keyco.list_lists
  const wf = await publish(svc, apiKey, {
    trigger: { type: 'webhook' },
    steps: [{ id: randomUUID(), connector: 'keyco', action: 'list_lists', input: {} }],
    config: [],
  });
  const inst = await install(svc, apiKey, alice, [wf], { credentialIds: { keyco: credentialId } });
  const hook = await svc.call('POST', inst.webhookUrl!.slice(svc.url.length), { body: {} });
  [executionId] = hook.body.executionIds;
  await waitForRuns(svc, [executionId!]);
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await provider?.close();
  await stripe?.close();
});

describe('GET /provider-calls', () => {
  it('records every kind of call with its user, connection, route template, status, time and size', async () => {
    const all = await calls(`?userId=${alice}`);
    const of = (kind: string) => all.filter((c) => c.kind === kind);
    expect(of('test')).toEqual([
      expect.objectContaining({
        userId: alice,
        connector: 'keyco',
        method: 'GET',
        route: '/key/me',
        status: 200,
        credentialId: null,
        executionId: null,
      }),
    ]);
    expect(of('options')).toEqual([
      expect.objectContaining({ userId: alice, credentialId, route: '/key/lists', status: 200 }),
    ]);
    expect(of('step')).toEqual([
      expect.objectContaining({ userId: alice, credentialId, executionId, route: '/key/lists', status: 200 }),
    ]);
    // The proxy's path as called, its id made a template and its query dropped.
    expect(of('proxy')).toEqual([
      expect.objectContaining({
        userId: alice,
        credentialId,
        route: '/lists/:id',
        status: 404,
        method: 'GET',
      }),
    ]);
    for (const c of all) {
      expect(c.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(c.at)).toBeGreaterThan(Date.now() - 120_000);
    }
    expect(of('options')[0]!.bytes).toBeGreaterThan(10);
    // What was sent and answered is not kept: no key, no body, no query.
    const rows = await svc.db.select().from(providerCalls).where(eq(providerCalls.accountId, accountId));
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(GOOD_KEY);
    expect(stored).not.toContain('secret=q');
    expect(stored).not.toContain('12345');
    expect(stored).not.toContain('Newsletter');
  });

  it('records the polls of an app trigger', async () => {
    const set = await setUpAppTrigger(svc, {
      accountId,
      apiKey,
      username: 'carol',
      connector: 'stripe',
      credential: { name: 'Stripe', type: 'apiKey', secrets: { fields: { apiKey: 'rk_test_good' } } },
      trigger: { trigger: 'new_customer', input: {} },
      workflowName: 'polling',
    });
    const polls = await eventually('a poll to be logged', async () => {
      const found = await calls(`?kind=poll&userId=${set.userId}`);
      return found.length ? found : undefined;
    });
    expect(polls[0]).toMatchObject({
      connector: 'stripe',
      credentialId: set.credentialId,
      userId: set.userId,
      route: '/customers',
      status: 200,
    });
  });

  it("records an app trigger's webhook subscription and its removal", async () => {
    const set = await setUpAppTrigger(svc, {
      accountId,
      apiKey,
      username: 'dora',
      connector: 'stripe',
      credential: { name: 'Stripe', type: 'apiKey', secrets: { fields: { apiKey: 'rk_test_good' } } },
      trigger: { trigger: 'new_customer_webhook', input: {} },
      workflowName: 'subscribed',
    });
    const subscribed = await eventually('the subscription to be logged', async () => {
      const found = await calls(`?kind=subscription&userId=${set.userId}`);
      return found.length ? found : undefined;
    });
    const who = {
      connector: 'stripe',
      credentialId: set.credentialId,
      userId: set.userId,
      executionId: null,
    };
    expect(subscribed).toEqual([
      expect.objectContaining({ ...who, method: 'POST', route: '/webhook_endpoints', status: 200 }),
    ]);
    expect(subscribed[0]!.bytes).toBeGreaterThan(10);
    const del = await svc.call('DELETE', `/installations/${set.installationId}?userId=${set.userId}`, {
      auth: apiKey,
    });
    expect(del.status, del.text).toBe(200);
    const both = await eventually('the removal to be logged', async () => {
      const found = await calls(`?kind=subscription&userId=${set.userId}`);
      return found.length === 2 ? found : undefined;
    });
    expect(both[0]).toMatchObject({ ...who, method: 'DELETE', route: '/webhook_endpoints/:id', status: 200 });
    // The endpoint's id and the hook URL's secret stay out of the log.
    const stored = JSON.stringify(
      await svc.db.select().from(providerCalls).where(eq(providerCalls.userId, set.userId)),
    );
    expect(stored).not.toMatch(/we_\d+/);
    expect(stored).not.toContain('/hooks/app/');
  });

  it('filters by connection, connector, kind, failure and time', async () => {
    expect((await calls(`?credentialId=${credentialId}`)).map((c) => c.kind).sort()).toEqual([
      'options',
      'proxy',
      'step',
    ]);
    expect((await calls('?kind=proxy')).every((c) => c.kind === 'proxy')).toBe(true);
    expect((await calls('?failed=true')).map((c) => c.status)).toEqual([404]);
    expect((await calls('?connector=stripe')).every((c) => c.connector === 'stripe')).toBe(true);
    expect(await calls(`?to=${new Date(Date.now() - 3_600_000).toISOString()}`)).toEqual([]);
    expectProblem(
      await svc.call('GET', '/provider-calls?kind=nope', { auth: apiKey }),
      400,
      'invalid_request',
      'query.kind',
    );
    expectProblem(
      await svc.call('GET', '/provider-calls?cursor=zz', { auth: apiKey }),
      400,
      'invalid_request',
      'query.cursor',
    );
  });

  it('pages by keyset, newest first, without repeats', async () => {
    const all = await calls('?limit=200');
    expect(all.length).toBeGreaterThanOrEqual(5);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await svc.call('GET', `/provider-calls?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
        auth: apiKey,
      });
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((c: Call) => c.providerCallId));
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((c) => c.providerCallId));
    const times = all.map((c) => Date.parse(c.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it("needs the API key; another user's filter or another account sees none of the calls", async () => {
    const aliceJwt = await tokenFor(svc, apiKey, alice);
    expectProblem(await svc.call('GET', '/provider-calls', { auth: aliceJwt }), 403, 'forbidden');
    expect(await calls(`?userId=${bob}`)).toEqual([]);
    const mine = await calls('?userId=alice');
    expect(mine.length).toBeGreaterThanOrEqual(4);
    expect(mine.every((c) => c.userId === alice)).toBe(true);
    const other = await svc.account('other');
    expect(await calls('', other.apiKey)).toEqual([]);
    expectProblem(
      await svc.call('GET', `/provider-calls?userId=${alice}`, { auth: other.apiKey }),
      404,
      'not_found',
    );
    expect(await calls(`?credentialId=${credentialId}`, other.apiKey)).toEqual([]);
  });

  it('is purged with the account’s runs', async () => {
    const before = (await calls('?limit=200')).length;
    expect(await purgeProviderCalls(svc.db, accountId, new Date(Date.now() - 86_400_000), 100)).toBe(0);
    expect((await calls('?limit=200')).length).toBe(before);
    expect(
      await purgeProviderCalls(svc.db, accountId, new Date(Date.now() + 1000), 2),
    ).toBeGreaterThanOrEqual(before);
    expect(await calls('')).toEqual([]);
  });
});

describe('routeTemplate', () => {
  it('replaces ids with :id and keeps the kinds of object', () => {
    expect(routeTemplate('/v1/customers/cus_N8x2Kq9aTz/invoices')).toBe('/v1/customers/:id/invoices');
    expect(routeTemplate('/repos/octo/hello/issues/42')).toBe('/repos/octo/hello/issues/:id');
    expect(routeTemplate('/items/3f2b1c4e-9a8b-4c7d-8e6f-5a4b3c2d1e0f')).toBe('/items/:id');
    expect(routeTemplate('/users/ada%40example.com')).toBe('/users/:id');
    expect(routeTemplate('/api/v2/channels/C0123ABCD')).toBe('/api/v2/channels/:id');
    expect(routeTemplate('/webhook_endpoints/we_1')).toBe('/webhook_endpoints/:id');
    expect(routeTemplate('/api_v2/list_items')).toBe('/api_v2/list_items');
    expect(routeTemplate('')).toBe('/');
  });
});

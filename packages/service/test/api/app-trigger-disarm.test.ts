import { stripeSignature } from '@inlay/connectors';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { setUpAppTrigger, stateOf, triggeredIds } from '@inlay/test-kit/app-trigger-setup';
import { eventually } from '@inlay/test-kit/eventually';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { expectProblem, onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { startFakeStripe } from '@inlay/test-kit/trigger-fakes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '../../src/store/schema.ts';

// Stripe's webhook-endpoint trigger from install to uninstall, and every way a workflow can lose its
// installation: each removes the provider's subscription once and stops polling, and deleting an installed
// workflow is refused rather than leaving an armed trigger behind.

let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let svc: Service;
/** Its own database on PostgreSQL: another file's installed triggers would poll these fakes too. */
let db: Awaited<ReturnType<typeof privateDatabase>> | undefined;

beforeAll(async () => {
  stripe = await startFakeStripe();
  db = onPostgres ? await privateDatabase('inlay_disarm') : undefined;
  svc = await startService({
    ownStore: true,
    env: {
      ...(db ? { DATABASE_URL: db.url } : {}),
      INLAY_CONNECTOR_STRIPE_BASE_URL: stripe.url,
      INLAY_POLL_MIN_INTERVAL_MS: '100',
      INLAY_SCHEDULER_INTERVAL_MS: '50',
    },
  });
});
afterAll(async () => {
  await svc?.close();
  await db?.drop();
  await stripe?.close();
});

const stripeKey = {
  name: 'Stripe',
  type: 'apiKey' as const,
  secrets: { fields: { apiKey: 'rk_test_good' } },
};

async function setUp(name: string, trigger: string, installNow = true) {
  const { accountId, apiKey } = await svc.account(name);
  const set = await setUpAppTrigger(svc, {
    accountId,
    apiKey,
    username: 'ada',
    connector: 'stripe',
    credential: stripeKey,
    definition: {
      trigger: { type: 'app', connector: 'stripe', trigger, input: {}, every: '150ms' },
      steps: [
        {
          id: '0b6c2a4e-0f55-4d7b-9a55-2d7b0d3c1a01',
          connector: 'transform',
          action: 'map',
          input: { expression: 'trigger.email' },
        },
      ],
    } as WorkflowDefinitionInput,
    workflowName: name,
    installNow,
  });
  return { ...set, apiKey };
}

/** The endpoint the row subscribed, once it is stored. */
const subscription = (s: { userId: string; workflowId: string }) =>
  eventually(
    'the subscription',
    async () => (await stateOf(svc, s.userId, s.workflowId))?.triggerState?.subscription,
  );

/** Sends a `customer.created` event to an endpoint as Stripe signs it. */
function deliver(endpointUrl: string, customerId: string, secret: string, at = new Date()) {
  const raw = JSON.stringify({
    id: `evt_${customerId}`,
    object: 'event',
    type: 'customer.created',
    data: { object: stripe.customer(customerId) },
  });
  return svc.call('POST', endpointUrl.slice(svc.url.length), {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(raw, secret, at) },
  });
}

describe('Stripe webhook endpoint trigger', () => {
  it('install creates the endpoint, a signed customer.created starts a run, uninstall deletes the endpoint', async () => {
    const s = await setUp('stripe-hooks', 'new_customer_webhook', false);
    const inst = await s.install();
    const sub = await subscription(s);
    const endpoint = stripe.endpoints.get(sub.id)!;
    expect(endpoint.events).toEqual(['customer.created']);
    expect(endpoint.url).toMatch(
      new RegExp(`^${svc.url}/hooks/app/${inst.installationId}/${s.workflowId}/[A-Za-z0-9_-]{32}$`),
    );
    // Stripe's own signing secret is what verifies, and it is stored sealed.
    expect(JSON.stringify(await stateOf(svc, s.userId, s.workflowId))).not.toContain(endpoint.secret);

    expectProblem(await deliver(endpoint.url, 'cus_forged', 'whsec_not_it'), 401, 'unauthorized');
    const stale = new Date(Date.now() - 10 * 60_000);
    expectProblem(await deliver(endpoint.url, 'cus_replayed', endpoint.secret, stale), 401, 'unauthorized');
    expect(await triggeredIds(svc, s.workflowId)).toEqual([]);

    const ok = await deliver(endpoint.url, 'cus_new', endpoint.secret);
    expect(ok.status).toBe(200);
    expect(ok.body.executionIds).toHaveLength(1);
    const [run] = await svc.db.select().from(executions).where(eq(executions.id, ok.body.executionIds[0]));
    expect(run).toMatchObject({ triggerType: 'app', trigger: { id: 'cus_new', email: 'cus_new@x.test' } });
    // Stripe retries a delivery it thinks failed: the same customer starts nothing again.
    expect((await deliver(endpoint.url, 'cus_new', endpoint.secret)).body.executionIds).toEqual([]);

    const deletedBefore = stripe.deleted.length;
    const del = await svc.call('DELETE', `/installations/${inst.installationId}?userId=${s.userId}`, {
      auth: s.apiKey,
    });
    expect(del.status).toBe(200);
    expect(stripe.deleted.slice(deletedBefore)).toEqual([sub.id]);
    expect(stripe.endpoints.has(sub.id)).toBe(false);
    expectProblem(await deliver(endpoint.url, 'cus_late', endpoint.secret), 404, 'not_found');
  });

  it('an uninstall while Stripe is still creating the endpoint: the endpoint created late is deleted', async () => {
    const s = await setUp('stripe-race', 'new_customer_webhook', false);
    let release!: () => void;
    stripe.state.hold = new Promise<void>((r) => {
      release = r;
    });
    const deletedBefore = stripe.deleted.length;
    const createdBefore = stripe.creations.length;
    try {
      const inst = await s.install();
      await eventually('the endpoint creation', () => stripe.creations.length > createdBefore);
      // Nothing is stored yet, so the uninstall has nothing to delete at Stripe.
      const del = await svc.call('DELETE', `/installations/${inst.installationId}?userId=${s.userId}`, {
        auth: s.apiKey,
      });
      expect(del.status).toBe(200);
      expect(stripe.deleted.length).toBe(deletedBefore);
    } finally {
      stripe.state.hold = undefined;
      release();
    }
    await eventually('the late endpoint to be deleted', () => stripe.deleted.length > deletedBefore);
    const made = [...stripe.deleted.slice(deletedBefore)];
    expect(made).toHaveLength(1);
    expect(stripe.endpoints.has(made[0]!)).toBe(false);
  });
});

describe('disarming', () => {
  it('DELETE /workflows/{id} of an installed workflow is refused: its trigger stays armed, nothing is unsubscribed', async () => {
    const hooked = await setUp('delete-hooked', 'new_customer_webhook');
    const polled = await setUp('delete-polled', 'new_customer');
    const sub = await subscription(hooked);
    await eventually(
      'the baseline',
      async () => (await stateOf(svc, polled.userId, polled.workflowId))?.triggerState?.baseline,
    );
    const deletedBefore = stripe.deleted.length;
    for (const s of [hooked, polled]) {
      const r = await svc.call('DELETE', `/workflows/${s.workflowId}`, { auth: s.apiKey });
      expectProblem(r, 409, 'conflict', 'path.workflowId', 'in_use');
    }
    expect(stripe.deleted.length).toBe(deletedBefore);
    // Still armed: the endpoint delivers, the poll goes on.
    const endpoint = stripe.endpoints.get(sub.id)!;
    expect((await deliver(endpoint.url, 'cus_still', endpoint.secret)).body.executionIds).toHaveLength(1);
    const customersPolls = () => stripe.requests.filter((r) => r.path === '/customers').length;
    const from = customersPolls();
    await eventually('polls to go on', () => customersPolls() >= from + 2);

    // Uninstalled, then deleted: one unsubscribe in all, and nothing polls any more.
    for (const s of [hooked, polled]) {
      const gone = await svc.call('DELETE', `/installations/${s.installationId}?userId=${s.userId}`, {
        auth: s.apiKey,
      });
      expect(gone.status).toBe(200);
      const r = await svc.call('DELETE', `/workflows/${s.workflowId}`, { auth: s.apiKey });
      expect(r.status).toBe(204);
      expect(await stateOf(svc, s.userId, s.workflowId)).toBeUndefined();
    }
    expect(stripe.deleted.slice(deletedBefore)).toEqual([sub.id]);
  });

  it('DELETE /users/{id} deletes the user’s Stripe endpoints and stops its polls', async () => {
    const hooked = await setUp('user-hooked', 'new_customer_webhook');
    const sub = await subscription(hooked);
    const deletedBefore = stripe.deleted.length;
    expect((await svc.call('DELETE', `/users/${hooked.userId}`, { auth: hooked.apiKey })).status).toBe(200);
    expect(stripe.deleted.slice(deletedBefore)).toEqual([sub.id]);
    expect(await stateOf(svc, hooked.userId, hooked.workflowId)).toBeUndefined();
  });
});

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { privateDatabase } from '@inlay/test-kit/private-database';
import {
  GOOD_KEY,
  type Provider,
  providerConnectors,
  providerEgress,
  startProvider,
} from '@inlay/test-kit/providers';
import { expectProblem, onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { customConnector } from '@inlay/test-kit/tenant';
import { eq } from 'drizzle-orm';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../src/store/schema.ts';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A host's webhook receiver on 127.0.0.1: answers 500 to the first `failFirst` requests, then 204; `/down`
 * always answers 500 (and is not counted).
 */
async function startReceiver() {
  const received: Received[] = [];
  const state = { failFirst: 0, calls: 0 };
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.url === '/down') {
      res.writeHead(500).end('down for maintenance');
      return;
    }
    state.calls++;
    if (state.calls <= state.failFirst) {
      res.writeHead(500).end('not now');
      return;
    }
    received.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

let provider: Provider;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let svc: Service;
let apiKey: string;
let alice: string;
let db: Awaited<ReturnType<typeof privateDatabase>> | undefined;

beforeAll(async () => {
  provider = await startProvider();
  receiver = await startReceiver();
  // On PostgreSQL, a database of its own: every other test file's service also runs a dispatcher, with the
  // default 5 s retry base, and would take this file's failed deliveries over.
  if (onPostgres) db = await privateDatabase('inlay_webhooks');
  svc = await startService({
    ownStore: true,
    connectors: providerConnectors(provider.url),
    env: {
      ...(db ? { DATABASE_URL: db.url } : {}),
      ...providerEgress(provider, new URL(receiver.url).host),
      INLAY_WEBHOOK_RETRY_BASE_MS: '20',
      INLAY_WEBHOOK_POLL_MS: '50',
    },
  });
  ({ apiKey } = await svc.account('webhooks'));
  alice = await createUser(svc, apiKey, 'alice');
});
afterAll(async () => {
  await svc?.close();
  await receiver?.close();
  await provider?.close();
  await db?.drop();
});

async function endpoint(events: string[], url = `${receiver.url}/hooks`) {
  const r = await svc.call('POST', '/webhook-endpoints', { auth: apiKey, body: { url, events } });
  expect(r.status, r.text).toBe(201);
  return r.body as { webhookEndpointId: string; secret: string };
}

/** A manual workflow of one step in a new integration; answers the created workflow's id. */
async function oneStepWorkflow(name: string, step: { connector: string; action: string; input: object }) {
  const i = await svc.call('POST', '/integrations', { auth: apiKey, body: { name } });
  const w = await svc.call('POST', '/workflows', {
    auth: apiKey,
    body: {
      integrationId: i.body.integrationId,
      name,
      definition: {
        trigger: { type: 'manual' },
        steps: [{ id: '11111111-1111-4111-8111-111111111111', ...step }],
      },
    },
  });
  expect(w.status, w.text).toBe(201);
  return w.body.workflowId as string;
}

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

describe('account webhooks', () => {
  it('signs per Standard Webhooks: the library verifies it, a tampered body or signature fails', async () => {
    const ep = await endpoint(['credential.connected']);
    expect(ep.secret).toMatch(/^whsec_/);
    const before = receiver.received.length;
    const cred = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'keyco', data: { apiKey: GOOD_KEY } },
    });
    expect(cred.status).toBe(201);
    const got = await eventually('the credential.connected delivery', () => receiver.received[before]);
    const wh = new Webhook(ep.secret);
    const payload = wh.verify(got.body, headersOf(got)) as any;
    expect(payload).toEqual({
      type: 'credential.connected',
      timestamp: expect.any(String),
      data: {
        credentialId: cred.body.data.credentialId,
        userId: alice,
        connector: 'keyco',
        name: 'KeyCo',
        status: 'connected',
        statusReason: null,
        accountLabel: 'KeyCo Team',
      },
    });
    expect(got.body).not.toContain(GOOD_KEY);
    expect(got.headers['content-type']).toBe('application/json');
    expect(() => wh.verify(got.body.replace('keyco', 'evilco'), headersOf(got))).toThrow(
      WebhookVerificationError,
    );
    const forged = { ...headersOf(got), 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
    expect(() => wh.verify(got.body, forged)).toThrow(WebhookVerificationError);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(got.body, headersOf(got)),
    ).toThrow(WebhookVerificationError);
    await svc.call('DELETE', `/webhook-endpoints/${ep.webhookEndpointId}`, { auth: apiKey });
  });

  it('retries with backoff against a receiver that fails twice, with the same webhook-id, and lists the attempts', async () => {
    const ep = await endpoint(['installation.created', 'installation.deleted']);
    receiver.state.calls = 0;
    receiver.state.failFirst = 2;
    const before = receiver.received.length;
    try {
      const workflowId = await oneStepWorkflow('noop', {
        connector: 'transform',
        action: 'map',
        input: { expression: '1' },
      });
      const inst = await svc.call('POST', '/installations', {
        auth: apiKey,
        body: { userId: alice, workflowIds: [workflowId], credentialIds: {}, values: [] },
      });
      expect(inst.status, inst.text).toBe(201);
      const installationId = inst.body.data.installationId;
      const del = await svc.call('DELETE', `/installations/${installationId}?userId=${alice}`, {
        auth: apiKey,
      });
      expect(del.status).toBe(200);
      // Delivered in order: created (after two failures) before deleted.
      await eventually('the created and deleted deliveries', () => receiver.received.length >= before + 2);
      const [created, deleted] = receiver.received.slice(before).map((r) => ({
        ...(new Webhook(ep.secret).verify(r.body, headersOf(r)) as object),
        id: r.headers['webhook-id'],
      })) as any[];
      expect(created).toMatchObject({
        type: 'installation.created',
        data: { installationId, userId: alice, workflowIds: [workflowId] },
      });
      expect(deleted).toMatchObject({
        type: 'installation.deleted',
        data: { installationId, userId: alice },
      });
      expect(receiver.state.calls).toBe(4);
      const list = await svc.call('GET', `/webhook-endpoints/${ep.webhookEndpointId}/deliveries`, {
        auth: apiKey,
      });
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([
        expect.objectContaining({
          event: 'installation.deleted',
          status: 'delivered',
          attempts: 1,
          lastStatusCode: 204,
        }),
        expect.objectContaining({
          deliveryId: created.id,
          event: 'installation.created',
          status: 'delivered',
          attempts: 3,
          lastStatusCode: 204,
          lastError: null,
          nextAttemptAt: null,
        }),
      ]);
    } finally {
      receiver.state.failFirst = 0;
      await svc.call('DELETE', `/webhook-endpoints/${ep.webhookEndpointId}`, { auth: apiKey });
    }
  });

  it('credential.needs_reconnect when a revoked key is refused (the payload names the user and credential)', async () => {
    const ep = await endpoint(['credential.needs_reconnect', 'execution.failed']);
    const before = receiver.received.length;
    const cred = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'keyco', data: { apiKey: GOOD_KEY } },
    });
    const credentialId = cred.body.data.credentialId;
    provider.keyRevoked = true;
    try {
      const t = await svc.call('POST', `/credentials/${credentialId}/test?userId=${alice}`, { auth: apiKey });
      expect(t.body.data.status).toBe('needs_reconnect');
    } finally {
      provider.keyRevoked = false;
    }
    const got = await eventually('the credential.needs_reconnect delivery', () => receiver.received[before]);
    const event = new Webhook(ep.secret).verify(got.body, headersOf(got)) as any;
    expect(event).toMatchObject({
      type: 'credential.needs_reconnect',
      data: { credentialId, userId: alice, connector: 'keyco', status: 'needs_reconnect' },
    });
    expect(got.body).not.toContain(GOOD_KEY);
    await svc.call('DELETE', `/webhook-endpoints/${ep.webhookEndpointId}`, { auth: apiKey });
  });

  it('installation.needs_credential when its credential is deleted with detach=true, and when it is refused', async () => {
    const ep = await endpoint(['installation.needs_credential']);
    const before = receiver.received.length;
    const connect = async () => {
      const r = await svc.call('POST', '/credentials', {
        auth: apiKey,
        body: { userId: alice, connector: 'keyco', data: { apiKey: GOOD_KEY } },
      });
      expect(r.status, r.text).toBe(201);
      return r.body.data.credentialId as string;
    };
    const installWith = async (credentialId: string) => {
      const workflowId = await oneStepWorkflow(`needs-${credentialId.slice(0, 6)}`, {
        connector: 'keyco',
        action: 'list_lists',
        input: {},
      });
      const inst = await svc.call('POST', '/installations', {
        auth: apiKey,
        body: {
          userId: alice,
          workflowIds: [workflowId],
          credentialIds: { keyco: credentialId },
          values: [],
        },
      });
      expect(inst.status, inst.text).toBe(201);
      return { workflowId, installationId: inst.body.data.installationId as string };
    };
    try {
      // 1. Deleted after confirming: the installation has no KeyCo account any more.
      const first = await connect();
      const one = await installWith(first);
      const refused = await svc.call('DELETE', `/credentials/${first}?userId=${alice}`, { auth: apiKey });
      expect(refused.status).toBe(409);
      expect(refused.body.workflows).toEqual([{ workflowId: one.workflowId, name: expect.any(String) }]);
      const deleted = await svc.call('DELETE', `/credentials/${first}?userId=${alice}&detach=true`, {
        auth: apiKey,
      });
      expect(deleted.status, deleted.text).toBe(200);
      // 2. Refused by the provider: the installation needs it reconnected.
      const second = await connect();
      const two = await installWith(second);
      provider.keyRevoked = true;
      try {
        const t = await svc.call('POST', `/credentials/${second}/test?userId=${alice}`, { auth: apiKey });
        expect(t.body.data.status).toBe('needs_reconnect');
      } finally {
        provider.keyRevoked = false;
      }
      await eventually(
        'two installation.needs_credential deliveries',
        () => receiver.received.length >= before + 2,
      );
      const got = receiver.received
        .slice(before)
        .map((r) => new Webhook(ep.secret).verify(r.body, headersOf(r)) as any);
      expect(got).toEqual([
        {
          type: 'installation.needs_credential',
          timestamp: expect.any(String),
          data: {
            installationId: one.installationId,
            userId: alice,
            workflowIds: [one.workflowId],
            code: 'needs_credential',
            connector: 'keyco',
          },
        },
        {
          type: 'installation.needs_credential',
          timestamp: expect.any(String),
          data: {
            installationId: two.installationId,
            userId: alice,
            workflowIds: [two.workflowId],
            code: 'needs_reconnect',
            connector: 'keyco',
            credentialId: second,
          },
        },
      ]);
    } finally {
      await svc.call('DELETE', `/webhook-endpoints/${ep.webhookEndpointId}`, { auth: apiKey });
    }
  });

  it('credential.deleted for a credential deleted, one an uninstall took, one a deleted connector took; none for a deleted user', async () => {
    const ep = await endpoint(['credential.deleted']);
    const before = receiver.received.length;
    const connect = async (userId: string, connector: string) => {
      const r = await svc.call('POST', '/credentials', {
        auth: apiKey,
        body: { userId, connector, data: { apiKey: GOOD_KEY } },
      });
      expect(r.status, r.text).toBe(201);
      return r.body.data.credentialId as string;
    };
    const events = async (n: number) => {
      await eventually(`${n} credential.deleted deliveries`, () => receiver.received.length >= before + n);
      return receiver.received
        .slice(before)
        .map((r) => new Webhook(ep.secret).verify(r.body, headersOf(r)) as { type: string; data: unknown });
    };
    try {
      // 1. The user deletes it.
      const first = await connect(alice, 'keyco');
      expect(
        (await svc.call('DELETE', `/credentials/${first}?userId=${alice}`, { auth: apiKey })).status,
      ).toBe(200);
      // 2. An uninstall with deleteCredentials takes it.
      const second = await connect(alice, 'keyco');
      const workflowId = await oneStepWorkflow('lists', {
        connector: 'keyco',
        action: 'list_lists',
        input: {},
      });
      const inst = await svc.call('POST', '/installations', {
        auth: apiKey,
        body: {
          userId: alice,
          workflowIds: [workflowId],
          credentialIds: { keyco: second },
          values: [],
        },
      });
      expect(inst.status, inst.text).toBe(201);
      const uninstalled = await svc.call(
        'DELETE',
        `/installations/${inst.body.data.installationId}?userId=${alice}&deleteCredentials=true`,
        { auth: apiKey },
      );
      expect(uninstalled.status).toBe(200);
      // 3. A custom connector's deletion takes its credentials (every user's).
      const custom = {
        ...customConnector('mykeys', `${provider.url}/key`),
        auth: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          fields: [{ name: 'apiKey', label: 'API key', type: 'password', required: true, secret: true }],
        },
        test: { method: 'GET', path: '/me', label: 'team' },
      };
      expect((await svc.call('POST', '/connectors', { auth: apiKey, body: custom })).status).toBe(201);
      const third = await connect(alice, 'mykeys');
      expect((await svc.call('DELETE', '/connectors/mykeys', { auth: apiKey })).status).toBe(200);
      // 4. Deleting a user sends nothing for its credentials; the next event is the one after.
      const dave = await createUser(svc, apiKey, 'dave-deleted');
      await connect(dave, 'keyco');
      expect((await svc.call('DELETE', `/users/${dave}`, { auth: apiKey })).status).toBe(200);
      const fourth = await connect(alice, 'keyco');
      expect(
        (await svc.call('DELETE', `/credentials/${fourth}?userId=${alice}`, { auth: apiKey })).status,
      ).toBe(200);
      const got = await events(4);
      const data = (credentialId: string, connector: string, name: string, reason: string) => ({
        type: 'credential.deleted',
        timestamp: expect.any(String),
        data: { credentialId, userId: alice, connector, name, reason },
      });
      expect(got).toEqual([
        data(first, 'keyco', 'KeyCo', 'deleted'),
        data(second, 'keyco', 'KeyCo', 'uninstalled'),
        data(third, 'mykeys', 'Custom mykeys', 'connector_deleted'),
        data(fourth, 'keyco', 'KeyCo', 'deleted'),
      ]);
      expect(
        receiver.received
          .slice(before)
          .map((r) => r.body)
          .join(),
      ).not.toContain(GOOD_KEY);
    } finally {
      await svc.call('DELETE', `/webhook-endpoints/${ep.webhookEndpointId}`, { auth: apiKey });
    }
  });

  it('execution.failed names the run, its workflow and user, and the error', async () => {
    const ep = await endpoint(['execution.failed']);
    const before = receiver.received.length;
    try {
      const workflowId = await oneStepWorkflow('broken', {
        connector: 'transform',
        action: 'map',
        input: { expression: '$error("the mapping broke")' },
      });
      await svc.call('POST', '/installations', {
        auth: apiKey,
        body: { userId: alice, workflowIds: [workflowId], credentialIds: {}, values: [] },
      });
      const run = await svc.call('POST', '/run/workflow', {
        auth: apiKey,
        body: { workflowId, userId: alice, data: {} },
      });
      const got = await eventually('the execution.failed delivery', () => receiver.received[before]);
      expect(new Webhook(ep.secret).verify(got.body, headersOf(got))).toMatchObject({
        type: 'execution.failed',
        data: {
          executionId: run.body.executionIds[0],
          workflowId,
          userId: alice,
          error: { message: expect.stringContaining('the mapping broke') },
        },
      });
    } finally {
      await svc.call('DELETE', `/webhook-endpoints/${ep.webhookEndpointId}`, { auth: apiKey });
    }
  });

  it("GET /webhook-deliveries: every endpoint's deliveries in one request; status=failing keeps those to look at", async () => {
    const up = await endpoint(['installation.created']);
    const down = await endpoint(['installation.created'], `${receiver.url}/down`);
    try {
      const workflowId = await oneStepWorkflow('fan out', {
        connector: 'transform',
        action: 'map',
        input: { expression: '1' },
      });
      const inst = await svc.call('POST', '/installations', {
        auth: apiKey,
        body: { userId: alice, workflowIds: [workflowId], credentialIds: {}, values: [] },
      });
      expect(inst.status, inst.text).toBe(201);
      const list = async (query = '', auth = apiKey) => {
        const r = await svc.call('GET', `/webhook-deliveries${query}`, { auth });
        expect(r.status, r.text).toBe(200);
        return r.body.data as Record<string, unknown>[];
      };
      const mine = (ds: Record<string, unknown>[]) =>
        ds.filter((d) => [up, down].some((e) => e.webhookEndpointId === d.webhookEndpointId));
      // The endpoint that answers is delivered to; the one that answers 500 is retried (pending, attempts > 0).
      const failing = await eventually('a retried delivery to the failing endpoint', async () => {
        const ds = mine(await list('?status=failing'));
        return ds.length && (ds[0]!.attempts as number) > 0 ? ds : undefined;
      });
      expect(failing).toEqual([
        {
          deliveryId: expect.any(String),
          event: 'installation.created',
          status: 'pending',
          attempts: expect.any(Number),
          lastStatusCode: 500,
          lastError: 'The endpoint answered HTTP 500',
          nextAttemptAt: expect.any(String),
          createdAt: expect.any(String),
          deliveredAt: null,
          webhookEndpointId: down.webhookEndpointId,
          url: `${receiver.url}/down`,
        },
      ]);
      const delivered = await eventually('the delivery to the answering endpoint', async () => {
        const ds = mine(await list('?status=delivered'));
        return ds.length ? ds : undefined;
      });
      expect(delivered).toEqual([
        expect.objectContaining({
          status: 'delivered',
          webhookEndpointId: up.webhookEndpointId,
          url: `${receiver.url}/hooks`,
          lastStatusCode: 204,
        }),
      ]);
      // Without a filter: both, newest first (the delivery to `down` was queued second).
      expect(mine(await list()).map((d) => d.webhookEndpointId)).toEqual([
        down.webhookEndpointId,
        up.webhookEndpointId,
      ]);
      // Given up on (after 24 hours) is failing too; `pending` still finds the retried one until then. The
      // delivery is made a day old, so the dispatcher gives up at its next failed attempt.
      expect(mine(await list('?status=pending'))).toHaveLength(1);
      await svc.db
        .update(webhookDeliveries)
        .set({ createdAt: new Date(Date.now() - 25 * 3_600_000), nextAttemptAt: new Date() })
        .where(eq(webhookDeliveries.endpointId, down.webhookEndpointId));
      await eventually(
        'the day-old delivery to be given up on',
        async () => (await list('?status=failed')).some((d) => d.url === `${receiver.url}/down`),
        { timeout: 30_000 },
      );
      expect(mine(await list('?status=failing'))).toEqual([expect.objectContaining({ status: 'failed' })]);
      expect(mine(await list('?status=failed'))).toHaveLength(1);
      expect(mine(await list('?status=pending'))).toEqual([]);
      expect(await list('?limit=1')).toHaveLength(1);

      // Another account sees none of them; a bad filter or limit is a 400 naming it.
      const other = await svc.account('deliveries-other');
      expect(await list('', other.apiKey)).toEqual([]);
      expectProblem(
        await svc.call('GET', '/webhook-deliveries?status=broken', { auth: apiKey }),
        400,
        'invalid_request',
        'query.status',
        'enum',
      );
      expectProblem(
        await svc.call('GET', '/webhook-deliveries?limit=101', { auth: apiKey }),
        400,
        'invalid_request',
        'query.limit',
        'max',
      );
      expectProblem(
        await svc.call('GET', '/webhook-deliveries?endpoint=x', { auth: apiKey }),
        400,
        'invalid_request',
        'query.endpoint',
        'unknown_field',
      );
      const token = await tokenFor(svc, apiKey, alice);
      expectProblem(await svc.call('GET', '/webhook-deliveries', { auth: token }), 403, 'forbidden');
    } finally {
      await svc.call('DELETE', `/webhook-endpoints/${up.webhookEndpointId}`, { auth: apiKey });
      await svc.call('DELETE', `/webhook-endpoints/${down.webhookEndpointId}`, { auth: apiKey });
    }
  });

  it("GET /webhook-deliveries pages by keyset, newest first; webhookEndpointId keeps one endpoint's", async () => {
    const a = await svc.account('deliveries-pages');
    const create = async () => {
      const r = await svc.call('POST', '/webhook-endpoints', {
        auth: a.apiKey,
        body: { url: `${receiver.url}/hooks`, events: ['execution.failed'] },
      });
      expect(r.status, r.text).toBe(201);
      return r.body.webhookEndpointId as string;
    };
    const [first, second] = [await create(), await create()];
    // Written as delivered, so the dispatcher leaves them alone: 5 to the first endpoint, 2 to the second.
    const names = ['f1', 's1', 'f2', 'f3', 's2', 'f4', 'f5'];
    const ids = names.map((n) => `msg_pages_${n}_${a.accountId}`);
    for (const [i, id] of ids.entries()) {
      await svc.db.insert(webhookDeliveries).values({
        id,
        endpointId: names[i]!.startsWith('f') ? first : second,
        accountId: a.accountId,
        event: 'execution.failed',
        payload: { type: 'execution.failed', data: {} },
        status: 'delivered',
        attempts: 1,
      });
    }
    const newestFirst = [...ids].reverse();
    const pages = async (query: string) => {
      const seen: string[][] = [];
      let cursor: string | undefined;
      do {
        const r = await svc.call(
          'GET',
          `/webhook-deliveries?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { auth: a.apiKey },
        );
        expect(r.status, r.text).toBe(200);
        seen.push((r.body.data as { deliveryId: string }[]).map((d) => d.deliveryId));
        cursor = r.body.nextCursor;
        if (cursor !== undefined) expect(typeof cursor).toBe('string');
      } while (cursor && seen.length < 10);
      return seen;
    };
    const pick = (names: string[]) => newestFirst.filter((id) => names.some((n) => id.includes(`_${n}_`)));
    expect(await pages('limit=2')).toEqual([
      pick(['f5', 'f4']),
      pick(['s2', 'f3']),
      pick(['f2', 's1']),
      pick(['f1']),
    ]);
    // A last page that is exactly full has no next cursor.
    expect(await pages('limit=7')).toEqual([newestFirst]);
    expect(await pages(`limit=3&webhookEndpointId=${first}`)).toEqual([
      pick(['f5', 'f4', 'f3']),
      pick(['f2', 'f1']),
    ]);
    expect(await pages(`webhookEndpointId=${second}&status=delivered`)).toEqual([pick(['s2', 's1'])]);
    expect(await pages(`webhookEndpointId=${second}&status=failing`)).toEqual([[]]);
    // Another account's endpoint has no deliveries for this key, as an unknown one.
    const r = await svc.call('GET', `/webhook-deliveries?webhookEndpointId=${first}`, { auth: apiKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ data: [] });
    expectProblem(
      await svc.call('GET', '/webhook-deliveries?cursor=bm90LWEtY3Vyc29y', { auth: a.apiKey }),
      400,
      'invalid_request',
      'query.cursor',
      'format',
    );
    expectProblem(
      await svc.call('GET', '/webhook-deliveries?webhookEndpointId=nope', { auth: a.apiKey }),
      400,
      'invalid_request',
      'query.webhookEndpointId',
    );
    for (const id of [first, second])
      await svc.call('DELETE', `/webhook-endpoints/${id}`, { auth: a.apiKey });
  });

  it('lists endpoints without secrets; another account sees 404; the egress policy refuses a private URL', async () => {
    const ep = await endpoint(['execution.failed']);
    const list = await svc.call('GET', '/webhook-endpoints', { auth: apiKey });
    expect(list.body.data).toContainEqual({
      webhookEndpointId: ep.webhookEndpointId,
      url: `${receiver.url}/hooks`,
      events: ['execution.failed'],
      createdAt: expect.any(String),
    });
    expect(list.text).not.toContain(ep.secret);
    const other = await svc.account('other');
    expectProblem(
      await svc.call('GET', `/webhook-endpoints/${ep.webhookEndpointId}/deliveries`, { auth: other.apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('DELETE', `/webhook-endpoints/${ep.webhookEndpointId}`, { auth: other.apiKey }),
      404,
      'not_found',
    );
    expect((await svc.call('GET', '/webhook-endpoints', { auth: other.apiKey })).body.data).toEqual([]);
    expectProblem(
      await svc.call('POST', '/webhook-endpoints', {
        auth: apiKey,
        body: { url: 'http://10.0.0.7/hook', events: ['execution.failed'] },
      }),
      422,
      'egress_denied',
      'body.url',
    );
    expectProblem(
      await svc.call('POST', '/webhook-endpoints', {
        auth: apiKey,
        body: { url: `${receiver.url}/x`, events: ['nope'] },
      }),
      400,
      'invalid_request',
      'body.events[0]',
    );
    const d = await svc.call('DELETE', `/webhook-endpoints/${ep.webhookEndpointId}`, { auth: apiKey });
    expect(d.status).toBe(200);
    const rows = await svc.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, ep.webhookEndpointId));
    expect(rows).toEqual([]);
  });
});

// Account webhooks with two nodes on one PostgreSQL database, both configured with the pg-boss run queue
// (INLAY_QUEUE=pg-boss), as a multi-node deployment runs them: the `webhook_deliveries` table is the
// webhooks' queue on every store (see docs/credentials-and-oauth.md#account-webhooks). Both nodes'
// dispatchers poll and race for the same rows: every event arrives exactly once, with the same
// `webhook-id` on a retry, in the order the events happened, even when one delivery must be retried.

import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser } from '@inlay/test-kit/fixtures';
import { privateDatabase } from '@inlay/test-kit/private-database';
import {
  GOOD_KEY,
  type Provider,
  providerConnectors,
  providerEgress,
  startProvider,
} from '@inlay/test-kit/providers';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const EVENTS = 8;

describe.skipIf(!onPostgres)('account webhooks on two nodes (PostgreSQL, pg-boss queue)', () => {
  let provider: Provider;
  let db: Awaited<ReturnType<typeof privateDatabase>>;
  const nodes: Service[] = [];
  const attempts: { id: string; body: string; headers: IncomingMessage['headers'] }[] = [];
  let failOnce: string | null = null;
  let receiver: ReturnType<typeof createServer>;
  let receiverUrl: string;

  beforeAll(async () => {
    provider = await startProvider();
    // Slow enough that both dispatchers are polling while a delivery is in flight.
    receiver = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const id = String(req.headers['webhook-id']);
      attempts.push({ id, body, headers: req.headers });
      await new Promise((r) => setTimeout(r, 40));
      if (failOnce && body.includes(failOnce)) {
        failOnce = null;
        res.writeHead(503).end('not now');
        return;
      }
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    db = await privateDatabase('inlay_webhook_nodes');
    const env = {
      DATABASE_URL: db.url,
      INLAY_QUEUE: 'pg-boss',
      ...providerEgress(provider, new URL(receiverUrl).host),
      INLAY_WEBHOOK_RETRY_BASE_MS: '200',
      INLAY_WEBHOOK_POLL_MS: '20',
    };
    // One after the other: the first one migrates the database.
    for (let i = 0; i < 2; i++)
      nodes.push(await startService({ connectors: providerConnectors(provider.url), env }));
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) await n.close();
    await new Promise<void>((r) => receiver?.close(() => r()));
    await provider?.close();
    await db?.drop();
  });

  it('each event once, in order per endpoint, while both nodes dispatch and one delivery is retried', async () => {
    const { apiKey } = await nodes[0]!.account('nodes');
    const alice = await createUser(nodes[0]!, apiKey, 'alice');
    const ep = await nodes[1]!.call('POST', '/webhook-endpoints', {
      auth: apiKey,
      body: { url: `${receiverUrl}/hooks`, events: ['credential.connected'] },
    });
    expect(ep.status, ep.text).toBe(201);

    // Events caused on both nodes, alternately; the third one's first delivery attempt is refused.
    failOnce = '"name":"key 2"';
    const credentialIds: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const r = await nodes[i % 2]!.call('POST', '/credentials', {
        auth: apiKey,
        body: { userId: alice, connector: 'keyco', name: `key ${i}`, data: { apiKey: GOOD_KEY } },
      });
      expect(r.status, r.text).toBe(201);
      credentialIds.push(r.body.data.credentialId);
    }

    const delivered = async () => {
      const r = await nodes[0]!.call('GET', `/webhook-endpoints/${ep.body.webhookEndpointId}/deliveries`, {
        auth: apiKey,
      });
      return (r.body.data as { status: string }[]).filter((d) => d.status === 'delivered').length;
    };
    await eventually(`all ${EVENTS} events delivered`, async () => (await delivered()) >= EVENTS, {
      timeout: 30_000,
    });

    const wh = new Webhook(ep.body.secret);
    const payloads = attempts.map((a) => ({
      id: a.id,
      credentialId: (wh.verify(a.body, a.headers as Record<string, string>) as any).data.credentialId,
    }));
    // One refused attempt, retried with the same webhook-id; nothing else sent twice.
    expect(payloads).toHaveLength(EVENTS + 1);
    expect(new Set(payloads.map((p) => p.id)).size).toBe(EVENTS);
    // In order: the retried event held back the ones after it.
    const order = payloads.map((p) => p.credentialId);
    expect(order.filter((c, i) => c !== order[i - 1])).toEqual(credentialIds);
    expect(order[2]).toBe(credentialIds[2]);
    expect(order[3]).toBe(credentialIds[2]);
  });
});

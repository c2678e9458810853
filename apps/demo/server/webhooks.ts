import { type ServerClient, verifyWebhook } from '@inlay/client/server';
import type { WebhookPayload } from '@inlay/contract';
import express, { type Router } from 'express';
import type { DemoStore } from './store.ts';

/** What Acme CRM did with a verified account webhook: here, the email it would send its user. */
export interface HostNotice {
  webhookId: string;
  type: WebhookPayload['type'];
  /** Acme CRM's username (the payload names Inlay's user id). */
  username: string | null;
  data: Record<string, unknown>;
  message: string;
  receivedAt: string;
}

const EVENTS = [
  'credential.needs_reconnect',
  'credential.connected',
  'execution.failed',
  'installation.needs_credential',
] as const;

/**
 * Acme CRM's account-webhook receiver: registers `url` with Inlay once (the `whsec_…` secret is shown once,
 * so it is kept in the demo's data), verifies every delivery with `verifyWebhook` on the raw body, and turns
 * `credential.needs_reconnect` into a notice for the user ("we emailed you: reconnect Slack").
 */
export class HostWebhooks {
  readonly notices: HostNotice[] = [];
  readonly #seen = new Set<string>();

  constructor(
    private readonly store: DemoStore,
    private readonly client: ServerClient,
  ) {}

  /** Makes sure Inlay has an endpoint for `url` whose secret the store knows (a new port means a new one). */
  async register(url: string): Promise<void> {
    const known = this.store.webhook;
    const endpoints = await this.client.webhookEndpoints.list();
    const same = endpoints.find((e) => e.webhookEndpointId === known?.endpointId);
    if (known?.url === url && same && EVENTS.every((e) => same.events.includes(e))) return;
    for (const e of endpoints)
      if (e.url === known?.url) await this.client.webhookEndpoints.delete(e.webhookEndpointId);
    const created = await this.client.webhookEndpoints.create({ url, events: [...EVENTS] });
    this.store.webhook = { url, endpointId: created.webhookEndpointId, secret: created.secret };
  }

  /** `POST /webhooks/inlay`: 204 for a verified delivery, 400 for anything else (a bad or stale signature). */
  router(): Router {
    const r = express.Router();
    r.post('/webhooks/inlay', express.raw({ type: 'application/json', limit: '100kb' }), async (req, res) => {
      const secret = this.store.webhook?.secret;
      let event: WebhookPayload;
      try {
        if (!secret) throw new Error('no endpoint registered');
        event = verifyWebhook(secret, req.body as Buffer, req.headers);
      } catch {
        res.sendStatus(400);
        return;
      }
      // Standard Webhooks: a retried delivery keeps its `webhook-id`; act on it once.
      const webhookId = String(req.headers['webhook-id']);
      if (!this.#seen.has(webhookId)) {
        this.#seen.add(webhookId);
        this.notices.push({
          webhookId,
          type: event.type,
          username: await this.#username(String(event.data.userId ?? '')),
          data: event.data,
          message: noticeText(event),
          receivedAt: new Date().toISOString(),
        });
      }
      res.sendStatus(204);
    });
    return r;
  }

  /** The signed-in user's notices, newest first. */
  of(username: string): HostNotice[] {
    return this.notices.filter((n) => n.username === username).reverse();
  }

  async #username(userId: string): Promise<string | null> {
    const users = await this.client.users.list({ limit: 100 }).catch(() => []);
    return users.find((u) => u.userId === userId)?.username ?? null;
  }
}

function noticeText(e: WebhookPayload): string {
  const app = String(e.data.name ?? e.data.connector ?? 'an app');
  if (e.type === 'credential.needs_reconnect')
    return `We emailed you: ${app} stopped accepting Acme CRM's access. Reconnect it in Settings → Integrations.`;
  if (e.type === 'credential.connected') return `${app} is connected.`;
  if (e.type === 'installation.needs_credential')
    return e.data.code === 'needs_credential'
      ? `We emailed you: a workflow has no ${app} account any more. Choose one in Settings → Integrations.`
      : `We emailed you: a workflow needs ${app} reconnected. Reconnect it in Settings → Integrations.`;
  return 'A workflow run failed: see Run history.';
}

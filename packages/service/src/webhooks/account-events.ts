import { randomUUID } from 'node:crypto';
import type { WebhookEvent, WebhookPayload } from '@inlay/contract';
import { and, eq } from 'drizzle-orm';
import type { Logger } from '../logger.ts';
import { webhookDeliveries, webhookEndpoints } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

/**
 * Queues account events for the account's webhook endpoints: one delivery row per subscribed endpoint,
 * sent by the dispatcher. Emitting never fails the operation that caused the event (a write here that
 * fails is logged): the event is a notification, the operation is what the caller asked for.
 */
export class AccountEvents {
  #kick: () => void = () => {};

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Called after events are queued (the dispatcher sends them at once instead of at its next poll). */
  onQueued(fn: () => void): void {
    this.#kick = fn;
  }

  /** Queues `type` with `data` (ids and names, never a secret) for every endpoint of the account that wants it. */
  async emit(accountId: string, type: WebhookEvent, data: Record<string, unknown>): Promise<void> {
    try {
      const endpoints = await this.db
        .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.accountId, accountId)));
      const wanted = endpoints.filter((e) => e.events.includes(type));
      if (!wanted.length) return;
      const payload: WebhookPayload = { type, timestamp: new Date().toISOString(), data };
      await this.db.insert(webhookDeliveries).values(
        wanted.map((e) => ({
          id: `msg_${randomUUID().replace(/-/g, '')}`,
          endpointId: e.id,
          accountId,
          event: type,
          payload,
          status: 'pending' as const,
        })),
      );
      this.#kick();
    } catch (err) {
      this.logger.error({ err, accountId, event: type }, 'could not queue an account webhook event');
    }
  }
}

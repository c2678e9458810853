import { EgressDenied, type EgressPolicy, egressFetch } from '@inlay/connectors';
import { and, asc, eq, isNull, lt, lte, or } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { Vault } from '../credentials/vault.ts';
import type { Logger } from '../logger.ts';
import { webhookDeliveries, webhookEndpoints } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { inSpan, SpanKind, trace, tracing } from '../tracing/tracing.ts';
import { endpointAad } from './endpoints.ts';

/** Deliveries are retried with exponential backoff (base × 4ⁿ) for this long after the event, then dropped. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60_000;
const TIMEOUT_MS = 15_000;
const LEASE_MS = 60_000;

export interface DispatcherOptions {
  /** First retry delay; each further one is four times longer (5 s, 20 s, 80 s, … about 6 h). */
  retryBaseMs: number;
  /** How often queued deliveries are looked for when nothing kicked the dispatcher. */
  pollMs: number;
  /** Counts each attempt's outcome when metrics are on. */
  onAttempt?: (outcome: 'delivered' | 'retrying' | 'failed') => void;
}

/** The delay before attempt `n + 1`, after `n` failed attempts. */
export const retryDelay = (n: number, baseMs: number) => baseMs * 4 ** Math.max(0, n - 1);

/**
 * Sends queued account webhooks, signed per Standard Webhooks, through the egress policy. Per endpoint only
 * the oldest undelivered event is sent, so a receiver sees each endpoint's events in order; an endpoint
 * that keeps failing holds up only its own queue. Several nodes may run it: a delivery is leased before
 * it is sent. The table is the queue also with INLAY_QUEUE=pg-boss: it is durable and leased already, and
 * pg-boss could not keep the per-endpoint order (docs/credentials-and-oauth.md#account-webhooks).
 */
export class WebhookDispatcher {
  readonly #fetch: typeof fetch;
  #timer?: NodeJS.Timeout;
  #running?: Promise<void>;
  #again = false;
  #stopped = false;

  constructor(
    private readonly db: Db,
    private readonly vault: Vault,
    egress: EgressPolicy,
    private readonly logger: Logger,
    private readonly opts: DispatcherOptions,
  ) {
    this.#fetch = egressFetch(egress, { maxBytes: 64 * 1024 });
  }

  start(): void {
    this.#timer = setInterval(() => this.kick(), this.opts.pollMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#running;
  }

  /** Looks for due deliveries now (one pass at a time; a kick during a pass runs another after it). */
  kick(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#pass()
      .catch((err) => this.logger.error({ err }, 'webhook dispatch failed'))
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.kick();
        }
      });
  }

  /** One pass: the head of each endpoint's queue, if due, leased and sent. */
  async #pass(): Promise<void> {
    const now = new Date();
    const heads = await this.db
      .selectDistinctOn([webhookDeliveries.endpointId], {
        id: webhookDeliveries.id,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        leaseUntil: webhookDeliveries.leaseUntil,
      })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, 'pending'))
      .orderBy(webhookDeliveries.endpointId, asc(webhookDeliveries.seq));
    const due = heads.filter((h) => h.nextAttemptAt <= now && (h.leaseUntil === null || h.leaseUntil < now));
    await Promise.all(due.map((h) => this.#attempt(h.id)));
  }

  #attempt(id: string): Promise<void> {
    if (!tracing) return this.#deliver(id);
    return inSpan(
      'inlay.webhook delivery',
      { kind: SpanKind.CLIENT, attributes: { 'inlay.delivery.id': id } },
      () => this.#deliver(id),
    );
  }

  async #deliver(id: string): Promise<void> {
    const now = new Date();
    // The lease: whichever node sets it first sends this attempt.
    const [d] = await this.db
      .update(webhookDeliveries)
      .set({ leaseUntil: new Date(now.getTime() + LEASE_MS) })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
        ),
      )
      .returning();
    if (!d) return;
    const [endpoint] = await this.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, d.endpointId));
    if (!endpoint) return;
    const body = JSON.stringify(d.payload);
    const secret = this.vault.open(endpoint.secretSealed, endpointAad(endpoint));
    const signature = new Webhook(secret).sign(d.id, now, body);
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const res = await this.#fetch(endpoint.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Inlay-Webhooks/0.1',
          'webhook-id': d.id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      statusCode = res.status;
      await res.text().catch(() => '');
      if (res.status < 200 || res.status >= 300) error = `The endpoint answered HTTP ${res.status}`;
    } catch (err) {
      error =
        err instanceof EgressDenied
          ? `${err.message}. An operator can open it with INLAY_EGRESS_ALLOW`
          : `Could not reach the endpoint: ${(err as Error).name === 'TimeoutError' ? 'timed out' : 'connection failed'}`;
    }
    const attempts = d.attempts + 1;
    if (!error) {
      await this.db
        .update(webhookDeliveries)
        .set({
          status: 'delivered',
          attempts,
          lastStatusCode: statusCode,
          lastError: null,
          leaseUntil: null,
          deliveredAt: new Date(),
        })
        .where(eq(webhookDeliveries.id, d.id));
      this.opts.onAttempt?.('delivered');
      if (tracing)
        trace.getActiveSpan()?.setAttributes({
          'inlay.delivery.status': 'delivered',
          'http.response.status_code': statusCode ?? 0,
        });
      // The next event of this endpoint may go now.
      this.kick();
      return;
    }
    const next = new Date(Date.now() + retryDelay(attempts, this.opts.retryBaseMs));
    const giveUp = next.getTime() - d.createdAt.getTime() > WEBHOOK_RETRY_WINDOW_MS;
    await this.db
      .update(webhookDeliveries)
      .set({
        status: giveUp ? 'failed' : 'pending',
        attempts,
        lastStatusCode: statusCode,
        lastError: error,
        leaseUntil: null,
        nextAttemptAt: giveUp ? d.nextAttemptAt : next,
      })
      .where(eq(webhookDeliveries.id, d.id));
    this.opts.onAttempt?.(giveUp ? 'failed' : 'retrying');
    if (tracing)
      trace.getActiveSpan()?.setAttributes({
        'inlay.delivery.status': giveUp ? 'failed' : 'retrying',
        ...(statusCode === null ? {} : { 'http.response.status_code': statusCode }),
      });
    this.logger.info(
      { deliveryId: d.id, endpointId: d.endpointId, attempts, statusCode, giveUp },
      'account webhook delivery failed',
    );
    if (!giveUp) setTimeout(() => this.kick(), next.getTime() - Date.now() + 5).unref();
  }
}

import { randomBytes, randomUUID } from 'node:crypto';
import type {
  AccountWebhookDeliveriesPage,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
} from '@inlay/contract';
import { and, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import { rowAad, type Vault } from '../credentials/vault.ts';
import { invalid } from '../http/problem.ts';
import { webhookDeliveries, webhookEndpoints } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const endpointAad = (row: { accountId: string; id: string }) =>
  rowAad('webhook_endpoints', row.accountId, row.id);

/** A URL as it may be shown: a password in a stored URL is masked (creation refuses new ones). */
function shownUrl(raw: string): string {
  const url = URL.parse(raw);
  if (!url?.password) return raw;
  url.password = '****';
  return url.href;
}

export const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  webhookEndpointId: row.id,
  url: shownUrl(row.url),
  events: row.events as WebhookEvent[],
  createdAt: row.createdAt.toISOString(),
});

export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  deliveryId: row.id,
  event: row.event as WebhookEvent,
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  createdAt: row.createdAt.toISOString(),
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
});

/** A new endpoint with a fresh Standard Webhooks secret (`whsec_` + 24 random bytes), stored sealed. */
export async function createEndpoint(
  db: Db,
  vault: Vault,
  accountId: string,
  body: { url: string; events: WebhookEvent[] },
): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  await db.insert(webhookEndpoints).values({
    id,
    accountId,
    url: body.url,
    events: [...new Set(body.events)],
    secretSealed: vault.seal(secret, endpointAad({ accountId, id })),
    keyId: vault.keyId,
  });
  return { id, secret };
}

export async function findEndpoint(db: Db, accountId: string, id: string): Promise<EndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId)));
  return row;
}

export const listEndpoints = (db: Db, accountId: string) =>
  db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId))
    .orderBy(webhookEndpoints.createdAt);

export const listDeliveries = (db: Db, endpointId: string) =>
  db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.seq))
    .limit(100);

const STATUS_FILTERS: Record<'failing' | 'pending' | 'delivered' | 'failed', SQL | undefined> = {
  // As the partial index `webhook_deliveries_failing_idx` says it, so the planner can use it.
  failing: or(
    eq(webhookDeliveries.status, 'failed'),
    and(eq(webhookDeliveries.status, 'pending'), gt(webhookDeliveries.attempts, 0)),
  ),
  pending: eq(webhookDeliveries.status, 'pending'),
  delivered: eq(webhookDeliveries.status, 'delivered'),
  failed: eq(webhookDeliveries.status, 'failed'),
};

/** A keyset cursor: the last delivery's queue position, opaque to clients. */
const encodeCursor = (seq: number) => Buffer.from(`d${seq}`).toString('base64url');

function decodeCursor(cursor: string): number {
  const m = /^d(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw invalid('query.cursor', 'format', "cursor must be a previous page's nextCursor");
  return Number(m[1]);
}

/**
 * A page of the account's deliveries to all its endpoints (or one), newest first, with each one's endpoint URL:
 * one indexed query (`(account_id, seq)`, or `(endpoint_id, seq)` for one endpoint), not one per endpoint. The
 * keyset `seq < cursor` costs the same however deep the page. An endpoint of another account has no deliveries
 * here, as an unknown one.
 */
export async function listAccountDeliveries(
  db: Db,
  accountId: string,
  q: {
    status?: keyof typeof STATUS_FILTERS;
    webhookEndpointId?: string;
    cursor?: string;
    limit: number;
  },
): Promise<AccountWebhookDeliveriesPage> {
  const before = q.cursor ? decodeCursor(q.cursor) : undefined;
  const rows = await db
    .select({ d: webhookDeliveries, url: webhookEndpoints.url })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.accountId, accountId),
        q.webhookEndpointId ? eq(webhookDeliveries.endpointId, q.webhookEndpointId) : undefined,
        q.status ? STATUS_FILTERS[q.status] : undefined,
        before === undefined ? undefined : lt(webhookDeliveries.seq, before),
      ),
    )
    .orderBy(desc(webhookDeliveries.seq))
    // One more than the page: whether there is a next one.
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const data = page.map(({ d, url }) => ({ ...toDelivery(d), webhookEndpointId: d.endpointId, url }));
  const last = page.at(-1);
  return rows.length > q.limit && last ? { data, nextCursor: encodeCursor(last.d.seq) } : { data };
}

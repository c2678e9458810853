import { z } from 'zod';
import {
  CursorQuery,
  IsoDateTime,
  intQuery,
  keysetPage,
  LIMITS,
  listOf,
  MessageResponse,
  Uuid,
} from './common.ts';
import { defineOperations, idParams } from './operation.ts';

/** Events an account's webhook endpoints may subscribe to. */
export const WEBHOOK_EVENTS = [
  'credential.connected',
  'credential.needs_reconnect',
  'credential.deleted',
  'execution.failed',
  'installation.created',
  'installation.deleted',
  'installation.needs_credential',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const CreateWebhookEndpointBody = z
  .object({
    url: z
      .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
      .max(LIMITS.url)
      .meta({ description: 'Where deliveries are POSTed; it must pass the egress policy' }),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
  })
  .strict()
  .meta({ id: 'CreateWebhookEndpointBody' });
export type CreateWebhookEndpointBody = z.infer<typeof CreateWebhookEndpointBody>;

export const CreateWebhookEndpointResponse = z
  .object({
    webhookEndpointId: Uuid,
    secret: z.string().meta({
      description:
        'The Standard Webhooks signing secret (`whsec_…`), shown only in this answer: verify deliveries with it',
    }),
  })
  .meta({ id: 'CreateWebhookEndpointResponse' });
export type CreateWebhookEndpointResponse = z.infer<typeof CreateWebhookEndpointResponse>;

export const WebhookEndpoint = z
  .object({
    webhookEndpointId: Uuid,
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    createdAt: IsoDateTime,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookDelivery = z
  .object({
    deliveryId: z.string().meta({ description: 'Also the `webhook-id` header of every attempt' }),
    event: z.enum(WEBHOOK_EVENTS),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: IsoDateTime.nullable().meta({ description: 'When a pending delivery is tried next' }),
    createdAt: IsoDateTime,
    deliveredAt: IsoDateTime.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** Most deliveries one `GET /webhook-deliveries` returns. */
export const WEBHOOK_DELIVERIES_MAX = 100;

/** `failing`: failed for good, or still pending after a failed attempt (what needs looking at). */
export const WEBHOOK_DELIVERY_FILTERS = ['failing', 'pending', 'delivered', 'failed'] as const;

/** `GET /webhook-deliveries`: the latest deliveries to every endpoint of the account, in one request. */
export const WebhookDeliveriesQuery = z
  .object({
    status: z
      .enum(WEBHOOK_DELIVERY_FILTERS, {
        error: `status must be one of ${WEBHOOK_DELIVERY_FILTERS.join(', ')}`,
      })
      .optional()
      .meta({
        description:
          '`failing`: failed for good, or pending after at least one failed attempt; `pending`, `delivered`, `failed`: in that state. All by default',
      }),
    webhookEndpointId: Uuid.optional().meta({ description: "Only this endpoint's deliveries" }),
    cursor: CursorQuery,
    limit: intQuery('limit', 1, WEBHOOK_DELIVERIES_MAX, 50),
  })
  .strict();
export type WebhookDeliveriesQuery = z.input<typeof WebhookDeliveriesQuery>;

/** A delivery in the account-wide list: with the endpoint it goes to. */
export const AccountWebhookDelivery = WebhookDelivery.extend({
  webhookEndpointId: Uuid,
  url: z.string().meta({ description: "The endpoint's URL" }),
}).meta({ id: 'AccountWebhookDelivery' });
export type AccountWebhookDelivery = z.infer<typeof AccountWebhookDelivery>;

/** `GET /webhook-deliveries`: one page, newest first, by keyset. */
export const AccountWebhookDeliveriesPage = keysetPage(
  AccountWebhookDelivery,
  'AccountWebhookDeliveriesPage',
);
export type AccountWebhookDeliveriesPage = z.infer<typeof AccountWebhookDeliveriesPage>;

/** What every delivery's body holds: the event, when it happened, and the objects it names (never a secret). */
export const WebhookPayload = z
  .object({
    type: z.enum(WEBHOOK_EVENTS),
    timestamp: IsoDateTime,
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WebhookPayload' });
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/** The webhook operations of the REST API, keyed by operationId. */
export const webhookOperations = defineOperations({
  listWebhookEndpoints: {
    method: 'get',
    path: '/webhook-endpoints',
    summary: "The account's webhook endpoints (never their secrets)",
    tag: 'Webhooks',
    auth: 'key',
    ok: listOf(WebhookEndpoint),
  },
  createWebhookEndpoint: {
    method: 'post',
    path: '/webhook-endpoints',
    summary: 'Subscribe a URL to account events, signed per Standard Webhooks; the secret is shown once',
    tag: 'Webhooks',
    auth: 'key',
    body: CreateWebhookEndpointBody,
    ok: CreateWebhookEndpointResponse,
    status: '201',
    problems: {
      '409': 'The account has INLAY_MAX_WEBHOOK_ENDPOINTS endpoints already: delete one first',
      '422': 'The egress policy refuses the URL (`code: egress_denied`)',
    },
  },
  deleteWebhookEndpoint: {
    method: 'delete',
    path: '/webhook-endpoints/{webhookEndpointId}',
    summary: 'Delete a webhook endpoint and its queued deliveries',
    tag: 'Webhooks',
    auth: 'key',
    params: idParams('webhookEndpointId'),
    ok: MessageResponse,
  },
  listAccountWebhookDeliveries: {
    method: 'get',
    path: '/webhook-deliveries',
    summary:
      "The deliveries to every endpoint of the account (or one, `webhookEndpointId`), newest first, in one request (`status=failing`: those that need looking at); keyset pages (`cursor` is the previous page's `nextCursor`)",
    tag: 'Webhooks',
    auth: 'key',
    query: WebhookDeliveriesQuery,
    ok: AccountWebhookDeliveriesPage,
    notFound: false,
  },
  listWebhookDeliveries: {
    method: 'get',
    path: '/webhook-endpoints/{webhookEndpointId}/deliveries',
    summary: "An endpoint's latest 100 deliveries, newest first: attempts and statuses",
    tag: 'Webhooks',
    auth: 'key',
    params: idParams('webhookEndpointId'),
    ok: listOf(WebhookDelivery),
  },
});

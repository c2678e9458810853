import { z } from 'zod';
import { IsoDateTime, LIMITS, Uuid } from './common.ts';

/** Events an account's webhook endpoints may subscribe to. */
export const WEBHOOK_EVENTS = [
  'credential.connected',
  'credential.needs_reconnect',
  'credential.deleted',
  'execution.failed',
  'installation.created',
  'installation.deleted',
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

/** What every delivery's body holds: the event, when it happened, and the objects it names (never a secret). */
export const WebhookPayload = z
  .object({
    type: z.enum(WEBHOOK_EVENTS),
    timestamp: IsoDateTime,
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WebhookPayload' });
export type WebhookPayload = z.infer<typeof WebhookPayload>;

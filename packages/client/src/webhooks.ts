import type { WebhookPayload } from '@inlay/contract';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

const header = (h: HeaderBag, name: string): string => {
  const v = h instanceof Headers ? h.get(name) : h[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

/**
 * Verifies an Inlay account webhook (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) against the endpoint's `whsec_…` secret and returns its payload. `body` must be the
 * raw request body, byte for byte (verify before any JSON parsing). Throws `WebhookVerificationError` for
 * a wrong or missing signature, or a timestamp more than five minutes off.
 */
export function verifyWebhook(secret: string, body: string | Uint8Array, headers: HeaderBag): WebhookPayload {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(text, {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  }) as WebhookPayload;
}

import type { WebhookPayload } from '@inlay/contract';
import { WebhookVerificationError as LibraryError, Webhook } from 'standardwebhooks';

/**
 * A wrong or missing signature, or a stale timestamp. Our own class rather than standardwebhooks' re-exported:
 * that library's declarations need Node's `Buffer`, and this class is in the browser entry's types too.
 */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

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
  try {
    return new Webhook(secret).verify(text, {
      'webhook-id': header(headers, 'webhook-id'),
      'webhook-timestamp': header(headers, 'webhook-timestamp'),
      'webhook-signature': header(headers, 'webhook-signature'),
    }) as WebhookPayload;
  } catch (err) {
    if (err instanceof LibraryError) throw new WebhookVerificationError(err.message);
    throw err;
  }
}

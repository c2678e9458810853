import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SIGNATURE_SCHEMES } from '@inlay/contract';
import type { TriggerDelivery } from '../types.ts';

const equalHex = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

/** HMAC-SHA256 in hex over the parts in order: text as UTF-8, bytes as they are (a body is signed as sent). */
const hmacHex = (secret: string, ...parts: (string | Uint8Array)[]) => {
  const h = createHmac('sha256', secret);
  for (const p of parts) h.update(p);
  return h.digest('hex');
};

/** GitHub's `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body, hex>`. */
export function verifyGithubSignature(
  header: string | undefined,
  rawBody: string | Uint8Array,
  secret: string,
): boolean {
  if (!header?.startsWith('sha256=')) return false;
  return equalHex(header.slice(7), hmacHex(secret, rawBody));
}

/** Signs a body as GitHub does (tests, fakes). */
export const githubSignature = (rawBody: string | Uint8Array, secret: string) =>
  `sha256=${hmacHex(secret, rawBody)}`;

/** Stripe refuses deliveries older than this by default; so does Inlay (replays of a captured request). */
export const STRIPE_TOLERANCE_S = 300;

/**
 * Stripe's `Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.rawBody", hex>[,v1=...]`: any v1 may match
 * (secret rotation), and the timestamp must be within five minutes.
 */
export function verifyStripeSignature(
  header: string | undefined,
  rawBody: string | Uint8Array,
  secret: string,
  now = new Date(),
): boolean {
  if (!header) return false;
  let t: string | undefined;
  const sigs: string[] = [];
  for (const part of header.split(',')) {
    const [k, v] = part.split('=', 2).map((s) => s.trim());
    if (k === 't') t = v;
    else if (k === 'v1' && v) sigs.push(v);
  }
  if (!t || !/^\d+$/.test(t) || sigs.length === 0) return false;
  if (Math.abs(now.getTime() / 1000 - Number(t)) > STRIPE_TOLERANCE_S) return false;
  const expected = hmacHex(secret, `${t}.`, rawBody);
  return sigs.some((s) => equalHex(s, expected));
}

/** Signs a body as Stripe does (tests, fakes). */
export const stripeSignature = (rawBody: string | Uint8Array, secret: string, at = new Date()) => {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${hmacHex(secret, `${t}.`, rawBody)}`;
};

/**
 * The signature checks by the name a declarative webhook trigger gives (`"signature": "github"`); the
 * built-ins use the same ones, so a connector written as data verifies exactly as the TypeScript one does.
 */
export const signatureVerifiers: Record<
  (typeof SIGNATURE_SCHEMES)[number],
  (delivery: TriggerDelivery, secret: string, now: Date) => boolean
> = {
  github: (d, secret) => verifyGithubSignature(d.headers['x-hub-signature-256'], d.rawBody, secret),
  stripe: (d, secret, now) => verifyStripeSignature(d.headers['stripe-signature'], d.rawBody, secret, now),
};

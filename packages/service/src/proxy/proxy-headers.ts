import type { IncomingHttpHeaders } from 'node:http';
import { requestHeaderProblem } from '@inlay/connectors';
import { hopByHop, PROXY_WITHHELD_RESPONSE_HEADERS } from '@inlay/contract';

/**
 * Request headers that are Inlay's or the caller's own and never go on: Inlay's credentials and controls,
 * the caller's cookies and origin, forwarding metadata, and framing the transport sets itself.
 */
const NOT_FORWARDED = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  // The body is read (and inflated) here, then sent as it is.
  'content-encoding',
  'accept-encoding',
  'origin',
  'referer',
  'user-agent',
  'forwarded',
  'via',
  'x-real-ip',
  'x-api-version',
  'x-request-id',
  'expect',
]);

/**
 * Provider answer headers that must not reach the caller: cookies, CORS, transport policy and what acts on the
 * relaying origin are Inlay's (PROXY_WITHHELD_RESPONSE_HEADERS).
 */
const NOT_RETURNED = new Set([
  ...PROXY_WITHHELD_RESPONSE_HEADERS,
  'strict-transport-security',
  'alt-svc',
  'server',
  'x-powered-by',
  'www-authenticate',
]);

/** What of the caller's headers goes to the provider. */
export function forwardedRequestHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const isHop = hopByHop(h.connection);
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(h)) {
    if (raw === undefined) continue;
    const lower = name.toLowerCase();
    if (isHop(lower) || NOT_FORWARDED.has(lower)) continue;
    if (lower.startsWith('x-inlay-') || lower.startsWith('x-forwarded-') || lower.startsWith('sec-'))
      continue;
    if (lower.startsWith('access-control-')) continue;
    const value = [raw].flat().join(', ');
    if (requestHeaderProblem(lower, value)) continue;
    out[lower] = value;
  }
  return out;
}

/** What of the provider's answer headers goes back to the caller. */
export function returnedResponseHeaders(h: Record<string, string>): Record<string, string> {
  const isHop = hopByHop(h.connection);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h)) {
    const lower = name.toLowerCase();
    if (isHop(lower) || NOT_RETURNED.has(lower)) continue;
    if (lower.startsWith('access-control-') || lower.startsWith('x-inlay-')) continue;
    out[lower] = value;
  }
  return out;
}

import { hopByHop } from '@inlay/contract';

/** Headers never forwarded upstream: the host's own credentials and what the transport computes itself. */
const HOST_PRIVATE = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  'x-inlay-userid',
  'x-inlay-user-token',
  // fetch refuses these on a request; they describe the host's connection, not the call.
  'expect',
]);

/**
 * Never passed back: the host's cookies are its own, and the service's CORS answer (`*`) would speak for the
 * host's origin, which sets its own policy.
 */
const UPSTREAM_PRIVATE = new Set(['set-cookie', 'set-cookie2']);
const isUpstreamPrivate = (name: string) => UPSTREAM_PRIVATE.has(name) || name.startsWith('access-control-');

/** The host request's headers minus hop-by-hop ones (including any `Connection` names) and host credentials. */
export function upstreamRequestHeaders(incoming: Headers): Headers {
  const isHop = hopByHop(incoming.get('connection'));
  const out = new Headers();
  for (const [name, value] of incoming) {
    if (isHop(name) || HOST_PRIVATE.has(name)) continue;
    out.append(name, value);
  }
  return out;
}

/**
 * The upstream answer's headers to pass back: hop-by-hop ones, `Set-Cookie` and `Access-Control-*` dropped.
 * Through fetch, which decodes the body and streams it on in chunks, the length and encoding go too; a Node
 * request passes the bytes as sent, so they stay (and the answer needs no chunked framing).
 */
export function downstreamResponseHeaders(
  upstream: Headers,
  /** `Set-Cookie` lines to pass back after all (the OAuth start link's own cookie); none by default. */
  keepCookie?: (line: string) => boolean,
  /** Whether the body is decoded on the way (default true, as fetch does). */
  decoding = true,
): Headers {
  const isHop = hopByHop(upstream.get('connection'));
  const out = new Headers();
  for (const [name, value] of upstream) {
    if (isHop(name) || isUpstreamPrivate(name)) continue;
    if (decoding && (name === 'content-encoding' || name === 'content-length')) continue;
    out.append(name, value);
  }
  if (keepCookie)
    for (const line of upstream.getSetCookie()) if (keepCookie(line)) out.append('set-cookie', line);
  return out;
}

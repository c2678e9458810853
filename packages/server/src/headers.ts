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
 * The upstream answer's headers to pass back: hop-by-hop ones, `Set-Cookie` and `Access-Control-*` dropped, and
 * the length and encoding, as fetch has decoded the body and it is streamed on in chunks.
 */
export function downstreamResponseHeaders(
  upstream: Headers,
  /** `Set-Cookie` lines to pass back after all (the OAuth start link's own cookie); none by default. */
  keepCookie?: (line: string) => boolean,
): Headers {
  const isHop = hopByHop(upstream.get('connection'));
  const out = new Headers();
  for (const [name, value] of upstream) {
    if (isHop(name) || isUpstreamPrivate(name)) continue;
    if (name === 'content-length' || name === 'content-encoding') continue;
    out.append(name, value);
  }
  if (keepCookie)
    for (const line of upstream.getSetCookie()) if (keepCookie(line)) out.append('set-cookie', line);
  return out;
}

import type { IncomingHttpHeaders } from 'node:http';
import { hopByHop } from '@inlay/contract';

/** Headers never forwarded upstream: the host's own credentials and what the transport computes itself. */
const HOST_PRIVATE = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  'x-inlay-userid',
  'x-inlay-user-token',
]);

/**
 * Never passed back: the host's cookies are its own, and the service's CORS answer (`*`) would speak for the
 * host's origin, which sets its own policy.
 */
const UPSTREAM_PRIVATE = new Set(['set-cookie', 'set-cookie2']);
const isUpstreamPrivate = (name: string) => UPSTREAM_PRIVATE.has(name) || name.startsWith('access-control-');

export type HeaderMap = Record<string, string | string[]>;

/** The host request's headers minus hop-by-hop ones (including any `Connection` names) and host credentials. */
export function upstreamRequestHeaders(incoming: IncomingHttpHeaders): HeaderMap {
  const isHop = hopByHop(incoming.connection);
  const out: HeaderMap = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || isHop(name) || HOST_PRIVATE.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/**
 * The upstream answer's headers to pass back: hop-by-hop ones, `Set-Cookie` and `Access-Control-*` dropped, and the length, as
 * the body is streamed on in chunks. `decoded` says the transport has already decoded the body (fetch), so
 * its encoding no longer describes it.
 */
export function downstreamResponseHeaders(
  upstream: Iterable<[string, string | string[] | undefined]>,
  connection: string | string[] | null | undefined,
  decoded: boolean,
  /** `Set-Cookie` lines to pass back after all (the OAuth start link's own cookie); none by default. */
  keepCookie?: (line: string) => boolean,
): [string, string | string[]][] {
  const isHop = hopByHop(connection);
  const out: [string, string | string[]][] = [];
  const cookies: string[] = [];
  for (const [name, value] of upstream) {
    if (name === 'set-cookie' && keepCookie && value !== undefined) {
      cookies.push(...(Array.isArray(value) ? value : [value]).filter(keepCookie));
      continue;
    }
    if (value === undefined || isHop(name) || isUpstreamPrivate(name)) continue;
    if (name === 'content-length' || (decoded && name === 'content-encoding')) continue;
    out.push([name, value]);
  }
  if (cookies.length) out.push(['set-cookie', cookies]);
  return out;
}

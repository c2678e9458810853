import type { IncomingHttpHeaders } from 'node:http';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Headers never forwarded upstream: the host's own credentials and what fetch computes itself. */
const HOST_PRIVATE = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  'x-inlay-userid',
  'x-inlay-user-token',
]);

/** Hop-by-hop headers, including any the `Connection` header names, must not cross a proxy. */
function hopByHop(connection: string | string[] | null | undefined): Set<string> {
  const named = (Array.isArray(connection) ? connection.join(',') : (connection ?? ''))
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return new Set([...HOP_BY_HOP, ...named]);
}

export function upstreamRequestHeaders(incoming: IncomingHttpHeaders): Headers {
  const drop = hopByHop(incoming.connection);
  const out = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || drop.has(name) || HOST_PRIVATE.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}

export function downstreamResponseHeaders(upstream: Headers): [string, string][] {
  const drop = hopByHop(upstream.get('connection'));
  // fetch has already decoded the body, so length and encoding no longer describe what we send.
  for (const h of ['content-length', 'content-encoding', 'set-cookie']) drop.add(h);
  return [...upstream.entries()].filter(([name]) => !drop.has(name));
}

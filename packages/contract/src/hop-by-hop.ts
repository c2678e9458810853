/**
 * Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, never the message, so a proxy never
 * passes them on. Shared by the service's connector proxy and @inlay/express, which both relay messages.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
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

/**
 * Whether a header is hop-by-hop for one message: a standard one, or a name its `Connection` header lists.
 * `connection` is that header's value (Node gives a string or a list, fetch a string or null); the answer
 * takes a lower-case header name.
 */
export function hopByHop(connection: string | string[] | null | undefined): (name: string) => boolean {
  let listed: Set<string> | undefined;
  for (const h of [connection ?? []].flat().join(',').split(',')) {
    const name = h.trim().toLowerCase();
    if (!name || HOP_BY_HOP_HEADERS.has(name)) continue;
    listed ??= new Set();
    listed.add(name);
  }
  return listed ? (name) => HOP_BY_HOP_HEADERS.has(name) || listed.has(name) : isStandardHopByHop;
}

const isStandardHopByHop = (name: string) => HOP_BY_HOP_HEADERS.has(name);

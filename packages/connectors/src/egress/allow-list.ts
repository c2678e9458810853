import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { type Address, parseAddress, unmapped } from './address-rules.ts';

/**
 * One entry of `INLAY_EGRESS_ALLOW`: a hostname (`*.` opens its subdomains), an address or CIDR, each
 * optionally with a port (`host:8443`, `10.0.0.5:8080`, `[fd00::5]:8080`).
 */
export type EgressAllowEntry =
  | { kind: 'host'; host: string; wildcard: boolean; port?: number; source: string }
  | { kind: 'cidr'; range: [Address, number]; port?: number; source: string };

export class EgressAllowError extends Error {
  override name = 'EgressAllowError';
  constructor(
    readonly entry: string,
    readonly reason: string,
  ) {
    super(`"${entry}" ${reason}`);
  }
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function parsePort(raw: string, entry: string): number {
  const port = Number(raw);
  if (!/^\d{1,5}$/.test(raw) || port < 1 || port > 65535)
    throw new EgressAllowError(entry, 'has a port that is not a number from 1 to 65535');
  return port;
}

function parseEntry(source: string): EgressAllowEntry {
  let rest = source;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(rest);
  if (bracketed) {
    rest = bracketed[1]!;
    if (bracketed[2] !== undefined) port = parsePort(bracketed[2], source);
  } else if ((rest.match(/:/g) ?? []).length === 1) {
    const at = rest.lastIndexOf(':');
    port = parsePort(rest.slice(at + 1), source);
    rest = rest.slice(0, at);
  }
  if (rest.includes('/')) {
    const [addr, bits] = rest.split('/') as [string, string];
    if (!isIP(addr) || !/^\d{1,3}$/.test(bits) || !ipaddr.isValidCIDR(rest))
      throw new EgressAllowError(source, 'is not a valid CIDR (for example 10.0.0.0/8 or fd00::/8)');
    const [net, prefix] = ipaddr.parseCIDR(rest);
    return { kind: 'cidr', range: [net, prefix], port, source };
  }
  const address = parseAddress(rest);
  if (address) {
    const single = unmapped(address);
    return { kind: 'cidr', range: [single, single.kind() === 'ipv4' ? 32 : 128], port, source };
  }
  const wildcard = rest.startsWith('*.');
  const host = (wildcard ? rest.slice(2) : rest).toLowerCase().replace(/\.$/, '');
  // Digits-only names are addresses in other spellings (`127.1`): write the address instead.
  if (!host.split('.').every((l) => LABEL.test(l)) || /^[\d.]+$/.test(host) || host.length > 253)
    throw new EgressAllowError(
      source,
      'is not a hostname, an IP address, a CIDR or one of them with :port (for example api.internal.example, *.svc.cluster.local, 10.0.0.0/8, 10.0.0.5:8080, [fd00::5]:8080)',
    );
  return { kind: 'host', host, wildcard, port, source };
}

/** Parses `INLAY_EGRESS_ALLOW` (comma- or whitespace-separated); throws EgressAllowError naming the first bad entry. */
export function parseEgressAllow(value: string | undefined): EgressAllowEntry[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(parseEntry);
}

const portMatches = (e: EgressAllowEntry, port: number) => e.port === undefined || e.port === port;

/** Whether a hostname (as the URL names it) is opened by a hostname entry. */
export function allowsHost(entries: readonly EgressAllowEntry[], hostname: string, port: number): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return entries.some(
    (e) =>
      e.kind === 'host' && portMatches(e, port) && (e.wildcard ? h.endsWith(`.${e.host}`) : h === e.host),
  );
}

/** Whether an address is opened by an address or CIDR entry. */
export function allowsAddress(entries: readonly EgressAllowEntry[], address: Address, port: number): boolean {
  const a = unmapped(address);
  return entries.some(
    (e) => e.kind === 'cidr' && portMatches(e, port) && e.range[0].kind() === a.kind() && a.match(e.range),
  );
}

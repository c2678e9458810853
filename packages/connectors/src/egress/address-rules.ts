import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Why an address is refused: the rule's name, words for people, and the range it matched. */
export interface AddressRefusal {
  rule: string;
  label: string;
  /** The CIDR that matched, e.g. `127.0.0.0/8`. */
  range: string;
  /** How the IPv4 address was wrapped when it came as IPv6 (`IPv4-mapped`, `NAT64`, ...). */
  via?: string;
}

/** The ranges the policy names in its messages; anything else that is not public unicast is refused too. */
const NAMED: readonly [rule: string, label: string, cidrs: readonly string[]][] = [
  ['loopback', 'loopback', ['127.0.0.0/8', '::1/128']],
  ['unspecified', 'unspecified ("this network")', ['0.0.0.0/8', '::/128']],
  ['private', 'private (RFC 1918)', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['carrierGradeNat', 'shared address space (RFC 6598, carrier-grade NAT)', ['100.64.0.0/10']],
  ['linkLocal', 'link-local', ['169.254.0.0/16', 'fe80::/10']],
  ['uniqueLocal', 'unique local (RFC 4193)', ['fc00::/7']],
  ['multicast', 'multicast', ['224.0.0.0/4', 'ff00::/8']],
  ['broadcast', 'broadcast', ['255.255.255.255/32']],
  ['reserved', 'reserved (future use)', ['240.0.0.0/4']],
  ['siteLocal', 'site-local (deprecated)', ['fec0::/10']],
];

const RANGES = NAMED.flatMap(([rule, label, cidrs]) =>
  cidrs.map((cidr) => ({ rule, label, cidr, parsed: ipaddr.parseCIDR(cidr) })),
);

/** IPv6 forms that carry an IPv4 address, and where: the policy judges the IPv4 address inside. */
const bytes = (a: ipaddr.IPv6, from: number) =>
  ipaddr.fromByteArray(a.toByteArray().slice(from, from + 4)) as ipaddr.IPv4;
const EMBEDDING: readonly [range: string, via: string, at: (a: ipaddr.IPv6) => ipaddr.IPv4][] = [
  ['ipv4Mapped', 'IPv4-mapped', (a) => bytes(a, 12)],
  ['rfc6145', 'IPv4-translated', (a) => bytes(a, 12)],
  // 64:ff9b::/96 carries it last; the local-use 64:ff9b:1::/48 may too (RFC 8215 leaves the layout open).
  ['rfc6052', 'NAT64', (a) => bytes(a, 12)],
  ['6to4', '6to4', (a) => bytes(a, 2)],
];

/**
 * Parses an address as the resolver or a URL gives it (`[::1]`, `::ffff:127.0.0.1`, `fe80::1%eth0`). Only
 * the forms `net` itself connects to without a lookup count: `127.1` or `0x7f000001` are hostnames here (a
 * URL has already turned them into dotted quads).
 */
export function parseAddress(address: string): Address | undefined {
  let bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (!family) return undefined;
  // ipaddr.js reads `::127.0.0.1` as `::ffff:127.0.0.1`; the URL parser writes dotted tails as hex first.
  if (family === 6 && bare.includes('.')) bare = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  return ipaddr.parse(bare);
}

/** The IPv4 address an IPv6 one stands for (mapped, translated, NAT64, 6to4, IPv4-compatible), if any. */
export function embeddedIPv4(a: Address): { v4: ipaddr.IPv4; via: string } | undefined {
  if (a.kind() === 'ipv4') return undefined;
  const v6 = a as ipaddr.IPv6;
  const range = v6.range();
  for (const [name, via, at] of EMBEDDING) if (range === name) return { v4: at(v6), via };
  // `::a.b.c.d` (RFC 4291 "IPv4-compatible", deprecated): ipaddr.js calls it unicast.
  if (v6.parts.slice(0, 6).every((p) => p === 0) && range !== 'unspecified' && range !== 'loopback')
    return { v4: bytes(v6, 12), via: 'IPv4-compatible' };
  return undefined;
}

function judge(a: Address): AddressRefusal | undefined {
  for (const r of RANGES)
    if (r.parsed[0].kind() === a.kind() && a.match(r.parsed))
      return { rule: r.rule, label: r.label, range: r.cidr };
  const range = a.range();
  if (range === 'unicast') return undefined;
  return { rule: range, label: `special-purpose (${range})`, range };
}

/**
 * Whether the egress policy refuses an address by default: anything that is not public unicast, named
 * ranges first (loopback, 0.0.0.0/8, RFC 1918, 100.64.0.0/10, link-local, fc00::/7, multicast, ...). An
 * IPv6 address that carries an IPv4 one is judged by that IPv4 address; the deprecated IPv4-compatible
 * form (`::a.b.c.d`) and Teredo are refused whatever they carry. Undefined means allowed.
 */
export function classifyAddress(address: string | Address): AddressRefusal | undefined {
  const a = typeof address === 'string' ? parseAddress(address) : address;
  if (!a) return { rule: 'invalid', label: 'not an IP address', range: String(address) };
  const inner = embeddedIPv4(a);
  if (inner) {
    const refused = judge(inner.v4);
    if (refused) return { ...refused, via: inner.via };
    if (inner.via === 'IPv4-compatible')
      return { rule: 'ipv4Compatible', label: 'IPv4-compatible IPv6 (deprecated)', range: '::/96' };
    return undefined;
  }
  return judge(a);
}

/** `a` as IPv4 when it is an IPv4-mapped IPv6 address (what a dual-stack resolver may return), else as is. */
export function unmapped(a: Address): Address {
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()
    ? (a as ipaddr.IPv6).toIPv4Address()
    : a;
}

export type { Address };

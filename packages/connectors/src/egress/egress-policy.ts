import dns, { type LookupAddress, type LookupAllOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type AddressRefusal, classifyAddress, parseAddress } from './address-rules.ts';
import { allowsAddress, allowsHost, type EgressAllowEntry, parseEgressAllow } from './allow-list.ts';
import { EgressDenied } from './egress-denied.ts';

/** Resolves a hostname to every address, as `dns.lookup(host, {all: true})` does. */
export type Resolve = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface EgressPolicyOptions {
  /** Targets opened despite the address rules: parsed entries or the `INLAY_EGRESS_ALLOW` text. */
  allow?: readonly EgressAllowEntry[] | string;
  /** The resolver; `dns.lookup` by default. Tests map names to loopback with it. */
  resolve?: Resolve;
}

/** Options for `http.request` / `https.request` that carry a request through the policy. */
export interface EgressConnectOptions {
  agent: http.Agent;
  lookup: LookupFunction;
}

const defaultResolve: Resolve = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/** The port a URL connects to: its own, else its scheme's. */
export const effectivePort = (url: URL) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/** `in 127.0.0.0/8 (loopback)`, `IPv4-mapped, in 10.0.0.0/8 (private (RFC 1918))`, ... */
const where = (r: AddressRefusal) => {
  const range = r.range.includes('/') ? `in ${r.range} (${r.label})` : `in a ${r.label} range`;
  return r.via ? `${r.via}, ${range}` : range;
};

/**
 * The one egress policy every outbound request passes. Only http(s) leaves; and unless a target is opened
 * by the allow-list or is a URL the operator configured (`trusted`), every address the request would
 * connect to must be public unicast. Addresses are judged where they are used: an IP literal before the
 * request, a hostname inside the socket's own `lookup`, so the address checked is the address connected
 * to (no gap for DNS rebinding), at every redirect hop since each hop connects anew. Kept-alive sockets
 * are reused without another lookup; guarded and trusted requests never share a socket.
 */
export class EgressPolicy {
  readonly allow: readonly EgressAllowEntry[];
  readonly #resolve: Resolve;
  #agents?: Record<'trusted' | 'guarded', { 'http:': http.Agent; 'https:': https.Agent }>;

  constructor(opts: EgressPolicyOptions = {}) {
    this.allow = typeof opts.allow === 'string' ? parseEgressAllow(opts.allow) : (opts.allow ?? []);
    this.#resolve = opts.resolve ?? defaultResolve;
  }

  /**
   * Refuses a URL whose scheme is not http(s), or whose host is an IP address the policy refuses; a
   * hostname is judged later, when the socket resolves it. Throws EgressDenied.
   */
  check(url: URL, opts: { trusted?: boolean } = {}): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new EgressDenied(
        url.host || url.href,
        'scheme',
        `only http and https may be used, not ${url.protocol.replace(/:$/, '')}`,
      );
    if (opts.trusted) return;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!parseAddress(host)) return;
    const refusal = this.refusal(host, effectivePort(url));
    if (refusal) throw new EgressDenied(host, refusal.rule, `the address is ${where(refusal)}`);
  }

  /**
   * Why a request to `address` on `port` is refused (undefined: it is not). The allow-list's address and
   * CIDR entries open what the rules would refuse.
   */
  refusal(address: string, port: number): AddressRefusal | undefined {
    const a = parseAddress(address);
    if (!a) return classifyAddress(address);
    if (allowsAddress(this.allow, a, port)) return undefined;
    return classifyAddress(a);
  }

  /**
   * The agent and lookup for one request to `url`, after `check`. Pass them to `http.request` /
   * `https.request` (a streaming caller such as a proxy does); the lookup refuses, with EgressDenied, a
   * hostname that resolves to any refused address.
   */
  connectOptions(url: URL, opts: { trusted?: boolean } = {}): EgressConnectOptions {
    this.check(url, opts);
    const protocol = url.protocol as 'http:' | 'https:';
    const port = effectivePort(url);
    const open = opts.trusted || allowsHost(this.allow, url.hostname, port);
    return {
      agent: this.#agentsFor(opts.trusted ? 'trusted' : 'guarded')[protocol],
      lookup: this.#lookup(url.hostname, open ? undefined : port),
    };
  }

  /** Closes the kept-alive sockets. */
  close(): void {
    for (const set of Object.values(this.#agents ?? {})) for (const a of Object.values(set)) a.destroy();
    this.#agents = undefined;
  }

  #agentsFor(kind: 'trusted' | 'guarded') {
    // Kept-alive connections, closed after 4 s idle: servers commonly close theirs after 5.
    const make = () => ({
      'http:': new http.Agent({ keepAlive: true, timeout: 4_000 }),
      'https:': new https.Agent({ keepAlive: true, timeout: 4_000 }),
    });
    this.#agents ??= { trusted: make(), guarded: make() };
    return this.#agents[kind];
  }

  /** A lookup that resolves with the policy's resolver and, given a port, refuses any refused address. */
  #lookup(host: string, port: number | undefined): LookupFunction {
    const lookup = (
      hostname: string,
      options: { family?: number | string; hints?: number; all?: boolean },
      callback: (...args: unknown[]) => void,
    ) => {
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      this.#resolve(hostname, { all: true, family: family as number, hints: options.hints }, (err, all) => {
        if (err) return callback(err);
        if (!all.length)
          return callback(
            Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
          );
        if (port !== undefined)
          for (const { address } of all) {
            const refusal = this.refusal(address, port);
            if (refusal)
              return callback(
                new EgressDenied(host, refusal.rule, `it resolves to an address ${where(refusal)}`),
              );
          }
        if (options.all) callback(null, all);
        else callback(null, all[0]!.address, all[0]!.family);
      });
    };
    return lookup as unknown as LookupFunction;
  }
}

import dc from 'node:diagnostics_channel';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, isIP, type Socket } from 'node:net';
import type { Resolve } from '@inlay/connectors';
import ipaddr from 'ipaddr.js';
import { expect } from 'vitest';

/**
 * The SSRF matrix's parts, shared by every entry point that sends a request somewhere a user, an agent or
 * an anonymous sender chose (the connectors' own tests, the service's REST, MCP and webhook paths, and
 * later the proxy and custom connectors): the loopback forms, the internal forms, a canary, a test
 * resolver and a connection guard.
 */

/** One way to write the address of a target: the host as it appears in a URL, and the port. */
export interface SsrfForm {
  name: string;
  /** As written in a URL, e.g. `127.1`, `0x7f000001`, `[::ffff:127.0.0.1]`. */
  host: string;
  port: number;
  /** The whole URL (`http://<host>:<port>/ssrf`). */
  url: string;
}

/** Names the test resolver maps: one to loopback, one to each internal address. */
export const REBIND_NAME = 'loopback.ssrf.test';
export const INTERNAL_NAMES: Record<string, string> = {
  'private.ssrf.test': '10.0.0.1',
  'metadata.ssrf.test': '169.254.169.254',
  'cgnat.ssrf.test': '100.64.0.1',
};

/** The loopback spellings the policy must refuse, each aimed at the canary, plus a redirect to it. */
export function loopbackForms(canaryPort: number, redirectorUrl: string): SsrfForm[] {
  const hosts = [
    '127.0.0.1',
    '127.1',
    '2130706433',
    '0x7f000001',
    '0.0.0.0',
    'localhost',
    '[::1]',
    '[::ffff:127.0.0.1]',
    REBIND_NAME,
  ];
  const forms = hosts.map((host) => ({
    name: host === REBIND_NAME ? `${host} (resolves to 127.0.0.1)` : host,
    host,
    port: canaryPort,
    url: `http://${host}:${canaryPort}/ssrf`,
  }));
  const r = new URL(redirectorUrl);
  forms.push({
    name: '302 from an allowed host to 127.0.0.1',
    host: r.hostname,
    port: Number(r.port),
    url: `${redirectorUrl}/ssrf`,
  });
  return forms;
}

/**
 * Internal (non-loopback) targets: literal addresses and names resolving to them. Never connected to; a
 * test asserts the refusal and that the guard saw no attempt. Port 80, as a metadata endpoint listens.
 */
export function internalForms(): SsrfForm[] {
  const hosts = [...Object.values(INTERNAL_NAMES), ...Object.keys(INTERNAL_NAMES)];
  return hosts.map((host) => ({
    name: INTERNAL_NAMES[host] ? `${host} (resolves to ${INTERNAL_NAMES[host]})` : host,
    host,
    port: 80,
    url: `http://${host}/latest/meta-data/`,
  }));
}

/**
 * A resolver for tests that never asks real DNS: the names it is given, `localhost`, and ENOTFOUND for
 * every other name.
 */
export function testResolver(names: Record<string, string | string[]> = {}): Resolve & { calls: string[] } {
  const table: Record<string, string[]> = {
    localhost: ['127.0.0.1', '::1'],
    [REBIND_NAME]: ['127.0.0.1'],
    ...Object.fromEntries(Object.entries(INTERNAL_NAMES).map(([k, v]) => [k, [v]])),
    ...Object.fromEntries(Object.entries(names).map(([k, v]) => [k, [v].flat()])),
  };
  const calls: string[] = [];
  const resolve = ((hostname, _options, callback) => {
    calls.push(hostname);
    const addresses = table[hostname.toLowerCase()];
    setImmediate(() => {
      if (!addresses)
        return callback(
          Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }),
          [],
        );
      callback(
        null,
        addresses.map((address): LookupAddress => ({ address, family: isIP(address) })),
      );
    });
  }) as Resolve & { calls: string[] };
  resolve.calls = calls;
  return resolve;
}

/** A server on 127.0.0.1 that counts every TCP connection made to it. */
export async function startCanary() {
  let connections = 0;
  const server: Server = createServer((_req, res) => res.end('canary'));
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A server on 127.0.0.1 that answers every request with `302 Location: <to>`. */
export async function startRedirector(to: string) {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(302, { location: to }).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return hits;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const isLoopback = (address: string) => {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  if (!isIP(bare)) return false;
  let a = ipaddr.parse(bare);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  return a.range() === 'loopback';
};

/**
 * Watches every client socket this process opens (`net.client.socket`) and records each connection
 * attempt. It is also the last line of defence should the policy fail: a socket bound for a literal
 * non-loopback address, or whose lookup answers one, is stopped before it connects (recorded in
 * `blocked`), so a broken policy fails the test instead of sending traffic off the machine.
 */
export function connectionGuard() {
  const attempts: { address: string; port: number }[] = [];
  const blocked: string[] = [];
  const refuse = (what: string) => {
    blocked.push(what);
    return Object.assign(new Error(`connection guard: ${what} is not loopback`), { code: 'EGUARD' });
  };
  const onSocket = ({ socket }: { socket: Socket }) => {
    socket.on('connectionAttempt', (address: string, port: number) => attempts.push({ address, port }));
    socket.on('connect', () => {
      if (socket.remoteAddress && !isLoopback(socket.remoteAddress)) {
        blocked.push(`connected to ${socket.remoteAddress}`);
        socket.destroy();
      }
    });
    const connect = socket.connect;
    socket.connect = function guarded(this: Socket, ...args: unknown[]) {
      const normalized = args[0];
      const options = (Array.isArray(normalized) ? normalized[0] : normalized) as {
        host?: string;
        lookup?: (...a: any[]) => void;
        path?: string;
      };
      if (options && typeof options === 'object' && !options.path) {
        const host = options.host ?? 'localhost';
        if (isIP(host) && !isLoopback(host)) {
          const err = refuse(host);
          options.host = 'guard.invalid';
          options.lookup = (_h, _o, cb) => cb(err);
        } else if (!isIP(host)) {
          const inner = options.lookup;
          options.lookup = (h: string, o: any, cb: (...r: any[]) => void) => {
            const check = (err: Error | null, address: any, family?: number) => {
              if (err) return cb(err);
              const all: string[] = Array.isArray(address) ? address.map((a) => a.address) : [address];
              const bad = all.find((a) => !isLoopback(a));
              if (bad) return cb(refuse(`${h} -> ${bad}`));
              cb(null, address, family);
            };
            if (inner) inner(h, o, check);
            else import('node:dns').then((dns) => dns.lookup(h, o, check));
          };
        }
      }
      return (connect as (...a: unknown[]) => Socket).apply(this, args);
    } as Socket['connect'];
  };
  dc.subscribe('net.client.socket', onSocket as (m: unknown) => void);
  return {
    attempts,
    blocked,
    /** Attempts that went to `port` on any address. */
    attemptsTo: (port: number) => attempts.filter((a) => a.port === port).length,
    /** Attempts to an address (any port). */
    attemptsAt: (address: string) => attempts.filter((a) => a.address === address).length,
    stop: () => dc.unsubscribe('net.client.socket', onSocket as (m: unknown) => void),
  };
}

/** What a caller saw when an entry point refused a target. */
export interface SsrfOutcome {
  /** The stable code: a step error's, a problem's, or a ConnectorError's. */
  code: string;
  message: string;
}

/**
 * One way a user, an agent or an anonymous sender can make Inlay send a request (an MCP action, a webhook
 * run, an option source, later the proxy and custom connectors). `attempt` aims it at the form's target
 * and returns what the caller saw; it must not throw for a refusal.
 */
export interface SsrfEntryPoint {
  name: string;
  attempt(form: SsrfForm): Promise<SsrfOutcome>;
  /** The code this entry point answers for a form; `egress_denied` unless its own input rules refuse first. */
  expectedCode?(form: SsrfForm): string;
}

/**
 * Runs every form through an entry point and asserts each is refused with the expected code, the message
 * naming the host, while the canary sees no connection and the guard sees no attempt at an internal
 * address. Returns the number of cases run.
 */
export async function runSsrfMatrix(
  entry: SsrfEntryPoint,
  forms: SsrfForm[],
  watch: { canary: { connections: number; port: number }; guard: ReturnType<typeof connectionGuard> },
): Promise<number> {
  for (const form of forms) {
    const before = watch.guard.attempts.length;
    const out = await entry.attempt(form);
    const where = `${entry.name} × ${form.name}`;
    const code = entry.expectedCode?.(form) ?? 'egress_denied';
    expect(out.code, `${where}: ${out.message}`).toBe(code);
    if (code === 'egress_denied') expect(out.message, where).toMatch(/The egress policy refused \S+: /);
    expect(watch.canary.connections, where).toBe(0);
    expect(watch.guard.attemptsTo(watch.canary.port), where).toBe(0);
    const internal = watch.guard.attempts.slice(before).filter((a) => !isLoopback(a.address));
    expect(internal, where).toEqual([]);
  }
  expect(watch.guard.blocked).toEqual([]);
  return forms.length;
}

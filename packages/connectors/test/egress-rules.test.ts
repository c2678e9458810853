import { describe, expect, it } from 'vitest';
import { classifyAddress, parseAddress } from '../src/egress/address-rules.ts';
import { allowsAddress, allowsHost, parseEgressAllow } from '../src/egress/allow-list.ts';
import { parseCredentialOrigins } from '../src/egress/credential-origins.ts';
import { requestHeaderProblem } from '../src/egress/request-headers.ts';

/** [address, rule, range] the classifier must refuse: both ends of every range, v4 and v6. */
const REFUSED: [string, string, string][] = [
  ['127.0.0.1', 'loopback', '127.0.0.0/8'],
  ['127.255.255.254', 'loopback', '127.0.0.0/8'],
  ['::1', 'loopback', '::1/128'],
  ['0.0.0.0', 'unspecified', '0.0.0.0/8'],
  ['0.255.255.255', 'unspecified', '0.0.0.0/8'],
  ['::', 'unspecified', '::/128'],
  ['10.0.0.0', 'private', '10.0.0.0/8'],
  ['10.255.255.255', 'private', '10.0.0.0/8'],
  ['172.16.0.0', 'private', '172.16.0.0/12'],
  ['172.31.255.255', 'private', '172.16.0.0/12'],
  ['192.168.0.1', 'private', '192.168.0.0/16'],
  ['192.168.255.255', 'private', '192.168.0.0/16'],
  ['100.64.0.0', 'carrierGradeNat', '100.64.0.0/10'],
  ['100.127.255.255', 'carrierGradeNat', '100.64.0.0/10'],
  ['169.254.0.0', 'linkLocal', '169.254.0.0/16'],
  ['169.254.169.254', 'linkLocal', '169.254.0.0/16'],
  ['fe80::1', 'linkLocal', 'fe80::/10'],
  ['febf:ffff::1', 'linkLocal', 'fe80::/10'],
  ['fc00::', 'uniqueLocal', 'fc00::/7'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'uniqueLocal', 'fc00::/7'],
  ['224.0.0.1', 'multicast', '224.0.0.0/4'],
  ['239.255.255.255', 'multicast', '224.0.0.0/4'],
  ['ff02::1', 'multicast', 'ff00::/8'],
  ['ff0e::1', 'multicast', 'ff00::/8'],
  ['255.255.255.255', 'broadcast', '255.255.255.255/32'],
  ['240.0.0.1', 'reserved', '240.0.0.0/4'],
  ['fec0::1', 'siteLocal', 'fec0::/10'],
];

/** IPv6 spellings of refused IPv4 addresses: judged by the IPv4 address inside. */
const WRAPPED: [string, string, string][] = [
  ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped'],
  ['::ffff:7f00:1', 'loopback', 'IPv4-mapped'],
  ['::ffff:10.0.0.1', 'private', 'IPv4-mapped'],
  ['::ffff:169.254.169.254', 'linkLocal', 'IPv4-mapped'],
  ['::ffff:100.64.0.1', 'carrierGradeNat', 'IPv4-mapped'],
  ['::ffff:0.0.0.0', 'unspecified', 'IPv4-mapped'],
  ['::127.0.0.1', 'loopback', 'IPv4-compatible'],
  ['::10.0.0.1', 'private', 'IPv4-compatible'],
  ['::169.254.169.254', 'linkLocal', 'IPv4-compatible'],
  ['64:ff9b::127.0.0.1', 'loopback', 'NAT64'],
  ['64:ff9b::a9fe:a9fe', 'linkLocal', 'NAT64'],
  ['2002:7f00:1::', 'loopback', '6to4'],
  ['2002:c0a8:101::1', 'private', '6to4'],
  ['::ffff:0:a00:1', 'private', 'IPv4-translated'],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.15.255.255',
  '172.32.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '11.0.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('the address classifier', () => {
  it.each(REFUSED)('refuses %s as %s (%s)', (address, rule, range) => {
    expect(classifyAddress(address)).toMatchObject({ rule, range });
  });

  it.each(WRAPPED)('refuses %s as %s, seen through its %s form', (address, rule, via) => {
    expect(classifyAddress(address)).toMatchObject({ rule, via });
  });

  it.each(PUBLIC)('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });

  it('refuses the deprecated IPv4-compatible form and Teredo whatever they carry', () => {
    expect(classifyAddress('::8.8.8.8')).toMatchObject({ rule: 'ipv4Compatible', range: '::/96' });
    expect(classifyAddress('2001:0:4136:e378:8000:63bf:3fff:fdd2')?.rule).toBe('teredo');
    expect(classifyAddress('2001:db8::1')?.rule).toBe('reserved');
  });

  it('reads bracketed and zoned forms, and only the spellings net connects to without a lookup', () => {
    expect(classifyAddress('[::1]')?.rule).toBe('loopback');
    expect(classifyAddress('fe80::1%eth0')?.rule).toBe('linkLocal');
    // A URL turns these into dotted quads; as hostnames they go to the resolver, whose answer is judged.
    for (const name of ['127.1', '2130706433', '0x7f000001', '017700000001', 'localhost'])
      expect(parseAddress(name)).toBeUndefined();
    expect(classifyAddress('not-an-ip')?.rule).toBe('invalid');
  });

  it('agrees with the URL parser on every loopback spelling a URL accepts', () => {
    for (const host of ['127.1', '2130706433', '0x7f000001', '0177.0.0.1', '127.000.000.001'])
      expect(classifyAddress(new URL(`http://${host}/`).hostname)?.rule).toBe('loopback');
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(classifyAddress(new URL('http://[::ffff:127.0.0.1]/').hostname)?.rule).toBe('loopback');
  });
});

describe('INLAY_EGRESS_ALLOW', () => {
  it('parses hostnames, wildcards, addresses, CIDRs and each with a port', () => {
    const entries = parseEgressAllow(
      'api.internal.example, *.svc.cluster.local  10.0.0.0/8,10.1.2.3:8080 [fd00::5]:8443 fd00::/8 hooks.internal:9000 127.0.0.1',
    );
    expect(entries.map((e) => [e.kind, e.port ?? null, e.source])).toEqual([
      ['host', null, 'api.internal.example'],
      ['host', null, '*.svc.cluster.local'],
      ['cidr', null, '10.0.0.0/8'],
      ['cidr', 8080, '10.1.2.3:8080'],
      ['cidr', 8443, '[fd00::5]:8443'],
      ['cidr', null, 'fd00::/8'],
      ['host', 9000, 'hooks.internal:9000'],
      ['cidr', null, '127.0.0.1'],
    ]);
    expect(parseEgressAllow(undefined)).toEqual([]);
    expect(parseEgressAllow(' , ')).toEqual([]);
  });

  it.each([
    ['bad_host!', 'is not a hostname'],
    ['10.0.0.0/33', 'is not a valid CIDR'],
    ['10.0.0/8', 'is not a valid CIDR'],
    ['host:99999', 'port that is not a number from 1 to 65535'],
    ['host:', 'port that is not a number'],
    ['[::1]:x', 'port that is not a number'],
    ['127.1', 'is not a hostname'],
    ['*.', 'is not a hostname'],
    ['-bad.example', 'is not a hostname'],
  ])('refuses %j, saying why', (entry, reason) => {
    expect(() => parseEgressAllow(`ok.example,${entry}`)).toThrow(reason);
    expect(() => parseEgressAllow(entry)).toThrow(`"${entry.trim()}"`);
  });

  it('opens hostnames exactly, subdomains only by wildcard, and ports only where named', () => {
    const e = parseEgressAllow('api.internal.example,*.svc.local,hooks.internal:9000');
    expect(allowsHost(e, 'api.internal.example', 443)).toBe(true);
    expect(allowsHost(e, 'API.Internal.Example.', 80)).toBe(true);
    expect(allowsHost(e, 'x.api.internal.example', 443)).toBe(false);
    expect(allowsHost(e, 'internal.example', 443)).toBe(false);
    expect(allowsHost(e, 'a.svc.local', 80)).toBe(true);
    expect(allowsHost(e, 'a.b.svc.local', 80)).toBe(true);
    expect(allowsHost(e, 'svc.local', 80)).toBe(false);
    expect(allowsHost(e, 'evilsvc.local', 80)).toBe(false);
    expect(allowsHost(e, 'hooks.internal', 9000)).toBe(true);
    expect(allowsHost(e, 'hooks.internal', 9001)).toBe(false);
  });

  it('opens addresses by CIDR and port, IPv4-mapped forms included', () => {
    const e = parseEgressAllow('10.0.0.0/8,192.168.1.5:8080,fd00::/8');
    const at = (a: string) => parseAddress(a)!;
    expect(allowsAddress(e, at('10.20.30.40'), 443)).toBe(true);
    expect(allowsAddress(e, at('::ffff:10.20.30.40'), 443)).toBe(true);
    expect(allowsAddress(e, at('11.0.0.1'), 443)).toBe(false);
    expect(allowsAddress(e, at('192.168.1.5'), 8080)).toBe(true);
    expect(allowsAddress(e, at('192.168.1.5'), 8081)).toBe(false);
    expect(allowsAddress(e, at('192.168.1.6'), 8080)).toBe(false);
    expect(allowsAddress(e, at('fd12::1'), 80)).toBe(true);
    expect(allowsAddress(e, at('fe80::1'), 80)).toBe(false);
  });
});

describe('request headers', () => {
  it.each([
    'host',
    'Host',
    'content-length',
    'Transfer-Encoding',
    'connection',
    'keep-alive',
    'upgrade',
    'te',
    'trailer',
    'proxy-authorization',
    'Proxy-Connection',
  ])('reserves %s for the transport', (name) => {
    expect(requestHeaderProblem(name, 'x')).toMatch(/may not be set/);
  });

  it('refuses invalid names and line breaks in values, and lets ordinary headers through', () => {
    expect(requestHeaderProblem('x y', 'v')).toMatch(/not a valid header name/);
    expect(requestHeaderProblem('x-a', 'v\r\nHost: evil')).toMatch(/CR, LF/);
    expect(requestHeaderProblem('X-Api-Key', 'secret')).toBeUndefined();
    expect(requestHeaderProblem('authorization', 'Bearer t')).toBeUndefined();
  });
});

describe('credential origins', () => {
  it('normalises origins as URL.origin writes them, once each', () => {
    expect(
      parseCredentialOrigins('https://API.example.com, https://api.example.com:443/ http://10.0.0.1:8080'),
    ).toEqual(['https://api.example.com', 'http://10.0.0.1:8080']);
  });

  it.each([
    ['', 'at least one origin'],
    ['api.example.com', 'is not an origin'],
    ['ftp://files.example.com', 'must use http or https'],
    ['https://api.example.com/v1', 'origin only'],
    ['https://user@api.example.com', 'origin only'],
    ['https://api.example.com/?a=1', 'origin only'],
  ])('refuses %j', (value, reason) => {
    expect(() => parseCredentialOrigins(value)).toThrow(reason);
  });
});

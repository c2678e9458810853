import { startProvider } from '@inlay/test-kit/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ConnectorDefinition,
  ConnectorRuntime,
  catalog,
  EgressPolicy,
  validateConnectors,
} from '../src/index.ts';

type Provider = Awaited<ReturnType<typeof startProvider>>;

import { connectionGuard, startCanary, testResolver } from '@inlay/test-kit/ssrf';

let provider: Provider;
let other: Provider;
let canary: Awaited<ReturnType<typeof startCanary>>;
let guard: ReturnType<typeof connectionGuard>;

beforeAll(async () => {
  guard = connectionGuard();
  provider = await startProvider({
    '*': () => ({ body: { ok: true } }),
    'GET /hop': () => ({ status: 302, headers: { location: `${other.url}/landed` } }),
  });
  other = await startProvider({ '*': () => ({ body: { landed: true } }) });
  canary = await startCanary();
});
afterAll(async () => {
  guard.stop();
  await Promise.all([provider.close(), other.close(), canary.close()]);
});

const port = (url: string) => new URL(url).port;
const runtime = (allow = '', defs: readonly ConnectorDefinition[] = catalog, env = {}) =>
  new ConnectorRuntime({
    connectors: defs,
    env,
    egress: new EgressPolicy({ allow, resolve: testResolver({ 'api.partner.test': '127.0.0.1' }) }),
  });
const fail = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('the call succeeded'),
    (e) => e,
  );
const cred = (headerName: string, origins?: string) => ({
  fields: { headerName, headerValue: 'secret-value-123', ...(origins ? { origins } : {}) },
});

describe('the http built-in and the egress policy', () => {
  it('fails with egress_denied, naming the host and the rule, without retrying or connecting', async () => {
    const err = await fail(runtime().execute('http', 'request', { url: `http://127.1:${canary.port}/` }));
    expect(err).toMatchObject({ code: 'egress_denied', transient: false });
    expect(err.message).toBe(
      'The egress policy refused 127.0.0.1: the address is in 127.0.0.0/8 (loopback). An operator can open it with INLAY_EGRESS_ALLOW',
    );
    const meta = await fail(runtime().execute('http', 'request', { url: 'http://169.254.169.254/latest/' }));
    expect(meta.message).toContain('169.254.169.254: the address is in 169.254.0.0/16 (link-local)');
    expect(canary.connections).toBe(0);
    expect(guard.attemptsAt('169.254.169.254')).toBe(0);
  });

  it('answers the same for an open and a closed port it refuses: no port-scan oracle', async () => {
    const open = await fail(
      runtime().execute('http', 'request', { url: `http://127.0.0.1:${canary.port}/` }),
    );
    const closed = await fail(runtime().execute('http', 'request', { url: 'http://127.0.0.1:1/' }));
    expect(open.message).toBe(closed.message);
    expect([open.code, closed.code]).toEqual(['egress_denied', 'egress_denied']);
    expect(canary.connections).toBe(0);
  });

  it('reports an allowed but closed port and an unknown name alike, without the socket error', async () => {
    const r = runtime('127.0.0.1:1');
    const closed = await fail(r.execute('http', 'request', { url: 'http://127.0.0.1:1/' }));
    const unknown = await fail(r.execute('http', 'request', { url: 'http://nowhere.test/' }));
    expect(closed).toMatchObject({ code: 'network_error', message: 'Could not reach 127.0.0.1:1' });
    expect(unknown).toMatchObject({ code: 'network_error', message: 'Could not reach nowhere.test' });
  });

  it('keeps the socket error for the operator’s own URL, which no user chose', async () => {
    const def = catalog.find((c) => c.id === 'stripe')!;
    const err = await fail(
      runtime('', [def], { INLAY_CONNECTOR_STRIPE_BASE_URL: 'http://127.0.0.1:1' }).execute(
        'stripe',
        'create_customer',
        { email: 'a@example.com' },
        { credential: { fields: { apiKey: 'sk_test_123456' } } },
      ),
    );
    expect(err).toMatchObject({ code: 'network_error', message: 'Could not reach Stripe: ECONNREFUSED' });
  });
});

describe('headers a caller may not set', () => {
  it.each([
    'Host',
    'content-length',
    'Transfer-Encoding',
    'connection',
    'upgrade',
    'te',
    'trailer',
    'Proxy-Authorization',
  ])('refuses %s as invalid input, before any request', async (name) => {
    const before = provider.requests.length;
    const err = await fail(
      runtime(new URL(provider.url).host).execute('http', 'request', {
        url: `${provider.url}/x`,
        headers: { [name]: '1' },
      }),
    );
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain(`headers.${name}`);
    expect(provider.requests.length).toBe(before);
  });

  it('refuses a header value with a line break, and a connector that sets a reserved header', async () => {
    const err = await fail(
      runtime(new URL(provider.url).host).execute('http', 'request', {
        url: `${provider.url}/x`,
        headers: { 'x-a': 'v\r\nHost: evil' },
      }),
    );
    expect(err).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('CR, LF') });
    const http = catalog.find((c) => c.id === 'http')!;
    expect(() =>
      validateConnectors([{ ...http, id: 'smuggler', headers: { connection: 'upgrade' } }]),
    ).toThrow(/headers\.connection: is a header the transport owns/);
  });

  it('refuses a credential whose header name is one the transport owns', async () => {
    const before = provider.requests.length;
    const err = await fail(
      runtime(new URL(provider.url).host).execute(
        'http',
        'request',
        { url: `${provider.url}/x` },
        { credential: cred('Host', provider.url) },
      ),
    );
    expect(err).toMatchObject({ code: 'forbidden_header' });
    expect(provider.requests.length).toBe(before);
  });
});

describe('bound http credentials', () => {
  const allow = () => `${new URL(provider.url).host},${new URL(other.url).host},api.partner.test`;

  it('are sent to their origins only; anywhere else the step fails before a request', async () => {
    const r = runtime(allow());
    await r.execute(
      'http',
      'request',
      { url: `${provider.url}/me` },
      { credential: cred('X-Api-Key', provider.url) },
    );
    expect(provider.requests.at(-1)!.headers['x-api-key']).toBe('secret-value-123');
    const before = other.requests.length;
    const err = await fail(
      r.execute(
        'http',
        'request',
        { url: `${other.url}/steal` },
        { credential: cred('X-Api-Key', provider.url) },
      ),
    );
    expect(err).toMatchObject({ code: 'credential_origin_mismatch', transient: false });
    expect(err.message).toBe(`This HTTP credential may only be sent to ${provider.url}, not to ${other.url}`);
    expect(other.requests.length).toBe(before);
    // Same host, other scheme or port: another origin.
    const https = await fail(
      r.execute(
        'http',
        'request',
        { url: `http://api.partner.test:${port(provider.url)}/x` },
        { credential: cred('X-Api-Key', `https://api.partner.test:${port(provider.url)}`) },
      ),
    );
    expect(https.code).toBe('credential_origin_mismatch');
  });

  it('refuse a credential that names no origins (created before binding existed)', async () => {
    const err = await fail(
      runtime(allow()).execute(
        'http',
        'request',
        { url: `${provider.url}/me` },
        { credential: cred('X-Api-Key') },
      ),
    );
    expect(err).toMatchObject({ code: 'credential_origin_mismatch' });
    expect(err.message).toContain('names no origins');
  });

  it('lose the header they set when a redirect leaves their origin', async () => {
    const res = await runtime(allow()).execute(
      'http',
      'request',
      { url: `${provider.url}/hop` },
      { credential: cred('X-Shopify-Access-Token', provider.url) },
    );
    expect(res.output).toMatchObject({ status: 200, body: { landed: true } });
    expect(provider.requests.at(-1)!.headers['x-shopify-access-token']).toBe('secret-value-123');
    expect(other.requests.at(-1)!.headers['x-shopify-access-token']).toBeUndefined();
  });
});

describe('a credential setting that names the host', () => {
  /** A self-hosted product: the user's credential says where it runs. */
  const tenant: ConnectorDefinition = {
    id: 'tenant',
    name: 'Tenant',
    description: 'A self-hosted app',
    category: 'developer',
    icon: 'tenant',
    baseUrl: 'http://{host}:{port}/api',
    auth: {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      format: '{apiKey}',
      fields: [
        { name: 'host', label: 'Host', type: 'text', required: true, secret: false },
        { name: 'port', label: 'Port', type: 'text', required: true, secret: false },
        { name: 'apiKey', label: 'Key', type: 'password', required: true, secret: true },
      ],
    },
    test: { request: () => ({ method: 'GET', path: '/me' }) },
    actions: [
      {
        id: 'ping',
        name: 'Ping',
        description: 'Ping',
        kind: 'read',
        input: z.object({}),
        request: () => ({ method: 'GET', path: '/ping' }),
      },
    ],
    sources: {
      things: {
        description: 'Things',
        request: () => ({ method: 'GET', path: '/things' }),
        items: (b) => (b as { items: unknown[] }).items,
        option: (t: { id: string }) => ({ value: t.id, label: t.id }),
      },
    },
  };
  const at = (host: string) => ({ fields: { host, port: String(canary.port), apiKey: 'k-123456' } });

  it('cannot point actions, option sources or the credential test at loopback', async () => {
    const r = runtime('', [tenant]);
    for (const host of ['127.0.0.1', '2130706433', 'localhost', 'api.partner.test']) {
      expect((await fail(r.execute('tenant', 'ping', {}, { credential: at(host) }))).code).toBe(
        'egress_denied',
      );
      expect((await fail(r.options('tenant', 'things', { credential: at(host) }))).code).toBe(
        'egress_denied',
      );
      expect(await r.test('tenant', at(host))).toMatchObject({
        ok: false,
        code: 'egress_denied',
        transient: false,
      });
    }
    expect(canary.connections).toBe(0);
  });

  it('cannot write an address the URL parser would not take: invalid_url, not a crash', async () => {
    const err = await fail(runtime('', [tenant]).execute('tenant', 'ping', {}, { credential: at('[::1]') }));
    expect(err).toMatchObject({ code: 'invalid_url', transient: false });
  });
});

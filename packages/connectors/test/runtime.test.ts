import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Handler, startProvider } from '@inlay/test-kit/provider';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type ConnectorDefinition,
  ConnectorError,
  ConnectorRuntime,
  catalog,
  defineAction,
  EgressPolicy,
  parseRetryAfter,
  REDACTED,
  redact,
  secretValues,
  validateConnectors,
} from '../src/index.ts';

type Provider = Awaited<ReturnType<typeof startProvider>>;

/** A minimal connector whose one action sends whatever request the test asks for. */
function testConnector(over: Partial<ConnectorDefinition> = {}): ConnectorDefinition {
  return {
    id: 'acme-crm',
    name: 'Acme CRM',
    description: 'Test connector',
    category: 'crm',
    icon: 'acme',
    baseUrl: 'https://api.acme.test/v1',
    auth: {
      type: 'oauth2',
      authorizeUrl: 'https://acme.test/oauth',
      tokenUrl: 'https://acme.test/token',
      scopes: [],
      pkce: true,
    },
    actions: [
      defineAction({
        id: 'send',
        name: 'Send',
        description: 'Sends the request in the input',
        kind: 'write',
        input: z.object({
          method: z.enum(['GET', 'POST', 'PUT']).default('GET'),
          path: z.string().default('/thing'),
          body: z.unknown().optional(),
          form: z.boolean().default(false),
          api: z.string().optional(),
        }),
        request: (i) => ({
          method: i.method,
          path: i.path,
          body: i.body,
          bodyType: i.form ? 'form' : 'json',
          api: i.api,
        }),
      }),
    ],
    ...over,
  };
}

let provider: Provider;
let reply: Handler = () => ({ body: { ok: true } });

beforeAll(async () => {
  provider = await startProvider({ '*': (req) => reply(req) });
});
afterAll(() => provider.close());
afterEach(() => {
  reply = () => ({ body: { ok: true } });
});

const runtimeFor = (
  def: ConnectorDefinition,
  env: Record<string, string> = { INLAY_CONNECTOR_ACME_CRM_BASE_URL: provider.url },
) => new ConnectorRuntime({ connectors: [def], env });
const last = () => provider.requests.at(-1)!;
// The provider fakes listen on loopback, which the egress policy refuses unless it is opened.
const loopbackOpen = new EgressPolicy({ allow: '127.0.0.1' });
const oauth = (accessToken: string) => ({ fields: {}, oauth: { accessToken } });

describe('environment overrides', () => {
  it('name the connector upper-cased with - as _, for base, authorize and token URLs', () => {
    const runtime = new ConnectorRuntime({
      connectors: catalog,
      env: {
        INLAY_CONNECTOR_GOOGLE_SHEETS_BASE_URL: 'http://sandbox.test/sheets/',
        INLAY_CONNECTOR_GOOGLE_SHEETS_AUTHORIZE_URL: 'http://sandbox.test/oauth/authorize',
        INLAY_CONNECTOR_GOOGLE_SHEETS_TOKEN_URL: 'http://sandbox.test/oauth/token',
      },
    });
    const sheets = runtime.get('google-sheets')!;
    expect(runtime.baseUrl(sheets)).toBe('http://sandbox.test/sheets');
    // The override stands in for the provider's other hosts too.
    expect(runtime.baseUrl(sheets, {}, 'drive')).toBe('http://sandbox.test/sheets');
    expect(runtime.oauthEndpoints(sheets)).toEqual({
      authorizeUrl: 'http://sandbox.test/oauth/authorize',
      tokenUrl: 'http://sandbox.test/oauth/token',
    });
    const gmail = runtime.get('gmail')!;
    expect(runtime.baseUrl(gmail)).toBe('https://gmail.googleapis.com/gmail/v1');
    expect(runtime.oauthEndpoints(gmail)?.tokenUrl).toBe('https://oauth2.googleapis.com/token');
  });

  it('without overrides, fill per-tenant hosts from the credential settings', () => {
    const runtime = new ConnectorRuntime({ connectors: catalog });
    const shopify = runtime.get('shopify')!;
    const settings = runtime.settings(shopify, { fields: { shop: 'acme-store' } });
    expect(runtime.baseUrl(shopify, settings)).toBe('https://acme-store.myshopify.com/admin/api/2025-07');
    expect(runtime.oauthEndpoints(shopify, settings)?.authorizeUrl).toBe(
      'https://acme-store.myshopify.com/admin/oauth/authorize',
    );
    const salesforce = runtime.get('salesforce')!;
    expect(runtime.oauthEndpoints(salesforce, { domain: 'acme--uat.sandbox' })?.tokenUrl).toBe(
      'https://acme--uat.sandbox.my.salesforce.com/services/oauth2/token',
    );
  });

  it('send requests to the override', async () => {
    await runtimeFor(testConnector()).execute(
      'acme-crm',
      'send',
      { path: '/ping' },
      { credential: oauth('tok-123456') },
    );
    expect(last().path).toBe('/ping');
  });
});

describe('named APIs', () => {
  it('route a request to another host of the provider, and fail on an unknown name', async () => {
    const other = await startProvider({ '*': () => ({ body: { from: 'other' } }) });
    try {
      const def = testConnector({ baseUrl: provider.url, apis: { files: `${other.url}/files/v3` } });
      const runtime = new ConnectorRuntime({ connectors: [def], egress: loopbackOpen });
      const res = await runtime.execute(
        'acme-crm',
        'send',
        { path: '/list', api: 'files' },
        { credential: oauth('tok-123456') },
      );
      expect(res.output).toEqual({ from: 'other' });
      expect(other.requests.at(-1)!.path).toBe('/files/v3/list');
      expect(other.requests.at(-1)!.headers.authorization).toBe('Bearer tok-123456');
      const err = await runtime.execute('acme-crm', 'send', { api: 'nope' }).catch((e) => e);
      expect(err).toMatchObject({ code: 'invalid_definition', message: 'acme-crm has no API named nope' });
    } finally {
      await other.close();
    }
  });
});

describe('authentication', () => {
  const keyField = {
    name: 'apiKey',
    label: 'API key',
    type: 'password',
    required: true,
    secret: true,
  } as const;

  it('puts an API key in a header with its format', async () => {
    const def = testConnector({
      auth: { type: 'apiKey', in: 'header', name: 'X-Api-Key', format: 'Token {apiKey}', fields: [keyField] },
    });
    await runtimeFor(def).execute(
      'acme-crm',
      'send',
      {},
      { credential: { fields: { apiKey: 'key-abcdef' } } },
    );
    expect(last().headers['x-api-key']).toBe('Token key-abcdef');
    expect(last().headers.authorization).toBeUndefined();
    expect([...last().query.keys()]).toEqual([]);
  });

  it('puts an API key in the query', async () => {
    const def = testConnector({ auth: { type: 'apiKey', in: 'query', name: 'api_key', fields: [keyField] } });
    await runtimeFor(def).execute(
      'acme-crm',
      'send',
      { path: '/thing?page=2' },
      { credential: { fields: { apiKey: 'key-abcdef' } } },
    );
    expect(last().query.get('api_key')).toBe('key-abcdef');
    expect(last().query.get('page')).toBe('2');
    expect(last().headers.authorization).toBeUndefined();
  });

  it('sends basic auth from templates', async () => {
    const def = testConnector({
      auth: {
        type: 'basic',
        username: '{email}/token',
        password: '{apiToken}',
        fields: [
          { name: 'email', label: 'Email', type: 'text', required: true, secret: false },
          { name: 'apiToken', label: 'Token', type: 'password', required: true, secret: true },
        ],
      },
    });
    await runtimeFor(def).execute(
      'acme-crm',
      'send',
      {},
      { credential: { fields: { email: 'ada@acme.test', apiToken: 'zd-123456' } } },
    );
    expect(last().headers.authorization).toBe(
      `Basic ${Buffer.from('ada@acme.test/token:zd-123456').toString('base64')}`,
    );
  });

  it('sends an OAuth token in a provider-specific header when the connector says so', async () => {
    const def = testConnector({
      auth: {
        type: 'oauth2',
        authorizeUrl: 'https://acme.test/oauth',
        tokenUrl: 'https://acme.test/token',
        scopes: [],
        pkce: false,
        tokenHeader: { name: 'X-Access-Token', format: '{accessToken}' },
      },
    });
    await runtimeFor(def).execute('acme-crm', 'send', {}, { credential: oauth('shpat-123456') });
    expect(last().headers['x-access-token']).toBe('shpat-123456');
    expect(last().headers.authorization).toBeUndefined();
  });
});

describe('request encoding', () => {
  it('encodes form bodies with nested keys and indexed arrays', async () => {
    await runtimeFor(testConnector()).execute('acme-crm', 'send', {
      method: 'POST',
      form: true,
      body: {
        email: 'ada@example.com',
        metadata: { plan: 'pro' },
        items: [{ price: 'p_1', qty: 2 }],
        skip: null,
      },
    });
    expect(last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(last().rawBody).toBe(
      'email=ada%40example.com&metadata%5Bplan%5D=pro&items%5B0%5D%5Bprice%5D=p_1&items%5B0%5D%5Bqty%5D=2',
    );
  });

  it('sends JSON bodies, and none on GET', async () => {
    const runtime = runtimeFor(testConnector());
    await runtime.execute('acme-crm', 'send', { method: 'POST', body: { a: [1, 'x'] } });
    expect(last().headers['content-type']).toBe('application/json');
    expect(last().body).toEqual({ a: [1, 'x'] });
    await runtime.execute('acme-crm', 'send', { method: 'GET', body: { a: 1 } });
    expect(last().rawBody).toBe('');
  });

  it('fills {setting} placeholders of the base URL, encoded so a value cannot change the path', async () => {
    const def = testConnector({
      baseUrl: `${provider.url}/tenants/{tenant}`,
      auth: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        format: 'Bearer {apiKey}',
        fields: [
          { name: 'tenant', label: 'Tenant', type: 'text', required: true, secret: false },
          { name: 'apiKey', label: 'Key', type: 'password', required: true, secret: true },
        ],
      },
    });
    const runtime = new ConnectorRuntime({ connectors: [def], egress: loopbackOpen });
    expect(runtime.settings(def, { fields: { tenant: 'acme', apiKey: 'secret-123456' } })).toEqual({
      tenant: 'acme',
    });
    await runtime.execute(
      'acme-crm',
      'send',
      { path: '/deals' },
      { credential: { fields: { tenant: 'acme co/../x', apiKey: 'secret-123456' } } },
    );
    expect(last().path).toBe('/tenants/acme%20co%2F..%2Fx/deals');
  });

  it('derives settings with the connector’s settings()', () => {
    const def = testConnector({
      baseUrl: 'https://{dc}.api.acme.test',
      settings: (f) => ({ dc: f.key?.split('-')[1] ?? '' }),
    });
    const runtime = new ConnectorRuntime({ connectors: [def] });
    expect(runtime.baseUrl(def, runtime.settings(def, { fields: { key: 'abc-eu2' } }))).toBe(
      'https://eu2.api.acme.test',
    );
  });
});

describe('failures', () => {
  it('retries a 401 once with refreshed OAuth secrets', async () => {
    reply = (req) =>
      req.headers.authorization === 'Bearer fresh-123456'
        ? { body: { ok: 1 } }
        : { status: 401, body: { message: 'expired' } };
    const onUnauthorized = vi.fn(async () => oauth('fresh-123456'));
    const before = provider.requests.length;
    const res = await runtimeFor(testConnector()).execute(
      'acme-crm',
      'send',
      {},
      { credential: oauth('stale-123456'), onUnauthorized },
    );
    expect(res.output).toEqual({ ok: 1 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(provider.requests.slice(before).map((r) => r.headers.authorization)).toEqual([
      'Bearer stale-123456',
      'Bearer fresh-123456',
    ]);
  });

  it('treats a connector-marked 403 and an auth error in a 2xx like a 401: refresh, retry, then report the refusal', async () => {
    reply = (req) =>
      req.headers.authorization === 'Bearer fresh-123456'
        ? { body: { ok: false, error: 'token_revoked' } }
        : { status: 403, body: { message: 'revoked' } };
    const def = testConnector({
      authFailure: (res) => res.status === 403,
      checkResponse: (res) => {
        const b = res.body as { ok?: boolean; error?: string };
        return b?.ok === false
          ? { message: b.error ?? 'error', auth: b.error === 'token_revoked' }
          : undefined;
      },
    });
    const onUnauthorized = vi.fn(async () => oauth('fresh-123456'));
    const onAuthRefused = vi.fn(async () => true);
    const err = await runtimeFor(def)
      .execute('acme-crm', 'send', {}, { credential: oauth('stale-123456'), onUnauthorized, onAuthRefused })
      .catch((e) => e);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onAuthRefused).toHaveBeenCalledWith('token_revoked');
    expect(err).toBeInstanceOf(ConnectorError);
    expect(err).toMatchObject({ code: 'credential_needs_reconnect', authFailure: true, transient: false });
    // Not marked (the hook says no): the provider's own failure, flagged as an auth failure, not retried.
    const kept = await runtimeFor(def)
      .execute(
        'acme-crm',
        'send',
        {},
        { credential: oauth('stale-123456'), onAuthRefused: async () => false },
      )
      .catch((e) => e);
    expect(kept).toMatchObject({ code: 'http_error', authFailure: true, transient: false, statusCode: 403 });
  });

  it('keeps a token refreshed on one option page for the pages after it', async () => {
    reply = (req) => {
      if (req.headers.authorization !== 'Bearer fresh-123456')
        return { status: 401, body: { message: 'expired' } };
      const page = Number(req.query.get('page') ?? '1');
      return { body: { items: [{ id: `p${page}` }], next: page < 3 ? page + 1 : null } };
    };
    const def = testConnector({
      sources: {
        things: {
          description: 'Paged things',
          request: () => ({ method: 'GET', path: '/things', query: { page: 1 } }),
          items: (body) => (body as { items: unknown[] }).items,
          option: (t: { id: string }) => ({ value: t.id, label: t.id }),
          paging: {
            next: (res, req) => {
              const next = (res.body as { next: number | null }).next;
              return next ? { ...req, query: { ...req.query, page: next } } : undefined;
            },
          },
        },
      },
    });
    const onUnauthorized = vi.fn(async () => oauth('fresh-123456'));
    const before = provider.requests.length;
    const items = await runtimeFor(def).options('acme-crm', 'things', {
      credential: oauth('stale-123456'),
      onUnauthorized,
    });
    expect(items.map((i) => i.value)).toEqual(['p1', 'p2', 'p3']);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(provider.requests.slice(before).map((r) => r.headers.authorization)).toEqual([
      'Bearer stale-123456',
      'Bearer fresh-123456',
      'Bearer fresh-123456',
      'Bearer fresh-123456',
    ]);
  });

  it('gives up after one retry, and never refreshes non-OAuth credentials', async () => {
    reply = () => ({ status: 401, body: { message: 'revoked' } });
    const onUnauthorized = vi.fn(async () => oauth('still-bad-1'));
    const before = provider.requests.length;
    const err = await runtimeFor(testConnector())
      .execute('acme-crm', 'send', {}, { credential: oauth('stale-123456'), onUnauthorized })
      .catch((e) => e);
    expect(err).toMatchObject({ statusCode: 401, message: '401: revoked', transient: false });
    expect(provider.requests.length - before).toBe(2);

    const keyDef = testConnector({
      auth: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Key',
        fields: [{ name: 'k', label: 'K', type: 'password', required: true, secret: true }],
      },
    });
    const refresh = vi.fn(async () => undefined);
    await runtimeFor(keyDef)
      .execute('acme-crm', 'send', {}, { credential: { fields: { k: 'x' } }, onUnauthorized: refresh })
      .catch(() => {});
    expect(refresh).not.toHaveBeenCalled();
  });

  it('marks 429 and 5xx transient with Retry-After parsed, and 400 not', async () => {
    const runtime = runtimeFor(testConnector());
    const call = () => runtime.execute('acme-crm', 'send', {}).catch((e: ConnectorError) => e);

    reply = () => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { message: 'slow down' } },
    });
    expect(await call()).toMatchObject({
      transient: true,
      statusCode: 429,
      retryAfterMs: 7000,
      message: '429: slow down',
    });

    const at = new Date(Date.now() + 60_000).toUTCString();
    reply = () => ({ status: 503, headers: { 'retry-after': at }, body: 'Service Unavailable' });
    const unavailable = (await call()) as ConnectorError;
    expect(unavailable).toMatchObject({
      transient: true,
      statusCode: 503,
      message: '503: Service Unavailable',
    });
    expect(unavailable.retryAfterMs).toBeGreaterThan(55_000);
    expect(unavailable.retryAfterMs).toBeLessThanOrEqual(60_000);

    reply = () => ({ status: 500 });
    expect(await call()).toMatchObject({ transient: true, message: 'HTTP 500', retryAfterMs: undefined });

    reply = () => ({ status: 400, body: { errors: [{ message: 'email is invalid' }] } });
    expect(await call()).toMatchObject({
      transient: false,
      statusCode: 400,
      message: '400: email is invalid',
      code: 'http_error',
    });
  });

  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('1.5')).toBe(1500);
    expect(
      parseRetryAfter('Thu, 01 Jan 2099 00:00:10 GMT', Date.parse('Thu, 01 Jan 2099 00:00:00 GMT')),
    ).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('reads non-JSON bodies as text and uses them as the reason', async () => {
    const runtime = runtimeFor(testConnector());
    reply = () => ({ body: 'plain words' });
    expect((await runtime.execute('acme-crm', 'send', {})).output).toBe('plain words');
    reply = () => ({ headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect((await runtime.execute('acme-crm', 'send', {})).output).toBe('{not json');
    reply = () => ({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html><body>Bad gateway</body></html>',
    });
    const err = await runtime.execute('acme-crm', 'send', {}).catch((e) => e);
    expect(err.message).toBe('502: <html><body>Bad gateway</body></html>');
    reply = () => ({ status: 204 });
    expect((await runtime.execute('acme-crm', 'send', {})).output).toBeNull();
  });

  it('reports a provider that cannot be reached as a transient network error', async () => {
    const closed = await startProvider();
    await closed.close();
    const err = await runtimeFor(testConnector(), { INLAY_CONNECTOR_ACME_CRM_BASE_URL: closed.url })
      .execute('acme-crm', 'send', {})
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'network_error', transient: true });
    expect(err.message).toMatch(/^Could not reach Acme CRM: /);
  });
});

describe('slow servers', () => {
  let server: Server;
  let url: string;
  let mode: 'silent' | 'stall-body' | 'huge' = 'silent';

  beforeAll(async () => {
    server = createServer((_req, res) => {
      if (mode === 'stall-body') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":');
      } else if (mode === 'huge') {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(60 * 1024 * 1024),
        });
        res.write('[');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const call = (opts: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
    runtimeFor(testConnector(), { INLAY_CONNECTOR_ACME_CRM_BASE_URL: url })
      .execute('acme-crm', 'send', {}, opts)
      .catch((e) => e);

  it('times out a server that never answers', async () => {
    mode = 'silent';
    expect(await call({ timeoutMs: 100 })).toMatchObject({
      code: 'timeout',
      transient: true,
      message: 'Acme CRM did not answer within 100 ms',
    });
  });

  it('times out a server that stalls in the middle of the body', async () => {
    mode = 'stall-body';
    const err = await call({ timeoutMs: 150 });
    expect(err).toBeInstanceOf(ConnectorError);
    expect(err).toMatchObject({ code: 'timeout', transient: true });
  });

  it('stops when the run is cancelled', async () => {
    mode = 'silent';
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 30);
    expect(await call({ signal: ctl.signal })).toMatchObject({ code: 'aborted', transient: false });
  });

  it('refuses a body announced larger than the limit without reading it', async () => {
    mode = 'huge';
    expect(await call({ timeoutMs: 2000 })).toMatchObject({ code: 'response_too_large', transient: false });
  });
});

describe('input and definitions', () => {
  it('rejects invalid input naming the field, before sending anything', async () => {
    const before = provider.requests.length;
    const err = await runtimeFor(testConnector())
      .execute('acme-crm', 'send', { method: 'TRACE' })
      .catch((e) => e);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toMatch(/^Invalid input for acme-crm\.send: method: /);
    expect(provider.requests.length).toBe(before);
  });

  it('names unknown connectors, actions and sources', async () => {
    const runtime = runtimeFor(testConnector());
    expect(await runtime.execute('nope', 'x', {}).catch((e) => e.code)).toBe('unknown_connector');
    expect(await runtime.execute('acme-crm', 'nope', {}).catch((e) => e.code)).toBe('unknown_action');
    expect(await runtime.options('acme-crm', 'nope').catch((e) => e.code)).toBe('unknown_source');
  });

  it('validateConnectors rejects a broken definition, naming the connector and the field', () => {
    const noRequest = testConnector({ id: 'broken' });
    noRequest.actions = [{ ...noRequest.actions[0]!, request: undefined }];
    expect(() => validateConnectors([noRequest])).toThrow(
      'Connector broken is invalid at actions.0: needs exactly one of request or handler',
    );
    expect(() => validateConnectors([testConnector({ id: 'badcat', category: 'games' as never })])).toThrow(
      /^Connector badcat is invalid at category: /,
    );
    expect(() => validateConnectors([testConnector({ id: 'badapi', apis: { files: 'ftp://x' } })])).toThrow(
      /^Connector badapi is invalid at apis\.files: /,
    );
    expect(() => validateConnectors([testConnector(), testConnector()])).toThrow(
      'Connector id acme-crm is defined twice',
    );
  });
});

describe('redact', () => {
  it('replaces every secret in nested strings and keys, ignoring values too short to be secrets', () => {
    const secrets = secretValues(['tok-abcdef123', 'abc', undefined, 'tok-abcdef']);
    expect(secrets).toEqual(['tok-abcdef123', 'tok-abcdef']);
    const out = redact(
      {
        url: 'https://x.test/?key=tok-abcdef123',
        nested: [{ 'tok-abcdef': 'Bearer tok-abcdef' }],
        n: 3,
        abc: 'abc',
      },
      secrets,
    );
    expect(out).toEqual({
      url: `https://x.test/?key=${REDACTED}`,
      nested: [{ [REDACTED]: `Bearer ${REDACTED}` }],
      n: 3,
      abc: 'abc',
    });
  });
});

describe('built-ins', () => {
  const runtime = () => new ConnectorRuntime({ connectors: catalog, egress: loopbackOpen });

  it('http sends the request and returns status, headers and body', async () => {
    reply = (req) => ({
      status: 201,
      headers: { 'x-trace': 't1' },
      body: { got: req.body, q: req.query.get('q') },
    });
    const res = await runtime().execute('http', 'request', {
      method: 'POST',
      url: `${provider.url}/hooks/in`,
      query: { q: 'deal' },
      headers: { 'X-Source': 'inlay' },
      body: { name: 'Acme' },
    });
    expect(last()).toMatchObject({ method: 'POST', path: '/hooks/in' });
    expect(last().headers['x-source']).toBe('inlay');
    expect(last().headers.authorization).toBeUndefined();
    expect(res.output).toMatchObject({ status: 201, body: { got: { name: 'Acme' }, q: 'deal' } });
    expect((res.output as { headers: Record<string, string> }).headers['x-trace']).toBe('t1');
  });

  it('http adds the optional credential header', async () => {
    await runtime().execute(
      'http',
      'request',
      { url: `${provider.url}/me` },
      {
        credential: {
          fields: { headerName: 'Authorization', headerValue: 'Bearer pat-123456', origins: provider.url },
        },
      },
    );
    expect(last()).toMatchObject({ method: 'GET', path: '/me' });
    expect(last().headers.authorization).toBe('Bearer pat-123456');
  });

  it('http refuses non-http URLs', async () => {
    const err = await runtime()
      .execute('http', 'request', { url: 'file:///etc/passwd' })
      .catch((e) => e);
    expect(err.code).toBe('invalid_input');
  });

  it('transform evaluates JSONata over the scope', async () => {
    const res = await runtime().execute(
      'transform',
      'map',
      {
        expression: '{"who": trigger.name & " (" & config.region & ")", "total": $sum(steps.s1.items.price)}',
      },
      {
        scope: {
          trigger: { name: 'Acme' },
          config: { region: 'EU' },
          steps: { s1: { items: [{ price: 2 }, { price: 3 }] } },
        },
      },
    );
    expect(res.output).toEqual({ who: 'Acme (EU)', total: 5 });
    expect(
      (await runtime().execute('transform', 'map', { expression: 'nothing.here' }, { scope: {} })).output,
    ).toBeNull();
  });

  it('transform reuses a compiled expression across runs without sharing their data', async () => {
    const expression = '{"n": trigger.n, "double": trigger.n * 2}';
    const outputs = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        runtime()
          .execute('transform', 'map', { expression }, { scope: { trigger: { n } } })
          .then((r) => r.output),
      ),
    );
    expect(outputs).toEqual(Array.from({ length: 20 }, (_, n) => ({ n, double: n * 2 })));
  });

  it('transform reports an invalid expression', async () => {
    const err = await runtime()
      .execute('transform', 'map', { expression: '{"a": ' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect(err).toMatchObject({ code: 'invalid_expression', transient: false });
    expect(err.message).toMatch(/^Invalid JSONata expression: /);
  });

  it('delay waits, and stops when aborted', async () => {
    const started = Date.now();
    expect((await runtime().execute('delay', 'wait', { ms: 30 })).output).toEqual({ waitedMs: 30 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 20);
    const err = await runtime()
      .execute('delay', 'wait', { ms: 60_000 }, { signal: ctl.signal })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'aborted', transient: false });
    expect(
      await runtime()
        .execute('delay', 'wait', { ms: -1 })
        .catch((e) => e.code),
    ).toBe('invalid_input');
  });
});

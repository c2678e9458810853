import { request } from 'node:http';
import { seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV1, connectV2, rawRpc } from '@inlay/test-kit/mcp';
import { type Service, startService } from '@inlay/test-kit/service';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

/**
 * A fetch whose every name resolves to 127.0.0.1, as a DNS-rebinding attack makes it: the browser (here the
 * real MCP client) believes it talks to `rebound.test`, and sends that name as Host and Origin.
 */
const rebindingFetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
  const url = new URL(input instanceof Request ? input.url : input);
  const headers = new Headers(init.headers);
  const body = typeof init.body === 'string' ? init.body : undefined;
  return new Promise<Response>((resolve, reject) => {
    const req = request(
      url,
      {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(headers),
        lookup: (_host, opts, cb) =>
          (opts as { all?: boolean }).all
            ? cb(null, [{ address: '127.0.0.1', family: 4 }])
            : cb(null, '127.0.0.1', 4),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers: h }));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}) as typeof fetch;

/** A raw POST with a Host header of our choosing (fetch would overwrite it). */
function postWithHost(url: string, host: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; contentType?: string; json: any }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode!, contentType: res.headers['content-type'], json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const init = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let url: string;
let jwt: string;
let port: string;

beforeAll(async () => {
  svc = await startService({
    env: { INLAY_MCP_ALLOWED_ORIGINS: 'https://agent-console.example, http://app.example:3000' },
  });
  s = await seedAccount(svc);
  jwt = await tokenFor(svc, s.apiKey, s.userId);
  url = (await svc.call('POST', '/mcp-servers', { auth: s.apiKey, body: { name: 'agents' } })).body.url;
  port = new URL(url).port;
});
afterAll(() => svc?.close());

const auth = () => ({ authorization: `Bearer ${jwt}` });

function expectForbidden(r: { status: number; contentType?: string; json: any }, what: RegExp) {
  expect(r.status).toBe(403);
  expect(r.contentType).toMatch(/^application\/problem\+json/);
  expect(r.json).toMatchObject({
    status: 403,
    code: 'forbidden',
    detail: expect.stringMatching(what),
    jsonrpc: '2.0',
    id: null,
    error: { code: -32005, message: expect.stringMatching(what) },
  });
  // The path holds the server's access token: never echoed.
  expect(JSON.stringify(r.json)).not.toContain(new URL(url).pathname.split('/').at(-1));
}

describe('MCP Host and Origin (DNS rebinding)', () => {
  it('serves the real v1 and v2 clients on the public host', async () => {
    const v2 = await connectV2(url, auth());
    expect((await v2.listTools()).tools.length).toBeGreaterThan(0);
    await v2.close();
    const v1 = await connectV1(url, auth());
    expect((await v1.client.listTools()).tools.length).toBeGreaterThan(0);
    await v1.client.close();
  });

  it('refuses the real client when a rebound name points at the service', async () => {
    const rebound = url.replace('127.0.0.1', 'rebound.test');
    const client = new Client({ name: 'rebound', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(rebound), {
      fetch: rebindingFetch,
      requestInit: { headers: { ...auth(), origin: `http://rebound.test:${port}` } },
    });
    await expect(client.connect(transport)).rejects.toThrow(/403|not this service's public host/);
    // The same fetch reaches the service when the name is the public one: the refusal is the Host's.
    const ok = new Client({ name: 'direct', version: '1.0.0' });
    await ok.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        fetch: rebindingFetch,
        requestInit: { headers: auth() },
      }),
    );
    expect((await ok.listTools()).tools.length).toBeGreaterThan(0);
    await ok.close();
  });

  it.each([
    `rebound.test:${port}`,
    'rebound.test',
    `localhost:${port}`,
    `[::1]:${port}`,
    `127.0.0.1.nip.io:${port}`,
  ])('answers 403 for Host %s', async (host) => {
    expectForbidden(await postWithHost(url, host, init, auth()), /not this service's public host/);
  });

  it('checks Host before the URL, the bearer or the body', async () => {
    const wrongToken = url.replace(/[^/]+$/, 'inlay_mcp_wrong');
    expectForbidden(await postWithHost(wrongToken, 'evil.example', init), /public host/);
    expectForbidden(await postWithHost(url, 'evil.example', '{"jsonrpc":'), /public host/);
  });

  it('accepts the public host in any case, with or without its port', async () => {
    for (const host of [`127.0.0.1:${port}`, '127.0.0.1'])
      expect((await postWithHost(url, host, init, auth())).status).toBe(200);
  });

  it.each([
    'http://evil.example',
    `http://rebound.test:${port}`,
    'https://agent-console.example.evil.example',
    'http://agent-console.example',
    'null',
    'file://',
    'not a url',
  ])('answers 403 for Origin %s', async (origin) => {
    const r = await rawRpc(url, init, { ...auth(), origin });
    expect(r.status).toBe(403);
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(r.text)).toMatchObject({ code: 'forbidden', error: { code: -32005 } });
  });

  it.each([
    'https://agent-console.example',
    'http://app.example:3000',
    'HTTPS://Agent-Console.example:443',
    // The service's own origin, and loopback origins outside production (an MCP inspector on this machine).
    'PUBLIC',
    'http://localhost:6274',
    'http://127.0.0.1:6274',
  ])('serves Origin %s', async (o) => {
    const origin = o === 'PUBLIC' ? new URL(url).origin : o;
    const r = await rawRpc(url, init, { ...auth(), origin });
    expect(r.status, r.text).toBe(200);
  });

  it('serves the origins the account allows in its settings, and only that account’s', async () => {
    const origin = 'https://assistant.acme.test';
    expect((await rawRpc(url, init, { ...auth(), origin })).status).toBe(403);
    const put = await svc.call('PUT', '/settings', { auth: s.apiKey, body: { allowedOrigins: [origin] } });
    expect(put.status, put.text).toBe(200);
    expect((await rawRpc(url, init, { ...auth(), origin })).status).toBe(200);
    const client = await connectV2(url, { ...auth(), origin });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    // Another account's server does not inherit it.
    const other = await svc.account('other-origins');
    const otherUrl = (await svc.call('POST', '/mcp-servers', { auth: other.apiKey, body: { name: 'o' } }))
      .body.url;
    expect((await rawRpc(otherUrl, init, { authorization: `Bearer ${other.apiKey}`, origin })).status).toBe(
      403,
    );
    await svc.call('PUT', '/settings', { auth: s.apiKey, body: { allowedOrigins: [] } });
    expect((await rawRpc(url, init, { ...auth(), origin })).status).toBe(403);
  });

  it('refuses the v1 SDK client (@modelcontextprotocol/sdk) through a rebound name too', async () => {
    const client = new ClientV1({ name: 'rebound-v1', version: '1.0.0' });
    const transport = new TransportV1(new URL(url.replace('127.0.0.1', 'rebound.test')), {
      fetch: rebindingFetch,
      requestInit: { headers: auth() },
    });
    await expect(client.connect(transport)).rejects.toThrow(/403|not this service's public host/);
    await expect(connectV1(url, { ...auth(), origin: 'https://evil.example' })).rejects.toThrow(/403|Origin/);
  });

  it('refuses a real client sending a foreign Origin', async () => {
    await expect(connectV2(url, { ...auth(), origin: 'https://evil.example' })).rejects.toThrow(/403|Origin/);
  });
});

describe('MCP host rules in the configuration', () => {
  const base = { INLAY_DATA_DIR: 'memory://', INLAY_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') };

  it('accepts loopback hosts only without a public URL and outside production', () => {
    expect(loadConfig(base).mcpAllowedHosts.sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).mcpAllowedHosts).toEqual(['localhost']);
    expect(loadConfig({ ...base, INLAY_PUBLIC_URL: 'https://inlay.example.com' }).mcpAllowedHosts).toEqual([
      'inlay.example.com',
    ]);
    expect(
      loadConfig({
        ...base,
        INLAY_PUBLIC_URL: 'https://inlay.example.com',
        INLAY_MCP_PUBLIC_URL: 'https://agents.example.com/',
      }).mcpAllowedHosts,
    ).toEqual(['inlay.example.com', 'agents.example.com']);
  });

  it('reads INLAY_MCP_ALLOWED_ORIGINS as origins and refuses anything else', () => {
    expect(
      loadConfig({ ...base, INLAY_MCP_ALLOWED_ORIGINS: 'https://A.example:443, http://b.example:8080/' })
        .mcpAllowedOrigins,
    ).toEqual(['https://a.example', 'http://b.example:8080']);
    for (const bad of ['a.example', 'https://a.example/path', 'ftp://a.example', 'https://u@a.example'])
      expect(() => loadConfig({ ...base, INLAY_MCP_ALLOWED_ORIGINS: bad })).toThrow(
        /INLAY_MCP_ALLOWED_ORIGINS/,
      );
  });
});

import { createUser } from '@inlay/test-kit/fixtures';
import { connectV2, rawRpc } from '@inlay/test-kit/mcp';
import { type Provider, providerConnectors, providerEgress, startProvider } from '@inlay/test-kit/providers';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials } from '../../src/store/schema.ts';

/**
 * Where an OAuth flow may send the browser or post its result: the account's allowed origins, Inlay's own
 * origin, and loopback outside production. Everything else is refused before anything is stored.
 */
let provider: Provider;
let dev: Service;
let prod: Service;

async function setUp(svc: Service) {
  const { apiKey } = await svc.account();
  const alice = await createUser(svc, apiKey, 'alice');
  await svc.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  await svc.call('PUT', '/settings', { auth: apiKey, body: { allowedOrigins: ['https://app.example.com'] } });
  const start = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    svc.call('POST', '/credentials/oauth', {
      auth: apiKey,
      body: { userId: 'alice', connector: 'acme', ...body },
      headers,
    });
  const pending = async () =>
    (await svc.db.select().from(credentials).where(eq(credentials.userId, alice))).length;
  return { apiKey, alice, start, pending };
}

let d: Awaited<ReturnType<typeof setUp>>;
let p: Awaited<ReturnType<typeof setUp>>;

beforeAll(async () => {
  provider = await startProvider();
  const opts = { connectors: providerConnectors(provider.url), env: providerEgress(provider) };
  dev = await startService(opts);
  prod = await startService({ ...opts, env: { ...opts.env, NODE_ENV: 'production' } });
  d = await setUp(dev);
  p = await setUp(prod);
});
afterAll(async () => {
  await dev?.close();
  await prod?.close();
  await provider?.close();
});

describe('POST /credentials/oauth: redirectUri and popup origin', () => {
  it('accepts a redirectUri and a popup origin on an allowed origin, and Inlay’s own origin', async () => {
    for (const s of [d, p]) {
      expect((await s.start({ redirectUri: 'https://app.example.com/settings?tab=apps' })).status).toBe(201);
      expect((await s.start({ origin: 'https://app.example.com' })).status).toBe(201);
      expect((await s.start({}, { origin: 'https://app.example.com' })).status).toBe(201);
    }
    expect((await d.start({ redirectUri: `${dev.url}/oauth/done` })).status).toBe(201);
  });

  it('refuses a foreign origin with a 422 naming the field, and stores nothing', async () => {
    for (const s of [d, p]) {
      const before = await s.pending();
      const cases: [Record<string, unknown>, Record<string, string>, string][] = [
        [{ redirectUri: 'https://evil.example/landing' }, {}, 'body.redirectUri'],
        [{ redirectUri: 'https://app.example.com.evil.example/' }, {}, 'body.redirectUri'],
        [{ redirectUri: 'http://app.example.com/' }, {}, 'body.redirectUri'], // another scheme
        [{ redirectUri: 'https://app.example.com:8443/' }, {}, 'body.redirectUri'], // another port
        [{ origin: 'https://evil.example' }, {}, 'body.origin'],
        [{ popup: true, redirectUri: 'https://evil.example/' }, {}, 'body.redirectUri'],
        [{ origin: 'https://app.example.com', redirectUri: 'https://evil.example/' }, {}, 'body.redirectUri'],
        [{}, { origin: 'https://evil.example' }, 'header.origin'],
      ];
      for (const [body, headers, field] of cases) {
        const r = await s.start(body, headers);
        expectProblem(r, 422, 'unprocessable', field, 'allowed_origin');
        expect(r.body.detail).toContain('allowed origins');
      }
      expect(await s.pending()).toBe(before);
    }
  });

  it('refuses javascript: and other schemes with a 400', async () => {
    for (const s of [d, p]) {
      for (const redirectUri of ['javascript:alert(1)', 'data:text/html,x', 'ftp://app.example.com/'])
        expectProblem(await s.start({ redirectUri }), 400, 'invalid_request', 'body.redirectUri');
      expectProblem(await s.start({ origin: 'javascript:alert(1)' }), 400, 'invalid_request', 'body.origin');
    }
  });

  it('accepts loopback origins outside production only', async () => {
    const loopback = ['http://localhost:5173/back', 'http://127.0.0.1:3000/', 'http://[::1]:8080/x'];
    for (const redirectUri of loopback) {
      expect((await d.start({ redirectUri })).status).toBe(201);
      expectProblem(
        await p.start({ redirectUri }),
        422,
        'unprocessable',
        'body.redirectUri',
        'allowed_origin',
      );
    }
    expect((await d.start({ origin: 'http://localhost:3000' })).status).toBe(201);
    expectProblem(await p.start({ origin: 'http://localhost:3000' }), 422, 'unprocessable', 'body.origin');
  });

  it('follows the settings: an origin added later is accepted, one removed is refused', async () => {
    const add = (allowedOrigins: string[]) =>
      prod.call('PUT', '/settings', { auth: p.apiKey, body: { allowedOrigins } });
    await add(['https://app.example.com', 'https://new.example']);
    expect((await p.start({ redirectUri: 'https://new.example/back' })).status).toBe(201);
    await add(['https://app.example.com']);
    expectProblem(await p.start({ redirectUri: 'https://new.example/back' }), 422, 'unprocessable');
  });
});

describe('MCP: x-redirect-uri and create_credential_inlay’s redirectUri', () => {
  async function mcpServer(svc: Service, apiKey: string) {
    return (await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'agents' } })).body as {
      url: string;
    };
  }
  const tool = (redirectUri?: string) => ({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: {
      name: 'create_credential_inlay',
      arguments: {
        connectorId: 'acme',
        authenticationType: 'oauth2',
        ...(redirectUri ? { redirectUri } : {}),
      },
    },
  });

  it('refuses an x-redirect-uri that is not http(s)', async () => {
    const server = await mcpServer(dev, d.apiKey);
    for (const value of ['javascript:alert(1)', 'data:text/html,x', 'not a url']) {
      const r = await rawRpc(server.url, JSON.stringify(tool()), {
        authorization: `Bearer ${d.apiKey}`,
        'x-inlay-userid': 'alice',
        'x-redirect-uri': value,
      });
      expect(r.status).toBe(400);
      expect(r.text).toContain('x-redirect-uri must be an absolute http(s) URL');
    }
  });

  it('applies the allowlist to the tool’s redirectUri and to x-redirect-uri, and stores nothing', async () => {
    for (const [svc, s] of [
      [dev, d],
      [prod, p],
    ] as const) {
      const server = await mcpServer(svc, s.apiKey);
      const before = await s.pending();
      const variants: Record<string, string>[] = [{}, { 'x-redirect-uri': 'https://evil.example/landing' }];
      for (const headers of variants) {
        const client = await connectV2(server.url, {
          authorization: `Bearer ${s.apiKey}`,
          'x-inlay-userid': 'alice',
          ...headers,
        });
        try {
          const args = { connectorId: 'acme', authenticationType: 'oauth2' };
          const refused = (await client.callTool({
            name: 'create_credential_inlay',
            arguments:
              'x-redirect-uri' in headers ? args : { ...args, redirectUri: 'https://evil.example/x' },
          })) as any;
          expect(refused.isError).toBe(true);
          expect(refused.content[0].text).toContain('redirectUri');
          expect(refused.content[0].text).toContain(
            "https://evil.example is not one of the account's allowed origins",
          );
          // The tool's input schema takes http(s) URLs only: the call is refused as invalid params.
          await expect(
            client.callTool({
              name: 'create_credential_inlay',
              arguments: { ...args, redirectUri: 'javascript:alert(1)' },
            }),
          ).rejects.toThrow('redirectUri: must be an absolute http(s) URL');
          const ok = (await client.callTool({
            name: 'create_credential_inlay',
            arguments: { ...args, redirectUri: 'https://app.example.com/back' },
          })) as any;
          expect(ok.isError, JSON.stringify(ok)).toBeFalsy();
          expect(ok.structuredContent.status).toBe('pending');
        } finally {
          await client.close();
        }
      }
      expect(await s.pending()).toBe(before + 2);
    }
  });

  it('accepts a loopback x-redirect-uri outside production only', async () => {
    for (const [svc, s, allowed] of [
      [dev, d, true],
      [prod, p, false],
    ] as const) {
      const server = await mcpServer(svc, s.apiKey);
      const client = await connectV2(server.url, {
        authorization: `Bearer ${s.apiKey}`,
        'x-inlay-userid': 'alice',
        'x-redirect-uri': 'http://localhost:5173/back',
      });
      try {
        const r = (await client.callTool({
          name: 'create_credential_inlay',
          arguments: { connectorId: 'acme', authenticationType: 'oauth2' },
        })) as any;
        expect(Boolean(r.isError)).toBe(!allowed);
      } finally {
        await client.close();
      }
    }
  });
});

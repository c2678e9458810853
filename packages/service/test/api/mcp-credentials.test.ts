import { TestBrowser } from '@inlay/test-kit/browser';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV1, connectV2 } from '@inlay/test-kit/mcp';
import {
  GOOD_KEY,
  type Provider,
  providerConnectors,
  providerEgress,
  startProvider,
} from '@inlay/test-kit/providers';
import { type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials } from '../../src/store/schema.ts';

let provider: Provider;
let svc: Service;
let apiKey: string;
let alice: string;
let server: { serverId: string; accessToken: string; url: string };

beforeAll(async () => {
  provider = await startProvider();
  svc = await startService({ connectors: providerConnectors(provider.url), env: providerEgress(provider) });
  ({ apiKey } = await svc.account());
  alice = await createUser(svc, apiKey, 'alice');
  await svc.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  server = (await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'agents' } })).body;
});
afterAll(async () => {
  await svc?.close();
  await provider?.close();
});

const call = (client: Awaited<ReturnType<typeof connectV2>>, args: Record<string, unknown>) =>
  client.callTool({ name: 'create_credential_inlay', arguments: args }) as Promise<any>;

describe('create_credential_inlay', () => {
  it('checks an API key with the provider and stores it connected; the result holds no secret', async () => {
    const jwt = await tokenFor(svc, apiKey, alice);
    const client = await connectV2(server.url, { authorization: `Bearer ${jwt}` });
    try {
      const r = await call(client, {
        connectorId: 'keyco',
        authenticationType: 'apiKey',
        fields: { apiKey: GOOD_KEY },
      });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ credentialId: expect.any(String), status: 'connected' });
      expect(JSON.stringify(r)).not.toContain(GOOD_KEY);
      const [row] = await svc.db
        .select()
        .from(credentials)
        .where(eq(credentials.id, r.structuredContent.credentialId));
      expect(row).toMatchObject({ userId: alice, connector: 'keyco', status: 'connected' });
      expect(svc.ctx.credentials.open(row!)).toEqual({ fields: { apiKey: GOOD_KEY } });
      const listed = (await client.callTool({ name: 'get_credentials_inlay', arguments: {} })) as any;
      expect(
        listed.structuredContent.credentials.map((c: { credentialId: string }) => c.credentialId),
      ).toContain(r.structuredContent.credentialId);
    } finally {
      await client.close();
    }
  });

  it('reports the provider reason for a rejected key and stores nothing', async () => {
    const client = await connectV2(server.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': 'alice',
    });
    try {
      const before = (await svc.db.select().from(credentials).where(eq(credentials.userId, alice))).length;
      const r = await call(client, {
        connectorId: 'keyco',
        authenticationType: 'apiKey',
        fields: { apiKey: 'key-bad-zzzz1234' },
      });
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toContain(
        'KeyCo rejected the credential: 401: Invalid API key ending in 1234',
      );
      expect(r.content[0].text).not.toContain('key-bad-zzzz1234');
      const missing = await call(client, { connectorId: 'keyco', authenticationType: 'apiKey', fields: {} });
      expect(missing.isError).toBe(true);
      expect(missing.content[0].text).toContain('apiKey');
      const wrongType = await call(client, { connectorId: 'acme', authenticationType: 'apiKey' });
      expect(wrongType.isError).toBe(true);
      expect(wrongType.content[0].text).toContain('authenticates with oauth2');
      expect((await svc.db.select().from(credentials).where(eq(credentials.userId, alice))).length).toBe(
        before,
      );
    } finally {
      await client.close();
    }
  });

  it('starts an OAuth connection that returns to redirectUri, and the user completes it in a browser', async () => {
    const { client } = await connectV1(server.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': alice,
    });
    try {
      const r = (await client.callTool({
        name: 'create_credential_inlay',
        arguments: {
          connectorId: 'acme',
          authenticationType: 'oauth2',
          redirectUri: 'http://localhost:5173/back',
        },
      })) as any;
      expect(r.isError).toBeFalsy();
      const { credentialId, status, authorizeUrl } = r.structuredContent;
      expect(status).toBe('pending');
      const browser = new TestBrowser();
      expect(new URL(await browser.start(authorizeUrl)).searchParams.get('code_challenge_method')).toBe(
        'S256',
      );
      const back = await browser.connect(authorizeUrl);
      const to = new URL(back.headers.get('location')!);
      expect(to.origin + to.pathname).toBe('http://localhost:5173/back');
      expect(to.searchParams.get('credentialId')).toBe(credentialId);
      expect(to.searchParams.get('status')).toBe('connected');
      const listed = (await client.callTool({
        name: 'get_credentials_inlay',
        arguments: { connectorId: 'acme' },
      })) as any;
      expect(listed.structuredContent.credentials).toEqual([
        expect.objectContaining({ credentialId, connector: 'acme', status: 'connected' }),
      ]);
    } finally {
      await client.close();
    }
  });

  it('without a redirectUri, the callback page posts to the service origin and the agent polls', async () => {
    const client = await connectV2(server.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': alice,
    });
    try {
      const r = await call(client, { connectorId: 'acme', authenticationType: 'oauth2' });
      expect(r.isError, JSON.stringify(r)).toBeFalsy();
      const page = await new TestBrowser().connect(r.structuredContent.authorizeUrl);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`window.opener.postMessage(message, "${new URL(svc.url).origin}")`);
      const got = await svc.call('GET', `/credentials/${r.structuredContent.credentialId}?userId=alice`, {
        auth: apiKey,
      });
      expect(got.body.data.status).toBe('connected');
    } finally {
      await client.close();
    }
  });

  it('stops listing an OAuth connection nobody finished within 10 minutes; by id it reads as failed', async () => {
    const jwt = await tokenFor(svc, apiKey, alice);
    const client = await connectV2(server.url, { authorization: `Bearer ${jwt}` });
    try {
      const r = await call(client, { connectorId: 'acme', authenticationType: 'oauth2' });
      const { credentialId } = r.structuredContent;
      await svc.db
        .update(credentials)
        .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
        .where(eq(credentials.id, credentialId));
      const listed = (await client.callTool({
        name: 'get_credentials_inlay',
        arguments: { connectorId: 'acme' },
      })) as any;
      const ids = listed.structuredContent.credentials.map((c: { credentialId: string }) => c.credentialId);
      expect(ids).not.toContain(credentialId);
      const rest = await svc.call('GET', `/credentials/${credentialId}?userId=alice`, { auth: apiKey });
      expect(rest.body.data).toMatchObject({
        status: 'failed',
        statusReason: expect.stringContaining('10 minutes'),
      });
    } finally {
      await client.close();
    }
  });

  it('acts only for a user', async () => {
    const client = await connectV2(server.url, { authorization: `Bearer ${apiKey}` });
    try {
      const r = await call(client, {
        connectorId: 'keyco',
        authenticationType: 'apiKey',
        fields: { apiKey: GOOD_KEY },
      });
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toContain('acts for a user');
    } finally {
      await client.close();
    }
  });
});

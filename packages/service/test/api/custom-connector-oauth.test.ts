import { TestBrowser } from '@inlay/test-kit/browser';
import { createUser } from '@inlay/test-kit/fixtures';
import { type Provider, providerEgress, startProvider } from '@inlay/test-kit/providers';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let provider: Provider;
let svc: Service;
let apiKey: string;
let otherKey: string;
let alice: string;
const HOST = 'http://host.test';

/** A declarative OAuth connector for the fake provider: authorize, token and API on 127.0.0.1. */
const crm = (url: string) => ({
  id: 'oauthcrm',
  name: 'OAuth CRM',
  description: 'An OAuth app defined as data',
  category: 'crm',
  icon: 'oauthcrm',
  baseUrl: `${url}/api`,
  auth: {
    type: 'oauth2',
    authorizeUrl: `${url}/oauth/authorize`,
    tokenUrl: `${url}/oauth/token`,
    scopes: ['read'],
    pkce: true,
    tokenAuth: 'basic',
  },
  test: { method: 'GET', path: '/me', label: 'workspace' },
  actions: [
    {
      id: 'me',
      name: 'Me',
      description: 'Who the token acts as',
      kind: 'read',
      input: { type: 'object' },
      request: { method: 'GET', path: '/me' },
    },
  ],
});

beforeAll(async () => {
  provider = await startProvider();
  svc = await startService({ env: providerEgress(provider) });
  ({ apiKey } = await svc.account('oauth custom'));
  ({ apiKey: otherKey } = await svc.account('other'));
  alice = await createUser(svc, apiKey, 'alice');
  await svc.call('PUT', '/settings', { auth: apiKey, body: { allowedOrigins: [HOST] } });
  const created = await svc.call('POST', '/connectors', { auth: apiKey, body: crm(provider.url) });
  if (created.status !== 201) throw new Error(created.text);
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await provider?.close();
});

describe('a custom OAuth connector', () => {
  it('registers its OAuth app, connects through the consent flow, and proxies with the token', async () => {
    expectProblem(
      await svc.call('PUT', '/connectors/oauthcrm/oauth-app', {
        auth: otherKey,
        body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
      }),
      404,
      'not_found',
    );
    const app = await svc.call('PUT', '/connectors/oauthcrm/oauth-app', {
      auth: apiKey,
      body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    });
    expect(app.status).toBe(200);
    expect(app.body.data).toMatchObject({ connector: 'oauthcrm', scopes: ['read'] });

    const started = await svc.call('POST', '/credentials/oauth', {
      auth: apiKey,
      body: { userId: alice, connector: 'oauthcrm', origin: HOST },
    });
    expect(started.status).toBe(201);
    const browser = new TestBrowser();
    const res = await browser.open(await browser.consent(started.body.authorizeUrl));
    expect(res.status).toBe(200);
    expect(provider.authorizeRequests.at(-1)!.get('code_challenge')).toBeTruthy();
    const cred = await svc.call('GET', `/credentials/${started.body.credentialId}?userId=${alice}`, {
      auth: apiKey,
    });
    expect(cred.body.data, JSON.stringify(cred.body.data)).toMatchObject({
      connector: 'oauthcrm',
      status: 'connected',
    });

    const me = await svc.call('GET', `/connectors/oauthcrm/proxy/me?userId=${alice}`, { auth: apiKey });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: 'me' });
    expect(provider.apiRequests.at(-1)!.authorization).toMatch(/^Bearer at_/);
  });
});

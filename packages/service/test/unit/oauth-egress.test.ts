import { ConnectorRuntime, EgressPolicy } from '@inlay/connectors';
import { type Provider, providerConnectors, startProvider } from '@inlay/test-kit/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthClient, OAuthError } from '../../src/credentials/oauth-client.ts';

let provider: Provider;
beforeAll(async () => {
  provider = await startProvider();
});
afterAll(() => provider?.close());

/** The OAuth client over a runtime with this egress allow-list and these operator overrides. */
function client(env: Record<string, string> = {}, allow = '') {
  const runtime = new ConnectorRuntime({
    connectors: providerConnectors(provider.url),
    env,
    egress: new EgressPolicy({ allow }),
  });
  const oauth = new OAuthClient(runtime, { allowHttp: () => true });
  const target = {
    def: runtime.get('acme')!,
    fields: {},
    app: { clientId: provider.clientId, clientSecret: provider.clientSecret, scopes: [] },
  };
  return { oauth, target, close: () => runtime.egress.close() };
}

describe('OAuth token calls and the egress policy', () => {
  it('refuses a token endpoint the operator did not set when it resolves to loopback, without a request', async () => {
    const c = client();
    const before = provider.tokenRequests.length;
    const err = await c.oauth.refresh(c.target, 'rt_whatever').catch((e) => e);
    expect(err).toBeInstanceOf(OAuthError);
    expect(err.transient).toBe(false);
    expect(err.reason).toMatch(
      /^The egress policy refused 127\.0\.0\.1: the address is in 127\.0\.0\.0\/8 \(loopback\)/,
    );
    expect(provider.tokenRequests.length).toBe(before);
    c.close();
  });

  it('trusts the operator’s INLAY_CONNECTOR_<ID>_TOKEN_URL as written', async () => {
    const c = client({ INLAY_CONNECTOR_ACME_TOKEN_URL: `${provider.url}/oauth/token` });
    const before = provider.tokenRequests.length;
    const err = await c.oauth.refresh(c.target, 'rt_unknown').catch((e) => e);
    // The provider answered (an unknown refresh token): the request went out.
    expect(provider.tokenRequests.length).toBe(before + 1);
    expect(provider.tokenRequests.at(-1)).toMatchObject({ grantType: 'refresh_token', clientAuth: 'basic' });
    expect(err).toMatchObject({ transient: false, reason: expect.stringContaining('invalid_grant') });
    c.close();
  });

  it('reaches an endpoint INLAY_EGRESS_ALLOW opens', async () => {
    const c = client({}, new URL(provider.url).host);
    const before = provider.tokenRequests.length;
    await c.oauth.refresh(c.target, 'rt_unknown').catch(() => undefined);
    expect(provider.tokenRequests.length).toBe(before + 1);
    c.close();
  });
});

import { createHash, randomUUID } from 'node:crypto';
import { TestBrowser } from '@inlay/test-kit/browser';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { type Provider, providerConnectors, providerEgress, startProvider } from '@inlay/test-kit/providers';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256 } from '../../src/accounts/api-keys.ts';
import { oauthAppAad } from '../../src/credentials/oauth-apps.ts';
import { credentials, oauthApps, oauthStates } from '../../src/store/schema.ts';

let provider: Provider;
let svc: Service;
/** Every log line the service writes (debug level), to prove no secret reaches a log. */
const logs: string[] = [];
let apiKey: string;
let accountId: string;
let alice: string;
const HOST = 'http://app.example.test:3000';

beforeAll(async () => {
  provider = await startProvider();
  svc = await startService({
    connectors: providerConnectors(provider.url),
    env: providerEgress(provider),
    logs,
  });
  ({ apiKey, accountId } = await svc.account());
  alice = await createUser(svc, apiKey, 'alice');
  // The host's pages: the only places (besides loopback in development) a flow may return to.
  await svc.call('PUT', '/settings', {
    auth: apiKey,
    body: { allowedOrigins: [HOST, 'https://host.example'] },
  });
  const app = await svc.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  if (app.status !== 200) throw new Error(app.text);
});
afterAll(async () => {
  await svc?.close();
  await provider?.close();
});

/** Starts a connection for a user; returns the pending credential and the consent URL. */
async function start(body: Record<string, unknown> = {}, auth = apiKey) {
  const r = await svc.call('POST', '/credentials/oauth', {
    auth,
    body: { userId: auth === apiKey ? 'alice' : undefined, connector: 'acme', origin: HOST, ...body },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body as { credentialId: string; authorizeUrl: string };
}

/** The user's browser: it opens the start link (which gives it the flow's cookie) and the callback. */
const browser = new TestBrowser();

/** The browser at the start link and the provider: consent, then the provider's redirect back to Inlay. */
const consent = (authorizeUrl: string): Promise<string> => browser.consent(authorizeUrl);

/** The provider's consent URL behind a start link (opened in the user's browser, which may reopen it). */
const providerUrl = async (authorizeUrl: string) => new URL(await browser.start(authorizeUrl));

const callback = (url: string, accept = 'text/html') => browser.open(url, accept);

const statusOf = async (id: string, auth = apiKey) =>
  (await svc.call('GET', `/credentials/${id}?userId=${alice}`, { auth })).body.data;

const rowOf = async (id: string) =>
  (await svc.db.select().from(credentials).where(eq(credentials.id, id)))[0]!;

/** Connects `alice` end to end and returns the credential id. */
async function connected(): Promise<string> {
  const { credentialId, authorizeUrl } = await start();
  const res = await callback(await consent(authorizeUrl));
  expect(res.status).toBe(200);
  return credentialId;
}

/** Loads the paged options, which resolves (and refreshes) the credential. */
const options = (credentialId: string) =>
  svc.call('GET', `/connectors/acme/options/projects?userId=alice&credentialId=${credentialId}`, {
    auth: apiKey,
  });

describe('PUT /connectors/{connector}/oauth-app', () => {
  it('stores the client with the secret sealed to its row; the answer never shows the secret', async () => {
    const r = await svc.call('PUT', '/connectors/acme/oauth-app', {
      auth: apiKey,
      body: { clientId: provider.clientId, clientSecret: provider.clientSecret, scopes: ['read', 'write'] },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      connector: 'acme',
      clientId: provider.clientId,
      scopes: ['read', 'write'],
      redirectUri: `${svc.url}/oauth/callback/acme`,
      updatedAt: expect.any(String),
    });
    expect(r.text).not.toContain(provider.clientSecret);
    const [row] = await svc.db.select().from(oauthApps).where(eq(oauthApps.accountId, accountId));
    expect(row!.clientSecretSealed).toMatch(/^v1\./);
    expect(row!.clientSecretSealed).not.toContain(provider.clientSecret);
    expect(row!.keyId).toBe(svc.ctx.vault.keyId);
    expect(svc.ctx.vault.open(row!.clientSecretSealed, oauthAppAad(row!))).toBe(provider.clientSecret);
    // Put it back to the default scopes.
    await svc.call('PUT', '/connectors/acme/oauth-app', {
      auth: apiKey,
      body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    });
  });

  it('is API key only, OAuth connectors only, and validates the body', async () => {
    const jwt = await tokenFor(svc, apiKey, alice);
    const body = { clientId: 'x', clientSecret: 'y' };
    expectProblem(await svc.call('PUT', '/connectors/acme/oauth-app', { auth: jwt, body }), 403, 'forbidden');
    expectProblem(
      await svc.call('PUT', '/connectors/keyco/oauth-app', { auth: apiKey, body }),
      422,
      'unprocessable',
      'path.connector',
      'auth_type',
    );
    expectProblem(
      await svc.call('PUT', '/connectors/nope/oauth-app', { auth: apiKey, body }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('PUT', '/connectors/acme/oauth-app', { auth: apiKey, body: { clientId: 'x' } }),
      400,
      'invalid_request',
      'body.clientSecret',
    );
    expectProblem(await svc.call('PUT', '/connectors/acme/oauth-app', { body }), 401, 'unauthorized');
  });

  it('is per account: another account without an app cannot start a connection', async () => {
    const other = await svc.account('other');
    await createUser(svc, other.apiKey, 'alice');
    const r = await svc.call('POST', '/credentials/oauth', {
      auth: other.apiKey,
      body: { userId: 'alice', connector: 'acme', origin: HOST },
    });
    expectProblem(r, 422, 'unprocessable', 'body.connector', 'oauth_app');
  });
});

describe('the authorization code flow with PKCE', () => {
  it('returns a pending credential and the consent URL with state, PKCE S256, client and redirect', async () => {
    const { credentialId, authorizeUrl } = await start();
    const url = await providerUrl(authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.url}/oauth/authorize`);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(provider.clientId);
    expect(q.get('redirect_uri')).toBe(`${svc.url}/oauth/callback/acme`);
    expect(q.get('scope')).toBe('read');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{43}$/);
    expect(await statusOf(credentialId)).toMatchObject({
      status: 'pending',
      type: 'oauth2',
      statusReason: null,
    });
    // The state is stored hashed, bound to the user and the credential, for 10 minutes.
    const [state] = await svc.db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.stateHash, sha256(q.get('state')!)));
    expect(state).toMatchObject({ userId: alice, accountId, credentialId, popup: true, origin: HOST });
    // createdAt is the database clock, expiresAt the service's: allow a little skew.
    expect(Math.abs(state!.expiresAt.getTime() - state!.createdAt.getTime() - 600_000)).toBeLessThan(5_000);
    expect(state!.sealed).not.toContain(q.get('code_challenge')!);
  });

  it('exchanges the code with the PKCE verifier and client authentication, and stores the tokens sealed', async () => {
    const before = provider.tokenRequests.length;
    const { credentialId, authorizeUrl } = await start();
    const challenge = (await providerUrl(authorizeUrl)).searchParams.get('code_challenge');
    const back = await consent(authorizeUrl);
    expect(back.startsWith(`${svc.url}/oauth/callback/acme?`)).toBe(true);
    const res = await callback(back);
    expect(res.status).toBe(200);
    const [exchange] = provider.tokenRequests.slice(before);
    expect(exchange).toMatchObject({ grantType: 'authorization_code', clientAuth: 'basic' });
    expect(createHash('sha256').update(exchange!.codeVerifier!).digest('base64url')).toBe(challenge);
    const status = await statusOf(credentialId);
    expect(status).toMatchObject({ status: 'connected', statusReason: null });
    const row = await rowOf(credentialId);
    expect(row.sealed).toMatch(/^v1\./);
    const secrets = svc.ctx.credentials.open(row);
    expect(secrets.oauth).toMatchObject({
      accessToken: expect.stringMatching(/^at_/),
      refreshToken: expect.stringMatching(/^rt_/),
      tokenType: 'bearer',
    });
    expect(row.sealed).not.toContain(secrets.oauth!.accessToken);
    expect(row.sealed).not.toContain(secrets.oauth!.refreshToken!);
    expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    // The credential works against the provider API.
    const opts = await options(credentialId);
    expect(opts.status, opts.text).toBe(200);
  });

  it('answers the popup with a page that posts to its opener with an explicit origin and on a BroadcastChannel', async () => {
    const { credentialId, authorizeUrl } = await start();
    const res = await callback(await consent(authorizeUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[\w+/=]+'/);
    const html = await res.text();
    const message = JSON.stringify({ type: 'inlay:oauth', credentialId, status: 'connected' });
    expect(html).toContain(`var message = ${message};`);
    expect(html).toContain(`window.opener.postMessage(message, "${HOST}")`);
    expect(html).not.toMatch(/postMessage\(message, ["']\*["']\)/);
    expect(html).toContain('new BroadcastChannel("inlay:oauth")');
    expect(html).toContain('window.close()');
    // No token or code in the page.
    const secrets = svc.ctx.credentials.open(await rowOf(credentialId));
    expect(html).not.toContain(secrets.oauth!.accessToken);
    expect(html).not.toContain('code_');
    // The script's hash is what the CSP allows.
    const script = /<script>([\s\S]*)<\/script>/.exec(html)![1]!;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  });

  it('takes the popup origin from redirectUri or the Origin header, and needs one', async () => {
    const r = await svc.call('POST', '/credentials/oauth', {
      auth: apiKey,
      body: { userId: 'alice', connector: 'acme' },
      headers: { origin: 'https://host.example' },
    });
    expect(r.status).toBe(201);
    const state = (await providerUrl(r.body.authorizeUrl)).searchParams.get('state')!;
    const [row] = await svc.db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.stateHash, sha256(state)));
    expect(row!.origin).toBe('https://host.example');
    expectProblem(
      await svc.call('POST', '/credentials/oauth', {
        auth: apiKey,
        body: { userId: 'alice', connector: 'acme' },
      }),
      400,
      'invalid_request',
      'body.origin',
      'required',
    );
    expectProblem(
      await svc.call('POST', '/credentials/oauth', {
        auth: apiKey,
        body: { userId: 'alice', connector: 'acme', redirectUri: 'javascript:alert(1)' },
      }),
      400,
      'invalid_request',
      'body.redirectUri',
    );
    expectProblem(
      await svc.call('POST', '/credentials/oauth', {
        auth: apiKey,
        body: { userId: 'alice', connector: 'acme', popup: false },
      }),
      400,
      'invalid_request',
      'body.redirectUri',
      'required',
    );
    expectProblem(
      await svc.call('POST', '/credentials/oauth', {
        auth: apiKey,
        body: { userId: 'alice', connector: 'keyco', origin: HOST },
      }),
      422,
      'unprocessable',
      'body.connector',
      'auth_type',
    );
  });

  it('without a popup, redirects to redirectUri with the result', async () => {
    const redirectUri = `${HOST}/settings/integrations?tab=apps`;
    const { credentialId, authorizeUrl } = await start({ redirectUri });
    const res = await callback(await consent(authorizeUrl));
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(`${HOST}/settings/integrations`);
    expect(to.searchParams.get('tab')).toBe('apps');
    expect(to.searchParams.get('credentialId')).toBe(credentialId);
    expect(to.searchParams.get('status')).toBe('connected');
    expect(to.searchParams.has('code')).toBe(false);
    expect((await statusOf(credentialId)).status).toBe('connected');
  });

  it('turns a denied consent into failed with the provider reason', async () => {
    provider.consent = 'deny';
    try {
      const popup = await start();
      const page = await callback(await consent(popup.authorizeUrl));
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('"status":"failed"');
      expect(html).toContain('access_denied: The user denied access to Acme');
      expect(html).toContain('"code":"access_denied"');
      expect(await statusOf(popup.credentialId)).toMatchObject({
        status: 'failed',
        statusReason: 'access_denied: The user denied access to Acme',
      });
      expect((await rowOf(popup.credentialId)).sealed).toBeNull();

      const redirected = await start({ redirectUri: `${HOST}/done` });
      const res = await callback(await consent(redirected.authorizeUrl));
      const to = new URL(res.headers.get('location')!);
      expect(to.searchParams.get('status')).toBe('failed');
      expect(to.searchParams.get('reason')).toBe('access_denied: The user denied access to Acme');
      expect(to.searchParams.get('code')).toBe('access_denied');
    } finally {
      provider.consent = 'allow';
    }
  });

  it('lists no account after a denied consent; trying again yields exactly one connected account', async () => {
    const user = await createUser(svc, apiKey, `deny-${randomUUID().slice(0, 8)}`);
    const listed = async () =>
      (await svc.call('GET', `/credentials?userId=${user}`, { auth: apiKey })).body.data as {
        status: string;
      }[];
    provider.consent = 'deny';
    try {
      const denied = await svc.call('POST', '/credentials/oauth', {
        auth: apiKey,
        body: { userId: user, connector: 'acme', origin: HOST },
      });
      await callback(await consent(denied.body.authorizeUrl));
      expect(await listed()).toEqual([]);
    } finally {
      provider.consent = 'allow';
    }
    const allowed = await svc.call('POST', '/credentials/oauth', {
      auth: apiKey,
      body: { userId: user, connector: 'acme', origin: HOST },
    });
    await callback(await consent(allowed.body.authorizeUrl));
    expect((await listed()).map((c) => c.status)).toEqual(['connected']);
  });

  it('refuses an authorization response naming another issuer (RFC 9207 mix-up), before any token request', async () => {
    const tokenRequests = () =>
      provider.tokenRequests.filter((t) => t.grantType === 'authorization_code').length;
    provider.issuer = 'https://attacker.example';
    try {
      const before = tokenRequests();
      const { credentialId, authorizeUrl } = await start();
      const page = await callback(await consent(authorizeUrl));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('"status":"failed"');
      const s = await statusOf(credentialId);
      expect(s.status).toBe('failed');
      expect(s.statusReason).toContain('came from another server (issuer https://attacker.example');
      expect(tokenRequests()).toBe(before);
    } finally {
      provider.issuer = undefined;
    }
    // The provider's own origin as `iss` is accepted.
    provider.issuer = provider.url;
    try {
      const { credentialId, authorizeUrl } = await start();
      await callback(await consent(authorizeUrl));
      expect((await statusOf(credentialId)).status).toBe('connected');
    } finally {
      provider.issuer = undefined;
    }
  });

  it('refuses a response that comes back to another connector’s callback (mix-up), before any token request', async () => {
    const tokenRequests = () =>
      provider.tokenRequests.filter((t) => t.grantType === 'authorization_code').length;
    const before = tokenRequests();
    for (const elsewhere of ['/oauth/callback/other', '/oauth/callback']) {
      const { credentialId, authorizeUrl } = await start();
      const back = new URL(await consent(authorizeUrl));
      expect(back.pathname).toBe('/oauth/callback/acme');
      const page = await callback(`${svc.url}${elsewhere}${back.search}`, 'application/json');
      expect(page.status).toBe(400);
      const problem = (await page.json()) as { errors: unknown[] };
      expect(problem.errors[0]).toMatchObject({ field: 'query.state', rule: 'callback' });
      expect(await statusOf(credentialId)).toMatchObject({ status: 'pending' });
      // The state is spent: the right callback cannot complete it afterwards either.
      expect((await callback(back.href, 'application/json')).status).toBe(400);
    }
    expect(tokenRequests()).toBe(before);
  });

  it('turns a token endpoint error (a wrong client secret) into failed with the provider reason', async () => {
    await svc.call('PUT', '/connectors/acme/oauth-app', {
      auth: apiKey,
      body: { clientId: provider.clientId, clientSecret: 'not-the-secret' },
    });
    try {
      const { credentialId, authorizeUrl } = await start();
      await callback(await consent(authorizeUrl));
      const s = await statusOf(credentialId);
      expect(s.status).toBe('failed');
      expect(s.statusReason).toContain('invalid_client');
    } finally {
      await svc.call('PUT', '/connectors/acme/oauth-app', {
        auth: apiKey,
        body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
      });
    }
  });
});

describe('state', () => {
  it('is single-use: a replayed callback is rejected and changes nothing', async () => {
    const { credentialId, authorizeUrl } = await start();
    const back = await consent(authorizeUrl);
    expect((await callback(back)).status).toBe(200);
    const sealed = (await rowOf(credentialId)).sealed;
    const again = await callback(back);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already been used');
    const json = await callback(back, 'application/json');
    expect(json.status).toBe(400);
    const body = (await json.json()) as { errors: unknown[] };
    expect(body.errors).toEqual([{ field: 'query.state', rule: 'used', message: expect.any(String) }]);
    expect((await rowOf(credentialId)).sealed).toBe(sealed);
    expect((await statusOf(credentialId)).status).toBe('connected');
  });

  it('expires after 10 minutes: a late callback is rejected and the credential stays pending', async () => {
    const { credentialId, authorizeUrl } = await start();
    const state = (await providerUrl(authorizeUrl)).searchParams.get('state')!;
    const back = await consent(authorizeUrl);
    const before = provider.tokenRequests.length;
    // Ten minutes and a second later.
    await svc.db
      .update(oauthStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthStates.stateHash, sha256(state)));
    const res = await callback(back, 'application/json');
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors[0]).toMatchObject({ field: 'query.state', rule: 'expired' });
    expect(provider.tokenRequests.length).toBe(before);
    expect((await statusOf(credentialId)).status).toBe('pending');
  });

  it('reports a connection never completed within 10 minutes as failed, so a poller stops waiting', async () => {
    const { credentialId } = await start();
    expect((await statusOf(credentialId)).status).toBe('pending');
    await svc.db
      .update(credentials)
      .set({ createdAt: new Date(Date.now() - 601_000) })
      .where(eq(credentials.id, credentialId));
    expect(await statusOf(credentialId)).toMatchObject({
      status: 'failed',
      statusReason: 'The sign-in was not completed within 10 minutes; connect again',
    });
  });

  it('rejects a missing or unknown state', async () => {
    const none = await callback(`${svc.url}/oauth/callback?code=abc`, 'application/json');
    expect(none.status).toBe(400);
    expect(((await none.json()) as any).errors[0]).toMatchObject({ field: 'query.state', rule: 'required' });
    const unknown = await callback(`${svc.url}/oauth/callback?code=abc&state=${randomUUID()}`);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('not known');
  });

  it('is bound to the user who started it: only that user sees the credential it completes', async () => {
    const bob = await createUser(svc, apiKey, `bob-${randomUUID().slice(0, 8)}`);
    const bobJwt = await tokenFor(svc, apiKey, bob);
    const { credentialId, authorizeUrl } = await start({}, bobJwt);
    await callback(await consent(authorizeUrl));
    const row = await rowOf(credentialId);
    expect(row.userId).toBe(bob);
    expect(row.status).toBe('connected');
    expectProblem(
      await svc.call('GET', `/credentials/${credentialId}?userId=alice`, { auth: apiKey }),
      404,
      'not_found',
    );
    const aliceJwt = await tokenFor(svc, apiKey, alice);
    expectProblem(
      await svc.call('GET', `/credentials/${credentialId}`, { auth: aliceJwt }),
      404,
      'not_found',
    );
    expect((await svc.call('GET', `/credentials/${credentialId}`, { auth: bobJwt })).body.data.status).toBe(
      'connected',
    );
    // A state whose user is gone is gone with it.
    const pending = await start({}, bobJwt);
    const back = await consent(pending.authorizeUrl);
    const unopened = await start({}, bobJwt);
    await svc.call('DELETE', `/users/${bob}`, { auth: apiKey });
    const res = await callback(back, 'application/json');
    expect(res.status).toBe(400);
    expect((await callback(unopened.authorizeUrl, 'application/json')).status).toBe(400);
  });
});

describe('refresh', () => {
  /** Runs `fn` with this process's clock (the service's too; its timers stay real) `s` seconds ahead. */
  async function atSecond<T>(s: number, fn: () => Promise<T>): Promise<T> {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + s * 1000 });
    try {
      return await fn();
    } finally {
      vi.useRealTimers();
    }
  }

  it('refreshes an access token before it expires', async () => {
    provider.expiresIn = 60;
    let id: string;
    try {
      id = await connected();
    } finally {
      provider.expiresIn = 3600;
    }
    const first = svc.ctx.credentials.open(await rowOf(id));
    const before = provider.tokenRequests.length;
    // Fresh, it is not refreshed; 50 s into its 60 it is in its last quarter, and is.
    expect((await options(id)).status).toBe(200);
    expect(provider.tokenRequests.length).toBe(before);
    const r = await atSecond(50, () => options(id));
    expect(r.status, r.text).toBe(200);
    expect(provider.tokenRequests.slice(before).map((t) => t.grantType)).toEqual(['refresh_token']);
    const row = await rowOf(id);
    const next = svc.ctx.credentials.open(row);
    expect(next.oauth!.accessToken).not.toBe(first.oauth!.accessToken);
    expect(next.oauth!.refreshToken).not.toBe(first.oauth!.refreshToken);
    expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    expect(row.status).toBe('connected');
    // Used the new token at the provider.
    expect(provider.apiRequests.at(-1)!.authorization).toBe(`Bearer ${next.oauth!.accessToken}`);
  });

  it('refreshes after a 401 and retries the request once', async () => {
    const id = await connected();
    const first = svc.ctx.credentials.open(await rowOf(id));
    provider.revokeAccess(first.oauth!.accessToken);
    const before = provider.tokenRequests.length;
    const r = await options(id);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toHaveLength(5);
    expect(provider.tokenRequests.slice(before).map((t) => t.grantType)).toEqual(['refresh_token']);
    const next = svc.ctx.credentials.open(await rowOf(id));
    expect(next.oauth!.accessToken).not.toBe(first.oauth!.accessToken);
    expect((await statusOf(id)).status).toBe('connected');
  });

  it('marks the credential needs_reconnect when the refresh fails after a 401', async () => {
    const id = await connected();
    const first = svc.ctx.credentials.open(await rowOf(id));
    provider.revokeAccess(first.oauth!.accessToken);
    provider.revokeRefresh(first.oauth!.refreshToken!);
    const r = await options(id);
    expectProblem(r, 422, 'credential_needs_reconnect', 'query.credentialId', 'needs_reconnect');
    const s = await statusOf(id);
    expect(s.status).toBe('needs_reconnect');
    expect(s.statusReason).toContain('invalid_grant');
    // It is refused up front from then on.
    expectProblem(
      await options(id),
      422,
      'credential_needs_reconnect',
      'query.credentialId',
      'needs_reconnect',
    );
  });

  it('marks the credential needs_reconnect when the refresh ahead of expiry fails', async () => {
    provider.expiresIn = 60;
    let id: string;
    try {
      id = await connected();
    } finally {
      provider.expiresIn = 3600;
    }
    provider.revokeRefresh(svc.ctx.credentials.open(await rowOf(id)).oauth!.refreshToken!);
    expectProblem(
      await atSecond(50, () => options(id)),
      422,
      'credential_needs_reconnect',
      'query.credentialId',
      'needs_reconnect',
    );
    const s = await statusOf(id);
    expect(s).toMatchObject({ status: 'needs_reconnect' });
    expect(s.statusReason).toContain('The refresh token was revoked');
  });
});

describe('the provider-call log', () => {
  const oauthCalls = async (credentialId: string) => {
    const r = await svc.call('GET', `/provider-calls?kind=oauth&credentialId=${credentialId}`, {
      auth: apiKey,
    });
    expect(r.status, r.text).toBe(200);
    return r.body.data as Record<string, unknown>[];
  };

  it('records the code exchange and each refresh as oauth calls, a refused refresh with its status', async () => {
    const id = await connected();
    const who = { connector: 'acme', credentialId: id, userId: alice, method: 'POST', route: '/oauth/token' };
    expect(await oauthCalls(id)).toEqual([expect.objectContaining({ ...who, status: 200 })]);
    const first = svc.ctx.credentials.open(await rowOf(id));
    provider.revokeAccess(first.oauth!.accessToken);
    expect((await options(id)).status).toBe(200);
    const refreshed = await oauthCalls(id);
    expect(refreshed).toEqual([
      expect.objectContaining({ ...who, status: 200 }),
      expect.objectContaining({ ...who, status: 200 }),
    ]);
    for (const c of refreshed) expect(c.bytes).toBeGreaterThan(10);
    const next = svc.ctx.credentials.open(await rowOf(id));
    provider.revokeAccess(next.oauth!.accessToken);
    provider.revokeRefresh(next.oauth!.refreshToken!);
    await options(id);
    const refused = await oauthCalls(id);
    expect(refused).toHaveLength(3);
    expect(refused[0]).toMatchObject({ ...who, status: 400 });
    // Only the route, the status and sizes: no token, code or client secret in what is kept.
    const kept = JSON.stringify(refused);
    for (const secret of [first.oauth!.accessToken, next.oauth!.refreshToken!, provider.clientSecret])
      expect(kept).not.toContain(secret);
  });
});

describe('a refused refresh', () => {
  it('is tried once per call: a test whose refresh ahead was refused does not refresh again after the 401', async () => {
    provider.expiresIn = 60;
    let id: string;
    try {
      id = await connected();
    } finally {
      provider.expiresIn = 3600;
    }
    const first = svc.ctx.credentials.open(await rowOf(id));
    provider.revokeAccess(first.oauth!.accessToken);
    provider.revokeRefresh(first.oauth!.refreshToken!);
    const before = provider.tokenRequests.length;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 50_000 });
    const r = await svc
      .call('POST', `/credentials/${id}/test?userId=alice`, { auth: apiKey })
      .finally(() => vi.useRealTimers());
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.status).toBe('needs_reconnect');
    expect(provider.tokenRequests.slice(before).map((t) => t.grantType)).toEqual(['refresh_token']);
  });
});

describe('logs', () => {
  it('never hold a token, a code, a state, a verifier or the client secret', async () => {
    const id = await connected();
    const secrets = svc.ctx.credentials.open(await rowOf(id));
    expect(logs.length).toBeGreaterThan(0);
    const text = logs.join('\n');
    expect(text).toContain('OAuth connection completed');
    for (const secret of [secrets.oauth!.accessToken, secrets.oauth!.refreshToken!, provider.clientSecret])
      expect(text).not.toContain(secret);
    for (const q of provider.authorizeRequests) {
      expect(text).not.toContain(q.get('state')!);
      if (q.get('code_challenge')) expect(text).not.toContain(q.get('code_challenge')!);
    }
    for (const t of provider.tokenRequests) if (t.codeVerifier) expect(text).not.toContain(t.codeVerifier);
    expect(text).not.toMatch(/code_[0-9a-f]{32}/);
    expect(text).not.toMatch(/\bat_[0-9a-f]{32}/);
    expect(text).not.toMatch(/\brt_[0-9a-f]{32}/);
  });
});

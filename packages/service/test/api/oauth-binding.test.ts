import { TestBrowser } from '@inlay/test-kit/browser';
import { createUser } from '@inlay/test-kit/fixtures';
import { type Provider, providerConnectors, providerEgress, startProvider } from '@inlay/test-kit/providers';
import { type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/accounts/api-keys.ts';
import { credentials, oauthStates } from '../../src/store/schema.ts';

/**
 * The state is bound to the browser that opened Inlay's start link: a cookie (httpOnly, SameSite=Lax,
 * below /oauth) the callback requires. A consent link carried to another browser connects nothing.
 */
let provider: Provider;
let svc: Service;
let apiKey: string;
const HOST = 'https://app.example.com';

beforeAll(async () => {
  provider = await startProvider();
  svc = await startService({ connectors: providerConnectors(provider.url), env: providerEgress(provider) });
  ({ apiKey } = await svc.account());
  await createUser(svc, apiKey, 'alice');
  await svc.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  await svc.call('PUT', '/settings', { auth: apiKey, body: { allowedOrigins: [HOST] } });
});
afterAll(async () => {
  await svc?.close();
  await provider?.close();
});

async function start(body: Record<string, unknown> = { origin: HOST }) {
  const r = await svc.call('POST', '/credentials/oauth', {
    auth: apiKey,
    body: { userId: 'alice', connector: 'acme', ...body },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body as { credentialId: string; authorizeUrl: string };
}
const credentialOf = async (id: string) =>
  (await svc.db.select().from(credentials).where(eq(credentials.id, id)))[0]!;
const stateOf = async (providerUrl: string) =>
  (
    await svc.db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.stateHash, sha256(new URL(providerUrl).searchParams.get('state')!)))
  )[0]!;

describe('the start link', () => {
  it('is on Inlay, reveals no state, and sets a short-lived httpOnly SameSite=Lax cookie below /oauth', async () => {
    const { authorizeUrl } = await start();
    const url = new URL(authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${svc.url}/oauth/start`);
    expect([...url.searchParams.keys()]).toEqual(['flow']);
    const res = await new TestBrowser().open(authorizeUrl);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const to = new URL(res.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(`${provider.url}/oauth/authorize`);
    const [cookie] = res.headers.getSetCookie();
    const state = await stateOf(to.href);
    expect(cookie).toMatch(new RegExp(`^inlay_oauth_${state.stateHash.slice(0, 16)}=[\\w-]{43}; `));
    const attrs = cookie!.split(';').map((a) => a.trim().toLowerCase());
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/oauth');
    expect(attrs).not.toContain('secure'); // http public URL; https adds Secure
    const maxAge = Number(attrs.find((a) => a.startsWith('max-age='))!.slice(8));
    expect(maxAge).toBeGreaterThan(500);
    expect(maxAge).toBeLessThanOrEqual(600);
    // Only a hash of the cookie's nonce is stored.
    const nonce = cookie!.split(';')[0]!.split('=')[1]!;
    expect(state.browserHash).toBe(sha256(nonce));
    expect(state.startedAt).not.toBeNull();
  });

  it('works once: another browser gets a page saying so, no cookie and no provider URL', async () => {
    const { authorizeUrl } = await start();
    const mine = new TestBrowser();
    const first = await mine.start(authorizeUrl);
    const other = new TestBrowser();
    const page = await other.open(authorizeUrl);
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(await page.text()).toContain('already opened in another browser');
    const json = await other.open(authorizeUrl, 'application/json');
    expect(await json.json()).toMatchObject({ errors: [{ field: 'query.flow', rule: 'started' }] });
    // The browser that opened it may open it again (a popup closed and reopened).
    expect(await mine.start(authorizeUrl)).toBe(first);
  });

  it('answers an unknown or missing flow with a 400', async () => {
    const b = new TestBrowser();
    expect((await b.open(`${svc.url}/oauth/start?flow=nope`)).status).toBe(400);
    const missing = await b.open(`${svc.url}/oauth/start`, 'application/json');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ errors: [{ field: 'query.flow', rule: 'required' }] });
  });
});

describe('the callback', () => {
  it('connects in the browser that opened the start link, and drops its cookie', async () => {
    const { credentialId, authorizeUrl } = await start();
    const b = new TestBrowser();
    const res = await b.connect(authorizeUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Connected');
    expect(res.headers.getSetCookie()[0]).toMatch(
      /^inlay_oauth_\w+=; Path=\/oauth; Expires=Thu, 01 Jan 1970/,
    );
    expect(b.cookies).toEqual({});
    expect((await credentialOf(credentialId)).status).toBe('connected');
  });

  it('connects nothing in another browser and says so; the starting browser still can', async () => {
    for (const body of [{ origin: HOST }, { redirectUri: `${HOST}/settings` }]) {
      const { credentialId, authorizeUrl } = await start(body);
      const victim = new TestBrowser();
      const back = await new TestBrowser().consent(authorizeUrl); // the link's sender consented elsewhere
      const page = await victim.open(back);
      expect(page.status).toBe(400);
      expect(page.headers.get('location')).toBeNull(); // never sent on to redirectUri
      expect(await page.text()).toContain('started in another browser, so nothing was connected');
      const json = await victim.open(back, 'application/json');
      expect(json.status).toBe(400);
      expect(await json.json()).toMatchObject({
        code: 'invalid_request',
        errors: [{ field: 'query.state', rule: 'browser' }],
      });
      expect((await credentialOf(credentialId)).status).toBe('pending');
      const [row] = await svc.db.select().from(oauthStates).where(eq(oauthStates.credentialId, credentialId));
      expect(row!.usedAt).toBeNull(); // not spent either
    }
  });

  it('refuses a cookie with another value, and a flow that skipped the start link', async () => {
    const { credentialId, authorizeUrl } = await start();
    const b = new TestBrowser();
    const back = await b.consent(authorizeUrl);
    const [name] = Object.keys(b.cookies);
    const forged = await fetch(back, {
      redirect: 'manual',
      headers: { accept: 'application/json', cookie: `${name}=${'x'.repeat(43)}` },
    });
    expect(await forged.json()).toMatchObject({ errors: [{ rule: 'browser' }] });
    // A row that never went through the start link (as before this check existed) connects nothing either.
    await svc.db
      .update(oauthStates)
      .set({ browserHash: null, startedAt: null })
      .where(eq(oauthStates.credentialId, credentialId));
    const skipped = await b.open(back, 'application/json');
    expect(await skipped.json()).toMatchObject({ errors: [{ rule: 'not_started' }] });
    expect((await credentialOf(credentialId)).status).toBe('pending');
  });

  it('keeps two flows started side by side in one browser apart', async () => {
    const b = new TestBrowser();
    const one = await start();
    const two = await start();
    const backOne = await b.consent(one.authorizeUrl);
    const backTwo = await b.consent(two.authorizeUrl);
    expect(Object.keys(b.cookies)).toHaveLength(2);
    expect((await b.open(backTwo)).status).toBe(200);
    expect((await b.open(backOne)).status).toBe(200);
    expect((await credentialOf(one.credentialId)).status).toBe('connected');
    expect((await credentialOf(two.credentialId)).status).toBe('connected');
  });
});

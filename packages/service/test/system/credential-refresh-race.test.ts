import { TestBrowser } from '@inlay/test-kit/browser';
import { createUser } from '@inlay/test-kit/fixtures';
import { type Provider, providerConnectors, providerEgress, startProvider } from '@inlay/test-kit/providers';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials } from '../../src/store/schema.ts';

/**
 * Providers rotate refresh tokens: a second refresh of the same credential burns the first one's token. So
 * concurrent callers, in one process or on several API nodes, must make exactly one refresh grant.
 */
let provider: Provider;
let a: Service;
let b: Service;
let apiKey: string;
let alice: string;

beforeAll(async () => {
  provider = await startProvider();
  const opts = { connectors: providerConnectors(provider.url), env: providerEgress(provider) };
  // Two API nodes on one PostgreSQL database; on PGlite one node (it owns its database alone).
  a = await startService(opts);
  b = onPostgres ? await startService(opts) : a;
  ({ apiKey } = await a.account('race'));
  alice = await createUser(a, apiKey, 'alice');
  const app = await a.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  if (app.status !== 200) throw new Error(app.text);
});
afterAll(async () => {
  if (b !== a) await b?.close();
  await a?.close();
  await provider?.close();
});

async function connected(): Promise<string> {
  const r = await a.call('POST', '/credentials/oauth', {
    auth: apiKey,
    body: { userId: alice, connector: 'acme', origin: 'http://127.0.0.1:3000' },
  });
  const back = await new TestBrowser().connect(r.body.authorizeUrl);
  expect(back.status).toBe(200);
  return r.body.credentialId;
}

const options = (svc: Service, id: string) =>
  svc.call('GET', `/connectors/acme/options/projects?userId=${alice}&credentialId=${id}`, { auth: apiKey });

describe(`concurrent refreshes (${onPostgres ? 'two API nodes on PostgreSQL' : 'one node on PGlite'})`, () => {
  it('an expired token: four callers across the nodes make exactly one refresh grant', async () => {
    const id = await connected();
    // The token is past its expiry: every caller wants to refresh it first.
    await a.db
      .update(credentials)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(credentials.id, id));
    provider.tokenDelayMs = 150; // the first refresh is still under way when the others arrive
    const before = provider.refreshGrants();
    try {
      const replies = await Promise.all([options(a, id), options(b, id), options(a, id), options(b, id)]);
      for (const r of replies) expect(r.status, r.text).toBe(200);
    } finally {
      provider.tokenDelayMs = 0;
    }
    expect(provider.refreshGrants() - before).toBe(1);
    const [row] = await a.db.select().from(credentials).where(eq(credentials.id, id));
    expect(row!.status).toBe('connected');
    expect(row!.expiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it('a revoked token (401 everywhere at once): exactly one refresh grant, every caller succeeds', async () => {
    const id = await connected();
    const [row] = await a.db.select().from(credentials).where(eq(credentials.id, id));
    provider.revokeAccess(a.ctx.credentials.open(row!).oauth!.accessToken);
    provider.tokenDelayMs = 150;
    const before = provider.refreshGrants();
    try {
      const replies = await Promise.all([options(a, id), options(b, id), options(b, id)]);
      for (const r of replies) expect(r.status, r.text).toBe(200);
    } finally {
      provider.tokenDelayMs = 0;
    }
    expect(provider.refreshGrants() - before).toBe(1);
  });
});

import { randomUUID } from 'node:crypto';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import {
  BASIC_TOKEN,
  BASIC_USER,
  GOOD_KEY,
  type Provider,
  providerConnectors,
  providerEgress,
  startProvider,
} from '@inlay/test-kit/providers';
import { expectProblem, ISO_MS_RE, type Service, startService, UUID_RE } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialAad } from '../../src/credentials/credential-service.ts';
import { keyIdOf, VaultError } from '../../src/credentials/vault.ts';
import { credentials } from '../../src/store/schema.ts';

let provider: Provider;
let svc: Service;
let apiKey: string;
let accountId: string;
let alice: string;
let bob: string;

const rowsOf = (userId: string) => svc.db.select().from(credentials).where(eq(credentials.userId, userId));

beforeAll(async () => {
  provider = await startProvider();
  // `deadco` is `keyco` on a port nothing listens on: a provider that cannot be reached.
  const defs = providerConnectors(provider.url);
  const keycoDef = defs.find((d) => d.id === 'keyco')!;
  svc = await startService({
    connectors: [...defs, { ...keycoDef, id: 'deadco', name: 'DeadCo', baseUrl: 'http://127.0.0.1:1/key' }],
    env: providerEgress(provider, '127.0.0.1:1'),
  });
  ({ apiKey, accountId } = await svc.account());
  alice = await createUser(svc, apiKey, 'alice');
  bob = await createUser(svc, apiKey, 'bob');
});
afterAll(async () => {
  await svc?.close();
  await provider?.close();
});

describe('POST /credentials (API key and basic)', () => {
  it('checks an API key with the connector test request, then stores it sealed', async () => {
    const before = provider.apiRequests.length;
    const r = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: 'alice', connector: 'keyco', data: { apiKey: GOOD_KEY } },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toEqual({
      credentialId: expect.stringMatching(UUID_RE),
      userId: alice,
      connector: 'keyco',
      name: 'KeyCo',
      type: 'apiKey',
      status: 'connected',
      statusReason: null,
      statusChangedAt: expect.stringMatching(ISO_MS_RE),
      accountLabel: 'KeyCo Team',
      createdAt: expect.stringMatching(ISO_MS_RE),
      updatedAt: expect.stringMatching(ISO_MS_RE),
    });
    expect(r.text).not.toContain(GOOD_KEY);
    // The provider saw the test request with the key.
    expect(provider.apiRequests.slice(before)).toEqual([
      { path: '/key/me', apiKey: GOOD_KEY, authorization: undefined },
    ]);
    const [row] = await svc.db.select().from(credentials).where(eq(credentials.id, r.body.data.credentialId));
    expect(row!.sealed).toMatch(/^v1\./);
    expect(row!.sealed).not.toContain(GOOD_KEY);
    expect(row!.keyId).toBe(svc.ctx.vault.keyId);
    expect(keyIdOf(row!.sealed!)).toBe(svc.ctx.vault.keyId);
    expect(svc.ctx.credentials.open(row!)).toEqual({ fields: { apiKey: GOOD_KEY } });
  });

  it('answers 422 with the provider reason for a rejected key, and stores nothing', async () => {
    const before = (await rowsOf(bob)).length;
    const bad = 'key-bad-abcdefWXYZ';
    const r = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: 'bob', connector: 'keyco', data: { apiKey: bad } },
    });
    expectProblem(r, 422, 'unprocessable', 'body.data', 'rejected');
    expect(r.body.message).toContain('KeyCo rejected the credential');
    expect(r.body.reason).toBe('401: Invalid API key ending in WXYZ: this key was revoked');
    expect(r.text).not.toContain(bad);
    expect((await rowsOf(bob)).length).toBe(before);
  });

  it('checks a basic credential (username and password templates)', async () => {
    const ok = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: {
        userId: alice,
        connector: 'basicco',
        name: 'Ops desk',
        data: { email: ` ${BASIC_USER} `, token: BASIC_TOKEN },
      },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data).toMatchObject({ connector: 'basicco', type: 'basic', name: 'Ops desk' });
    const [row] = await svc.db
      .select()
      .from(credentials)
      .where(eq(credentials.id, ok.body.data.credentialId));
    // Non-secret fields are trimmed; secrets are kept byte for byte.
    expect(svc.ctx.credentials.open(row!)).toEqual({ fields: { email: BASIC_USER, token: BASIC_TOKEN } });

    const before = (await rowsOf(bob)).length;
    const bad = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: bob, connector: 'basicco', data: { email: BASIC_USER, token: 'wrong-token-1' } },
    });
    expectProblem(bad, 422, 'unprocessable', 'body.data', 'rejected');
    expect(bad.body.reason).toBe('403: Couldn’t authenticate you: wrong email or token');
    expect((await rowsOf(bob)).length).toBe(before);
  });

  it('names each missing or unknown field in a 400, before calling the provider', async () => {
    const before = provider.apiRequests.length;
    const r = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'basicco', data: { email: BASIC_USER, pin: '1' } },
    });
    expectProblem(r, 400, 'invalid_request', 'body.data.token', 'required');
    expectProblem(r, 400, 'invalid_request', 'body.data.pin', 'unknown_field');
    expect(provider.apiRequests.length).toBe(before);
  });

  it('refuses OAuth, auth-less and unknown connectors with 422 naming body.connector', async () => {
    for (const connector of ['acme', 'transform', 'nope']) {
      const r = await svc.call('POST', '/credentials', {
        auth: apiKey,
        body: { userId: alice, connector, data: {} },
      });
      expectProblem(r, 422, 'unprocessable', 'body.connector');
    }
  });

  it('needs a userId with an API key; a JWT implies it, and naming someone else is a 404', async () => {
    expectProblem(
      await svc.call('POST', '/credentials', {
        auth: apiKey,
        body: { connector: 'keyco', data: { apiKey: GOOD_KEY } },
      }),
      400,
      'invalid_request',
      'body.userId',
      'required',
    );
    const jwt = await tokenFor(svc, apiKey, bob);
    const mine = await svc.call('POST', '/credentials', {
      auth: jwt,
      body: { connector: 'keyco', data: { apiKey: GOOD_KEY } },
    });
    expect(mine.status).toBe(201);
    expect(mine.body.data.userId).toBe(bob);
    expectProblem(
      await svc.call('POST', '/credentials', {
        auth: jwt,
        body: { userId: alice, connector: 'keyco', data: { apiKey: GOOD_KEY } },
      }),
      404,
      'not_found',
    );
  });
});

describe('isolation of the creating routes', () => {
  it('answers 404 when a JWT or another account names a user that is not theirs', async () => {
    const bobJwt = await tokenFor(svc, apiKey, bob);
    const other = await svc.account('isolation');
    const before = (await rowsOf(alice)).length;
    const attempts = [
      svc.call('POST', '/credentials', {
        auth: bobJwt,
        body: { userId: alice, connector: 'keyco', data: { apiKey: GOOD_KEY } },
      }),
      svc.call('POST', '/credentials', {
        auth: other.apiKey,
        body: { userId: alice, connector: 'keyco', data: { apiKey: GOOD_KEY } },
      }),
      svc.call('POST', '/credentials/oauth', {
        auth: bobJwt,
        body: { userId: 'alice', connector: 'acme', origin: 'https://app.example' },
      }),
      svc.call('POST', '/credentials/oauth', {
        auth: other.apiKey,
        body: { userId: alice, connector: 'acme', origin: 'https://app.example' },
      }),
      svc.call('GET', `/credentials?userId=${alice}`, { auth: other.apiKey }),
      svc.call('GET', '/credentials?userId=alice', { auth: bobJwt }),
      svc.call('POST', '/installations', {
        auth: bobJwt,
        body: { userId: alice, workflowIds: [randomUUID()] },
      }),
      svc.call('POST', '/installations', {
        auth: other.apiKey,
        body: { userId: alice, workflowIds: [randomUUID()] },
      }),
    ];
    for (const r of await Promise.all(attempts)) expectProblem(r, 404, 'not_found');
    expect((await rowsOf(alice)).length).toBe(before);
  });

  it('answers 502 when the provider cannot be reached, and stores nothing', async () => {
    const before = (await rowsOf(alice)).length;
    const r = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'deadco', data: { apiKey: GOOD_KEY } },
    });
    expectProblem(r, 502, 'upstream_error');
    expect(r.body.message).toContain('Could not check the credential with DeadCo');
    expect((await rowsOf(alice)).length).toBe(before);
  });
});

describe('GET and DELETE /credentials', () => {
  it('lets a user hold several credentials for one connector, listed oldest first, never with a secret', async () => {
    const carol = await createUser(svc, apiKey, 'carol');
    const ids: string[] = [];
    for (const name of ['Work', 'Personal']) {
      const r = await svc.call('POST', '/credentials', {
        auth: apiKey,
        body: { userId: carol, connector: 'keyco', name, data: { apiKey: GOOD_KEY } },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.data.credentialId);
    }
    const list = await svc.call('GET', '/credentials?userId=carol', { auth: apiKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { credentialId: string }) => c.credentialId)).toEqual(ids);
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Work', 'Personal']);
    for (const c of list.body.data)
      expect(Object.keys(c).sort()).toEqual(
        [
          'accountLabel',
          'connector',
          'createdAt',
          'credentialId',
          'name',
          'status',
          'statusChangedAt',
          'statusReason',
          'type',
          'updatedAt',
          'userId',
        ].sort(),
      );
    expect(list.text).not.toContain(GOOD_KEY);
    expect(list.text).not.toContain('v1.');
    const filtered = await svc.call('GET', '/credentials?userId=carol&connector=basicco', { auth: apiKey });
    expect(filtered.body.data).toEqual([]);
    const jwt = await tokenFor(svc, apiKey, carol);
    expect((await svc.call('GET', '/credentials', { auth: jwt })).body.data).toHaveLength(2);
  });

  it('deletes one credential; the others stay', async () => {
    const dave = await createUser(svc, apiKey, 'dave');
    const make = async () =>
      (
        await svc.call('POST', '/credentials', {
          auth: apiKey,
          body: { userId: dave, connector: 'keyco', data: { apiKey: GOOD_KEY } },
        })
      ).body.data.credentialId as string;
    const [a, b] = [await make(), await make()];
    const del = await svc.call('DELETE', `/credentials/${a}?userId=dave`, { auth: apiKey });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Success' });
    expectProblem(await svc.call('GET', `/credentials/${a}?userId=dave`, { auth: apiKey }), 404, 'not_found');
    expect((await svc.call('GET', `/credentials/${b}?userId=dave`, { auth: apiKey })).body.data.status).toBe(
      'connected',
    );
    expect((await rowsOf(dave)).map((r) => r.id)).toEqual([b]);
    expectProblem(
      await svc.call('DELETE', `/credentials/${a}?userId=dave`, { auth: apiKey }),
      404,
      'not_found',
    );
  });

  it('answers 404 for another user’s or another account’s credential, exactly like a missing one', async () => {
    const r = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'keyco', data: { apiKey: GOOD_KEY } },
    });
    const id = r.body.data.credentialId;
    const missing = await svc.call('GET', `/credentials/${randomUUID()}?userId=bob`, { auth: apiKey });
    const bobJwt = await tokenFor(svc, apiKey, bob);
    const other = await svc.account('other');
    const stranger = await createUser(svc, other.apiKey, 'alice');
    const attempts = [
      svc.call('GET', `/credentials/${id}?userId=bob`, { auth: apiKey }),
      svc.call('GET', `/credentials/${id}`, { auth: bobJwt }),
      svc.call('GET', `/credentials/${id}?userId=alice`, { auth: bobJwt }),
      svc.call('GET', `/credentials/${id}?userId=alice`, { auth: other.apiKey }),
      svc.call('GET', `/credentials/${id}?userId=${alice}`, { auth: other.apiKey }),
      svc.call('DELETE', `/credentials/${id}?userId=bob`, { auth: apiKey }),
      svc.call('DELETE', `/credentials/${id}`, { auth: bobJwt }),
      svc.call('DELETE', `/credentials/${id}?userId=alice`, { auth: other.apiKey }),
    ];
    for (const a of await Promise.all(attempts)) {
      expectProblem(a, 404, 'not_found');
      expect([missing.body.message, 'User not found']).toContain(a.body.message);
    }
    const strangers = await svc.call('GET', `/credentials?userId=${stranger}`, { auth: other.apiKey });
    expect(strangers.body.data).toEqual([]);
    const bobs = await svc.call('GET', '/credentials', { auth: bobJwt });
    expect(bobs.body.data.map((c: { credentialId: string }) => c.credentialId)).not.toContain(id);
    // Still there for its owner.
    expect((await svc.call('GET', `/credentials/${id}?userId=alice`, { auth: apiKey })).status).toBe(200);
  });
});

describe('vault binding', () => {
  it('a ciphertext copied to another row does not decrypt', async () => {
    const make = async (key: string) => {
      const r = await svc.call('POST', '/credentials', {
        auth: apiKey,
        body: { userId: alice, connector: 'keyco', data: { apiKey: key } },
      });
      return r.body.data.credentialId as string;
    };
    const a = await make(GOOD_KEY);
    const b = await make(GOOD_KEY);
    const [rowA] = await svc.db.select().from(credentials).where(eq(credentials.id, a));
    await svc.db.update(credentials).set({ sealed: rowA!.sealed }).where(eq(credentials.id, b));
    const [rowB] = await svc.db.select().from(credentials).where(eq(credentials.id, b));
    expect(rowB!.sealed).toBe(rowA!.sealed);
    expect(() => svc.ctx.credentials.open(rowA!)).not.toThrow();
    expect(() => svc.ctx.credentials.open(rowB!)).toThrow(VaultError);
    // The same envelope under another account's associated data does not open either.
    expect(() => svc.ctx.vault.open(rowA!.sealed!, credentialAad(randomUUID(), a))).toThrow(VaultError);
    expect(() => svc.ctx.vault.open(rowA!.sealed!, credentialAad(accountId, a))).not.toThrow();
  });
});

describe('GET /account/credentials', () => {
  it("lists every user's credentials with their username, filters by status, and only the account's", async () => {
    const made = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: 'bob', connector: 'keyco', data: { apiKey: GOOD_KEY } },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.credentialId;
    await svc.db
      .update(credentials)
      .set({ status: 'needs_reconnect', statusReason: 'The key was revoked', statusChangedAt: new Date() })
      .where(eq(credentials.id, id));
    const r = await svc.call('GET', '/account/credentials?status=needs_reconnect', { auth: apiKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data[0]).toMatchObject({
      credentialId: id,
      userId: bob,
      username: 'bob',
      connector: 'keyco',
      status: 'needs_reconnect',
      statusReason: 'The key was revoked',
    });
    expect(r.body.data.every((c: { status: string }) => c.status === 'needs_reconnect')).toBe(true);
    const all = await svc.call('GET', '/account/credentials', { auth: apiKey });
    expect(all.body.data.map((c: { credentialId: string }) => c.credentialId)).toContain(id);
    const other = await svc.account('Other');
    expect((await svc.call('GET', '/account/credentials', { auth: other.apiKey })).body.data).toEqual([]);
    const jwt = await tokenFor(svc, apiKey, bob);
    expect((await svc.call('GET', '/account/credentials', { auth: jwt })).status).toBe(403);
    expectProblem(
      await svc.call('GET', '/account/credentials?status=broken', { auth: apiKey }),
      400,
      'invalid_request',
      'query.status',
    );
    expectProblem(
      await svc.call('GET', '/account/credentials?limit=501', { auth: apiKey }),
      400,
      'invalid_request',
      'query.limit',
    );
  });
});

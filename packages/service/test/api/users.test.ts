import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, ISO_MS_RE, type Service, sharedService, UUID_RE } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/store/schema.ts';

let svc: Service;
let a: { accountId: string; apiKey: string };
let b: { accountId: string; apiKey: string };

beforeAll(async () => {
  svc = await sharedService();
  a = await svc.account('A');
  b = await svc.account('B');
});
afterAll(() => svc?.close());

describe('users', () => {
  it('creates a user and answers 201 {userId}', async () => {
    const r = await svc.call('POST', '/users', {
      auth: a.apiKey,
      body: { username: 'ada', fullName: 'Ada Lovelace' },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(['userId']);
    expect(r.body.userId).toMatch(UUID_RE);
    const [row] = await svc.db.select().from(users).where(eq(users.id, r.body.userId));
    expect(row).toMatchObject({ accountId: a.accountId, username: 'ada', fullName: 'Ada Lovelace' });
  });

  it('gets a user by id and by username with every field typed', async () => {
    const id = await createUser(svc, a.apiKey, 'grace');
    for (const ref of [id, 'grace']) {
      const r = await svc.call('GET', `/users/${ref}`, { auth: a.apiKey });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({
        userId: id,
        username: 'grace',
        fullName: null,
        createdAt: expect.stringMatching(ISO_MS_RE),
        updatedAt: expect.stringMatching(ISO_MS_RE),
      });
    }
  });

  it('lists only the account’s users', async () => {
    await createUser(svc, b.apiKey, 'bob-only');
    const r = await svc.call('GET', '/users', { auth: a.apiKey });
    expect(r.status).toBe(200);
    const names = r.body.data.map((u: { username: string }) => u.username);
    expect(names).toContain('ada');
    expect(names).not.toContain('bob-only');
  });

  it('searches by id, username or full name, case-insensitively, within the account only', async () => {
    const hopper = await createUser(svc, a.apiKey, 'gmh');
    await svc.call('PUT', `/users/${hopper}`, { auth: a.apiKey, body: { fullName: 'Grace Hopper' } });
    await createUser(svc, a.apiKey, 'under_score');
    await createUser(svc, b.apiKey, 'hopper-in-b');
    const names = async (search: string) => {
      const r = await svc.call('GET', `/users?search=${encodeURIComponent(search)}`, { auth: a.apiKey });
      expect(r.status).toBe(200);
      return r.body.data.map((u: { username: string }) => u.username).sort();
    };
    expect(await names('HOPPER')).toEqual(['gmh']);
    expect(await names(hopper.toUpperCase())).toEqual(['gmh']);
    expect(await names('lovelace')).toEqual(['ada']);
    // LIKE wildcards are plain text: `_` matches only an underscore.
    expect(await names('r_s')).toEqual(['under_score']);
    expect(await names('%')).toEqual([]);
    expectProblem(
      await svc.call('GET', `/users?search=${'x'.repeat(300)}`, { auth: a.apiKey }),
      400,
      'invalid_request',
      'query.search',
    );
  });

  it('rejects a duplicate username with 409 naming the field, and allows it in another account', async () => {
    await createUser(svc, a.apiKey, 'dup');
    expectProblem(
      await svc.call('POST', '/users', { auth: a.apiKey, body: { username: 'dup' } }),
      409,
      'conflict',
      'body.username',
      'unique',
    );
    expect((await svc.call('POST', '/users', { auth: b.apiKey, body: { username: 'dup' } })).status).toBe(
      201,
    );
  });

  it('validates the body field by field', async () => {
    expectProblem(
      await svc.call('POST', '/users', { auth: a.apiKey, body: {} }),
      400,
      'invalid_request',
      'body.username',
      'required',
    );
    expectProblem(
      await svc.call('POST', '/users', { auth: a.apiKey, body: { username: 5 } }),
      400,
      'invalid_request',
      'body.username',
      'type',
    );
    expectProblem(
      await svc.call('POST', '/users', { auth: a.apiKey, body: { username: 'x'.repeat(256) } }),
      400,
      'invalid_request',
      'body.username',
      'max',
    );
    expectProblem(
      await svc.call('POST', '/users', { auth: a.apiKey, body: { username: 'ok', admin: true } }),
      400,
      'invalid_request',
      'body.admin',
      'unknown_field',
    );
  });

  it('updates and deletes a user', async () => {
    const id = await createUser(svc, a.apiKey, 'temp');
    const put = await svc.call('PUT', `/users/${id}`, {
      auth: a.apiKey,
      body: { fullName: 'Temp User', username: 'temp2' },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ userId: id, username: 'temp2', fullName: 'Temp User' });
    const del = await svc.call('DELETE', `/users/${id}`, { auth: a.apiKey });
    expect(del.body).toEqual({ message: 'Success' });
    expect(await svc.db.select().from(users).where(eq(users.id, id))).toEqual([]);
    expectProblem(await svc.call('GET', `/users/${id}`, { auth: a.apiKey }), 404, 'not_found');
  });

  it('answers 404 for another account’s user on every user route, exactly like a missing one', async () => {
    const id = await createUser(svc, a.apiKey, 'isolated');
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [method, path, body] of [
      ['GET', '/users/ID', undefined],
      ['PUT', '/users/ID', { fullName: 'x' }],
      ['DELETE', '/users/ID', undefined],
      ['GET', '/users/ID/token', undefined],
      ['DELETE', '/users/ID/logs', undefined],
    ] as const) {
      const foreign = await svc.call(method, path.replace('ID', id), { auth: b.apiKey, body });
      const absent = await svc.call(method, path.replace('ID', missing), { auth: b.apiKey, body });
      expectProblem(foreign, 404, 'not_found');
      expect(foreign.body.message).toBe(absent.body.message);
    }
    expect((await svc.call('GET', `/users/${id}`, { auth: a.apiKey })).status).toBe(200);
  });

  it('lets a user JWT read itself only', async () => {
    const me = await createUser(svc, a.apiKey, 'me');
    const other = await createUser(svc, a.apiKey, 'other');
    const jwt = await tokenFor(svc, a.apiKey, me);
    expect((await svc.call('GET', `/users/${me}`, { auth: jwt })).body.data.username).toBe('me');
    expect((await svc.call('GET', '/users/me', { auth: jwt })).status).toBe(200);
    expectProblem(await svc.call('GET', `/users/${other}`, { auth: jwt }), 404, 'not_found');
    expectProblem(await svc.call('GET', '/users', { auth: jwt }), 403, 'forbidden');
    expectProblem(await svc.call('GET', `/users/${me}/token`, { auth: jwt }), 403, 'forbidden');
  });
});

import { readFileSync } from 'node:fs';
import { createUser, insertExecutions, seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, type Service, sharedService } from '@inlay/test-kit/service';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, consoleSessions, executions } from '../../src/store/schema.ts';

let svc: Service;
let a: Awaited<ReturnType<typeof seedAccount>>;
let bobId: string;
let other: Awaited<ReturnType<typeof seedAccount>>;
let aliceRuns: string[];
let bobRuns: string[];
const T0 = Date.parse('2025-09-01T10:00:00.000Z');

beforeAll(async () => {
  svc = await sharedService();
  a = await seedAccount(svc);
  bobId = await createUser(svc, a.apiKey, 'bob');
  other = await seedAccount(svc);
  // alice: 5 runs from 10:00:00, bob: 4 runs from 10:00:00.500 (interleaved), one of bob's failed.
  aliceRuns = await insertExecutions(svc.db, a, 5, T0);
  bobRuns = await insertExecutions(svc.db, { ...a, userId: bobId }, 4, T0 + 500);
  await svc.db
    .update(executions)
    .set({ status: 'failed', error: { message: 'boom', code: 'provider_error' } })
    .where(eq(executions.id, bobRuns[1]!));
  await insertExecutions(svc.db, other, 3, T0);
});
afterAll(() => svc?.close());

const get = (path: string, auth = a.apiKey) => svc.call('GET', path, { auth });

describe('GET /executions', () => {
  it('lists runs across users newest first, by keyset pages that neither skip nor repeat', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await get(`/executions?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status, r.text).toBe(200);
      seen.push(...r.body.data.map((e: { executionId: string }) => e.executionId));
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // Interleaved by start time: bob's start half a second after alice's of the same second.
    const expected = [...aliceRuns.map((id, i) => [T0 + i * 1000, id] as const)]
      .concat(bobRuns.map((id, i) => [T0 + 500 + i * 1000, id] as const))
      .sort((x, y) => y[0] - x[0])
      .map(([, id]) => id);
    expect(seen).toEqual(expected);
    const first = (await get('/executions?limit=1')).body.data[0];
    expect(first).toMatchObject({
      executionId: aliceRuns[4],
      userId: a.userId,
      username: 'alice',
      workflowId: a.workflowId,
      workflowName: 'Post new deals to Slack',
      status: 'succeeded',
      finished: true,
      durationMs: 250,
      triggerType: 'event',
      event: 'deal.created',
      startedAt: new Date(T0 + 4000).toISOString(),
    });
  });

  it('filters by status, user (id or username), workflow and time range', async () => {
    const ids = async (q: string) =>
      (await get(`/executions?${q}`)).body.data.map((e: { executionId: string }) => e.executionId);
    expect(await ids('status=failed')).toEqual([bobRuns[1]]);
    expect(await ids('status=failed,succeeded&userId=bob')).toEqual([...bobRuns].reverse());
    expect(await ids(`userId=${a.userId}`)).toEqual([...aliceRuns].reverse());
    expect(await ids('userId=nobody')).toEqual([]);
    expect(await ids(`workflowId=${other.workflowId}`)).toEqual([]);
    expect((await ids(`workflowId=${a.workflowId}`)).length).toBe(9);
    const from = new Date(T0 + 1000).toISOString();
    const to = new Date(T0 + 3000).toISOString();
    expect(await ids(`from=${from}&to=${to}`)).toEqual([bobRuns[2], aliceRuns[2], bobRuns[1], aliceRuns[1]]);
  });

  it('names the bad parameter and rule', async () => {
    expectProblem(await get('/executions?limit=101'), 400, 'invalid_request', 'query.limit', 'max');
    expectProblem(await get('/executions?status=done'), 400, 'invalid_request', 'query.status');
    expectProblem(await get('/executions?cursor=bm9wZQ'), 400, 'invalid_request', 'query.cursor', 'format');
    expectProblem(await get('/executions?from=yesterday'), 400, 'invalid_request', 'query.from', 'format');
    expectProblem(await get('/executions?workflowId=x'), 400, 'invalid_request', 'query.workflowId');
    expectProblem(await get('/executions?sort=asc'), 400, 'invalid_request', 'query.sort', 'unknown_field');
  });

  it('is for the account key only: a user token is a 403', async () => {
    const jwt = await tokenFor(svc, a.apiKey, a.userId);
    expectProblem(await get('/executions', jwt), 403, 'forbidden');
  });
});

describe('GET /executions/{executionId}', () => {
  it("answers any user's run of the account with its steps, and another account's as missing", async () => {
    const r = await get(`/executions/${bobRuns[1]}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({
      executionId: bobRuns[1],
      userId: bobId,
      username: 'bob',
      status: 'failed',
      error: { message: 'boom', code: 'provider_error' },
      trigger: { type: 'event', event: 'deal.created', data: { name: 'deal 1' } },
    });
    expect(r.body.data.results.map((s: { connector: string }) => s.connector)).toEqual([
      'transform',
      'slack',
    ]);
    expect(r.body.data.inputs[1].data).toEqual({ n: 1, connector: 'slack' });
    const theirs = (await get('/executions?limit=1', other.apiKey)).body.data[0].executionId;
    const mine = await get(`/executions/${theirs}`);
    const missing = await get('/executions/00000000-0000-4000-8000-000000000000');
    expectProblem(mine, 404, 'not_found');
    expect(mine.body.detail).toBe(missing.body.detail);
  });
});

describe('GET /stats/executions', () => {
  it('counts runs by status per bucket, with the error rate and the slowest workflows', async () => {
    const from = '2025-09-01T08:30:00.000Z';
    const to = '2025-09-01T12:00:00.000Z';
    const r = await get(`/stats/executions?bucket=hour&from=${from}&to=${to}`);
    expect(r.status, r.text).toBe(200);
    const d = r.body.data;
    expect(d.from).toBe('2025-09-01T08:00:00.000Z');
    expect(d.to).toBe('2025-09-01T12:00:00.000Z');
    expect(d.buckets.map((b: { start: string }) => b.start)).toEqual([
      '2025-09-01T08:00:00.000Z',
      '2025-09-01T09:00:00.000Z',
      '2025-09-01T10:00:00.000Z',
      '2025-09-01T11:00:00.000Z',
    ]);
    expect(d.buckets[2]).toEqual({
      start: '2025-09-01T10:00:00.000Z',
      queued: 0,
      running: 0,
      succeeded: 8,
      failed: 1,
    });
    expect(d.buckets[0].succeeded + d.buckets[3].succeeded).toBe(0);
    expect(d.totals).toEqual({ queued: 0, running: 0, succeeded: 8, failed: 1 });
    expect(d.errorRate).toBeCloseTo(1 / 9);
    expect(d.slowestWorkflows).toEqual([
      { workflowId: a.workflowId, workflowName: 'Post new deals to Slack', runs: 9, p95Ms: 250 },
    ]);
    const day = await get(`/stats/executions?bucket=day&from=${from}&to=${to}`);
    expect(day.body.data.buckets).toEqual([
      { start: '2025-09-01T00:00:00.000Z', queued: 0, running: 0, succeeded: 8, failed: 1 },
    ]);
  });

  it('defaults to the last 24 hours, and refuses a bad bucket or too wide a window', async () => {
    const r = await get('/stats/executions');
    expect(r.status).toBe(200);
    expect(r.body.data.buckets).toHaveLength(24);
    expect(r.body.data.errorRate).toBeNull();
    expectProblem(await get('/stats/executions?bucket=week'), 400, 'invalid_request', 'query.bucket');
    expectProblem(
      await get('/stats/executions?bucket=hour&from=2025-01-01T00:00:00Z&to=2025-09-01T00:00:00Z'),
      400,
      'invalid_request',
      'query.from',
      'max',
    );
    expectProblem(
      await get('/stats/executions?from=2025-09-02T00:00:00Z&to=2025-09-01T00:00:00Z'),
      400,
      'invalid_request',
      'query.from',
      'min',
    );
  });
});

describe('/api-keys', () => {
  it('creates a key shown once and stored hashed, lists keys with last use, and revokes at once', async () => {
    const { apiKey } = await svc.account();
    const created = await svc.call('POST', '/api-keys', { auth: apiKey, body: { name: 'CI' } });
    expect(created.status, created.text).toBe(201);
    const key: string = created.body.key;
    expect(key).toMatch(/^inlay_live_/);
    expect(created.body.data).toMatchObject({ name: 'CI', mode: 'live', lastUsedAt: null, revokedAt: null });
    const [row] = await svc.db.select().from(apiKeys).where(eq(apiKeys.id, created.body.data.apiKeyId));
    expect(JSON.stringify(row)).not.toContain(key);

    expect((await svc.call('GET', '/users', { auth: key })).status).toBe(200);
    const listed = await svc.call('GET', '/api-keys', { auth: key });
    expect(listed.body.data).toHaveLength(2);
    expect(listed.text).not.toContain(key);
    const mine = listed.body.data.find(
      (k: { apiKeyId: string }) => k.apiKeyId === created.body.data.apiKeyId,
    );
    await expect
      .poll(
        async () => (await svc.db.select().from(apiKeys).where(eq(apiKeys.id, mine.apiKeyId)))[0]?.lastUsedAt,
      )
      .toBeInstanceOf(Date);

    const revoked = await svc.call('DELETE', `/api-keys/${mine.apiKeyId}`, { auth: apiKey });
    expect(revoked.status, revoked.text).toBe(200);
    expectProblem(await svc.call('GET', '/users', { auth: key }), 401, 'unauthorized');
    const again = await svc.call('GET', '/api-keys', { auth: apiKey });
    expect(again.body.data.find((k: { apiKeyId: string }) => k.apiKeyId === mine.apiKeyId).revokedAt).toMatch(
      /Z$/,
    );
  });

  it('names a key created without a name after the day it was made, and the account’s first key too', async () => {
    const { apiKey, accountId } = await svc.account();
    const day = (at: string) => {
      const d = new Date(at);
      return `${d.getUTCDate()} ${d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${d.getUTCFullYear()}`;
    };
    const created = await svc.call('POST', '/api-keys', { auth: apiKey, body: {} });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.name).toBe(`Key created ${day(created.body.data.createdAt)}`);
    const listed = (await svc.call('GET', '/api-keys', { auth: apiKey })).body.data as {
      name: string | null;
      createdAt: string;
    }[];
    expect(listed).toHaveLength(2);
    for (const k of listed) expect(k.name).toBe(`Key created ${day(k.createdAt)}`);
    // Keys stored without a name are named the same way by the migration that brought default names.
    await svc.db.update(apiKeys).set({ name: null }).where(eq(apiKeys.accountId, accountId));
    const migration = readFileSync(
      new URL('../../drizzle/0021_api_key_default_names.sql', import.meta.url),
      'utf8',
    );
    await svc.db.execute(sql.raw(migration));
    const named = (await svc.call('GET', '/api-keys', { auth: apiKey })).body.data as typeof listed;
    expect(named.map((k) => k.name)).toEqual(listed.map((k) => `Key created ${day(k.createdAt)}`));
  });

  it("keeps the last active key, answers another account's key as missing, and names bad fields", async () => {
    const { apiKey } = await svc.account();
    const [only] = (await svc.call('GET', '/api-keys', { auth: apiKey })).body.data;
    expectProblem(
      await svc.call('DELETE', `/api-keys/${only.apiKeyId}`, { auth: apiKey }),
      409,
      'conflict',
      'apiKeyId',
    );
    expectProblem(
      await svc.call('DELETE', `/api-keys/${only.apiKeyId}`, { auth: a.apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('POST', '/api-keys', { auth: apiKey, body: { mode: 'prod' } }),
      400,
      'invalid_request',
      'body.mode',
    );
    const jwt = await tokenFor(svc, a.apiKey, a.userId);
    expectProblem(await svc.call('GET', '/api-keys', { auth: jwt }), 403, 'forbidden');
  });
});

describe('console sessions', () => {
  const cookieOf = (setCookie: string | null) => /inlay_console=([^;]*)/.exec(setCookie ?? '')?.[1] ?? '';

  it('trades a key for an httpOnly SameSite=Strict cookie of 12 hours that acts as the key', async () => {
    const r = await svc.call('POST', '/console/session', { body: { apiKey: a.apiKey } });
    expect(r.status, r.text).toBe(201);
    const set = r.headers.get('set-cookie')!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    expect(set).toMatch(/Max-Age=43200/);
    expect(set).toMatch(/Path=\//);
    expect(set).not.toContain(a.apiKey);
    expect(r.body.data).toMatchObject({ accountId: a.accountId, accountName: 'Test account' });
    const cookie = `inlay_console=${cookieOf(set)}`;
    const csrf: string = r.body.data.csrfToken;
    const [row] = await svc.db
      .select()
      .from(consoleSessions)
      .where(eq(consoleSessions.accountId, a.accountId));
    expect(row!.hash).not.toBe(cookieOf(set));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeCloseTo(12 * 3600 * 1000, -4);

    const me = await svc.call('GET', '/console/session', { headers: { cookie } });
    expect(me.body.data.csrfToken).toBe(csrf);
    const list = await svc.call('GET', '/executions?limit=1', { headers: { cookie } });
    expect(list.body.data[0].executionId).toBe(aliceRuns[4]);

    // Writes need the CSRF header: without it nothing is written.
    const before = (await get('/api-keys')).body.data.length;
    expectProblem(
      await svc.call('POST', '/api-keys', { headers: { cookie }, body: { name: 'x' } }),
      403,
      'forbidden',
    );
    expectProblem(
      await svc.call('POST', '/api-keys', {
        headers: { cookie, 'x-inlay-csrf': 'wrong' },
        body: { name: 'x' },
      }),
      403,
      'forbidden',
    );
    expect((await get('/api-keys')).body.data.length).toBe(before);
    const made = await svc.call('POST', '/api-keys', {
      headers: { cookie, 'x-inlay-csrf': csrf },
      body: { name: 'from the console' },
    });
    expect(made.status, made.text).toBe(201);

    // Sign-out revokes the session and clears the cookie.
    expectProblem(await svc.call('DELETE', '/console/session', { headers: { cookie } }), 403, 'forbidden');
    const out = await svc.call('DELETE', '/console/session', { headers: { cookie, 'x-inlay-csrf': csrf } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/inlay_console=;.*Max-Age=0/);
    expect((await svc.call('GET', '/console/session', { headers: { cookie } })).body).toEqual({ data: null });
    expectProblem(await svc.call('GET', '/executions', { headers: { cookie } }), 401, 'unauthorized');
  });

  it('refuses unknown keys, ends with expiry and with the revocation of its key', async () => {
    expectProblem(
      await svc.call('POST', '/console/session', { body: { apiKey: 'inlay_live_0000000000000000000000' } }),
      401,
      'unauthorized',
    );
    expectProblem(
      await svc.call('POST', '/console/session', { body: {} }),
      400,
      'invalid_request',
      'body.apiKey',
    );
    const { apiKey, accountId } = await svc.account();
    const second = await svc.call('POST', '/api-keys', { auth: apiKey, body: {} });
    const open = async (key: string) => {
      const r = await svc.call('POST', '/console/session', { body: { apiKey: key } });
      return `inlay_console=${cookieOf(r.headers.get('set-cookie'))}`;
    };
    const expiring = await open(apiKey);
    await svc.db
      .update(consoleSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(consoleSessions.accountId, accountId));
    expectProblem(await svc.call('GET', '/api-keys', { headers: { cookie: expiring } }), 401, 'unauthorized');

    const bySecond = await open(second.body.key);
    expect((await svc.call('GET', '/api-keys', { headers: { cookie: bySecond } })).status).toBe(200);
    await svc.call('DELETE', `/api-keys/${second.body.data.apiKeyId}`, { auth: apiKey });
    expectProblem(await svc.call('GET', '/api-keys', { headers: { cookie: bySecond } }), 401, 'unauthorized');
  });
});

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps, executions } from '../src/store/schema.ts';
import { createUser, insertExecutions, seedAccount, tokenFor } from './helpers/fixtures.ts';
import { expectProblem, ISO_MS_RE, type Service, startService, UUID_RE } from './helpers/service.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let ids: string[];

beforeAll(async () => {
  svc = await startService();
  s = await seedAccount(svc);
  ids = await insertExecutions(svc.db, s, 25);
});
afterAll(() => svc?.close());

const logs = (query: string, auth = s.apiKey, workflowId = s.workflowId) =>
  svc.call('GET', `/workflows/${workflowId}/logs?${query}`, { auth });

describe('GET /workflows/{workflowId}/logs', () => {
  it('returns log entries in the seed shape', async () => {
    const r = await logs(`userId=${s.userId}&limit=1`);
    expect(r.status).toBe(200);
    const [e] = r.body.data;
    expect(e).toEqual({
      executionId: ids[24],
      startedAt: '2025-09-01T10:00:24.000Z',
      stoppedAt: '2025-09-01T10:00:24.250Z',
      finished: true,
      status: 'succeeded',
      error: null,
      rerunOf: null,
      workflowId: s.workflowId,
      version: 1,
      trigger: { type: 'event', event: 'deal.created', data: { name: 'deal 24' } },
      summary: null,
      reruns: [],
      results: [expect.any(Object), expect.any(Object)],
      inputs: [
        { connectorId: expect.stringMatching(UUID_RE), data: { n: 24, connector: 'transform' } },
        { connectorId: expect.stringMatching(UUID_RE), data: { n: 24, connector: 'slack' } },
      ],
    });
    const slack = e.results[1];
    expect(slack.startedAt).toMatch(ISO_MS_RE);
    expect(slack.stoppedAt).toMatch(ISO_MS_RE);
    expect(slack.connectorId).toMatch(UUID_RE);
    expect(slack.data).toEqual([
      [{ id: expect.stringMatching(UUID_RE), json: { ok: true, n: 24 }, statusCode: 200 }],
    ]);
    expect(e.results[0].data[0][0]).not.toHaveProperty('statusCode');
  });

  it('pages newest first by default: page 1 limit 10 is the newest ten, page 3 holds five', async () => {
    const p1 = await logs(`userId=${s.userId}&page=1&limit=10`);
    expect(p1.body.data.map((e: { executionId: string }) => e.executionId)).toEqual(ids.slice(15).reverse());
    const p3 = await logs(`userId=${s.userId}&page=3&limit=10`);
    expect(p3.body.data.map((e: { executionId: string }) => e.executionId)).toEqual(
      ids.slice(0, 5).reverse(),
    );
    const p4 = await logs(`userId=${s.userId}&page=4&limit=10`);
    expect(p4.body.data).toEqual([]);
  });

  it('defaults to page 1, limit 10, desc; asc reverses', async () => {
    const dflt = await logs(`userId=${s.userId}`);
    expect(dflt.body.data.map((e: { executionId: string }) => e.executionId)).toEqual(
      ids.slice(15).reverse(),
    );
    const asc = await logs(`userId=${s.userId}&order=asc&limit=10`);
    expect(asc.body.data.map((e: { executionId: string }) => e.executionId)).toEqual(ids.slice(0, 10));
    const max = await logs(`userId=${s.userId}&limit=30`);
    expect(max.body.data).toHaveLength(25);
  });

  it.each([
    ['limit=31', 'query.limit'],
    ['limit=0', 'query.limit'],
    ['page=0', 'query.page'],
    ['order=up', 'query.order'],
    ['limit=ten', 'query.limit'],
    ['page=1.5', 'query.page'],
    ['page=-1', 'query.page'],
  ])('rejects %s with a 400 naming the parameter', async (q, field) => {
    const r = await logs(`userId=${s.userId}&${q}`);
    expectProblem(r, 400, 'invalid_request', field);
    expect(r.body.message).toContain(field.replace('query.', ''));
  });

  it('says which limit is the maximum', async () => {
    const r = await logs(`userId=${s.userId}&limit=31`);
    expect(r.body.errors[0].message).toContain('30');
  });

  it('requires userId with an API key', async () => {
    expectProblem(await logs(''), 400, 'invalid_request', 'query.userId', 'required');
  });

  it('takes the user from the JWT and 404s another user named by it', async () => {
    const jwt = await tokenFor(svc, s.apiKey, s.userId);
    expect((await logs('limit=2', jwt)).body.data).toHaveLength(2);
    const bob = await createUser(svc, s.apiKey, 'bob');
    const bobJwt = await tokenFor(svc, s.apiKey, bob);
    expect((await logs('', bobJwt)).body.data).toEqual([]);
    expectProblem(await logs(`userId=${s.userId}`, bobJwt), 404, 'not_found');
    expectProblem(await logs('userId=alice', bobJwt), 404, 'not_found');
  });

  it('answers 404 for another account’s workflow or user', async () => {
    const other = await seedAccount(svc, { username: 'mallory' });
    expectProblem(await logs(`userId=${s.userId}`, other.apiKey), 404, 'not_found');
    expectProblem(await logs(`userId=${other.userId}`, other.apiKey), 404, 'not_found');
    expectProblem(await logs(`userId=${other.userId}`, other.apiKey, randomUUID()), 404, 'not_found');
  });
});

describe('DELETE /users/{userId}/logs', () => {
  it('hard-deletes every execution row of the user and leaves others untouched', async () => {
    const fresh = await seedAccount(svc, { username: 'carol' });
    const dave = await createUser(svc, fresh.apiKey, 'dave');
    await insertExecutions(svc.db, fresh, 5);
    const daveIds = await insertExecutions(svc.db, { ...fresh, userId: dave }, 3);
    const r = await svc.call('DELETE', `/users/${fresh.userId}/logs?userId=${fresh.userId}`, {
      auth: fresh.apiKey,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Success' });
    expect(await svc.db.select().from(executions).where(eq(executions.userId, fresh.userId))).toEqual([]);
    expect(await svc.db.select().from(executionSteps).where(eq(executionSteps.userId, fresh.userId))).toEqual(
      [],
    );
    const left = await svc.db.select().from(executions).where(eq(executions.userId, dave));
    expect(left.map((e) => e.id).sort()).toEqual([...daveIds].sort());
    expect(await svc.db.select().from(executionSteps).where(eq(executionSteps.userId, dave))).toHaveLength(6);
    expect(
      (
        await svc.call('GET', `/workflows/${fresh.workflowId}/logs?userId=${fresh.userId}`, {
          auth: fresh.apiKey,
        })
      ).body.data,
    ).toEqual([]);
  });

  it('works with the user’s own JWT and 404s for another user’s', async () => {
    const fresh = await seedAccount(svc, { username: 'erin' });
    const frank = await createUser(svc, fresh.apiKey, 'frank');
    await insertExecutions(svc.db, fresh, 2);
    const frankJwt = await tokenFor(svc, fresh.apiKey, frank);
    expectProblem(
      await svc.call('DELETE', `/users/${fresh.userId}/logs`, { auth: frankJwt }),
      404,
      'not_found',
    );
    expect(await svc.db.select().from(executions).where(eq(executions.userId, fresh.userId))).toHaveLength(2);
    const erinJwt = await tokenFor(svc, fresh.apiKey, fresh.userId);
    expect((await svc.call('DELETE', `/users/${fresh.userId}/logs`, { auth: erinJwt })).status).toBe(200);
    expect(await svc.db.select().from(executions).where(eq(executions.userId, fresh.userId))).toEqual([]);
  });
});

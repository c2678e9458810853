import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { connectorUuid } from '@inlay/connectors';
import { createUser, insertExecutions, seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, ISO_MS_RE, type Service, sharedService, UUID_RE } from '@inlay/test-kit/service';
import { eq, sql } from 'drizzle-orm';
import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logPage } from '../../src/executions/executions.ts';
import { LogPages } from '../../src/executions/log-page.ts';
import { STEP_LOG_PARTS_FUNCTION } from '../../src/executions/step-log-sql.ts';
import { executionSteps, executions } from '../../src/store/schema.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let ids: string[];

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc);
  ids = await insertExecutions(svc.db, s, 25);
});
afterAll(() => svc?.close());

const FAR = new Date('2099-01-01T00:00:00.000Z');

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

  // PGlite runs the page as `EXECUTE` with the values as literals: a name is matched as written, never as SQL.
  it('finds a user whose name holds quotes and backslashes, and nothing for SQL in a name', async () => {
    const name = `o'brien\\'x"{a,b}\\`;
    const odd = await createUser(svc, s.apiKey, name);
    await insertExecutions(svc.db, { ...s, userId: odd }, 2);
    const r = await logs(`userId=${encodeURIComponent(name)}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(2);
    const injected = `x');select+1;--`;
    expectProblem(await logs(`userId=${encodeURIComponent(injected)}`), 404, 'not_found');
    const statuses = await logs(`userId=${encodeURIComponent(name)}&status=failed,succeeded`);
    expect(statuses.body.data).toHaveLength(2);
  });

  it('answers 404 for another account’s workflow or user', async () => {
    const other = await seedAccount(svc, { username: 'mallory' });
    expectProblem(await logs(`userId=${s.userId}`, other.apiKey), 404, 'not_found');
    expectProblem(await logs(`userId=${other.userId}`, other.apiKey), 404, 'not_found');
    expectProblem(await logs(`userId=${other.userId}`, other.apiKey, randomUUID()), 404, 'not_found');
  });
});

describe('the page the database composes', () => {
  // The route's JSON comes from SQL; `logPage` is the composition in JavaScript it replaced (MCP still uses it).
  it('is byte for byte what the JavaScript composition makes of varied runs', async () => {
    const g = await seedAccount(svc, { username: 'grace' });
    const odd = 'Déal ☃ 🚀 "q" \\ \u0001\u001f\u2028 \n\t": , "x" \\"';
    const run = (i: number, over: Partial<typeof executions.$inferInsert> = {}) => ({
      id: randomUUID(),
      accountId: g.accountId,
      userId: g.userId,
      workflowId: g.workflowId,
      version: 1 + i,
      status: 'succeeded' as const,
      finished: true,
      trigger: { name: `deal ${i}`, odd },
      triggerType: 'event',
      startedAt: new Date(Date.parse('2025-10-01T00:00:00.000Z') + i * 1000 + 7),
      stoppedAt: new Date(Date.parse('2025-10-01T00:00:00.000Z') + i * 1000 + 250),
      ...over,
    });
    const runs = [
      run(0, {
        status: 'failed',
        error: { code: 'E_BOOM', message: odd, details: { attempt: 3 } },
        event: '',
      }),
      // Unfinished runs hold a lease far ahead: on a shared PostgreSQL another file's engine sweeps runs without
      // one (requeues them), which would change the page between the JavaScript composition and the reads.
      run(1, {
        status: 'running',
        finished: false,
        stoppedAt: null,
        summary: odd,
        event: 'deal.created',
        leaseUntil: FAR,
      }),
      run(2, { trigger: JSON.parse('{"__proto__":{"x":1},"b":1,"10":2,"a":3,"2":4}') }),
      run(3, { trigger: { n: [1e21, 1e-7, 0.1 + 0.2, -5, 123456789012345680000, 1.5] }, summary: '' }),
      run(4, { status: 'queued', finished: false, stoppedAt: null, leaseUntil: FAR }),
      run(5),
      // Steps past the run's share of a page (1 MiB by default): cut to a marker in SQL and in JavaScript alike.
      run(8),
    ];
    const rerun = run(6, { rerunOf: runs[0]!.id });
    const rerun2 = run(7, { rerunOf: runs[0]!.id, status: 'failed', error: 'plain string error' });
    await svc.db.insert(executions).values([...runs, rerun, rerun2]);
    const step = (
      executionId: string,
      position: number,
      over: Partial<typeof executionSteps.$inferInsert>,
    ) => ({
      executionId,
      position,
      userId: g.userId,
      stepId: `step-${position}`,
      connector: 'slack',
      connectorId: connectorUuid('slack'),
      action: 'post_message',
      status: 'succeeded' as const,
      input: { channel: 'C1', text: odd },
      data: [[{ id: `item-${position}`, json: { ok: true }, statusCode: 200 }]],
      startedAt: new Date(Date.parse('2025-10-01T00:00:00.000Z') + position),
      stoppedAt: new Date(Date.parse('2025-10-01T00:00:00.000Z') + position + 99),
      ...over,
    });
    const big = Array.from({ length: 1500 }, (_, i) => ({
      id: `i${i}`,
      json: { i, text: `${odd} ${i}`.repeat(3) },
    }));
    await svc.db.insert(executionSteps).values([
      // Control flow: a forEach's iterations, an if's branch; falsy names, errors and ids are left out.
      // Iteration paths come from the step key (`:2.1` in a nested loop); a row without one has none.
      step(runs[0]!.id, 0, {
        name: '',
        iteration: 0,
        stepKey: 'step-0:0',
        parentStepId: 'loop',
        truncated: true,
        error: null,
      }),
      step(runs[0]!.id, 1, {
        name: 'Ünïcode 🚀',
        iteration: 1,
        stepKey: 'step-1:12.1',
        parentStepId: 'loop',
        branch: 'then',
      }),
      step(runs[5]!.id, 2, { iteration: 4, parentStepId: 'loop' }),
      step(runs[0]!.id, 2, { parentStepId: '', branch: 'else', status: 'failed', error: { message: odd } }),
      step(runs[0]!.id, 3, { error: false, input: null, stoppedAt: null, attempts: 3 }),
      step(runs[1]!.id, 0, { error: 0, input: 'a string' }),
      step(runs[1]!.id, 1, { error: '', input: [1, 2] }),
      step(runs[1]!.id, 2, { error: {}, input: false }),
      // Items as rows written before items were normalised may hold them.
      step(runs[2]!.id, 0, {
        data: [
          [
            { id: 'a', json: 'text' },
            { id: 'b', json: 5, statusCode: 201 },
            { id: 'c', json: [1, 2] },
            { id: 'd', json: null },
            { id: 'e' },
            {},
            { id: 'f', json: { fine: true } },
          ],
          [],
          [{ id: 'g', json: false }],
        ],
      }),
      step(runs[3]!.id, 0, {
        data: [
          [{ id: 'n', json: JSON.parse('{"b":1,"10":2,"a":[1e21,1e-7,-0,0.30000000000000004],"2":4}') }],
        ],
      }),
      step(runs[5]!.id, 0, { data: [big] }),
      step(runs[5]!.id, 1, { data: [], input: {} }),
      ...[0, 1, 2].map((position) =>
        step(runs[6]!.id, position, {
          data: [[{ id: randomUUID(), json: { text: `${odd}${'x'.repeat(450_000)}` } }]],
          truncated: position === 2,
        }),
      ),
      step(runs[6]!.id, 3, { data: [] }),
    ]);
    // What JavaScript never writes but SQL may have: numbers it prints otherwise, sub-millisecond times.
    await svc.db.execute(sql`update execution_steps set
        input = '{"x": 1.50, "y": 1e400, "z": -0, "w": 100000000000000000000000}'::jsonb,
        started_at = '2025-10-01 00:00:00.123987+00', stopped_at = '2025-10-01 00:00:01.999999+00'
      where execution_id = ${runs[5]!.id}::uuid and position = 1`);
    await svc.db.execute(sql`update executions set trigger = 'null'::jsonb, error = 'null'::jsonb,
        started_at = '2025-10-01 00:00:04.000500+00' where id = ${runs[4]!.id}::uuid`);

    const pages: { order: 'asc' | 'desc'; page: number; limit: number; status?: ('failed' | 'running')[] }[] =
      [
        { order: 'desc', page: 1, limit: 30 },
        { order: 'asc', page: 1, limit: 30 },
        { order: 'desc', page: 2, limit: 3 },
        { order: 'asc', page: 3, limit: 3 },
        { order: 'desc', page: 9, limit: 3 },
        { order: 'desc', page: 1, limit: 30, status: ['failed', 'running'] },
      ];
    const expectPagesAsComposedInJs = async () => {
      for (const p of pages) {
        const q = `userId=${g.userId}&order=${p.order}&page=${p.page}&limit=${p.limit}${p.status ? `&status=${p.status.join(',')}` : ''}`;
        // Fetched directly: rows from before today's contract (legacy items, odd errors) need not match it.
        const r = await fetch(`${svc.url}/workflows/${g.workflowId}/logs?${q}`, {
          headers: { authorization: `Bearer ${g.apiKey}` },
        });
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const old = await logPage(svc.db, {
          ...p,
          accountId: g.accountId,
          userId: g.userId,
          workflowId: g.workflowId,
          maxEntryBytes: svc.ctx.config.maxLogEntryBytes,
        });
        const want = JSON.stringify({ data: old });
        expect(await r.text()).toBe(want);
        // The same page however much this node keeps: composed whole by the database, assembled from kept
        // entries, served as kept, each twice (the second time from what the first kept).
        const asUser = {
          principal: { kind: 'user', accountId: g.accountId, userId: g.userId, tokenId: 't' },
        } as unknown as Request;
        for (const keeping of keepings) {
          for (let i = 0; i < 2; i++) {
            const body = await keeping.body(asUser, undefined, { ...p, workflowId: g.workflowId });
            expect(body.toString()).toBe(want);
          }
        }
      }
    };
    const keepings = [
      { pageBytes: 0, entryBytes: 0 },
      { pageBytes: 0, entryBytes: 1 << 20 },
      { pageBytes: 1 << 20, entryBytes: 0 },
      // Room for a few entries only: the big run's alone is larger, so a page is assembled from some kept
      // entries and some composed.
      { pageBytes: 0, entryBytes: 40_000 },
    ].map((o) => new LogPages(svc.ctx.store, { ...o, maxEntryBytes: svc.ctx.config.maxLogEntryBytes }));
    await expectPagesAsComposedInJs();
    // The trigger printed each step's fixed parts when it was written; `data` itself only where items needed rewriting.
    const parts = (await svc.db.execute(sql`select log_head is not null as head, log_tail is not null as tail,
        log_data is not null as rewritten from execution_steps where user_id = ${g.userId}::uuid`)) as unknown as {
      rows: { head: boolean; tail: boolean; rewritten: boolean }[];
    };
    expect(parts.rows).toHaveLength(16);
    expect(parts.rows.every((r) => r.head && r.tail)).toBe(true);
    expect(parts.rows.filter((r) => r.rewritten)).toHaveLength(1);
    // Rows from before the trigger existed have no parts: the page composes them from their columns, to the same bytes.
    await svc.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update execution_steps set log_head = null, log_tail = null, log_data = null
        where user_id = ${g.userId}::uuid and position % 2 = 0`);
    });
    const left = (await svc.db.execute(sql`select count(*)::int as n from execution_steps
        where user_id = ${g.userId}::uuid and log_head is null`)) as unknown as { rows: { n: number }[] };
    expect(left.rows[0]!.n).toBeGreaterThan(3);
    await expectPagesAsComposedInJs();
    const all = (await (
      await fetch(`${svc.url}/workflows/${g.workflowId}/logs?userId=${g.userId}&limit=30`, {
        headers: { authorization: `Bearer ${g.apiKey}` },
      })
    ).json()) as {
      data: { executionId: string; reruns: string[]; results: { iterationPath?: number[] }[] }[];
    };
    expect(all.data).toHaveLength(9);
    const cut = all.data.find((e) => e.executionId === runs[6]!.id)!.results as { truncated?: boolean }[];
    expect(cut.map((r) => r.truncated ?? false)).toEqual([false, false, true, true]);
    expect(all.data.find((e) => e.executionId === runs[0]!.id)?.reruns).toEqual([rerun.id, rerun2.id]);
    const paths = (i: number) =>
      all.data.find((e) => e.executionId === runs[i]!.id)!.results.map((r) => r.iterationPath ?? null);
    expect(paths(0)).toEqual([[0], [12, 1], null, null]);
    expect(paths(5)).toEqual([null, null, null]);
  });
});

describe('a run’s share of a page', () => {
  it('cuts the steps past it to a marker naming the route that returns the run whole', async () => {
    const c = await seedAccount(svc, { username: 'big-outputs' });
    const [executionId] = await insertExecutions(svc.db, c, 1);
    const share = svc.ctx.config.maxLogEntryBytes;
    const text = 'y'.repeat(Math.ceil(share * 0.6));
    await svc.db.delete(executionSteps).where(eq(executionSteps.executionId, executionId!));
    await svc.db.insert(executionSteps).values(
      [0, 1, 2].map((position) => ({
        executionId: executionId!,
        position,
        userId: c.userId,
        stepId: `s${position}`,
        connector: 'slack',
        connectorId: connectorUuid('slack'),
        action: 'post_message',
        status: 'succeeded' as const,
        input: { position },
        data: [[{ id: randomUUID(), json: { text } }]],
        startedAt: new Date('2025-10-01T00:00:00.000Z'),
        stoppedAt: new Date('2025-10-01T00:00:01.000Z'),
      })),
    );
    const page = await svc.call('GET', `/workflows/${c.workflowId}/logs?userId=${c.userId}`, {
      auth: c.apiKey,
    });
    expect(page.status).toBe(200);
    // One step's output fits; the next would pass the share, so it and every step after it are cut.
    expect(page.text.length).toBeLessThan(share + 10_000);
    const [entry] = page.body.data;
    expect(entry.results[0].data[0][0].json.text).toBe(text);
    expect(entry.results[0].truncated).toBeUndefined();
    expect(entry.inputs[0].data).toEqual({ position: 0 });
    const route = `GET /workflows/${c.workflowId}/logs/${executionId}`;
    for (const i of [1, 2]) {
      expect(entry.results[i].truncated).toBe(true);
      const { marker, originalBytes } = entry.results[i].data[0][0].json;
      expect(marker).toContain(route);
      expect(originalBytes).toBeGreaterThan(text.length);
      expect(entry.inputs[i].data).toEqual({ truncated: true, marker });
    }
    // The run's own route returns it whole.
    const whole = await svc.call('GET', `/workflows/${c.workflowId}/logs/${executionId}?userId=${c.userId}`, {
      auth: c.apiKey,
    });
    expect(whole.status).toBe(200);
    expect(
      whole.body.data.results.map((r: { data: { json: { text: string } }[][] }) => r.data[0]![0]!.json.text),
    ).toEqual([text, text, text]);
    expect(whole.body.data.inputs[2].data).toEqual({ position: 2 });
  });
});

describe('the step parts trigger', () => {
  it('is in the migrations as step-log-sql.ts writes it', () => {
    const dir = new URL('../../drizzle/', import.meta.url);
    const defining = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => readFileSync(new URL(f, dir), 'utf8'))
      .filter((sql) => sql.includes('FUNCTION inlay_step_log_parts()'));
    expect(defining.length).toBeGreaterThan(0);
    expect(defining.at(-1)).toContain(STEP_LOG_PARTS_FUNCTION);
  });
});

describe('a kept page', () => {
  // Writes straight to the database, as another node or a worker would: nothing tells this node about them.
  it('is served again only while nothing it shows has changed', async () => {
    const k = await seedAccount(svc, { username: 'kept-pages' });
    const runs = await insertExecutions(svc.db, k, 4);
    const shapes = [
      { order: 'desc' as const, page: 1, limit: 30 },
      { order: 'asc' as const, page: 1, limit: 2 },
      // A new run moves each of its runs on by one: assembled from the entries the first page kept.
      { order: 'desc' as const, page: 2, limit: 2 },
      { order: 'desc' as const, page: 1, limit: 30, status: ['failed' as const] },
    ];
    const expectCurrent = async (ref = k.userId) => {
      for (const p of shapes) {
        const q = `userId=${encodeURIComponent(ref)}&order=${p.order}&page=${p.page}&limit=${p.limit}${p.status ? `&status=${p.status}` : ''}`;
        const want = JSON.stringify({
          data: await logPage(svc.db, {
            ...p,
            accountId: k.accountId,
            userId: k.userId,
            workflowId: k.workflowId,
            maxEntryBytes: svc.ctx.config.maxLogEntryBytes,
          }),
        });
        // Twice: the second answer is the kept one when nothing changed.
        for (let i = 0; i < 2; i++) {
          const r = await fetch(`${svc.url}/workflows/${k.workflowId}/logs?${q}`, {
            headers: { authorization: `Bearer ${k.apiKey}` },
          });
          expect(r.status).toBe(200);
          expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
          expect(await r.text()).toBe(want);
        }
      }
    };
    await expectCurrent();
    await expectCurrent('kept-pages');

    // A run's own row.
    await svc.db
      .update(executions)
      .set({ status: 'failed', error: { message: 'late' } })
      .where(eq(executions.id, runs[1]!));
    await expectCurrent();
    // A step added, changed in place, and deleted, without touching its run.
    await svc.db.insert(executionSteps).values({
      executionId: runs[2]!,
      position: 2,
      userId: k.userId,
      stepId: 'late-step',
      connector: 'transform',
      connectorId: connectorUuid('transform'),
      action: 'map',
      status: 'succeeded',
      input: { late: true },
      data: [[{ id: 'x', json: { late: true } }]],
      startedAt: new Date('2025-09-01T10:00:02.300Z'),
      stoppedAt: new Date('2025-09-01T10:00:02.400Z'),
    });
    await expectCurrent();
    await svc.db.execute(sql`update execution_steps set data = '[[{"id":"y","json":{"changed":1}}]]'::jsonb
      where execution_id = ${runs[0]!}::uuid and position = 0`);
    await expectCurrent();
    await svc.db.delete(executionSteps).where(eq(executionSteps.stepId, 'late-step'));
    await expectCurrent();
    // A rerun of the first run: on the first ascending page of two only as an id in that run's `reruns`.
    const [rerun] = await insertExecutions(svc.db, k, 1, Date.parse('2025-09-02T10:00:00.000Z'));
    await svc.db.update(executions).set({ rerunOf: runs[0]! }).where(eq(executions.id, rerun!));
    await expectCurrent();
    await svc.db.delete(executions).where(eq(executions.id, rerun!));
    await expectCurrent();
    // A new run, and a run deleted.
    await insertExecutions(svc.db, k, 1, Date.parse('2025-09-03T10:00:00.000Z'));
    await expectCurrent();
    await svc.db.delete(executions).where(eq(executions.id, runs[0]!));
    await expectCurrent();

    // The user renamed: the old name finds nobody, the new one finds the same runs.
    const byName = () =>
      fetch(`${svc.url}/workflows/${k.workflowId}/logs?userId=kept-pages&limit=30`, {
        headers: { authorization: `Bearer ${k.apiKey}` },
      });
    await svc.db.execute(sql`update users set username = 'kept-pages-2' where id = ${k.userId}::uuid`);
    expect((await byName()).status).toBe(404);
    await expectCurrent('kept-pages-2');
    // Every run of the user deleted.
    await svc.db.delete(executions).where(eq(executions.userId, k.userId));
    await expectCurrent();
    const empty = await logs(`userId=${k.userId}&limit=30`, k.apiKey, k.workflowId);
    expect(empty.body).toEqual({ data: [] });
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

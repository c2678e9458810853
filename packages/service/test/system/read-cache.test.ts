import { deafProxy } from '@inlay/test-kit/deaf-proxy';
import { createUser, installDirect, seedAccount, slackDefinition, tokenFor } from '@inlay/test-kit/fixtures';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyRow, generateApiKey, sha256 } from '../../src/accounts/api-keys.ts';
import { CHANGES_CHANNEL } from '../../src/store/change-feed.ts';
import { trackLocalWrites } from '../../src/store/local-writes.ts';
import { userWorkflows, workflows } from '../../src/store/schema.ts';

type Seed = Awaited<ReturnType<typeof seedAccount>>;

const names = (r: { body: { data: { name: string }[] } }) => r.body.data.map((w) => w.name);

/** Counts the cache's hits and misses over `fn`. */
async function counted(svc: Service, fn: () => Promise<unknown>) {
  const { hits, misses } = svc.ctx.reads;
  await fn();
  return { hits: svc.ctx.reads.hits - hits, misses: svc.ctx.reads.misses - misses };
}

/** The statements `svc`'s store was asked to run during `fn` (each also shown to `onStatement` as it starts). */
async function queriesDuring(
  svc: Service,
  fn: () => Promise<unknown>,
  onStatement?: (statement: string) => void,
): Promise<string[]> {
  const client = (svc.ctx.store.db as unknown as { $client: Record<string, unknown> }).$client;
  const seen: string[] = [];
  // node-postgres: pool.query and checkouts; PGlite: query and exec (drizzle and prepared statements use them).
  const methods = ['query', 'exec', 'connect'].filter((m) => typeof client[m] === 'function');
  const originals = methods.map((m) => client[m] as (...a: unknown[]) => unknown);
  methods.forEach((m, i) => {
    client[m] = function (this: unknown, ...args: unknown[]) {
      const first = args[0] as string | { text?: string } | undefined;
      const statement = `${m}: ${typeof first === 'string' ? first : (first?.text ?? '')}`;
      seen.push(statement.slice(0, 120));
      onStatement?.(statement);
      return originals[i]!.apply(this, args);
    };
  });
  try {
    await fn();
  } finally {
    methods.forEach((m, i) => {
      client[m] = originals[i];
    });
  }
  return seen;
}

/**
 * A listener on the change channel: `during(run)` answers what was announced from `run`'s start up to a marker
 * `writer` sends after it (notifications arrive in commit order). Other test files write to the same database
 * meanwhile: callers keep only their own account's or user's announcements.
 */
async function changesHeard(writer: pg.Client) {
  const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (m) => heard.push(m.payload ?? ''));
  await listener.query(`listen ${CHANGES_CHANNEL}`);
  let marks = 0;
  return {
    async during(run: () => Promise<unknown>): Promise<string[]> {
      heard.length = 0;
      await run();
      const mark = `s:mark-${marks++}`;
      await writer.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, mark]);
      await expect.poll(() => heard.includes(mark), { timeout: 5_000, interval: 5 }).toBe(true);
      return heard.slice(0, heard.indexOf(mark));
    },
    end: () => listener.end(),
  };
}

describe('a repeated workflow list', () => {
  let svc: Service;
  let s: Seed;

  beforeAll(async () => {
    // Background loops slowed down, so what the store is asked while the test reads is the reads' own doing.
    svc = await startService({
      env: {
        INLAY_SCHEDULER_INTERVAL_MS: '3600000',
        INLAY_WEBHOOK_POLL_MS: '600000',
        INLAY_RETENTION_INTERVAL_MS: '604800000',
        INLAY_QUEUE_POLL_MS: '60000',
      },
    });
    s = await seedAccount(svc, { username: 'quiet-alice' });
    await installDirect(svc.db, s);
    // The trigger's notifications of those writes reach this node after they commit; one arriving between the
    // two lists below would (rightly) make the first one's entries stale.
    await svc.ctx.store.changes.sync();
  });
  afterAll(() => svc?.close());

  it('asks the database nothing once cached, attention included', async () => {
    const list = () => svc.call('GET', `/workflows?userId=${s.userId}`, { auth: s.apiKey });
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body.data[0]).toMatchObject({ installed: true, attention: null });
    let again: Awaited<ReturnType<typeof list>> | undefined;
    const statements = await queriesDuring(svc, async () => {
      again = await list();
      await list();
    });
    expect(statements).toEqual([]);
    expect(again!.text).toBe(first.text);
  });
});

describe('the API key cache', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc?.close());

  it('does not keep a key whose lookup was in flight when a change to keys arrived', async () => {
    const { apiKey } = await svc.account('key-race');
    const other = await svc.account('key-race-other');
    const users = () => svc.call('GET', '/users', { auth: apiKey });
    const lookups = (statements: string[]) => statements.filter((q) => q.includes(`from "api_keys"`)).length;
    // Another account's key changes while this key's lookup runs: the lookup read the table before the change,
    // so its answer must not be kept (were it this account's key being revoked, it would keep working).
    let announced = false;
    const first = await queriesDuring(svc, users, (q) => {
      if (!announced && q.includes(`from "api_keys"`)) {
        announced = true;
        svc.ctx.store.changes.publish({ kind: 'keys', accountId: other.accountId });
      }
    });
    expect(lookups(first)).toBe(1);
    expect(lookups(await queriesDuring(svc, users))).toBe(1);
    // Looked up with no change to keys in between (on a shared PostgreSQL other tests create keys): kept.
    await expect.poll(async () => lookups(await queriesDuring(svc, users)), { timeout: 5_000 }).toBe(0);
  });
});

describe('read cache on one node', () => {
  let svc: Service;
  let s: Seed;

  beforeAll(async () => {
    svc = await startService();
    s = await seedAccount(svc, { username: 'cache-alice' });
    await svc.ctx.store.changes.sync();
  });
  afterAll(() => svc?.close());

  const list = (ref = s.userId) => svc.call('GET', `/workflows?userId=${ref}`, { auth: s.apiKey });

  it('answers a repeated read from memory with the same bytes', async () => {
    const first = await list();
    expect(first.status).toBe(200);
    let second: Awaited<ReturnType<typeof list>> | undefined;
    const n = await counted(svc, async () => {
      second = await list();
    });
    // One hit for the workflow list, one for its attention; the API key's account comes from the key cache.
    expect(n).toEqual({ hits: 2, misses: 0 });
    expect(second!.text).toBe(first.text);
    expect(second!.headers.get('content-type')).toBe(first.headers.get('content-type'));
  });

  it('shows a write made straight to the database on the very next read', async () => {
    expect((await list()).body.data[0].installed).toBe(false);
    await installDirect(svc.db, s);
    const r = await list();
    expect(r.body.data[0]).toMatchObject({ installed: true, active: true });
    await svc.db
      .update(userWorkflows)
      .set({ active: false })
      .where(and(eq(userWorkflows.userId, s.userId), eq(userWorkflows.workflowId, s.workflowId)));
    expect((await list()).body.data[0]).toMatchObject({ installed: true, active: false });
    await svc.db.update(workflows).set({ name: 'Renamed in SQL' }).where(eq(workflows.id, s.workflowId));
    expect(names(await list())).toEqual(['Renamed in SQL']);
  });

  it('is not dropped by the scheduler moving a schedule on', async () => {
    await svc.ctx.store.changes.sync();
    await list();
    const n = await counted(svc, async () => {
      await svc.db
        .update(userWorkflows)
        .set({ nextRunAt: new Date() })
        .where(eq(userWorkflows.userId, s.userId));
      await list();
    });
    expect(n).toEqual({ hits: 2, misses: 0 });
  });

  it('keeps users apart and follows a username to its new owner', async () => {
    const bob = await createUser(svc, s.apiKey, 'cache-bob');
    const byName = await list('cache-bob');
    expect(byName.status).toBe(200);
    expect(byName.body.data[0].installed).toBe(false);
    expect((await list('cache-alice')).body.data[0].installed).toBe(true);

    const renamed = await svc.call('PUT', `/users/${bob}`, {
      auth: s.apiKey,
      body: { username: 'cache-robert' },
    });
    expect(renamed.status).toBe(200);
    expect((await list('cache-bob')).status).toBe(404);
    expect((await list('cache-robert')).status).toBe(200);
    expect((await svc.call('GET', '/users/cache-bob', { auth: s.apiKey })).status).toBe(404);
  });

  it('does not keep a miss: a user created after a 404 is found at once', async () => {
    expect((await list('cache-carol')).status).toBe(404);
    expect((await svc.call('GET', '/users/cache-carol/token', { auth: s.apiKey })).status).toBe(404);
    await createUser(svc, s.apiKey, 'cache-carol');
    expect((await list('cache-carol')).status).toBe(200);
    expect((await svc.call('GET', '/users/cache-carol/token', { auth: s.apiKey })).status).toBe(200);
  });

  it("drops a deleted user's reads: its token is refused and its name is free again", async () => {
    const dave = await createUser(svc, s.apiKey, 'cache-dave');
    const token = await tokenFor(svc, s.apiKey, dave);
    const asDave = () => svc.call('GET', '/workflows', { auth: token });
    expect((await asDave()).status).toBe(200);
    expect((await asDave()).status).toBe(200);
    expect((await svc.call('DELETE', `/users/${dave}`, { auth: s.apiKey })).status).toBe(200);
    expect((await asDave()).status).toBe(401);
    expect((await svc.call('GET', `/users/${dave}/token`, { auth: s.apiKey })).status).toBe(404);
  });

  it('can be turned off with INLAY_READ_CACHE_MB=0', async () => {
    const off = await startService({ env: { INLAY_READ_CACHE_MB: '0' } });
    try {
      const t = await seedAccount(off, { username: 'cache-off' });
      for (let i = 0; i < 3; i++)
        expect((await off.call('GET', `/workflows?userId=${t.userId}`, { auth: t.apiKey })).status).toBe(200);
      expect(off.ctx.reads.hits).toBe(0);
    } finally {
      await off.close();
    }
  });
});

const NODES_APP = `inlay-read-cache-${process.pid}`;

describe.skipIf(!onPostgres)('read cache across API nodes (PostgreSQL only; skipped on PGlite)', () => {
  let a: Service;
  let b: Service;
  let sql: pg.Client;
  let s: Seed;

  beforeAll(async () => {
    // The nodes' connections carry this suite's own application name (a connection string's parameters win
    // over the driver's options), so killing their listeners below leaves other test files' nodes alone.
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('application_name', NODES_APP);
    const env = { DATABASE_URL: url.href };
    [a, b] = await Promise.all([startService({ env }), startService({ env })]);
    sql = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await sql.connect();
    s = await seedAccount(a, { username: 'nodes-alice' });
    await b.ctx.store.changes.sync();
  });
  afterAll(async () => {
    await sql?.end();
    await Promise.all([a?.close(), b?.close()]);
  });

  const listOn = (svc: Service) => svc.call('GET', `/workflows?userId=${s.userId}`, { auth: s.apiKey });

  async function warm(svc: Service) {
    await svc.ctx.store.changes.sync();
    await listOn(svc);
    const n = await counted(svc, () => listOn(svc));
    // The workflow list and its attention.
    expect(n.hits).toBe(2);
  }

  it("drops what node B kept when node A writes, once A's notification has reached B", async () => {
    await warm(b);
    const published = await a.call('PUT', `/workflows/${s.workflowId}`, {
      auth: s.apiKey,
      body: { name: 'Published on node A', definition: slackDefinition() },
    });
    expect(published.status).toBe(200);
    await b.ctx.store.changes.sync();
    expect((await listOn(b)).body.data[0]).toMatchObject({ name: 'Published on node A', version: 2 });
  });

  it('drops it for a write no Inlay process made (plain SQL), and for a rename of the account’s workflow', async () => {
    await warm(b);
    await sql.query('update workflows set name = $1 where id = $2', ['Renamed by a DBA', s.workflowId]);
    await b.ctx.store.changes.sync();
    expect(names(await listOn(b))).toEqual(['Renamed by a DBA']);
  });

  it('shows attention that another process changed: runs failing, then one succeeding', async () => {
    const f = await seedAccount(a, { username: 'nodes-frank' });
    await installDirect(a.db, f);
    await b.ctx.store.changes.sync();
    const attentionOn = async (svc: Service) =>
      (await svc.call('GET', `/workflows?userId=${f.userId}`, { auth: f.apiKey })).body.data[0].attention;
    expect(await attentionOn(b)).toBeNull();
    const n = await counted(b, () => attentionOn(b));
    expect(n).toEqual({ hits: 2, misses: 0 });
    const run = (status: string, secondsAgo: number) =>
      sql.query(
        `insert into executions (id, account_id, user_id, workflow_id, version, status, trigger, trigger_type, error, started_at)
         values (gen_random_uuid(), $1, $2, $3, 1, $4, '{}', 'manual',
           case when $4 = 'failed' then '{"code":"step_failed","message":"the mapping broke"}'::jsonb end,
           now() - make_interval(secs => $5)) returning id`,
        [f.accountId, f.userId, f.workflowId, status, secondsAgo],
      );
    await sql.query('begin');
    for (const ago of [30, 20, 10]) await run('failed', ago);
    await sql.query('commit');
    await b.ctx.store.changes.sync();
    // A sentence for the user; the run's own error in `detail`.
    expect(await attentionOn(b)).toMatchObject({
      code: 'failing',
      message: expect.stringContaining('The last 3 runs failed'),
      detail: expect.stringContaining('the mapping broke'),
    });
    const { rows } = await run('running', 1);
    await sql.query(`update executions set status = 'succeeded' where id = $1`, [rows[0].id]);
    await b.ctx.store.changes.sync();
    expect(await attentionOn(b)).toBeNull();
  });

  it('announces a success only when it can change attention: after a failure, or beside a run in flight', async () => {
    const g = await seedAccount(a, { username: 'nodes-grace' });
    const changes = await changesHeard(sql);
    const mine = `u:${g.accountId}:${g.userId}`;
    /** Whether `text` made the user's change heard. */
    const announces = async (text: string, values: unknown[]) =>
      (await changes.during(() => sql.query(text, values))).includes(mine);
    const start = async () =>
      (
        await sql.query(
          `insert into executions (id, account_id, user_id, workflow_id, version, status, trigger, trigger_type, started_at)
           values (gen_random_uuid(), $1, $2, $3, 1, 'running', '{}', 'manual', now()) returning id`,
          [g.accountId, g.userId, g.workflowId],
        )
      ).rows[0].id as string;
    const end = (id: string, status: string) =>
      announces('update executions set status = $2 where id = $1', [id, status]);
    try {
      const [r1, r2] = [await start(), await start()];
      expect(await end(r1, 'succeeded')).toBe(true); // r2 still in flight
      expect(await end(r2, 'succeeded')).toBe(false); // successes only, nothing in flight
      expect(await end(await start(), 'failed')).toBe(true);
      expect(await end(await start(), 'succeeded')).toBe(true); // after a failure
      expect(await announces('delete from executions where user_id = $1', [g.userId])).toBe(true);
    } finally {
      await changes.end();
    }
  });

  it("announces a key's revocation but not its last-use stamp (which would empty every node's key cache each minute)", async () => {
    const { accountId, apiKey } = await a.account('stamped');
    const changes = await changesHeard(sql);
    /** What `text` made heard about this account (an update of `api_keys` can only announce its own `k:`). */
    const announced = async (text: string) =>
      (await changes.during(() => sql.query(text, [sha256(apiKey)]))).filter(
        (p) => p.split(':')[1] === accountId,
      );
    try {
      expect(await announced('update api_keys set last_used_at = now() where hash = $1')).toEqual([]);
      expect(await announced("update api_keys set name = 'renamed' where hash = $1")).toEqual([
        `k:${accountId}`,
      ]);
      expect(await announced('update api_keys set revoked_at = now() where hash = $1')).toEqual([
        `k:${accountId}`,
      ]);
    } finally {
      await changes.end();
    }
  });

  it('refuses a revoked API key on every node', async () => {
    const { apiKey } = await a.account('revoked');
    expect((await b.call('GET', '/users', { auth: apiKey })).status).toBe(200);
    await sql.query('update api_keys set revoked_at = now() where hash = $1', [sha256(apiKey)]);
    await b.ctx.store.changes.sync();
    expect((await b.call('GET', '/users', { auth: apiKey })).status).toBe(401);
  });

  it("keeps a cached key while other accounts' keys change, and accepts a key created after it was refused", async () => {
    const mine = await a.account('key-cache-mine');
    const other = await a.account('key-cache-other');
    await b.ctx.store.changes.sync();
    const users = (key: string) => b.call('GET', '/users', { auth: key });
    expect((await users(mine.apiKey)).status).toBe(200);
    // Another account gains a key and loses one: announced as its own (`k:<other>`), so mine stays cached.
    const extra = generateApiKey();
    await sql.query('insert into api_keys (id, account_id, hash, prefix, mode) values ($1, $2, $3, $4, $5)', [
      ...Object.values(apiKeyRow(extra, other.accountId)),
    ]);
    await sql.query('update api_keys set revoked_at = now() where hash = $1', [sha256(other.apiKey)]);
    await b.ctx.store.changes.sync();
    const statements = await queriesDuring(b, async () => {
      expect((await users(mine.apiKey)).status).toBe(200);
    });
    expect(statements.filter((q) => q.includes('api_keys'))).toEqual([]);
    expect((await users(extra)).status).toBe(200);
    expect((await users(other.apiKey)).status).toBe(401);
    // A key refused while unknown is accepted once it exists: unknown keys go with any account's key change.
    const later = generateApiKey();
    expect((await users(later)).status).toBe(401);
    await sql.query('insert into api_keys (id, account_id, hash, prefix, mode) values ($1, $2, $3, $4, $5)', [
      ...Object.values(apiKeyRow(later, other.accountId)),
    ]);
    await b.ctx.store.changes.sync();
    expect((await users(later)).status).toBe(200);
  });

  it('forgets a user deleted through another node', async () => {
    const erin = await createUser(a, s.apiKey, 'nodes-erin');
    expect((await b.call('GET', `/users/${erin}/token`, { auth: s.apiKey })).status).toBe(200);
    expect((await b.call('GET', `/users/${erin}/token`, { auth: s.apiKey })).status).toBe(200);
    expect((await a.call('DELETE', `/users/${erin}`, { auth: s.apiKey })).status).toBe(200);
    await b.ctx.store.changes.sync();
    expect((await b.call('GET', `/users/${erin}/token`, { auth: s.apiKey })).status).toBe(404);
  });

  it('reads through to the database while its listener is down, and caches again once it is back', async () => {
    await warm(b);
    const changes = b.ctx.store.changes;
    // Kills both nodes' change listeners, as a network blip would: their connections are the ones whose last
    // statement is the LISTEN or the listener's own notification (pool connections stay).
    const { rowCount } = await sql.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = $1 and (query ilike 'listen %' or query ilike 'select pg_notify(%')`,
      [NODES_APP],
    );
    expect(rowCount).toBe(2);
    await expect.poll(() => changes.live, { timeout: 5_000, interval: 5 }).toBe(false);
    await sql.query('update workflows set name = $1 where id = $2', ['Renamed while deaf', s.workflowId]);
    const n = await counted(b, async () => {
      expect(names(await listOn(b))).toEqual(['Renamed while deaf']);
    });
    expect(n.hits).toBe(0);
    await expect.poll(() => changes.live, { timeout: 10_000 }).toBe(true);
    await warm(b);
    expect(names(await listOn(b))).toEqual(['Renamed while deaf']);
  });
});

describe.skipIf(!onPostgres)('local write tracking (PostgreSQL only; skipped on PGlite)', () => {
  let pool: pg.Pool;
  let writes = 0;
  let attentionWrites = 0;

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    trackLocalWrites(pool, (change) => {
      if (change.kind === 'all') writes++;
      else if (change.kind === 'topic' && change.topic === 'attention') attentionWrites++;
    });
  });
  afterAll(() => pool?.end());

  async function count(fn: () => Promise<unknown>) {
    const before = writes;
    await fn();
    return writes - before;
  }

  it('counts a write to a watched table when it completes, in promise and callback form', async () => {
    expect(await count(() => pool.query('update "users" set "full_name" = "full_name" where false'))).toBe(1);
    expect(
      await count(() => pool.query('update "mcp_servers" set "restrictions" = $1 where false', [{}])),
    ).toBe(1);
    expect(
      await count(() => pool.query({ name: 'w', text: 'delete from installations where false', values: [] })),
    ).toBe(1);
    const seenBeforeCallback = await new Promise<number>((resolve, reject) => {
      const before = writes;
      pool.query('update workflows set name = name where false', (err) =>
        err ? reject(err) : resolve(writes - before),
      );
    });
    expect(seenBeforeCallback).toBe(1);
  });

  it('ignores reads, unwatched tables and the scheduler moving a schedule on', async () => {
    expect(await count(() => pool.query('select * from users where false'))).toBe(0);
    expect(await count(() => pool.query('update executions set status = status where false'))).toBe(0);
    expect(
      await count(() =>
        pool.query('update "user_workflows" set "next_run_at" = $1 where false', [new Date().toISOString()]),
      ),
    ).toBe(0);
    expect(
      await count(() =>
        pool.query('select * from "user_workflows" for update of "user_workflows" skip locked'),
      ),
    ).toBe(0);
    // Authentication stamping a key's last use, and an app-trigger poll recording its state: not changes the
    // cache cares about.
    expect(
      await count(() =>
        pool.query('update "api_keys" set "last_used_at" = $1 where false', [new Date().toISOString()]),
      ),
    ).toBe(0);
    expect(
      await count(() =>
        pool.query('update "user_workflows" set "next_run_at" = $1, "trigger_state" = $2 where false', [
          new Date().toISOString(),
          '{}',
        ]),
      ),
    ).toBe(0);
    // A watched column beside them still counts.
    expect(
      await count(() =>
        pool.query('update "user_workflows" set "next_run_at" = $1, "active" = $2 where false', [
          new Date().toISOString(),
          true,
        ]),
      ),
    ).toBe(1);
  });

  it('tells attention alone of a run ending, a credential status, runs deleted and a poll failing', async () => {
    const attentionCount = async (fn: () => Promise<unknown>) => {
      const [w, a] = [writes, attentionWrites];
      await fn();
      expect(writes - w).toBe(0);
      return attentionWrites - a;
    };
    const now = new Date().toISOString();
    for (const [text, values] of [
      ['update executions set status = status where false', []],
      [
        'with done as (update executions set status = $1, finished = true where false returning id) select 1',
        ['failed'],
      ],
      ['update "credentials" set "status" = $1, "status_reason" = $2 where false', ['needs_reconnect', 'x']],
      ['delete from "executions" where false', []],
      ['delete from credentials where false', []],
      ['update "user_workflows" set "next_run_at" = $1, "trigger_state" = $2 where false', [now, '{}']],
    ] as const) {
      expect(await attentionCount(() => pool.query(text, [...values])), text).toBe(1);
    }
    // A token refresh or a lease renewal (status only in the where clause) changes no attention.
    expect(
      await attentionCount(() => pool.query('update "credentials" set "sealed" = $1 where false', ['x'])),
    ).toBe(0);
    expect(
      await attentionCount(() =>
        pool.query(`update executions set lease_until = now() where false and status = 'running'`),
      ),
    ).toBe(0);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('delete from executions where false');
      // Attention, or everything (which covers it) when this connection wrote a watched table earlier.
      const [w, a] = [writes, attentionWrites];
      await client.query('commit');
      expect(writes - w + attentionWrites - a).toBe(1);
    } finally {
      client.release();
    }
  });

  it('counts the commit of a transaction that wrote, so a read after the commit sees it', async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      expect(await count(() => client.query('update "integrations" set "name" = "name" where false'))).toBe(
        1,
      );
      expect(await count(() => client.query('commit'))).toBe(1);
      await client.query('begin');
      expect(await count(() => client.query('commit'))).toBe(0);
    } finally {
      client.release();
    }
  });
});

describe.skipIf(!onPostgres)(
  'a connection that drops notifications (PostgreSQL only; skipped on PGlite)',
  () => {
    it('never goes live, says so in the log, and serves every read from the database', async () => {
      const proxy = await deafProxy(process.env.DATABASE_URL!);
      const logs: string[] = [];
      const svc = await startService({ env: { DATABASE_URL: proxy.url }, logs });
      const sql = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await sql.connect();
      try {
        const s = await seedAccount(svc, { username: 'deaf-alice' });
        const list = () => svc.call('GET', `/workflows?userId=${s.userId}`, { auth: s.apiKey });
        await expect
          .poll(
            () =>
              logs.some(
                (l) => l.includes('change feed down') && l.includes('own notification not delivered'),
              ),
            {
              timeout: 15_000,
              interval: 200,
            },
          )
          .toBe(true);
        expect(svc.ctx.store.changes.live).toBe(false);
        expect(names(await list())).toEqual(['Post new deals to Slack']);
        await sql.query('update workflows set name = $1 where id = $2', [
          'Renamed behind a pooler',
          s.workflowId,
        ]);
        expect(names(await list())).toEqual(['Renamed behind a pooler']);
        expect(svc.ctx.reads.hits).toBe(0);
      } finally {
        await sql.end();
        await svc.close();
        await proxy.close();
      }
    }, 30_000);
  },
);

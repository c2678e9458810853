import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@inlay/test-kit/cli';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, type Service, sharedService, TEST_MASTER_KEY } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../src/store/schema.ts';

let svc: Service;
let apiKey: string;
let accountId: string;

beforeAll(async () => {
  svc = await sharedService();
  ({ apiKey, accountId } = await svc.account());
});
afterAll(async () => {
  await svc?.close();
});

const put = (body: unknown, auth = apiKey) => svc.call('PUT', '/settings', { auth, body });

describe('GET|PUT /settings', () => {
  it('a new account has no allowed origins', async () => {
    const r = await svc.call('GET', '/settings', { auth: apiKey });
    expect(r.status).toBe(200);
    // The retention is the service's (INLAY_LOG_RETENTION_DAYS, 30 by default) until the account sets its own.
    expect(r.body).toEqual({
      data: { allowedOrigins: [], logRetentionDays: 30, ownLogRetention: false, serviceLogRetentionDays: 30 },
    });
  });

  it('PUT replaces the list, normalised and de-duplicated, and GET reads it back', async () => {
    const r = await put({
      allowedOrigins: ['https://App.Example.com/', 'https://app.example.com', 'http://localhost:3000'],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:3000']);
    expect((await svc.call('GET', '/settings', { auth: apiKey })).body.data.allowedOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
    ]);
    const [row] = await svc.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(row!.allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:3000']);
    expect((await put({ allowedOrigins: [] })).body.data.allowedOrigins).toEqual([]);
  });

  it('names the entry that is not an http(s) origin, and stores nothing', async () => {
    await put({ allowedOrigins: ['https://kept.example'] });
    const cases: [string, string][] = [
      ['javascript:alert(1)', 'origin'],
      ['ftp://files.example', 'origin'],
      ['https://app.example/path', 'origin'],
      ['https://app.example/?q=1', 'origin'],
      ['https://app.example/#x', 'origin'],
      ['https://user:pw@app.example', 'origin'],
      ['app.example', 'origin'],
    ];
    for (const [value, rule] of cases) {
      const r = await put({ allowedOrigins: ['https://ok.example', value] });
      expectProblem(r, 400, 'invalid_request', 'body.allowedOrigins[1]', rule);
    }
    expectProblem(
      await put({ allowedOrigins: 'https://a.example' }),
      400,
      'invalid_request',
      'body.allowedOrigins',
    );
    expectProblem(await put({}), 400, 'invalid_request', 'body', 'custom');
    expectProblem(await put({ allowedOrigins: [], extra: 1 }), 400, 'invalid_request', 'body.extra');
    expectProblem(
      await put({ allowedOrigins: Array.from({ length: 101 }, (_, i) => `https://a${i}.example`) }),
      400,
      'invalid_request',
      'body.allowedOrigins',
      'max',
    );
    expect((await svc.call('GET', '/settings', { auth: apiKey })).body.data.allowedOrigins).toEqual([
      'https://kept.example',
    ]);
  });

  it("sets the account's own log retention, at most the service's; origins and retention are kept apart", async () => {
    await put({ allowedOrigins: ['https://kept.example'] });
    const r = await put({ logRetentionDays: 7 });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({
      allowedOrigins: ['https://kept.example'],
      logRetentionDays: 7,
      ownLogRetention: true,
      serviceLogRetentionDays: 30,
    });
    const [row] = await svc.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(row!.logRetentionDays).toBe(7);
    // Saving the origins leaves the retention as it is.
    expect((await put({ allowedOrigins: [] })).body.data).toMatchObject({
      allowedOrigins: [],
      logRetentionDays: 7,
    });

    // Longer than the service keeps runs, not a whole number, out of range: a 400 naming the field, nothing saved.
    const longer = await put({ logRetentionDays: 31, allowedOrigins: ['https://not-saved.example'] });
    expectProblem(longer, 400, 'invalid_request', 'body.logRetentionDays', 'max');
    expect(longer.body.detail).toContain('at most 30');
    expect(longer.body.detail).toContain('INLAY_LOG_RETENTION_DAYS');
    expectProblem(await put({ logRetentionDays: 0 }), 400, 'invalid_request', 'body.logRetentionDays', 'min');
    expectProblem(
      await put({ logRetentionDays: 2.5 }),
      400,
      'invalid_request',
      'body.logRetentionDays',
      'type',
    );
    expectProblem(
      await put({ logRetentionDays: '7' }),
      400,
      'invalid_request',
      'body.logRetentionDays',
      'type',
    );
    expect((await svc.call('GET', '/settings', { auth: apiKey })).body.data).toMatchObject({
      allowedOrigins: [],
      logRetentionDays: 7,
    });

    // null: back to the service's.
    expect((await put({ logRetentionDays: null })).body.data).toMatchObject({
      logRetentionDays: 30,
      ownLogRetention: false,
    });
    const [after] = await svc.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(after!.logRetentionDays).toBeNull();
  });

  it('is for the API key only: a user token gets 403, nobody 401', async () => {
    const userId = await createUser(svc, apiKey, 'settings-user');
    const token = await tokenFor(svc, apiKey, userId);
    expectProblem(await svc.call('GET', '/settings', { auth: token }), 403, 'forbidden');
    expectProblem(await put({ allowedOrigins: ['https://evil.example'] }, token), 403, 'forbidden');
    expectProblem(await svc.call('GET', '/settings'), 401, 'unauthorized');
  });

  it('each account has its own list', async () => {
    const other = await svc.account('Other');
    await put({ allowedOrigins: ['https://mine.example'] });
    await put({ allowedOrigins: ['https://theirs.example'] }, other.apiKey);
    expect((await svc.call('GET', '/settings', { auth: apiKey })).body.data.allowedOrigins).toEqual([
      'https://mine.example',
    ]);
  });
});

describe('inlay settings allowed-origins', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('adds, lists and removes origins of an account; refuses a bad origin or account', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inlay-settings-'));
    dirs.push(dir);
    const env = {
      INLAY_DATA_DIR: dir,
      INLAY_MASTER_KEY: TEST_MASTER_KEY,
      DATABASE_URL: process.env.DATABASE_URL,
    };
    const created = await runCli(['accounts', 'create', '--name', 'Acme'], env);
    expect(created.code, created.stderr).toBe(0);
    const { accountId: id } = JSON.parse(created.stdout);
    const cli = (...args: string[]) => runCli(['settings', 'allowed-origins', ...args, '--account', id], env);

    const added = await cli('add', 'https://App.Example.com', 'http://localhost:5173');
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({
      allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
    });
    const removed = await cli('remove', 'http://localhost:5173');
    expect(JSON.parse(removed.stdout)).toEqual({ allowedOrigins: ['https://app.example.com'] });
    const listed = await cli('list');
    expect(JSON.parse(listed.stdout)).toEqual({ allowedOrigins: ['https://app.example.com'] });

    const bad = await cli('add', 'javascript:alert(1)');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('origin[0]');
    const missing = await runCli(
      ['settings', 'allowed-origins', 'list', '--account', '00000000-0000-4000-8000-000000000000'],
      env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no account');
  }, 240_000);
});

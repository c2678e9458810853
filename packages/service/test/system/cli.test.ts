import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnCli, waitForOutput } from '@inlay/test-kit/cli';
import { onPostgres, TEST_MASTER_KEY, UUID_RE } from '@inlay/test-kit/service';
import { afterAll, describe, expect, it } from 'vitest';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'inlay-cli-'));
  dirs.push(d);
  return d;
};
// The CLI runs on the same store as the rest of the suite: PGlite in a folder, or the PostgreSQL of DATABASE_URL.
const storeEnv = (dir: string) => ({
  INLAY_DATA_DIR: dir,
  INLAY_MASTER_KEY: TEST_MASTER_KEY,
  DATABASE_URL: process.env.DATABASE_URL,
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('inlay CLI', () => {
  it('accounts create prints one JSON line with the account id and a live API key', async () => {
    const r = await runCli(['accounts', 'create', '--name', 'Acme'], storeEnv(dataDir()));
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out).sort()).toEqual(['accountId', 'apiKey']);
    expect(out.accountId).toMatch(UUID_RE);
    expect(out.apiKey).toMatch(/^inlay_live_[A-Za-z0-9_-]{32}$/);
  });

  it('accounts create without --name fails with a usage error', async () => {
    const r = await runCli(['accounts', 'create'], storeEnv(dataDir()));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--name');
  });

  it('migrate applies migrations and exits 0', async () => {
    const r = await runCli(['migrate'], storeEnv(dataDir()));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(onPostgres ? 'postgres' : 'pglite');
  });

  it('rejects a bad configuration with a clear message', async () => {
    const r = await runCli(['migrate'], { ...storeEnv(dataDir()), INLAY_MASTER_KEY: 'too-short' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('INLAY_MASTER_KEY must be 32 bytes');
  });

  it('serve --port starts the API, INLAY_BOOTSTRAP_API_KEY creates an account, INLAY_CONSOLE_DIR is served', async () => {
    const key = `inlay_test_${'b'.repeat(8)}${Date.now()}`;
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const consoleDir = dataDir();
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>the console</title>');
    const child = spawnCli(['serve', '--port', String(port)], {
      ...storeEnv(dataDir()),
      INLAY_CONSOLE_DIR: consoleDir,
      INLAY_BOOTSTRAP_API_KEY: key,
      INLAY_BOOTSTRAP_ACCOUNT_NAME: 'Acme CRM',
      LOG_LEVEL: 'info',
    });
    try {
      await waitForOutput(child, (l) => l.includes('inlay listening'));
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok' });
      const users = await fetch(`http://127.0.0.1:${port}/users`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(users.status).toBe(200);
      expect(await users.json()).toEqual({ data: [] });
      // The account has the name it was given, and its key says where it came from.
      const session = await fetch(`http://127.0.0.1:${port}/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: key }),
      });
      expect(((await session.json()) as { data: { accountName: string } }).data.accountName).toBe('Acme CRM');
      const keys = await fetch(`http://127.0.0.1:${port}/api-keys`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const { data } = (await keys.json()) as { data: { name: string | null }[] };
      expect(data.map((k) => k.name)).toEqual(['INLAY_BOOTSTRAP_API_KEY']);
      // The console is the one INLAY_CONSOLE_DIR names.
      const page = await fetch(`http://127.0.0.1:${port}/console/users`);
      expect(await page.text()).toBe('<!doctype html><title>the console</title>');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it.skipIf(onPostgres)('refuses a second process on the same PGlite folder', async () => {
    const dir = dataDir();
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawnCli(['serve', '--port', String(port)], { ...storeEnv(dir), LOG_LEVEL: 'info' });
    try {
      await waitForOutput(child, (l) => l.includes('inlay listening'));
      const second = await runCli(['accounts', 'create', '--name', 'X'], storeEnv(dir));
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/in use by process \d+/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

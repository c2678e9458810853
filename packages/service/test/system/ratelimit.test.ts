import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { spawnCli, waitForOutput } from '@inlay/test-kit/cli';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { rawRpc } from '@inlay/test-kit/mcp';
import {
  expectProblem,
  onPostgres,
  type Reply,
  type Service,
  startService,
  TEST_MASTER_KEY,
} from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

function expectLimited(r: Reply, policy: string, quota: number, window: number) {
  expectProblem(r, 429, 'rate_limited');
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(window);
  expect(r.headers.get('ratelimit-policy')).toBe(`"${policy}";q=${quota};w=${window}`);
  expect(r.headers.get('ratelimit')).toMatch(new RegExp(`^"${policy}";r=0;t=\\d+$`));
}

describe('rate limiting (memory counters)', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService({
      env: {
        INLAY_RATE_LIMIT_PER_KEY: '5',
        INLAY_RATE_LIMIT_PER_USER: '3',
        INLAY_RATE_LIMIT_WINDOW_SECONDS: '60',
      },
    });
  });
  afterAll(() => svc?.close());

  it('counts per API key and answers 429 problem+json with Retry-After and RateLimit headers', async () => {
    const { apiKey } = await svc.account('limited');
    const other = await svc.account('other');
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await svc.call('GET', '/users', { auth: apiKey });
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-policy')).toBe('"per-key";q=5;w=60');
      seen.push(r.headers.get('ratelimit')!);
    }
    expect(seen.map((h) => /r=(\d+)/.exec(h)![1])).toEqual(['4', '3', '2', '1', '0']);
    const limited = await svc.call('GET', '/users', { auth: apiKey });
    expectLimited(limited, 'per-key', 5, 60);
    expect(limited.body.retryAfter).toBe(Number(limited.headers.get('retry-after')));
    // Another key has its own quota; health probes are never counted.
    expect((await svc.call('GET', '/users', { auth: other.apiKey })).status).toBe(200);
    expect((await svc.call('GET', '/healthz')).status).toBe(200);
    // No credential: a 401, not a 429, and nothing counted.
    expect((await svc.call('GET', '/users')).status).toBe(401);
  });

  it('counts per user JWT apart from the account key, and limits the MCP endpoint with a JSON-RPC error', async () => {
    const { apiKey } = await svc.account('users');
    const userId = await createUser(svc, apiKey, 'u1');
    const token = await tokenFor(svc, apiKey, userId);
    const user2 = await tokenFor(svc, apiKey, await createUser(svc, apiKey, 'u2'));
    for (let i = 0; i < 3; i++)
      expect((await svc.call('GET', '/installations', { auth: token })).status).toBe(200);
    expectLimited(await svc.call('GET', '/installations', { auth: token }), 'per-user', 3, 60);
    expect((await svc.call('GET', '/installations', { auth: user2 })).status).toBe(200);
    const mcp = await rawRpc(
      `${svc.url}/mcp/00000000-0000-4000-8000-000000000000/x`,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      { authorization: `Bearer ${token}` },
    );
    expect(mcp.status).toBe(429);
    expect(mcp.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(JSON.parse(mcp.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });
});

describe('rate limiting off', () => {
  it('0 turns a quota off: no headers, no 429', async () => {
    const svc = await startService({ env: { INLAY_RATE_LIMIT_PER_KEY: '0' } });
    try {
      const { apiKey } = await svc.account();
      for (let i = 0; i < 20; i++) {
        const r = await svc.call('GET', '/users', { auth: apiKey });
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit')).toBeNull();
      }
    } finally {
      await svc.close();
    }
  });
});

const redisUp = await new Promise<boolean>((resolve) => {
  const s = connect(6379, '127.0.0.1');
  s.once('connect', () => {
    s.destroy();
    resolve(true);
  });
  s.once('error', () => resolve(false));
});

/** Two `inlay serve` processes on one PostgreSQL database: one quota between them. */
async function twoNodes(extraEnv: Record<string, string>) {
  const key = `inlay_test_${randomBytes(16).toString('hex')}`;
  const env = {
    DATABASE_URL: process.env.DATABASE_URL!,
    INLAY_MASTER_KEY: TEST_MASTER_KEY,
    INLAY_BOOTSTRAP_API_KEY: key,
    INLAY_RATE_LIMIT_PER_KEY: '10',
    INLAY_RATE_LIMIT_WINDOW_SECONDS: '120',
    LOG_LEVEL: 'info',
    ...extraEnv,
  };
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  // One after the other: the second would otherwise race the first to bootstrap the same key.
  for (let i = 0; i < 2; i++) {
    const child = spawnCli(['serve', '--port', '0'], env);
    children.push(child);
    const line = await waitForOutput(child, (l) => l.includes('inlay listening'), 60_000);
    urls.push(`http://127.0.0.1:${JSON.parse(line).port}`);
  }
  return {
    key,
    urls,
    stop: () => {
      for (const c of children) c.kill('SIGTERM');
    },
  };
}

async function sharedQuota(extraEnv: Record<string, string>, backend: string) {
  const nodes = await twoNodes(extraEnv);
  try {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 14; i++) {
      last = await fetch(`${nodes.urls[i % 2]}/users`, { headers: { authorization: `Bearer ${nodes.key}` } });
      statuses.push(last.status);
      await last.text();
    }
    // Alternating between the nodes: 10 pass in total, not 10 on each.
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last!.headers.get('ratelimit-policy')).toBe('"per-key";q=10;w=120');
    console.log(
      `rate limit shared across 2 API processes through ${backend}: 14 requests, 10 allowed, 4 got 429`,
    );
  } finally {
    nodes.stop();
  }
}

/** A quota large enough to be batched (200: batches of 4): the bound of BatchedLimiter holds across processes. */
async function batchedQuota() {
  const nodes = await twoNodes({ INLAY_RATE_LIMIT_PER_KEY: '200' });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 240; i++) {
      const r = await fetch(`${nodes.urls[i % 2]}/users`, {
        headers: { authorization: `Bearer ${nodes.key}` },
      });
      statuses.push(r.status);
      await r.text();
    }
    const allowed = statuses.filter((s) => s === 200).length;
    // quota + (nodes - 1) x 2 x batch
    expect(allowed).toBeGreaterThanOrEqual(200);
    expect(allowed).toBeLessThanOrEqual(208);
    expect(statuses.slice(-20)).toEqual(Array(20).fill(429));
    console.log(
      `batched rate limit across 2 API processes through PostgreSQL: quota 200, ${allowed} allowed`,
    );
  } finally {
    nodes.stop();
  }
}

describe.skipIf(!onPostgres)('rate limiting across API nodes', () => {
  it(
    'batched counters: two processes together admit at most the documented bound over a quota of 200',
    {
      timeout: 120_000,
    },
    batchedQuota,
  );
  it('two `inlay serve` processes share one quota through PostgreSQL', { timeout: 120_000 }, () =>
    sharedQuota({}, 'PostgreSQL'),
  );
  it.skipIf(!redisUp)('two `inlay serve` processes share one quota through Redis', { timeout: 120_000 }, () =>
    sharedQuota({ REDIS_URL: 'redis://127.0.0.1:6379' }, 'Redis'),
  );
});

describe('rate limiting with its store down', () => {
  it('counts in memory when Redis cannot be reached: no errors, the quota still holds', async () => {
    // Port 1 on loopback: nothing listens there.
    const svc = await startService({
      env: {
        REDIS_URL: 'redis://127.0.0.1:1',
        INLAY_RATE_LIMIT_PER_KEY: '3',
        INLAY_RATE_LIMIT_WINDOW_SECONDS: '60',
      },
    });
    try {
      const { apiKey } = await svc.account();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await svc.call('GET', '/users', { auth: apiKey })).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await svc.close();
    }
  });
});

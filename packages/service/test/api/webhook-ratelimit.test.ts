import { randomUUID } from 'node:crypto';
import { install, publish } from '@inlay/test-kit/engine';
import { createUser } from '@inlay/test-kit/fixtures';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

let svc: Service;
let apiKey: string;
let workflowId: string;

const hookPath = (url: string) => url.slice(svc.url.length);

beforeAll(async () => {
  svc = await startService({
    env: { INLAY_RATE_LIMIT_PER_WEBHOOK: '3', INLAY_RATE_LIMIT_WINDOW_SECONDS: '60' },
  });
  ({ apiKey } = await svc.account());
  workflowId = await publish(
    svc,
    apiKey,
    {
      trigger: { type: 'webhook' },
      steps: [
        { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: 'trigger.n' } },
      ],
      config: [],
    },
    'hooked',
  );
});
afterAll(() => svc?.close());

describe('webhook rate limit (INLAY_RATE_LIMIT_PER_WEBHOOK)', () => {
  it('counts calls per installation and answers 429 problem+json with Retry-After over the quota', async () => {
    const a = await install(svc, apiKey, await createUser(svc, apiKey, 'alice'), [workflowId]);
    const b = await install(svc, apiKey, await createUser(svc, apiKey, 'bob'), [workflowId]);
    const remaining: string[] = [];
    for (let n = 0; n < 3; n++) {
      const r = await svc.call('POST', hookPath(a.webhookUrl!), { body: { n } });
      expect(r.status, r.text).toBe(200);
      expect(r.headers.get('ratelimit-policy')).toBe('"per-webhook";q=3;w=60');
      remaining.push(/r=(\d+)/.exec(r.headers.get('ratelimit')!)![1]!);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const limited = await svc.call('POST', hookPath(a.webhookUrl!), { body: { n: 4 } });
    expectProblem(limited, 429, 'rate_limited');
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.retryAfter).toBe(retryAfter);
    expect(limited.body.detail).toContain('3 requests per 60 s (per-webhook)');
    expect(limited.body.executionIds).toBeUndefined();
    // Nothing ran for the refused call: three executions, not four.
    const logs = await svc.call('GET', `/workflows/${workflowId}/logs?userId=alice&limit=30`, {
      auth: apiKey,
    });
    expect(logs.body.data).toHaveLength(3);

    // Another installation has its own quota.
    expect((await svc.call('POST', hookPath(b.webhookUrl!), { body: { n: 1 } })).status).toBe(200);
  });

  it('counts only calls that carry the right secret: guesses cannot spend an installation’s quota', async () => {
    const c = await install(svc, apiKey, await createUser(svc, apiKey, 'carol'), [workflowId]);
    const wrong = hookPath(c.webhookUrl!).replace(/[^/]+$/, 'not-the-secret-0000000000');
    for (let i = 0; i < 5; i++) expectProblem(await svc.call('POST', wrong, { body: {} }), 404, 'not_found');
    for (let n = 0; n < 3; n++)
      expect((await svc.call('POST', hookPath(c.webhookUrl!), { body: { n } })).status).toBe(200);
    expect((await svc.call('POST', hookPath(c.webhookUrl!), { body: {} })).status).toBe(429);
  });

  it('defaults to 120 calls per window and 0 turns it off', () => {
    const base = { INLAY_DATA_DIR: 'memory://', INLAY_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') };
    expect(loadConfig(base).rateLimit.perWebhook).toBe(120);
    expect(loadConfig({ ...base, INLAY_RATE_LIMIT_PER_WEBHOOK: '0' }).rateLimit.perWebhook).toBe(0);
    expect(() => loadConfig({ ...base, INLAY_RATE_LIMIT_PER_WEBHOOK: '-1' })).toThrow(
      /INLAY_RATE_LIMIT_PER_WEBHOOK must be at least 0/,
    );
  });
});

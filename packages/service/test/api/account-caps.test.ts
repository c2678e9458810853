import { randomUUID } from 'node:crypto';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEndpoints } from '../../src/store/schema.ts';

// Per-account caps, small here (this file's own service options): endpoints and active API keys.

let svc: Service;
beforeAll(async () => {
  svc = await startService({
    env: { INLAY_MAX_WEBHOOK_ENDPOINTS: '2', INLAY_MAX_API_KEYS: '2', INLAY_EGRESS_ALLOW: '127.0.0.1' },
  });
});
afterAll(() => svc?.close());

const endpoint = (apiKey: string, url: string) =>
  svc.call('POST', '/webhook-endpoints', { auth: apiKey, body: { url, events: ['execution.failed'] } });

describe('webhook endpoints', () => {
  it('an account has at most INLAY_MAX_WEBHOOK_ENDPOINTS; another account is not counted', async () => {
    const { apiKey } = await svc.account();
    const { apiKey: other } = await svc.account();
    expect((await endpoint(apiKey, 'http://127.0.0.1:9/a')).status).toBe(201);
    expect((await endpoint(apiKey, 'http://127.0.0.1:9/b')).status).toBe(201);
    const third = await endpoint(apiKey, 'http://127.0.0.1:9/c');
    expectProblem(third, 409, 'conflict', 'body', 'max_count');
    expect(third.body.message).toContain('INLAY_MAX_WEBHOOK_ENDPOINTS is 2');
    expect((await svc.call('GET', '/webhook-endpoints', { auth: apiKey })).body.data).toHaveLength(2);
    expect((await endpoint(other, 'http://127.0.0.1:9/a')).status).toBe(201);
    // Deleting one frees its place.
    const [first] = (await svc.call('GET', '/webhook-endpoints', { auth: apiKey })).body.data;
    await svc.call('DELETE', `/webhook-endpoints/${first.webhookEndpointId}`, { auth: apiKey });
    expect((await endpoint(apiKey, 'http://127.0.0.1:9/c')).status).toBe(201);
  });

  it('refuses a URL with a user name or password, and masks a stored one', async () => {
    const { apiKey, accountId } = await svc.account();
    for (const url of ['http://hook:s3cret@127.0.0.1:9/x', 'http://hook@127.0.0.1:9/x']) {
      const r = await endpoint(apiKey, url);
      expectProblem(r, 400, 'invalid_request', 'body.url', 'no_credentials');
      expect(r.text).not.toContain('s3cret');
    }
    // A row stored with a password is listed with it masked.
    await svc.db.insert(webhookEndpoints).values({
      id: randomUUID(),
      accountId,
      url: 'http://hook:s3cret@127.0.0.1:9/old',
      events: ['execution.failed'],
      secretSealed: 'sealed',
      keyId: 'k',
    });
    const listed = await svc.call('GET', '/webhook-endpoints', { auth: apiKey });
    expect(listed.body.data.map((e: { url: string }) => e.url)).toEqual(['http://hook:****@127.0.0.1:9/old']);
    expect(listed.text).not.toContain('s3cret');
  });
});

describe('API keys', () => {
  it('an account has at most INLAY_MAX_API_KEYS active keys; a revoked one frees its place', async () => {
    const { apiKey } = await svc.account();
    const second = await svc.call('POST', '/api-keys', { auth: apiKey, body: { name: 'second' } });
    expect(second.status, second.text).toBe(201);
    const third = await svc.call('POST', '/api-keys', { auth: apiKey, body: { name: 'third' } });
    expectProblem(third, 409, 'conflict', 'body', 'max_count');
    expect(third.body.message).toContain('INLAY_MAX_API_KEYS is 2');
    const revoked = await svc.call('DELETE', `/api-keys/${second.body.data.apiKeyId}`, { auth: apiKey });
    expect(revoked.status, revoked.text).toBe(200);
    expect((await svc.call('POST', '/api-keys', { auth: apiKey, body: { name: 'third' } })).status).toBe(201);
  });
});

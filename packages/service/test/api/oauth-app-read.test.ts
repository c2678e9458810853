import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, type Service, sharedService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let svc: Service;
let a: { apiKey: string };
let b: { apiKey: string };

beforeAll(async () => {
  svc = await sharedService();
  a = await svc.account('A');
  b = await svc.account('B');
});
afterAll(() => svc?.close());

describe('GET /connectors/{connector}/oauth-app', () => {
  it('answers the registered app without its secret, null before and for another account', async () => {
    const path = '/connectors/slack/oauth-app';
    expect((await svc.call('GET', path, { auth: a.apiKey })).body).toEqual({ data: null });
    const put = await svc.call('PUT', path, {
      auth: a.apiKey,
      body: { clientId: 'client-123', clientSecret: 'very-secret', scopes: ['chat:write'] },
    });
    expect(put.status, put.text).toBe(200);
    const r = await svc.call('GET', path, { auth: a.apiKey });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(put.body.data);
    expect(r.body.data).toMatchObject({ connector: 'slack', clientId: 'client-123', scopes: ['chat:write'] });
    expect(r.text).not.toContain('very-secret');
    expect((await svc.call('GET', path, { auth: b.apiKey })).body).toEqual({ data: null });
    expectProblem(await svc.call('GET', '/connectors/nope/oauth-app', { auth: a.apiKey }), 404, 'not_found');
    const jwt = await tokenFor(svc, a.apiKey, await createUser(svc, a.apiKey, 'ann'));
    expect((await svc.call('GET', path, { auth: jwt })).status).toBe(403);
  });
});

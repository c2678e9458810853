import { describe, expect, it } from 'vitest';
import { call } from '../../src/call.ts';
import type { Request, RequestInit } from '../../src/transport.ts';

/** A transport that records what it was asked to send. */
function recording() {
  const sent: { method: string; path: string; init?: RequestInit }[] = [];
  const request = (async (method: string, path: string, init?: RequestInit) => {
    sent.push({ method, path, init });
    return { data: [] };
  }) as Request;
  return { sent, request };
}

describe('call', () => {
  it("sends the route's method and path, with each parameter encoded in its place", async () => {
    const { sent, request } = recording();
    await call(request, 'GET /workflows/{workflowId}/logs/{executionId}', {
      params: { workflowId: 'w/1', executionId: 'e 2' },
      query: { userId: 'ann' },
    });
    expect(sent).toEqual([
      { method: 'GET', path: '/workflows/w%2F1/logs/e%202', init: { query: { userId: 'ann' } } },
    ]);
  });

  it('sends the body as given, and nothing it was not given', async () => {
    const { sent, request } = recording();
    await call(request, 'POST /users', { body: { username: 'ann' } });
    await call(request, 'GET /integrations');
    expect(sent).toEqual([
      { method: 'POST', path: '/users', init: { body: { username: 'ann' } } },
      { method: 'GET', path: '/integrations', init: {} },
    ]);
  });

  // The checks here are the typecheck's (`pnpm typecheck` runs over the tests): each line must not compile.
  it('takes only routes, parameters and bodies the contract holds', () => {
    const { sent, request } = recording();
    // @ts-expect-error: no such route in the contract
    void call(request, 'GET /nowhere');
    // @ts-expect-error: the route needs its path parameter
    void call(request, 'GET /users/{userId}');
    // @ts-expect-error: a user has no `name` field
    void call(request, 'POST /users', { body: { name: 'ann' } });
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /nowhere',
      'GET /users/undefined',
      'POST /users',
    ]);
  });
});

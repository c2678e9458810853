import { randomUUID } from 'node:crypto';
import { MAX_JSON_DEPTH } from '@inlay/contract';
import { install, publish, waitForRuns } from '@inlay/test-kit/engine';
import { createUser } from '@inlay/test-kit/fixtures';
import { rawRpc } from '@inlay/test-kit/mcp';
import { expectProblem, type Service, sharedService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let svc: Service;
let apiKey: string;
let alice: string;
let hookPath: string;

/** `n` nested arrays: `[[[...]]]`. */
const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
/** `n` nested objects, with brackets inside strings that must not count. */
const objects = (n: number) => `${'{"a[": '.repeat(n - 1)}{"x": "[[[{{{"}${'}'.repeat(n - 1)}`;

beforeAll(async () => {
  svc = await sharedService();
  ({ apiKey } = await svc.account('depth'));
  alice = await createUser(svc, apiKey, 'alice');
  const workflowId = await publish(svc, apiKey, {
    trigger: { type: 'webhook' },
    steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '1' } }],
    config: [],
  });
  const inst = await install(svc, apiKey, alice, [workflowId]);
  hookPath = inst.webhookUrl!.slice(svc.url.length);
});
afterAll(async () => {
  await svc?.close();
});

describe(`JSON bodies nest at most ${MAX_JSON_DEPTH} levels`, () => {
  it('a 5,000-deep body on the webhook route is a 400 problem naming the rule, and runs nothing', async () => {
    for (const raw of [arrays(5_000), objects(5_000), `{"order": ${arrays(MAX_JSON_DEPTH)}}`]) {
      const r = await svc.call('POST', hookPath, {
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(r, 400, 'invalid_request', 'body', 'max_depth');
    }
  });

  it('a body exactly at the limit is accepted on the webhook route and runs', async () => {
    const r = await svc.call('POST', hookPath, {
      rawBody: objects(MAX_JSON_DEPTH),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(200);
    const [row] = await waitForRuns(svc, r.body.executionIds);
    expect(row!.status).toBe('succeeded');
  });

  it('REST routes refuse a deeper body with the same 400', async () => {
    const r = await svc.call('POST', '/run/event', {
      auth: apiKey,
      rawBody: `{"event": "x", "userId": "${alice}", "data": ${arrays(5_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(r, 400, 'invalid_request', 'body', 'max_depth');
    const shallow = await svc.call('POST', '/run/event', {
      auth: apiKey,
      rawBody: `{"event": "x", "userId": "${alice}", "data": {"a": ${arrays(MAX_JSON_DEPTH - 2)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(shallow.status, shallow.text).toBe(200);
  });

  it('the MCP endpoint refuses a deeper body with a 400 that MCP clients can read too', async () => {
    const server = (await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'deep' } })).body;
    const r = await rawRpc(
      server.url,
      `{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": ${arrays(5_000)}}`,
      { authorization: `Bearer ${apiKey}`, 'x-inlay-userid': 'alice' },
    );
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.parse(r.text)).toMatchObject({
      status: 400,
      code: 'invalid_request',
      errors: [{ field: 'body', rule: 'max_depth' }],
      jsonrpc: '2.0',
      error: { code: -32600 },
    });
    const ok = await rawRpc(server.url, '{"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}', {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': 'alice',
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('execute_action_inlay');
  });
});

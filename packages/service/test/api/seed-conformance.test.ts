import { randomUUID } from 'node:crypto';
import { connectorUuid } from '@inlay/connectors';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import {
  CHANNEL,
  discordCredential,
  install,
  publish,
  startDiscord,
  startUpstream,
  waitForRuns,
} from '@inlay/test-kit/engine';
import { createUser, insertExecutions } from '@inlay/test-kit/fixtures';
import { connectV2, rawRpc, rpcMessages } from '@inlay/test-kit/mcp';
import {
  Installation,
  LogEntry,
  listOf,
  MessageResponse,
  TokenResponse,
  Tool,
  violations,
  Workflow,
} from '@inlay/test-kit/seed-shapes';
import { type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps, executions } from '../../src/store/schema.ts';

// Every seed resource, field by field, on real responses of a running service, sent as the seed sends them.
let svc: Service;
let discord: Awaited<ReturnType<typeof startDiscord>>;
let hook: Awaited<ReturnType<typeof startUpstream>>;
let apiKey: string;
let accountId: string;
let userId: string;
let workflowId: string;
let credentialId: string;
const step = { shape: randomUUID(), post: randomUUID(), call: randomUUID(), list: randomUUID() };

/** A request exactly as the seed's examples send it: lower-case `bearer` and `x-api-version`. */
const seedCall = (method: string, path: string) =>
  svc.call(method, path, { headers: { authorization: `bearer ${apiKey}`, 'x-api-version': '2025-09' } });

const definition = (hookUrl: string): WorkflowDefinitionInput => ({
  trigger: { type: 'manual' },
  steps: [
    {
      id: step.shape,
      name: 'shape',
      connector: 'transform',
      action: 'map',
      input: { expression: '{"text": "Deal " & trigger.name}' },
    },
    {
      id: step.post,
      connector: 'discord',
      action: 'send_message',
      input: { channelId: '{{ config.channel }}', content: '{{ steps.shape.text }}' },
    },
    { id: randomUUID(), connector: 'delay', action: 'wait', input: { ms: 1 } },
    { id: step.call, connector: 'http', action: 'request', input: { method: 'POST', url: hookUrl } },
    // Non-object outputs: the seed's output item holds an object (or null) in `json`.
    { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '[1, {"a": 1}]' } },
    {
      id: step.list,
      connector: 'discord',
      action: 'list_messages',
      input: { channelId: '{{ config.channel }}' },
    },
  ],
  config: [
    {
      stepId: step.post,
      name: 'channel',
      displayName: 'Channel',
      type: 'select',
      required: true,
      options: { source: 'channels' },
    },
  ],
});

beforeAll(async () => {
  discord = await startDiscord();
  hook = await startUpstream(() => ({ body: { received: true } }));
  svc = await startService({
    env: { INLAY_CONNECTOR_DISCORD_BASE_URL: discord.url, INLAY_EGRESS_ALLOW: '127.0.0.1' },
  });
  ({ apiKey, accountId } = await svc.account('seed conformance'));
  userId = await createUser(svc, apiKey, 'seed-user');
  credentialId = await discordCredential(svc, apiKey, userId);
  workflowId = await publish(svc, apiKey, definition(`${hook.url}/deal`), 'Deals to Discord');
  await install(svc, apiKey, userId, [workflowId], {
    credentialIds: { discord: credentialId },
    values: [{ workflowId, blockId: step.post, fields: [{ name: 'channel', value: CHANNEL }] }],
  });
  const run = await svc.call('POST', '/run/workflow', {
    auth: apiKey,
    body: { workflowId, userId, data: { name: 'Acme' } },
  });
  if (run.status !== 200) throw new Error(run.text);
  const [done] = await waitForRuns(svc, run.body.executionIds);
  if (done?.status !== 'succeeded') throw new Error(`run ${done?.status}: ${JSON.stringify(done?.error)}`);
});
afterAll(async () => {
  await svc?.close();
  await discord?.close();
  await hook?.close();
});

describe('the seed contract, on real responses', () => {
  it('GET /workflows: every Workflow and Connector field, by user id and by username', async () => {
    for (const ref of [userId, 'seed-user']) {
      const r = await seedCall('GET', `/workflows?userId=${ref}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-api-version')).toBe('2025-09');
      expect(violations(r.body, listOf(Workflow))).toEqual([]);
      const wf = r.body.data.find((w: { workflowId: string }) => w.workflowId === workflowId);
      expect(wf).toMatchObject({ name: 'Deals to Discord', installed: true, active: true, version: 1 });
      // The apps the workflow requires, once each: not the built-ins transform and delay; http is an app.
      expect(wf.connectors).toEqual([
        {
          connectorName: 'Discord',
          connectorId: connectorUuid('discord'),
          connector: 'discord',
          icon: `${svc.url}/connectors/discord/icon.svg`,
        },
        {
          connectorName: 'HTTP',
          connectorId: connectorUuid('http'),
          connector: 'http',
          icon: `${svc.url}/connectors/http/icon.svg`,
        },
      ]);
    }
  });

  it('GET /workflows/{workflowId}/logs: every LogEntry, Result, Output item and Input field', async () => {
    const r = await seedCall(
      'GET',
      `/workflows/${workflowId}/logs?userId=${userId}&page=1&limit=30&order=desc`,
    );
    expect(r.status).toBe(200);
    expect(violations(r.body, listOf(LogEntry))).toEqual([]);
    const [entry] = r.body.data;
    expect(entry).toMatchObject({ finished: true, stoppedAt: expect.any(String) });
    // One result and one input per connector step, built-ins included.
    expect(entry.results.map((x: { connectorId: string }) => x.connectorId)).toEqual(
      ['transform', 'discord', 'delay', 'http', 'transform', 'discord'].map(connectorUuid),
    );
    expect(entry.inputs).toHaveLength(6);
    expect(entry.inputs[1]).toEqual({
      connectorId: connectorUuid('discord'),
      data: { channelId: CHANNEL, content: 'Deal Acme' },
    });
    expect(entry.results.every((x: { stoppedAt?: string }) => typeof x.stoppedAt === 'string')).toBe(true);
    const items = entry.results.map((x: { data: { json: unknown; statusCode?: number }[][] }) => x.data[0]);
    expect(items[1][0]).toMatchObject({ json: { content: 'Deal Acme' }, statusCode: 200 });
    expect(items[3][0]).toMatchObject({ json: { status: 200, body: { received: true } }, statusCode: 200 });
    // An array output is one item per element; a value that is not an object is held as {value}.
    expect(items[4].map((i: { json: unknown }) => i.json)).toEqual([{ value: 1 }, { a: 1 }]);
  });

  it('omits stoppedAt, never null, while an execution or a step has not stopped', async () => {
    const id = randomUUID();
    await svc.db.insert(executions).values({
      id,
      accountId,
      userId,
      workflowId,
      version: 1,
      status: 'running',
      trigger: {},
      triggerType: 'manual',
      startedAt: new Date(Date.now() + 60_000),
    });
    await svc.db.insert(executionSteps).values({
      executionId: id,
      position: 0,
      userId,
      stepId: step.shape,
      connector: 'transform',
      connectorId: connectorUuid('transform'),
      action: 'map',
      status: 'succeeded',
      input: { expression: '1' },
      data: [[]],
      startedAt: new Date(Date.now() + 60_000),
    });
    const r = await seedCall('GET', `/workflows/${workflowId}/logs?userId=${userId}`);
    expect(violations(r.body, listOf(LogEntry))).toEqual([]);
    const running = r.body.data.find((e: { executionId: string }) => e.executionId === id);
    expect(running).toMatchObject({ finished: false });
    expect('stoppedAt' in running).toBe(false);
    expect('stoppedAt' in running.results[0]).toBe(false);
    expect(r.text).not.toMatch(/"stoppedAt":null/);
    await svc.db.delete(executions).where(eq(executions.id, id));
  });

  it('pages logs as the seed limits them: at most 30, 10 by default, desc by default, asc on request', async () => {
    const other = await createUser(svc, apiKey, 'pager');
    const ids = await insertExecutions(svc.db, { accountId, userId: other, workflowId }, 31);
    const byDefault = await seedCall('GET', `/workflows/${workflowId}/logs?userId=${other}`);
    expect(violations(byDefault.body, listOf(LogEntry))).toEqual([]);
    expect(byDefault.body.data.map((e: { executionId: string }) => e.executionId)).toEqual(
      ids.slice(-10).reverse(),
    );
    const asc = await seedCall(
      'GET',
      `/workflows/${workflowId}/logs?userId=${other}&order=asc&limit=30&page=2`,
    );
    expect(asc.body.data.map((e: { executionId: string }) => e.executionId)).toEqual([ids[30]]);
    const tooMany = await seedCall('GET', `/workflows/${workflowId}/logs?userId=${other}&limit=31`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]).toMatchObject({ field: 'query.limit' });
  });

  it('GET /installations: every Installation, FormData and Field field', async () => {
    const r = await seedCall('GET', '/installations');
    expect(r.status).toBe(200);
    expect(violations(r.body, listOf(Installation))).toEqual([]);
    const mine = r.body.data.find((i: { workflowIds: string[] }) => i.workflowIds.includes(workflowId));
    expect(mine).toMatchObject({
      userId,
      credentialIds: { discord: credentialId },
      workflowIds: [workflowId],
      enabled: true,
      formData: [
        {
          workflowId,
          app: 'discord',
          blockId: step.post,
          fields: [{ name: 'channel', displayName: 'Channel', type: 'select', required: true }],
        },
      ],
    });
  });

  it('GET /users/{userId}/token: {token}, a JWT, by id or username in both places', async () => {
    for (const ref of [userId, 'seed-user']) {
      const r = await seedCall('GET', `/users/${ref}/token?userId=${ref}`);
      expect(r.status).toBe(200);
      expect(violations(r.body, TokenResponse)).toEqual([]);
    }
  });

  it('DELETE /users/{userId}/logs: {message: "Success"}, and the logs are gone', async () => {
    const r = await seedCall('DELETE', `/users/${userId}/logs?userId=${userId}`);
    expect(r.status).toBe(200);
    expect(violations(r.body, MessageResponse)).toEqual([]);
    expect(r.body.message).toBe('Success');
    const after = await seedCall('GET', `/workflows/${workflowId}/logs?userId=${userId}`);
    expect(after.body).toEqual({ data: [] });
  });

  it('MCP tools/list: every Tool field, through a real MCP client and as raw JSON-RPC with a string id', async () => {
    const created = await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'conformance' } });
    const headers = { authorization: `Bearer ${apiKey}`, 'x-inlay-userid': userId };
    const client = await connectV2(created.body.url, headers);
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) expect(violations(tool, Tool), tool.name).toEqual([]);
      const list = tools.find((t) => t.name === 'list_connectors_inlay');
      expect(list?.inputSchema.properties?.category).toMatchObject({
        type: 'string',
        description: expect.any(String),
      });
      expect(list?.inputSchema.required ?? []).not.toContain('category');
    } finally {
      await client.close();
    }
    const raw = await rawRpc(
      created.body.url,
      JSON.stringify({ jsonrpc: '2.0', id: 'list-1', method: 'tools/list' }),
      { ...headers, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(raw.status).toBe(200);
    const [msg] = rpcMessages(raw.text, raw.headers.get('content-type'));
    expect(msg).toMatchObject({ jsonrpc: '2.0', id: 'list-1' });
    for (const tool of msg.result.tools) expect(violations(tool, Tool), tool.name).toEqual([]);
  });
});

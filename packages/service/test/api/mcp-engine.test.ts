import { randomUUID } from 'node:crypto';
import { REDACTED } from '@inlay/connectors';
import {
  BOT_TOKEN,
  CHANNEL,
  discordCredential,
  install,
  logsOf,
  publish,
  startDiscord,
  waitForRuns,
} from '@inlay/test-kit/engine';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV1, connectV2 } from '@inlay/test-kit/mcp';
import { type Service, startService, UUID_RE } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_WORKFLOW_ID } from '../../src/engine/action-run.ts';
import { executionSteps, executions } from '../../src/store/schema.ts';

let svc: Service;
let discord: Awaited<ReturnType<typeof startDiscord>>;
let apiKey: string;
let alice: string;
let bob: string;
let credentialId: string;
let server: { serverId: string; accessToken: string; url: string };
let workflowId: string;

const asAlice = () => connectV2(server.url, { authorization: `Bearer ${apiKey}`, 'x-inlay-userid': 'alice' });

beforeAll(async () => {
  discord = await startDiscord();
  svc = await startService({
    env: { INLAY_CONNECTOR_DISCORD_BASE_URL: discord.url, INLAY_RETRY_BASE_MS: '5', INLAY_STEP_RETRIES: '2' },
  });
  ({ apiKey } = await svc.account('mcp-engine'));
  alice = await createUser(svc, apiKey, 'alice');
  bob = await createUser(svc, apiKey, 'bob');
  credentialId = await discordCredential(svc, apiKey, alice);
  server = (await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'agents' } })).body;
  const post = randomUUID();
  workflowId = await publish(
    svc,
    apiKey,
    {
      trigger: { type: 'event', event: 'deal.created' },
      steps: [
        {
          id: post,
          connector: 'discord',
          action: 'send_message',
          input: { channelId: '{{ config.channel }}', content: 'Agent says {{ trigger.text }}' },
        },
      ],
      config: [
        {
          stepId: post,
          name: 'channel',
          displayName: 'Channel',
          type: 'select',
          required: true,
          options: { source: 'channels' },
        },
      ],
    },
    'agent',
  );
  await install(svc, apiKey, alice, [workflowId], {
    credentialIds: { discord: credentialId },
    values: [{ workflowId, blockId: post, fields: [{ name: 'channel', value: CHANNEL }] }],
  });
});
afterAll(async () => {
  await svc?.close();
  await discord?.close();
});

describe('execute_action_inlay', () => {
  it('runs the action with the user’s credential and records it like a one-step execution', async () => {
    const client = await asAlice();
    const r = (await client.callTool({
      name: 'execute_action_inlay',
      arguments: {
        connectorId: 'discord',
        actionId: 'send_message',
        parameters: { channelId: CHANNEL, content: 'hello from an agent' },
      },
    })) as any;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({
      executionId: expect.stringMatching(UUID_RE),
      statusCode: 200,
      output: {
        id: expect.any(String),
        channelId: CHANNEL,
        content: 'hello from an agent',
        timestamp: '2026-01-01T00:00:00.000+00:00',
        author: { id: '7', username: 'inlay-bot', bot: true },
      },
    });
    const sent = discord.seen.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: `/channels/${CHANNEL}/messages` });
    expect(sent.headers.authorization).toBe(`Bot ${BOT_TOKEN}`);

    const { executionId } = r.structuredContent;
    const [row] = await svc.db.select().from(executions).where(eq(executions.id, executionId));
    expect(row).toMatchObject({
      userId: alice,
      workflowId: ACTION_WORKFLOW_ID,
      installationId: null,
      version: 0,
      triggerType: 'action',
      trigger: { connector: 'discord', action: 'send_message' },
      status: 'succeeded',
      finished: true,
      attempts: 1,
      leaseUntil: null,
    });
    const steps = await svc.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionId, executionId));
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({
      position: 0,
      connector: 'discord',
      action: 'send_message',
      status: 'succeeded',
      attempts: 1,
      input: { channelId: CHANNEL, content: 'hello from an agent' },
      data: [[{ id: expect.stringMatching(UUID_RE), statusCode: 200, json: r.structuredContent.output }]],
    });
    await client.close();
  });

  it('retries a transient failure like a workflow step', async () => {
    const client = await asAlice();
    const r = (await client.callTool({
      name: 'execute_action_inlay',
      arguments: {
        connectorId: 'discord',
        actionId: 'send_message',
        parameters: { channelId: CHANNEL, content: 'flaky agent' },
      },
    })) as any;
    expect(r.isError).toBeFalsy();
    const [step] = await svc.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionId, r.structuredContent.executionId));
    expect(step!.attempts).toBe(3);
    await client.close();
  });

  it('reports a provider error as a tool error, logged as a failed execution with the secret scrubbed', async () => {
    const { client } = await connectV1(server.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': alice,
    });
    const r = (await client.callTool({
      name: 'execute_action_inlay',
      arguments: {
        connectorId: 'discord',
        actionId: 'send_message',
        parameters: { channelId: CHANNEL, content: 'reject me' },
      },
    })) as any;
    expect(r.isError).toBe(true);
    const text = r.content[0].text as string;
    expect(text).toContain('Invalid Form Body');
    expect(text.includes(BOT_TOKEN)).toBe(false);
    const executionId = /executionId ([0-9a-f-]{36})/.exec(text)![1]!;
    const [row] = await svc.db.select().from(executions).where(eq(executions.id, executionId));
    expect(row).toMatchObject({ status: 'failed', finished: false, error: { statusCode: 400 } });
    const [step] = await svc.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionId, executionId));
    expect(step!.data).toEqual([
      [
        {
          id: expect.stringMatching(UUID_RE),
          statusCode: 400,
          json: { message: 'Invalid Form Body', code: 50035, echo: `Bot ${REDACTED}` },
        },
      ],
    ]);
    await client.close();
  });

  it('asks for credentialId when the user has several credentials, and uses the one named', async () => {
    const second = await discordCredential(svc, apiKey, alice, 'Second bot');
    const client = await asAlice();
    const call = (extra: Record<string, unknown>) =>
      client.callTool({
        name: 'execute_action_inlay',
        arguments: {
          connectorId: 'discord',
          actionId: 'list_messages',
          parameters: { channelId: CHANNEL, limit: 1 },
          ...extra,
        },
      }) as Promise<any>;
    const ambiguous = await call({});
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.content[0].text).toContain('name one with credentialId');
    const named = await call({ credentialId: second });
    expect(named.isError).toBeFalsy();
    expect(named.structuredContent.statusCode).toBe(200);
    expect(Array.isArray(named.structuredContent.output)).toBe(true);
    await svc.call('DELETE', `/credentials/${second}?userId=${alice}`, { auth: apiKey });
    await client.close();
  });

  it('refuses another user’s credential and needs a user', async () => {
    const bobJwt = await tokenFor(svc, apiKey, bob);
    const client = await connectV2(server.url, { authorization: `Bearer ${bobJwt}` });
    const r = (await client.callTool({
      name: 'execute_action_inlay',
      arguments: {
        connectorId: 'discord',
        actionId: 'list_messages',
        parameters: { channelId: CHANNEL },
        credentialId,
      },
    })) as any;
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/credential/i);
    const rows = await svc.db.select().from(executions).where(eq(executions.userId, bob));
    expect(rows.map((x) => x.status)).toEqual(['failed']);
    await client.close();

    const noUser = await connectV2(server.url, { authorization: `Bearer ${apiKey}` });
    const anon = (await noUser.callTool({
      name: 'execute_action_inlay',
      arguments: { connectorId: 'discord', actionId: 'list_messages', parameters: { channelId: CHANNEL } },
    })) as any;
    expect(anon.isError).toBe(true);
    expect(anon.content[0].text).toContain('acts for a user');
    await noUser.close();
  });
});

describe('run_workflow_inlay', () => {
  it('starts the user’s installed workflow with data as the trigger; the run is logged', async () => {
    const client = await asAlice();
    const r = (await client.callTool({
      name: 'run_workflow_inlay',
      arguments: { workflowId, data: { text: 'ship it' } },
    })) as any;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ executionIds: [expect.stringMatching(UUID_RE)] });
    const [row] = await waitForRuns(svc, r.structuredContent.executionIds);
    expect(row).toMatchObject({ status: 'succeeded', trigger: { text: 'ship it' }, userId: alice });
    const [entry] = (await logsOf(svc, apiKey, workflowId, alice)).filter((e) => e.executionId === row!.id);
    expect(entry.results[0].data[0][0].json.content).toBe('Agent says ship it');
    const logs = (await client.callTool({
      name: 'get_workflow_logs_inlay',
      arguments: { workflowId },
    })) as any;
    expect(logs.isError, JSON.stringify(logs.content)).toBeFalsy();
    expect(logs.structuredContent.logs.map((l: { executionId: string }) => l.executionId)).toContain(row!.id);
    await client.close();
  });

  it('fails as a tool error for a workflow the user has not installed or switched off', async () => {
    const bobClient = await connectV2(server.url, {
      authorization: `Bearer ${await tokenFor(svc, apiKey, bob)}`,
    });
    const notMine = (await bobClient.callTool({
      name: 'run_workflow_inlay',
      arguments: { workflowId },
    })) as any;
    expect(notMine.isError).toBe(true);
    expect(notMine.content[0].text).toContain('not installed');
    await bobClient.close();

    await svc.call('PUT', '/workflows/deactivate', { auth: apiKey, body: { userId: alice, workflowId } });
    const client = await asAlice();
    const off = (await client.callTool({ name: 'run_workflow_inlay', arguments: { workflowId } })) as any;
    expect(off.isError).toBe(true);
    expect(off.content[0].text).toContain('switched off');
    await svc.call('PUT', '/workflows/activate', { auth: apiKey, body: { userId: alice, workflowId } });
    await client.close();
  });

  it('refuses a workflow that calls a connector the server’s restrictions block', async () => {
    const narrow = (
      await svc.call('POST', '/mcp-servers', {
        auth: apiKey,
        body: { name: 'narrow', restrictions: { connectors: { allow: ['slack'] } } },
      })
    ).body;
    const client = await connectV2(narrow.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': alice,
    });
    const r = (await client.callTool({ name: 'run_workflow_inlay', arguments: { workflowId } })) as any;
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain('discord');
    await client.close();
  });
});

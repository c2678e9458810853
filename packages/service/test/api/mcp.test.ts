import { readFileSync } from 'node:fs';
import { createUser, insertExecutions, seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV1, connectV2, rawRpc, rpcMessages } from '@inlay/test-kit/mcp';
import { expectProblem, type Service, sharedService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_PROTOCOL_VERSIONS } from '../../src/mcp/protocol-versions.ts';
import { mcpServers } from '../../src/store/schema.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let server: { serverId: string; accessToken: string; url: string };
let jwt: string;

const TOOLS = [
  'create_credential_inlay',
  'execute_action_inlay',
  'get_action_details_inlay',
  'get_connector_resources_inlay',
  'get_credentials_inlay',
  'get_workflow_logs_inlay',
  'list_connectors_inlay',
  'list_workflows_inlay',
  'proxy_request_inlay',
  'run_workflow_inlay',
];

const init = (id: unknown = 1, version = '2025-11-25') =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc);
  await insertExecutions(svc.db, s, 3);
  jwt = await tokenFor(svc, s.apiKey, s.userId);
  const r = await svc.call('POST', '/mcp-servers', {
    auth: s.apiKey,
    body: { name: 'agents', description: 'For our assistant' },
  });
  server = r.body;
});
afterAll(() => svc?.close());

describe('MCP servers API', () => {
  it('creates a server whose token is shown once and stored hashed', async () => {
    expect(server.url).toBe(`${svc.url}/mcp/${server.serverId}/${server.accessToken}`);
    expect(server.accessToken).toMatch(/^inlay_mcp_/);
    const [row] = await svc.db.select().from(mcpServers).where(eq(mcpServers.id, server.serverId));
    expect(JSON.stringify(row)).not.toContain(server.accessToken);
    const list = await svc.call('GET', '/mcp-servers', { auth: s.apiKey });
    expect(list.body.data).toEqual([
      {
        serverId: server.serverId,
        name: 'agents',
        description: 'For our assistant',
        restrictions: {},
        createdAt: expect.any(String),
      },
    ]);
    expect(list.text).not.toContain(server.accessToken);
  });

  it('validates restrictions and keeps servers to API keys and their account', async () => {
    expectProblem(
      await svc.call('POST', '/mcp-servers', {
        auth: s.apiKey,
        body: { name: 'x', restrictions: { connectors: { allow: 'slack' } } },
      }),
      400,
      'invalid_request',
      'body.restrictions.connectors.allow',
    );
    for (const list of ['connectors', 'actions'])
      expectProblem(
        await svc.call('POST', '/mcp-servers', {
          auth: s.apiKey,
          body: { name: 'x', restrictions: { [list]: { allow: ['slack'], block: ['hubspot'] } } },
        }),
        400,
        'invalid_request',
        `body.restrictions.${list}.block`,
      );
    // A name the account does not have would match nothing: a misspelt block list would block nothing.
    const unknown: [Record<string, unknown>, string, string][] = [
      [
        { connectors: { block: ['slack', 'slakc'] } },
        'body.restrictions.connectors.block.1',
        'no connector "slakc"',
      ],
      [{ actions: { block: ['run_workflow_inaly'] } }, 'body.restrictions.actions.block.0', 'no MCP tool'],
      [
        { actions: { allow: ['slack.post_mesage'] } },
        'body.restrictions.actions.allow.0',
        'no action "post_mesage"',
      ],
      [{ actions: { block: ['nope.list'] } }, 'body.restrictions.actions.block.0', 'no connector "nope"'],
      [
        { actions: { allow: ['post_message'] } },
        'body.restrictions.actions.allow.0',
        'no MCP tool "post_message"',
      ],
    ];
    const before = (await svc.call('GET', '/mcp-servers', { auth: s.apiKey })).body.data.length;
    for (const [restrictions, field, message] of unknown) {
      const r = await svc.call('POST', '/mcp-servers', { auth: s.apiKey, body: { name: 'x', restrictions } });
      expectProblem(r, 422, 'unprocessable', field);
      expect(r.body.errors[0].message).toContain(message);
    }
    expect((await svc.call('GET', '/mcp-servers', { auth: s.apiKey })).body.data).toHaveLength(before);
    expectProblem(
      await svc.call('POST', '/mcp-servers', { auth: jwt, body: { name: 'x' } }),
      403,
      'forbidden',
    );
    const other = await svc.account('other');
    expectProblem(
      await svc.call('DELETE', `/mcp-servers/${server.serverId}`, { auth: other.apiKey }),
      404,
      'not_found',
    );
  });
});

describe('PATCH /mcp-servers/{serverId}', () => {
  it('renames a server and replaces its restrictions, validated like a creation', async () => {
    const created = await svc.call('POST', '/mcp-servers', {
      auth: s.apiKey,
      body: { name: 'to edit', restrictions: { connectors: { allow: ['slack'] } } },
    });
    const id = created.body.serverId as string;
    const patch = (body: unknown, auth = s.apiKey, serverId = id) =>
      svc.call('PATCH', `/mcp-servers/${serverId}`, { auth, body });

    const renamed = await patch({ name: 'Edited', description: 'Now described' });
    expect(renamed.status, renamed.text).toBe(200);
    // Only what is given changes: the restrictions stay.
    expect(renamed.body.data).toEqual({
      serverId: id,
      name: 'Edited',
      description: 'Now described',
      restrictions: { connectors: { allow: ['slack'] } },
      createdAt: created.body.createdAt ?? expect.any(String),
    });
    const restricted = await patch({
      restrictions: { connectors: { block: ['hubspot'] }, actions: { allow: ['slack.post_message'] } },
    });
    expect(restricted.body.data).toMatchObject({
      name: 'Edited',
      restrictions: { connectors: { block: ['hubspot'] }, actions: { allow: ['slack.post_message'] } },
    });
    const [row] = await svc.db.select().from(mcpServers).where(eq(mcpServers.id, id));
    expect(row!.restrictions).toEqual({
      connectors: { block: ['hubspot'] },
      actions: { allow: ['slack.post_message'] },
    });
    expect((await patch({ description: null, restrictions: {} })).body.data).toMatchObject({
      description: null,
      restrictions: {},
    });

    // Refused as at creation, the entry named; nothing changes.
    const unknown: [Record<string, unknown>, string, string][] = [
      [{ connectors: { allow: ['slakc'] } }, 'body.restrictions.connectors.allow.0', 'no connector "slakc"'],
      [{ actions: { block: ['slack.post_mesage'] } }, 'body.restrictions.actions.block.0', 'no action'],
      [{ actions: { allow: ['run_workflow_inaly'] } }, 'body.restrictions.actions.allow.0', 'no MCP tool'],
    ];
    for (const [restrictions, field, message] of unknown) {
      const r = await patch({ name: 'not saved', restrictions });
      expectProblem(r, 422, 'unprocessable', field);
      expect(r.body.errors[0].message).toContain(message);
    }
    expectProblem(
      await patch({ restrictions: { connectors: { allow: ['slack'], block: ['hubspot'] } } }),
      400,
      'invalid_request',
      'body.restrictions.connectors.block',
    );
    expectProblem(await patch({}), 400, 'invalid_request', 'body', 'custom');
    expectProblem(await patch({ name: '' }), 400, 'invalid_request', 'body.name', 'min');
    expectProblem(await patch({ name: 'x', token: 'y' }), 400, 'invalid_request', 'body.token');
    expectProblem(
      await svc.call('PATCH', '/mcp-servers/not-a-uuid', { auth: s.apiKey, body: { name: 'x' } }),
      400,
      'invalid_request',
      'path.serverId',
    );
    const [same] = await svc.db.select().from(mcpServers).where(eq(mcpServers.id, id));
    expect(same).toMatchObject({ name: 'Edited', description: null, restrictions: {} });

    // A user token is refused; another account's server answers like a missing one.
    expectProblem(await patch({ name: 'x' }, jwt), 403, 'forbidden');
    const other = await svc.account('patch-other');
    const theirs = await patch({ name: 'taken over' }, other.apiKey);
    expectProblem(theirs, 404, 'not_found');
    const missing = await patch({ name: 'taken over' }, other.apiKey, '00000000-0000-4000-8000-000000000000');
    expect(theirs.body).toEqual({ ...missing.body, requestId: theirs.body.requestId });
    expect((await svc.db.select().from(mcpServers).where(eq(mcpServers.id, id)))[0]!.name).toBe('Edited');
  });
});

describe.each([
  ['v2 client (2026-07-28)', 'v2'],
  ['v1 client (2025-11-25 initialize)', 'v1'],
])('%s', (_name, kind) => {
  const connect = async (headers: Record<string, string>) =>
    kind === 'v2' ? connectV2(server.url, headers) : (await connectV1(server.url, headers)).client;

  it('lists the tools, each with input and output schemas', async () => {
    const client = await connect({ authorization: `Bearer ${jwt}` });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
    }
    await client.close();
  });

  it('calls list_connectors_inlay with and without a category', async () => {
    const client = await connect({ authorization: `Bearer ${s.apiKey}`, 'x-inlay-userid': 'alice' });
    const all = (await client.callTool({ name: 'list_connectors_inlay', arguments: {} })) as any;
    expect(all.isError).toBeFalsy();
    const ids = all.structuredContent.connectors.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['slack', 'hubspot']));
    // The http and transform built-ins are opt-in: this server's restrictions do not name them.
    expect(ids).not.toContain('http');
    expect(ids).not.toContain('transform');
    expect(all.structuredContent.connectors.find((c: { id: string }) => c.id === 'slack')).toEqual({
      id: 'slack',
      name: 'Slack',
      category: 'communication',
      authType: 'oauth2',
    });
    const comms = (await client.callTool({
      name: 'list_connectors_inlay',
      arguments: { category: 'communication' },
    })) as any;
    expect(comms.structuredContent.connectors.length).toBeGreaterThan(0);
    expect(
      comms.structuredContent.connectors.every((c: { category: string }) => c.category === 'communication'),
    ).toBe(true);
    expect(JSON.parse(comms.content[0].text)).toEqual(comms.structuredContent);
    await client.close();
  });

  it('reads the user’s workflow logs', async () => {
    const client = await connect({ authorization: `Bearer ${jwt}` });
    const r = (await client.callTool({
      name: 'get_workflow_logs_inlay',
      arguments: { workflowId: s.workflowId, limit: 2 },
    })) as any;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.logs).toHaveLength(2);
    expect(r.structuredContent.logs[0]).toMatchObject({
      workflowId: s.workflowId,
      finished: true,
      status: 'succeeded',
    });
    await client.close();
  });

  it('reads a resource and gets a prompt', async () => {
    const client = await connect({ authorization: `Bearer ${jwt}` });
    const res = await client.readResource({ uri: 'inlay://connectors/slack' });
    expect((res.contents[0] as { text: string }).text).toContain('# Slack (`slack`)');
    expect((res.contents[0] as { text: string }).text).toContain('`post_message` (write)');
    const wf = await client.readResource({ uri: `inlay://workflows/${s.workflowId}` });
    expect(JSON.parse((wf.contents[0] as { text: string }).text).definition.trigger).toEqual({
      type: 'event',
      event: 'deal.created',
    });
    const prompt = await client.getPrompt({ name: 'connect_app', arguments: { connector: 'slack' } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('create_credential_inlay');
    await client.close();
  });
});

describe('MCP over raw HTTP', () => {
  const auth = () => ({ authorization: `Bearer ${jwt}` });

  it('answers 406 when Accept lacks text/event-stream', async () => {
    const r = await rawRpc(server.url, init(), { ...auth(), accept: 'application/json' });
    expect(r.status).toBe(406);
  });

  it('answers 401 with a JSON-RPC error for a missing or foreign bearer', async () => {
    const missing = await rawRpc(server.url, init());
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.text)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32001, message: expect.any(String) },
    });
    const other = await svc.account('intruder');
    const foreign = await rawRpc(server.url, init(), { authorization: `Bearer ${other.apiKey}` });
    expect(foreign.status).toBe(401);
    const otherUser = await seedAccount(svc, { username: 'mallory' });
    const foreignJwt = await tokenFor(svc, otherUser.apiKey, otherUser.userId);
    expect((await rawRpc(server.url, init(), { authorization: `Bearer ${foreignJwt}` })).status).toBe(401);
  });

  it('answers 404 with a JSON-RPC error for a wrong access token or a deleted server', async () => {
    const wrong = await rawRpc(server.url.replace(server.accessToken, 'inlay_mcp_wrong'), init(), auth());
    expect(wrong.status).toBe(404);
    expect(JSON.parse(wrong.text).error.code).toBe(-32004);
    const temp = (await svc.call('POST', '/mcp-servers', { auth: s.apiKey, body: { name: 'temp' } })).body;
    expect((await rawRpc(temp.url, init(), auth())).status).toBe(200);
    await svc.call('DELETE', `/mcp-servers/${temp.serverId}`, { auth: s.apiKey });
    expect((await rawRpc(temp.url, init(), auth())).status).toBe(404);
  });

  it('echoes a string id, answers -32601 for an unknown method and -32700 for malformed JSON', async () => {
    const r = await rawRpc(server.url, init('req-α'), auth());
    expect(r.status).toBe(200);
    const [msg] = rpcMessages(r.text, r.headers.get('content-type'));
    expect(msg).toMatchObject({ jsonrpc: '2.0', id: 'req-α', result: { protocolVersion: '2025-11-25' } });
    const unknown = await rawRpc(server.url, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'no/such' }), {
      ...auth(),
      'mcp-protocol-version': '2025-11-25',
    });
    expect(rpcMessages(unknown.text, unknown.headers.get('content-type'))[0]).toMatchObject({
      id: 7,
      error: { code: -32601 },
    });
    const bad = await rawRpc(server.url, '{"jsonrpc":', auth());
    expect(JSON.parse(bad.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('lists exactly the protocol versions docs/mcp.md names', async () => {
    const docs = readFileSync(new URL('../../../../docs/mcp.md', import.meta.url), 'utf8');
    const listed = /Supported protocol versions: (.*)\./.exec(docs)?.[1];
    expect(listed?.match(/\d{4}-\d{2}-\d{2}/g)).toEqual(MCP_PROTOCOL_VERSIONS);
  });

  it.each(MCP_PROTOCOL_VERSIONS.filter((v) => v < '2026'))(
    'serves legacy protocol %s with initialize',
    async (version) => {
      const r = await rawRpc(server.url, init(1, version), auth());
      expect(r.status).toBe(200);
      expect(rpcMessages(r.text, r.headers.get('content-type'))[0].result.protocolVersion).toBe(version);
    },
  );

  it.each(['2024-10-07', '2023-01-01'])('offers 2025-11-25 to a client asking for unlisted %s', async (v) => {
    const r = await rawRpc(server.url, init(1, v), auth());
    expect(rpcMessages(r.text, r.headers.get('content-type'))[0].result.protocolVersion).toBe('2025-11-25');
  });

  it('parses a response sent as SSE', async () => {
    const client = await connectV1(server.url, auth());
    const r = await fetch(server.url, {
      method: 'POST',
      headers: {
        ...auth(),
        'content-type': 'application/json',
        accept: 'text/event-stream, application/json',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'sse-1', method: 'tools/list' }),
    });
    const text = await r.text();
    const msgs = rpcMessages(text, r.headers.get('content-type'));
    expect(msgs.at(-1)).toMatchObject({ id: 'sse-1', result: { tools: expect.any(Array) } });
    expect(msgs.at(-1).result.tools).toHaveLength(TOOLS.length);
    await client.client.close();
  });

  it('makes an unknown tool and bad params protocol errors, and a tool failure an isError result', async () => {
    const client = await connectV2(server.url, auth());
    await expect(client.callTool({ name: 'nope_inlay', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await expect(
      client.callTool({ name: 'get_action_details_inlay', arguments: { connectorId: 5 } }),
    ).rejects.toThrow(/Invalid arguments/);
    const raw = await rawRpc(
      server.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'p',
        method: 'tools/call',
        params: { name: 'get_action_details_inlay', arguments: { connectorId: 5 } },
      }),
      { ...auth(), 'mcp-protocol-version': '2025-11-25' },
    );
    expect(rpcMessages(raw.text, raw.headers.get('content-type'))[0]).toMatchObject({
      id: 'p',
      error: { code: -32602 },
    });
    const failed = (await client.callTool({
      name: 'get_connector_resources_inlay',
      arguments: { connectorId: 'nope' },
    })) as any;
    expect(failed.isError).toBe(true);
    expect(failed.content[0].text).toContain('Unknown connector "nope"');
    await client.close();
  });
});

describe('MCP isolation and restrictions', () => {
  it('never shows a user another user’s logs or executions', async () => {
    const bob = await createUser(svc, s.apiKey, 'bob');
    const bobJwt = await tokenFor(svc, s.apiKey, bob);
    const client = await connectV2(server.url, { authorization: `Bearer ${bobJwt}` });
    const logs = (await client.callTool({
      name: 'get_workflow_logs_inlay',
      arguments: { workflowId: s.workflowId },
    })) as any;
    expect(logs.structuredContent.logs).toEqual([]);
    const [aliceRun] = (
      await svc.call('GET', `/workflows/${s.workflowId}/logs?userId=${s.userId}&limit=1`, { auth: s.apiKey })
    ).body.data;
    await expect(
      client.readResource({ uri: `inlay://executions/${aliceRun.executionId}` }),
    ).rejects.toThrow();
    const asKey = await connectV2(server.url, {
      authorization: `Bearer ${s.apiKey}`,
      'x-inlay-user-token': bobJwt,
    });
    const again = (await asKey.callTool({
      name: 'get_workflow_logs_inlay',
      arguments: { workflowId: s.workflowId },
    })) as any;
    expect(again.structuredContent.logs).toEqual([]);
    await client.close();
    await asKey.close();
  });

  it('hides tools, connectors and actions that the restrictions exclude', async () => {
    const restricted = (
      await svc.call('POST', '/mcp-servers', {
        auth: s.apiKey,
        body: {
          name: 'narrow',
          restrictions: {
            connectors: { allow: ['slack', 'http'] },
            actions: { block: ['slack.list_messages', 'run_workflow_inlay'] },
          },
        },
      })
    ).body;
    const client = await connectV2(restricted.url, { authorization: `Bearer ${jwt}` });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('run_workflow_inlay');
    await expect(
      client.callTool({ name: 'run_workflow_inlay', arguments: { workflowId: s.workflowId } }),
    ).rejects.toThrow();
    const list = (await client.callTool({ name: 'list_connectors_inlay', arguments: {} })) as any;
    expect(list.structuredContent.connectors.map((c: { id: string }) => c.id).sort()).toEqual([
      'http',
      'slack',
    ]);
    const slack = (await client.callTool({
      name: 'get_connector_resources_inlay',
      arguments: { connectorId: 'slack' },
    })) as any;
    expect(slack.structuredContent.actions.map((a: { id: string }) => a.id)).toEqual(['post_message']);
    const hub = (await client.callTool({
      name: 'get_connector_resources_inlay',
      arguments: { connectorId: 'hubspot' },
    })) as any;
    expect(hub.isError).toBe(true);
    await client.close();
  });
  it('applies restrictions changed over PATCH to the next request of a connected client: connectors and actions, allow and block', async () => {
    const changing = (await svc.call('POST', '/mcp-servers', { auth: s.apiKey, body: { name: 'changing' } }))
      .body;
    const restrict = async (restrictions: object) => {
      const r = await svc.call('PATCH', `/mcp-servers/${changing.serverId}`, {
        auth: s.apiKey,
        body: { restrictions },
      });
      expect(r.status, r.text).toBe(200);
    };
    const client = await connectV2(changing.url, { authorization: `Bearer ${jwt}` });
    const tools = async () => (await client.listTools()).tools.map((t) => t.name).sort();
    const connectors = async () =>
      (
        (await client.callTool({ name: 'list_connectors_inlay', arguments: {} })) as any
      ).structuredContent.connectors
        .map((c: { id: string }) => c.id)
        .sort() as string[];
    const actionsOf = async (connectorId: string) => {
      const r = (await client.callTool({
        name: 'get_connector_resources_inlay',
        arguments: { connectorId },
      })) as any;
      return r.isError ? 'refused' : r.structuredContent.actions.map((a: { id: string }) => a.id).sort();
    };
    expect(await tools()).toEqual(TOOLS);
    expect(await connectors()).toEqual(expect.arrayContaining(['hubspot', 'slack']));

    // Connectors allowed, actions and a tool blocked.
    await restrict({
      connectors: { allow: ['slack'] },
      actions: { block: ['slack.list_messages', 'run_workflow_inlay'] },
    });
    expect(await tools()).toEqual(TOOLS.filter((t) => t !== 'run_workflow_inlay'));
    expect(await connectors()).toEqual(['slack']);
    expect(await actionsOf('slack')).toEqual(['post_message']);
    expect(await actionsOf('hubspot')).toBe('refused');

    // A connector blocked, actions and tools allowed.
    await restrict({
      connectors: { block: ['slack'] },
      actions: {
        allow: ['hubspot.get_contact', 'list_connectors_inlay', 'get_connector_resources_inlay'],
      },
    });
    expect(await tools()).toEqual(['get_connector_resources_inlay', 'list_connectors_inlay']);
    const ids = await connectors();
    expect(ids).toContain('hubspot');
    expect(ids).not.toContain('slack');
    expect(await actionsOf('hubspot')).toEqual(['get_contact']);
    expect(await actionsOf('slack')).toBe('refused');
    await expect(
      client.callTool({ name: 'run_workflow_inlay', arguments: { workflowId: s.workflowId } }),
    ).rejects.toThrow();

    // Lifted: everything again.
    await restrict({});
    expect(await tools()).toEqual(TOOLS);
    expect(await actionsOf('slack')).toEqual(['list_messages', 'post_message']);
    await client.close();
  });

  it('offers http and transform only to a server whose connectors.allow names them', async () => {
    const plain = await connectV2(server.url, { authorization: `Bearer ${jwt}` });
    for (const connectorId of ['http', 'transform']) {
      const details = (await plain.callTool({
        name: 'get_connector_resources_inlay',
        arguments: { connectorId },
      })) as any;
      expect(details.isError, connectorId).toBe(true);
      const run = (await plain.callTool({
        name: 'execute_action_inlay',
        arguments: {
          connectorId,
          actionId: connectorId === 'http' ? 'request' : 'map',
          parameters: connectorId === 'http' ? { url: 'http://127.0.0.1:9/' } : { expression: '1' },
        },
      })) as any;
      expect(run.isError, connectorId).toBe(true);
      expect(run.content[0].text).toContain(`Unknown connector "${connectorId}"`);
    }
    await plain.close();
    // A block list that leaves them out is not enough: they must be named in allow.
    const blocking = (
      await svc.call('POST', '/mcp-servers', {
        auth: s.apiKey,
        body: { name: 'blocking', restrictions: { connectors: { block: ['slack'] } } },
      })
    ).body;
    const b = await connectV2(blocking.url, { authorization: `Bearer ${jwt}` });
    const ids = (
      (await b.callTool({ name: 'list_connectors_inlay', arguments: {} })) as any
    ).structuredContent.connectors.map((c: { id: string }) => c.id);
    expect(ids).not.toContain('http');
    expect(ids).not.toContain('transform');
    expect(ids).not.toContain('slack');
    await b.close();
    const opted = (
      await svc.call('POST', '/mcp-servers', {
        auth: s.apiKey,
        body: { name: 'opted', restrictions: { connectors: { allow: ['transform'] } } },
      })
    ).body;
    const o = await connectV2(opted.url, { authorization: `Bearer ${jwt}` });
    const mapped = (await o.callTool({
      name: 'execute_action_inlay',
      arguments: { connectorId: 'transform', actionId: 'map', parameters: { expression: '1 + 1' } },
    })) as any;
    expect(mapped.isError).toBeFalsy();
    expect(mapped.structuredContent.output).toBe(2);
    await o.close();
  });
});

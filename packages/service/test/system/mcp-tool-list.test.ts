// The `tools/list` result is built once per set of visible tools (src/mcp/tool-list.ts): it must be the very
// bytes the SDK's own registry lists, and a change of a server's restrictions must show on the next request,
// on this node and on another one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpRestrictions } from '@inlay/contract';
import { createUser, seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV2, rawRpc, rpcMessages } from '@inlay/test-kit/mcp';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_PROTOCOL_VERSIONS } from '../../src/mcp/protocol-versions.ts';
import { Restrictions } from '../../src/mcp/restrictions.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { mcpServers } from '../../src/store/schema.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
const refs: Server[] = [];

beforeAll(async () => {
  svc = await startService();
  s = await seedAccount(svc);
});
afterAll(async () => {
  for (const r of refs) await new Promise((done) => r.close(done));
  await svc?.close();
});

const auth = () => ({ authorization: `Bearer ${s.apiKey}`, 'x-inlay-userid': s.userId });
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
const legacy = { 'mcp-protocol-version': '2025-11-25' };

async function createServerWith(restrictions: McpRestrictions) {
  const r = await svc.call('POST', '/mcp-servers', {
    auth: s.apiKey,
    body: { name: 'agents', restrictions },
  });
  expect(r.status).toBe(201);
  return r.body as { serverId: string; url: string };
}

/** The uncached way: every visible tool registered with the SDK's `McpServer.registerTool`, served over HTTP. */
async function referenceUrl(name: string, restrictions: McpRestrictions) {
  const allowed = new Restrictions(restrictions);
  const handler = createMcpHandler(
    () => {
      const server = new McpServer(
        { name: `inlay:${name}`, version: '0.1.0' },
        { supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] },
      );
      for (const t of TOOLS.filter((x) => allowed.tool(x.name)))
        server.registerTool(
          t.name,
          {
            description: t.description,
            inputSchema: t.input,
            outputSchema: t.output,
            annotations: t.annotations,
          },
          async () => ({ content: [] }),
        );
      return server;
    },
    { legacy: 'stateless' },
  );
  const http = createServer((req, res) => void toNodeHandler(handler)(req, res));
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  refs.push(http);
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

const listedNames = async (url: string) => {
  const r = await rawRpc(url, LIST, { ...auth(), ...legacy });
  const [msg] = rpcMessages(r.text, r.headers.get('content-type'));
  return (msg.result?.tools ?? []).map((t: { name: string }) => t.name).sort();
};

const setRestrictions = (db: Service['db'], serverId: string, restrictions: McpRestrictions) =>
  db.update(mcpServers).set({ restrictions }).where(eq(mcpServers.id, serverId));

describe('the cached tools/list', () => {
  const cases: [string, McpRestrictions][] = [
    ['no restrictions', {}],
    ['tools allowed by name', { actions: { allow: ['list_connectors_inlay', 'proxy_request_inlay'] } }],
    ['tools blocked by name', { actions: { block: ['run_workflow_inlay', 'execute_action_inlay'] } }],
  ];

  it.each(cases)('is byte for byte what the SDK lists itself (%s)', async (_label, restrictions) => {
    const server = await createServerWith(restrictions);
    const ref = await referenceUrl('agents', restrictions);
    // Twice: the second answer comes from the cache the first one filled.
    for (let round = 0; round < 2; round++) {
      const ours = await rawRpc(server.url, LIST, { ...auth(), ...legacy });
      const theirs = await rawRpc(ref, LIST, legacy);
      expect(ours.status).toBe(200);
      expect(ours.headers.get('content-type')).toBe(theirs.headers.get('content-type'));
      expect(ours.text).toBe(theirs.text);
    }
    // The 2026-07-28 codec stamps its own fields around the same list.
    const [a, b] = [await connectV2(server.url, auth()), await connectV2(ref, {})];
    expect(JSON.stringify((await a.listTools()).tools)).toBe(JSON.stringify((await b.listTools()).tools));
    await Promise.all([a.close(), b.close()]);
  });

  it('follows a change of the server’s restrictions on the next request', async () => {
    const server = await createServerWith({});
    expect(await listedNames(server.url)).toHaveLength(TOOLS.length);
    await setRestrictions(svc.db, server.serverId, { actions: { block: ['run_workflow_inlay'] } });
    const names = await listedNames(server.url);
    expect(names).toHaveLength(TOOLS.length - 1);
    expect(names).not.toContain('run_workflow_inlay');
    // The hidden tool is refused, not just unlisted.
    const call = await rawRpc(
      server.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'c',
        method: 'tools/call',
        params: { name: 'run_workflow_inlay', arguments: { workflowId: s.workflowId } },
      }),
      { ...auth(), ...legacy },
    );
    expect(rpcMessages(call.text, call.headers.get('content-type'))[0]).toMatchObject({
      id: 'c',
      error: { code: -32602, message: 'Unknown tool: run_workflow_inlay' },
    });
    // Every tool hidden: no tools capability at all.
    await setRestrictions(svc.db, server.serverId, {
      actions: { block: TOOLS.map((t) => t.name) },
    });
    const none = await rawRpc(server.url, LIST, { ...auth(), ...legacy });
    expect(rpcMessages(none.text, none.headers.get('content-type'))[0]).toMatchObject({
      error: { code: -32601 },
    });
    await setRestrictions(svc.db, server.serverId, {});
    expect(await listedNames(server.url)).toHaveLength(TOOLS.length);
  });
});

describe('the user an MCP request acts for, through the read cache', () => {
  it('is refused on the request after the user is deleted, named by id, username or JWT', async () => {
    const server = await createServerWith({});
    const bobId = await createUser(svc, s.apiKey, 'bob-mcp');
    const jwt = await tokenFor(svc, s.apiKey, bobId);
    const key = (ref: string) => ({ authorization: `Bearer ${s.apiKey}`, 'x-inlay-userid': ref, ...legacy });
    const asJwt = { authorization: `Bearer ${jwt}`, ...legacy };
    for (const h of [key(bobId), key('bob-mcp'), asJwt])
      expect((await rawRpc(server.url, LIST, h)).status).toBe(200);
    expect((await svc.call('DELETE', `/users/${bobId}`, { auth: s.apiKey })).status).toBe(200);
    for (const ref of [bobId, 'bob-mcp']) {
      const r = await rawRpc(server.url, LIST, key(ref));
      expect(r.status).toBe(404);
      expect(JSON.parse(r.text).error.message).toBe('x-inlay-userid names no user of this account');
    }
    const r = await rawRpc(server.url, LIST, asJwt);
    expect(r.status).toBe(401);
  });
});

describe.skipIf(!onPostgres)('two nodes on PostgreSQL', () => {
  let other: Service;
  beforeAll(async () => {
    other = await startService();
  });
  afterAll(() => other?.close());

  it('shows a restriction written on node A in node B’s tools/list once A’s notification has reached B', async () => {
    const server = await createServerWith({});
    const onB = server.url.replace(svc.url, other.url);
    expect(await listedNames(onB)).toHaveLength(TOOLS.length);
    await setRestrictions(svc.db, server.serverId, { actions: { allow: ['list_workflows_inlay'] } });
    await other.ctx.store.changes.sync();
    expect(await listedNames(onB)).toEqual(['list_workflows_inlay']);
    await svc.call('DELETE', `/mcp-servers/${server.serverId}`, { auth: s.apiKey });
    await other.ctx.store.changes.sync();
    const gone = await rawRpc(onB, LIST, { ...auth(), ...legacy });
    expect(gone.status).toBe(404);
  });
});

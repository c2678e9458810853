import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV2 } from '@inlay/test-kit/mcp';
import { type Service, startService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/app.ts';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

let svc: Service;
let mcpServer: Server;
let port: number;

beforeAll(async () => {
  port = await freePort();
  svc = await startService({ env: { INLAY_MCP_PORT: String(port) } });
  if (!svc.app.mcpApp) throw new Error('no MCP app although INLAY_MCP_PORT is set');
  mcpServer = await listen(svc.app.mcpApp, port, '127.0.0.1');
});
afterAll(async () => {
  mcpServer?.close();
  mcpServer?.closeAllConnections();
  await svc?.close();
});

describe('INLAY_MCP_PORT', () => {
  it('hands out URLs on the MCP port and serves agents there, not on the API port', async () => {
    const s = await seedAccount(svc);
    const created = await svc.call('POST', '/mcp-servers', { auth: s.apiKey, body: { name: 'agents' } });
    expect(created.status).toBe(201);
    const { serverId, accessToken, url } = created.body;
    expect(url).toBe(`http://127.0.0.1:${port}/mcp/${serverId}/${accessToken}`);

    const jwt = await tokenFor(svc, s.apiKey, s.userId);
    const client = await connectV2(url, { authorization: `Bearer ${jwt}` });
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('list_connectors_inlay');
    const result = await client.callTool({
      name: 'list_connectors_inlay',
      arguments: { category: 'communication' },
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain('slack');
    await client.close();

    // The API listener no longer routes MCP: a plain problem+json 404.
    const onApi = await svc.call('POST', `/mcp/${serverId}/${accessToken}`, {
      auth: jwt,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(onApi.status).toBe(404);
    expect(onApi.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    // And the MCP listener serves nothing but MCP.
    const other = await fetch(`http://127.0.0.1:${port}/users`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('prefers INLAY_MCP_PUBLIC_URL when it is set', async () => {
    const other = await startService({
      env: { INLAY_MCP_PORT: String(port), INLAY_MCP_PUBLIC_URL: 'https://agents.example.com/' },
    });
    try {
      const s = await seedAccount(other);
      const r = await other.call('POST', '/mcp-servers', { auth: s.apiKey, body: { name: 'x' } });
      expect(r.body.url).toBe(`https://agents.example.com/mcp/${r.body.serverId}/${r.body.accessToken}`);
    } finally {
      await other.close();
    }
  });
});

import { seedAccount } from '@inlay/test-kit/fixtures';
import { rawRpc, rpcMessages } from '@inlay/test-kit/mcp';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { sql as q } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// An MCP server's row is kept in the read cache (mcp/servers.ts findByToken): these check that it is still
// refused as soon as it is deleted, and that the access token is still checked on every request.
const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const headers = (apiKey: string) => ({
  authorization: `Bearer ${apiKey}`,
  'x-inlay-userid': 'cache-alice',
  'mcp-protocol-version': '2025-11-25',
});

async function newServer(svc: Service, apiKey: string) {
  const r = await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'cached' } });
  expect(r.status).toBe(201);
  return r.body as { serverId: string; accessToken: string; url: string };
}

/** Two `tools/list`s on one node: the second reads the server from memory. */
async function warm(svc: Service, url: string, apiKey: string) {
  // Changes committed before (the server's creation, on any node) reach this node asynchronously; one arriving
  // between the two requests would rightly make the first one's entry stale.
  await svc.ctx.store.changes.sync();
  expect((await rawRpc(url, list, headers(apiKey))).status).toBe(200);
  const before = svc.ctx.reads.hits;
  expect((await rawRpc(url, list, headers(apiKey))).status).toBe(200);
  expect(svc.ctx.reads.hits).toBeGreaterThan(before);
}

/** The tool names a `tools/list` on `url` answers. */
async function toolNames(url: string, apiKey: string): Promise<string[]> {
  const r = await rawRpc(url, list, headers(apiKey));
  expect(r.status, r.text).toBe(200);
  return rpcMessages(r.text, r.headers.get('content-type'))[0].result.tools.map(
    (t: { name: string }) => t.name,
  );
}

/** Blocks one tool by name: `tools/list` then answers the nine others (a different tool-list cache key). */
const blockTool = (name: string) => ({ actions: { block: [name] } });

describe('an MCP server kept in memory', () => {
  let svc: Service;
  let s: Awaited<ReturnType<typeof seedAccount>>;
  beforeAll(async () => {
    svc = await startService();
    s = await seedAccount(svc, { username: 'cache-alice' });
  });
  afterAll(() => svc?.close());

  it('is refused on the very next request once deleted', async () => {
    const server = await newServer(svc, s.apiKey);
    await warm(svc, server.url, s.apiKey);
    expect((await svc.call('DELETE', `/mcp-servers/${server.serverId}`, { auth: s.apiKey })).status).toBe(
      200,
    );
    const r = await rawRpc(server.url, list, headers(s.apiKey));
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text).error.code).toBe(-32004);
  });

  it('lists what changed restrictions leave on the very next request', async () => {
    const server = await newServer(svc, s.apiKey);
    await warm(svc, server.url, s.apiKey);
    expect(await toolNames(server.url, s.apiKey)).toContain('run_workflow_inlay');
    const r = await svc.call('PATCH', `/mcp-servers/${server.serverId}`, {
      auth: s.apiKey,
      body: { restrictions: blockTool('run_workflow_inlay') },
    });
    expect(r.status, r.text).toBe(200);
    const after = await toolNames(server.url, s.apiKey);
    expect(after).not.toContain('run_workflow_inlay');
    expect(after).toHaveLength(9);
  });

  it('still checks the access token of every request', async () => {
    const server = await newServer(svc, s.apiKey);
    await warm(svc, server.url, s.apiKey);
    // One character changed (a token that already ends in x gets a y).
    const last = server.accessToken.endsWith('x') ? 'y' : 'x';
    const wrong = server.url.replace(server.accessToken, `${server.accessToken.slice(0, -1)}${last}`);
    expect((await rawRpc(wrong, list, headers(s.apiKey))).status).toBe(404);
    expect((await rawRpc(server.url, list, headers(s.apiKey))).status).toBe(200);
  });

  it('is refused after a deletion no Inlay process made', async () => {
    const server = await newServer(svc, s.apiKey);
    await warm(svc, server.url, s.apiKey);
    await svc.db.execute(q`delete from mcp_servers where id = ${server.serverId}::uuid`);
    await svc.ctx.store.changes.sync();
    expect((await rawRpc(server.url, list, headers(s.apiKey))).status).toBe(404);
  });
});

describe.skipIf(!onPostgres)(
  'an MCP server kept across API nodes (PostgreSQL only; skipped on PGlite)',
  () => {
    let a: Service;
    let b: Service;
    let sql: pg.Client;
    let s: Awaited<ReturnType<typeof seedAccount>>;
    beforeAll(async () => {
      [a, b] = await Promise.all([startService(), startService()]);
      sql = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await sql.connect();
      s = await seedAccount(a, { username: 'cache-alice' });
      await b.ctx.store.changes.sync();
    });
    afterAll(async () => {
      await sql?.end();
      await Promise.all([a?.close(), b?.close()]);
    });

    it("applies restrictions node A changed, or a plain SQL update, to node B's next request", async () => {
      for (const [tool, change] of [
        [
          'run_workflow_inlay',
          (id: string) =>
            a.call('PATCH', `/mcp-servers/${id}`, {
              auth: s.apiKey,
              body: { restrictions: blockTool('run_workflow_inlay') },
            }),
        ],
        [
          'proxy_request_inlay',
          (id: string) =>
            sql.query('update mcp_servers set restrictions = $2 where id = $1', [
              id,
              JSON.stringify(blockTool('proxy_request_inlay')),
            ]),
        ],
      ] as const) {
        const server = await newServer(a, s.apiKey);
        const onB = server.url.replace(a.url, b.url);
        await warm(b, onB, s.apiKey);
        expect(await toolNames(onB, s.apiKey)).toContain(tool);
        await change(server.serverId);
        await b.ctx.store.changes.sync();
        expect(await toolNames(onB, s.apiKey)).not.toContain(tool);
      }
    });

    it('is refused on node B once node A deleted it, and after a plain SQL delete', async () => {
      for (const remove of [
        (id: string) => a.call('DELETE', `/mcp-servers/${id}`, { auth: s.apiKey }),
        (id: string) => sql.query('delete from mcp_servers where id = $1', [id]),
      ]) {
        const server = await newServer(a, s.apiKey);
        const onB = server.url.replace(a.url, b.url);
        await warm(b, onB, s.apiKey);
        await remove(server.serverId);
        await b.ctx.store.changes.sync();
        expect((await rawRpc(onB, list, headers(s.apiKey))).status).toBe(404);
      }
    });
  },
);

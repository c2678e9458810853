import type { Server } from 'node:http';
import { connect } from 'node:net';
import { buildOpenApiDocument } from '@inlay/contract/openapi';
import { insertExecutions, installDirect, seedAccount } from '@inlay/test-kit/fixtures';
import { rawRpc } from '@inlay/test-kit/mcp';
import { expectProblem, type Service, sharedService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/app.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let ids: Record<string, string>;
let mcpUrl: string;

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc);
  const installationId = await installDirect(svc.db, s);
  const [executionId] = await insertExecutions(svc.db, s, 35);
  mcpUrl = (await svc.call('POST', '/mcp-servers', { auth: s.apiKey, body: { name: 'limits' } })).body.url;
  ids = {
    userId: s.userId,
    workflowId: s.workflowId,
    integrationId: s.integrationId,
    installationId,
    executionId: executionId!,
    credentialId: '00000000-0000-4000-8000-000000000000',
    serverId: '00000000-0000-4000-8000-000000000000',
    connector: 'slack',
    source: 'channels',
  };
});
afterAll(() => svc?.close());

const MB = 1024 * 1024;

describe('request size', () => {
  it('answers 413 problem+json to a REST body over 1 MB, and accepts one just under it', async () => {
    const big = JSON.stringify({ username: 'big', fullName: 'x'.repeat(MB) });
    expectProblem(
      await svc.call('POST', '/users', {
        auth: s.apiKey,
        rawBody: big,
        headers: { 'content-type': 'application/json' },
      }),
      413,
      'payload_too_large',
      'body',
      'max_size',
    );
    // Just under the limit is parsed (and then refused by the contract's own string maximum, not by size).
    const under = JSON.stringify({ username: 'big', fullName: 'x'.repeat(MB - 100) });
    const r = await svc.call('POST', '/users', {
      auth: s.apiKey,
      rawBody: under,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toContain('body.fullName');
  });

  it('answers 413 to an MCP message over 1 MB', async () => {
    const r = await rawRpc(
      mcpUrl,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(MB + 10) } }),
      { authorization: `Bearer ${s.apiKey}`, 'x-inlay-userid': 'alice' },
    );
    expect(r.status).toBe(413);
  });
});

/** Resolves `$ref`s of the OpenAPI document. */
function deref(doc: any, schema: any): any {
  if (schema?.$ref)
    return deref(
      doc,
      schema.$ref
        .split('/')
        .slice(1)
        .reduce((o: any, k: string) => o[k], doc),
    );
  return schema;
}

describe('maxima from the contract (read from the OpenAPI document, so new fields are covered)', () => {
  it('refuses every string, array and number one past its maximum, naming the field and the rule', async () => {
    const doc: any = buildOpenApiDocument(svc.url);
    const cases: string[] = [];
    const failures: string[] = [];
    /** One past the maximum, in the field's format so only the size can be wrong. */
    const overOf = (sch: any): unknown => {
      if (sch?.maxLength !== undefined) {
        const n = sch.maxLength + 1;
        if (sch.format === 'uri' || sch.format === 'url')
          return `https://a.example/${'x'.repeat(Math.max(1, n - 18))}`;
        if (sch.format === 'email') return `${'x'.repeat(Math.max(1, n - 10))}@a.example`;
        return 'x'.repeat(n);
      }
      if (sch?.maxItems !== undefined) return Array.from({ length: sch.maxItems + 1 }, () => ids.workflowId);
      if (sch?.maximum !== undefined) return sch.maximum + 1;
      return undefined;
    };
    const refused = (r: { status: number; body: any }, field: string) =>
      r.status === 400 &&
      r.body.errors?.some((e: { field: string; rule: string }) => e.field === field && e.rule === 'max');
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const url = path.replace(/\{(\w+)\}/g, (_, p: string) => ids[p] ?? 'x');
        const send = (query: string, body?: unknown) =>
          svc.call(method.toUpperCase(), `${url}${query}`, { auth: s.apiKey, body });
        for (const p of op.parameters ?? []) {
          const over = p.in === 'query' ? overOf(deref(doc, p.schema)) : undefined;
          if (over === undefined) continue;
          const r = await send(`?${p.name}=${encodeURIComponent(String(over))}`);
          cases.push(`${method} ${path} query.${p.name}`);
          if (!refused(r, `query.${p.name}`))
            failures.push(`${method} ${path} query.${p.name}: ${r.status} ${r.text.slice(0, 160)}`);
        }
        const body = deref(doc, op.requestBody?.content?.['application/json']?.schema);
        for (const [name, raw] of Object.entries<any>(body?.properties ?? {})) {
          const over = overOf(deref(doc, raw));
          if (over === undefined) continue;
          const r = await send('', { [name]: over });
          cases.push(`${method} ${path} body.${name}`);
          if (!refused(r, `body.${name}`))
            failures.push(`${method} ${path} body.${name}: ${r.status} ${r.text.slice(0, 160)}`);
        }
      }
    }
    console.log(`limits: ${cases.length} contract maxima checked one past the limit`);
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThan(10);
  });

  it('caps `limit` of the logs at 30 and says so', async () => {
    const logs = (q: string) =>
      svc.call('GET', `/workflows/${s.workflowId}/logs?userId=alice&${q}`, { auth: s.apiKey });
    const max = await logs('limit=30');
    expect(max.status).toBe(200);
    expect(max.body.data).toHaveLength(30);
    for (const bad of ['31', '1000000', '0', '-1', '1e3', 'ten']) {
      const r = await logs(`limit=${bad}`);
      expectProblem(r, 400, 'invalid_request', 'query.limit');
      expect(r.body.detail).toMatch(/30/);
    }
    expect((await logs('page=2&limit=30')).body.data).toHaveLength(5);
  });
});

describe('slow clients', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // The production listener, with a 1 s budget for the whole request.
    server = await listen(svc.app, 0, '127.0.0.1', 1_000);
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  /** Sends `head` then one more byte every 100 ms for up to 15 s; resolves with what the server did. */
  function trickle(head: string, drip: string) {
    return new Promise<{ closedAfterMs: number; reply: string; sent: number }>((resolve) => {
      const started = Date.now();
      const sock = connect(port, '127.0.0.1');
      let reply = '';
      let sent = 0;
      let timer: NodeJS.Timeout;
      const done = () => {
        clearInterval(timer);
        resolve({ closedAfterMs: Date.now() - started, reply, sent });
      };
      sock.on('data', (d) => (reply += d));
      sock.on('close', done);
      sock.on('error', () => {});
      sock.write(head);
      timer = setInterval(() => {
        if (Date.now() - started > 15_000) return sock.destroy();
        if (!sock.writable) return;
        sock.write(drip[sent % drip.length]!);
        sent++;
      }, 100);
    });
  }

  it('cuts off a client that sends its headers a byte at a time', { timeout: 30_000 }, async () => {
    const r = await trickle('GET /users HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'abcdefgh');
    expect(r.closedAfterMs).toBeLessThan(15_000);
    expect(r.reply).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts off a client that sends its body a byte at a time', { timeout: 30_000 }, async () => {
    const head = `POST /users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
    const r = await trickle(head, '{"username":"slow"');
    expect(r.closedAfterMs).toBeLessThan(15_000);
    expect(r.reply).toMatch(/^HTTP\/1\.1 (408|400)/);
    // Nothing was created from the half-sent body.
    const users = await svc.call('GET', '/users', { auth: s.apiKey });
    expect(users.body.data.map((u: { username: string }) => u.username)).not.toContain('slow');
  });
});

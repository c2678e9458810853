import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV2, rawRpc, rpcMessages } from '@inlay/test-kit/mcp';
import { providerEgress } from '@inlay/test-kit/providers';
import { type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INLINE_TEXT_BYTES, toolResult } from '../../src/mcp/result-cap.ts';
import { executionSteps } from '../../src/store/schema.ts';

const CAP = 1024 * 1024;
const HUGE = Buffer.from(JSON.stringify({ blob: 'x'.repeat(45 * 1024 * 1024) }));

/** A provider on 127.0.0.1: `/huge` answers 45 MB of JSON, `/hold` waits until released, `/fast` answers. */
let provider: Server;
let providerUrl: string;
const held: ServerResponse[] = [];
const seen: { path: string; headers: Record<string, unknown> }[] = [];

let svc: Service;
let url: string;
let aliceJwt: string;
let bobJwt: string;

beforeAll(async () => {
  provider = createServer((req, res) => {
    seen.push({ path: req.url!, headers: req.headers });
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': HUGE.length });
      res.end(HUGE);
    } else if (req.url === '/hold') held.push(res);
    else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    }
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  svc = await startService({
    env: {
      ...providerEgress({ url: providerUrl }),
      INLAY_MAX_STEP_OUTPUT_BYTES: String(CAP),
      INLAY_MCP_MAX_CONCURRENT_ACTIONS: '2',
    },
  });
  const { apiKey } = await svc.account();
  aliceJwt = await tokenFor(svc, apiKey, await createUser(svc, apiKey, 'alice'));
  bobJwt = await tokenFor(svc, apiKey, await createUser(svc, apiKey, 'bob'));
  url = (
    await svc.call('POST', '/mcp-servers', {
      auth: apiKey,
      body: { name: 'agent', restrictions: { connectors: { allow: ['http'] } } },
    })
  ).body.url;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  provider?.closeAllConnections();
  await new Promise((r) => provider?.close(r));
  await svc?.close();
});

const request = (path: string, extra: Record<string, unknown> = {}) => ({
  name: 'execute_action_inlay',
  arguments: {
    connectorId: 'http',
    actionId: 'request',
    parameters: { url: `${providerUrl}${path}`, ...extra },
  },
});

describe('the MCP result cap (INLAY_MAX_STEP_OUTPUT_BYTES)', () => {
  it('cuts a 45 MB provider body to the cap, the way the execution log does, and sends it once', async () => {
    const client = await connectV2(url, { authorization: `Bearer ${aliceJwt}` });
    const r = (await client.callTool(request('/huge'))) as any;
    await client.close();
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent;
    expect(out.truncated).toBe(true);
    expect(out.output).toMatchObject({
      truncated: true,
      marker: expect.stringContaining(`exceed the ${CAP - 1024}-byte limit`),
      originalBytes: expect.any(Number),
      preview: expect.stringMatching(/^\{"status":200,/),
    });
    expect(out.output.originalBytes).toBeGreaterThan(45 * 1024 * 1024);
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(CAP);
    // Not repeated in content: a note and a short preview.
    expect(r.content).toHaveLength(1);
    expect(r.content[0].text).toMatch(/is in structuredContent; it is not repeated here/);
    expect(Buffer.byteLength(r.content[0].text)).toBeLessThan(8 * 1024);
    // The execution log holds the same cut.
    const [step] = await svc.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionId, out.executionId));
    expect(step!.truncated).toBe(true);
    expect(JSON.stringify(step!.data)).toContain('"truncated":true');
    // The execution as a resource gets the same cap.
    const reader = await connectV2(url, { authorization: `Bearer ${aliceJwt}` });
    const res = await reader.readResource({ uri: `inlay://executions/${out.executionId}` });
    await reader.close();
    const text = (res.contents[0] as { text: string }).text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CAP);
    expect(JSON.parse(text)).toMatchObject({ truncated: true, originalBytes: expect.any(Number) });
  });

  it('keeps the whole HTTP response under the cap plus its envelope', async () => {
    const raw = await rawRpc(
      url,
      JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'tools/call', params: request('/huge') }),
      { authorization: `Bearer ${aliceJwt}`, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(raw.status).toBe(200);
    expect(Buffer.byteLength(raw.text)).toBeLessThan(CAP + 16 * 1024);
    const [msg] = rpcMessages(raw.text, raw.headers.get('content-type'));
    expect(msg.result.structuredContent.output.truncated).toBe(true);
  });

  it('repeats a small result as text, sends a mid-size one once, and refuses one that cannot be cut', () => {
    const small = toolResult({ a: 1 }, CAP);
    expect(JSON.parse(small.content[0]!.text)).toEqual(small.structuredContent);
    const mid = toolResult({ text: 'y'.repeat(INLINE_TEXT_BYTES) }, CAP);
    expect(mid.structuredContent).toEqual({ text: 'y'.repeat(INLINE_TEXT_BYTES) });
    expect(mid.content[0]!.text.length).toBeLessThan(5 * 1024);
    const big = { rows: Array.from({ length: 3 }, () => 'z'.repeat(CAP)) };
    const refused = toolResult(big, CAP);
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain(`over the ${CAP}-byte cap (INLAY_MAX_STEP_OUTPUT_BYTES)`);
    const fitted = toolResult(big, CAP, (o, max) => ({ rows: o.rows.map((r) => r.slice(0, max / 8)) }));
    expect(fitted.isError).toBeUndefined();
    expect((fitted.structuredContent as typeof big).rows[0]).toHaveLength(CAP / 8);
  });
});

describe('the per-user limit on execute_action_inlay (INLAY_MCP_MAX_CONCURRENT_ACTIONS)', () => {
  it('refuses a call over the limit at once, per user, and frees the slot when a call ends', async () => {
    const alice = await connectV2(url, { authorization: `Bearer ${aliceJwt}` });
    const bob = await connectV2(url, { authorization: `Bearer ${bobJwt}` });
    const before = held.length;
    const slow = [alice.callTool(request('/hold')), alice.callTool(request('/hold'))];
    await expect.poll(() => held.length, { timeout: 20_000 }).toBe(before + 2);

    const over = (await alice.callTool(request('/fast'))) as any;
    expect(over.isError).toBe(true);
    expect(over.content[0].text).toMatch(
      /Too many execute_action_inlay and proxy_request_inlay calls in flight for this user: the limit is 2 at a time \(INLAY_MCP_MAX_CONCURRENT_ACTIONS\)/,
    );
    // Another user has slots of their own.
    const other = (await bob.callTool(request('/fast'))) as any;
    expect(other.isError).toBeFalsy();
    expect(other.structuredContent.output.body).toEqual({ ok: true });

    for (const res of held.splice(before)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"held":true}');
    }
    for (const r of (await Promise.all(slow)) as any[]) {
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent.output.body).toEqual({ held: true });
    }
    const again = (await alice.callTool(request('/fast'))) as any;
    expect(again.isError).toBeFalsy();
    await alice.close();
    await bob.close();
  });

  it('frees the slot when the action fails', async () => {
    const alice = await connectV2(url, { authorization: `Bearer ${aliceJwt}` });
    for (let i = 0; i < 3; i++) {
      const r = (await alice.callTool(request('/fast', { headers: { host: 'evil.example' } }))) as any;
      expect(r.isError).toBe(true);
    }
    const ok = (await alice.callTool(request('/fast'))) as any;
    expect(ok.isError).toBeFalsy();
    await alice.close();
  });
});

describe('http.request headers an agent may not set', () => {
  it.each([
    'host',
    'Content-Length',
    'transfer-encoding',
    'connection',
    'upgrade',
    'te',
    'trailer',
    'proxy-authorization',
    'Proxy-Connection',
  ])('refuses %s before any request is sent', async (name) => {
    const client = await connectV2(url, { authorization: `Bearer ${aliceJwt}` });
    const count = seen.length;
    const r = (await client.callTool(request('/fast', { headers: { [name]: '0' } }))) as any;
    await client.close();
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain('may not be set');
    expect(r.content[0].text).toContain(name);
    expect(seen.length).toBe(count);
  });
});

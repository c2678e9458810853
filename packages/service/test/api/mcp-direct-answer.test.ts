// A plain `tools/list` or `ping` is answered without the SDK (src/mcp/direct-answer.ts). Its answer must be the
// SDK's own, byte for byte with the same status and headers, and every other request must still reach the SDK.
import type { McpRestrictions } from '@inlay/contract';
import { seedAccount } from '@inlay/test-kit/fixtures';
import { connectV1, connectV2 } from '@inlay/test-kit/mcp';
import { type Service, startService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/tools.ts';

// Two services: `direct` as deployed, `sdk` with every request through the SDK.
let direct: Service;
let sdk: Service;
const keys = new Map<Service, Awaited<ReturnType<typeof seedAccount>>>();

beforeAll(async () => {
  direct = await startService();
  sdk = await startService({ mcpSdkOnly: true });
  for (const svc of [direct, sdk]) keys.set(svc, await seedAccount(svc));
});
afterAll(async () => {
  await direct?.close();
  await sdk?.close();
});

async function serverOn(svc: Service, restrictions: McpRestrictions) {
  const s = keys.get(svc)!;
  const r = await svc.call('POST', '/mcp-servers', {
    auth: s.apiKey,
    body: { name: 'agents', restrictions },
  });
  expect(r.status).toBe(201);
  return {
    url: r.body.url as string,
    auth: { authorization: `Bearer ${s.apiKey}`, 'x-inlay-userid': s.userId },
  };
}

/** Status, every header but the per-response `date` and `x-request-id`, and the body as bytes. */
async function answer(url: string, headers: Record<string, string>, body: string) {
  const res = await fetch(url, { method: 'POST', headers, body });
  const h = Object.fromEntries(
    [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id'),
  );
  return { status: res.status, headers: h, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
}

const BOTH = 'application/json, text/event-stream';
const json = { 'content-type': 'application/json' };
const rpc = (id: unknown, method = 'tools/list', extra: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...extra });

// [label, headers beyond auth, body]
type Case = [string, Record<string, string>, string];

const plain: Case[] = [];
for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', undefined])
  for (const accept of [BOTH, 'text/event-stream, application/json;q=0.9'])
    for (const id of ['list', 7, 0, -3, 'ünï "quoted" \\ id'])
      for (const method of ['tools/list', 'ping'])
        plain.push([
          `${method} ${version ?? 'no version'} ${accept} id ${JSON.stringify(id)}`,
          { ...json, accept, ...(version ? { 'mcp-protocol-version': version } : {}) },
          rpc(id, method),
        ]);
plain.push([
  'charset in content-type',
  { 'content-type': 'application/json; charset=utf-8', accept: BOTH },
  rpc(1),
]);

const v = { 'mcp-protocol-version': '2025-11-25' };
const unusual: Case[] = [
  ['Accept without text/event-stream', { ...json, ...v, accept: 'application/json' }, rpc(1)],
  ['Accept */*', { ...json, ...v, accept: '*/*' }, rpc(1)],
  ['no Accept', { ...json, ...v }, rpc(1)],
  ['text/plain body', { 'content-type': 'text/plain', accept: BOTH, ...v }, rpc(1)],
  ['unsupported protocol version', { ...json, accept: BOTH, 'mcp-protocol-version': '1999-01-01' }, rpc(1)],
  [
    '2026-07-28 header without envelope',
    { ...json, accept: BOTH, 'mcp-protocol-version': '2026-07-28' },
    rpc(1),
  ],
  ['cursor', { ...json, accept: BOTH, ...v }, rpc(1, 'tools/list', { params: { cursor: 'x' } })],
  ['empty params', { ...json, accept: BOTH, ...v }, rpc(1, 'tools/list', { params: {} })],
  ['params not an object', { ...json, accept: BOTH, ...v }, rpc(1, 'tools/list', { params: 3 })],
  ['null id', { ...json, accept: BOTH, ...v }, rpc(null)],
  ['fractional id', { ...json, accept: BOTH, ...v }, rpc(1.5)],
  [
    'jsonrpc 1.0',
    { ...json, accept: BOTH, ...v },
    JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' }),
  ],
  [
    'a notification',
    { ...json, accept: BOTH, ...v },
    JSON.stringify({ jsonrpc: '2.0', method: 'tools/list' }),
  ],
  ['a batch', { ...json, accept: BOTH, ...v }, `[${rpc(1)},${rpc(2, 'ping')}]`],
  ['an extra member', { ...json, accept: BOTH, ...v }, rpc(1, 'tools/list', { extra: true })],
  ['another method', { ...json, accept: BOTH, ...v }, rpc(1, 'prompts/list')],
  ['not JSON', { ...json, accept: BOTH, ...v }, '{"jsonrpc":'],
];

describe('a direct answer', () => {
  const restrictionSets: [string, McpRestrictions][] = [
    ['no restrictions', {}],
    ['tools allowed by name', { actions: { allow: ['list_connectors_inlay', 'proxy_request_inlay'] } }],
    ['tools blocked by name', { actions: { block: ['run_workflow_inlay'] } }],
    ['every tool blocked', { actions: { block: TOOLS.map((t) => t.name) } }],
  ];

  it.each(restrictionSets)('is the SDK’s answer, byte for byte (%s)', async (_label, restrictions) => {
    const [a, b] = [await serverOn(direct, restrictions), await serverOn(sdk, restrictions)];
    for (const [label, headers, body] of [...plain, ...unusual]) {
      const ours = await answer(a.url, { ...a.auth, ...headers }, body);
      const theirs = await answer(b.url, { ...b.auth, ...headers }, body);
      expect({ label, ...ours }).toEqual({ label, ...theirs });
    }
  });

  it('lists the tools to real clients of both eras, and answers their ping', async () => {
    const { url, auth } = await serverOn(direct, { actions: { block: ['run_workflow_inlay'] } });
    const names = TOOLS.map((t) => t.name).filter((n) => n !== 'run_workflow_inlay');
    const v1 = await connectV1(url, auth);
    expect((await v1.client.listTools()).tools.map((t) => t.name)).toEqual(names);
    expect(await v1.client.ping()).toEqual({});
    await v1.client.close();
    const v2 = await connectV2(url, auth);
    expect((await v2.listTools()).tools.map((t) => t.name)).toEqual(names);
    await v2.close();
  });

  it('comes after the endpoint’s own checks', async () => {
    const { url } = await serverOn(direct, {});
    const r = await answer(url, { ...json, accept: BOTH }, rpc(1));
    expect(r.status).toBe(401);
    const wrong = await answer(url.replace(/\/[^/]+$/, '/not-the-token'), { ...json, accept: BOTH }, rpc(1));
    expect(wrong.status).toBe(404);
  });
});

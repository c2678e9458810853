// Which requests `directAnswer` takes: mcp-direct-answer.test.ts proves its bytes equal the SDK's, which would
// also hold if it never answered; this pins that a plain `tools/list` or `ping` is answered here, in one write,
// and that anything else is left to the SDK with nothing written. Stand-in request and response objects.
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { directAnswer } from '../../src/mcp/direct-answer.ts';
import { Restrictions } from '../../src/mcp/restrictions.ts';

const ACCEPT = 'application/json, text/event-stream';

function request(headers: Record<string, string>, method = 'POST') {
  const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { method, get: (name: string) => h[name.toLowerCase()] } as unknown as Request;
}

function response() {
  const out = { status: 0, headers: {} as Record<string, string>, body: '', writes: 0 };
  const res = {
    headersSent: false,
    writeHead(status: number, headers: Record<string, string>) {
      out.status = status;
      out.headers = headers;
      return res;
    },
    end(chunk: Buffer) {
      out.writes++;
      out.body = chunk.toString('utf8');
      return res;
    },
  };
  return { res: res as unknown as Response, out };
}

const json = { 'content-type': 'application/json', accept: ACCEPT };
const all = new Restrictions({});

describe('directAnswer', () => {
  it('answers a plain tools/list with the visible tools in one event-stream write, echoing the id', () => {
    const { res, out } = response();
    expect(directAnswer(request(json), res, { jsonrpc: '2.0', id: 'a"1', method: 'tools/list' }, all)).toBe(
      true,
    );
    expect(out.status).toBe(200);
    expect(out.headers['content-type']).toBe('text/event-stream');
    expect(out.writes).toBe(1);
    const data = JSON.parse(/^event: message\ndata: (.*)\n\n$/s.exec(out.body)![1]!);
    expect(data.id).toBe('a"1');
    expect(data.jsonrpc).toBe('2.0');
    expect(data.result.tools.length).toBeGreaterThan(0);
    expect(data.result.tools.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['list_connectors_inlay', 'run_workflow_inlay']),
    );
  });

  it('hides tools the restrictions block, and answers ping with an empty result', () => {
    const blocked = new Restrictions({ actions: { block: ['run_workflow_inlay'] } });
    const list = response();
    expect(
      directAnswer(request(json), list.res, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, blocked),
    ).toBe(true);
    const names = JSON.parse(list.out.body.split('data: ')[1]!).result.tools.map(
      (t: { name: string }) => t.name,
    );
    expect(names).not.toContain('run_workflow_inlay');
    const ping = response();
    expect(directAnswer(request(json), ping.res, { jsonrpc: '2.0', id: 0, method: 'ping' }, all)).toBe(true);
    expect(ping.out.body).toBe('event: message\ndata: {"result":{},"jsonrpc":"2.0","id":0}\n\n');
  });

  it.each([
    ['a cursor', json, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'x' } }],
    ['another method', json, { jsonrpc: '2.0', id: 1, method: 'tools/call' }],
    ['a notification', json, { jsonrpc: '2.0', method: 'tools/list' }],
    ['a batch', json, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]],
    ['a fractional id', json, { jsonrpc: '2.0', id: 1.5, method: 'tools/list' }],
    ['JSON-only Accept', { ...json, accept: 'application/json' }, { jsonrpc: '2.0', id: 1, method: 'ping' }],
    ['a text body', { ...json, 'content-type': 'text/plain' }, { jsonrpc: '2.0', id: 1, method: 'ping' }],
    [
      'the 2026 revision',
      { ...json, 'mcp-protocol-version': '2026-07-28' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
    ],
    [
      'an unknown revision',
      { ...json, 'mcp-protocol-version': '1999-01-01' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
    ],
  ])('leaves %s to the SDK, writing nothing', (_, headers, body) => {
    const { res, out } = response();
    expect(directAnswer(request(headers), res, body, all)).toBe(false);
    expect(out.writes).toBe(0);
    expect(out.status).toBe(0);
  });
});

import { isJsonContentType, type ListToolsResult } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { MCP_PROTOCOL_VERSIONS } from './protocol-versions.ts';
import type { Restrictions } from './restrictions.ts';
import { toolList } from './tool-list.ts';
import { TOOLS } from './tools.ts';

/*
 * `tools/list` and `ping` are the same bytes for every request with the same visible tools, yet the SDK's
 * stateless handler builds a server, a transport and an event stream to answer each (~0.9 ms of CPU). For the
 * plain form of those two requests, which the SDK (2.4, `createMcpHandler` with `legacy: 'stateless'`) can
 * only answer with 200, this writes its answer directly. Anything else, including every request the SDK
 * would refuse, goes to the SDK, which stays the authority for errors. mcp-direct-answer.test.ts compares the
 * two byte for byte, headers included.
 */

// Served by the SDK's 2025-era stateless fallback: a modern revision (2026-07-28) in the header, or none that
// the server supports, goes to the SDK (the modern path, or its 400). No header is 2025 too.
const LEGACY_VERSIONS: ReadonlySet<string> = new Set(MCP_PROTOCOL_VERSIONS.filter((v) => v < '2026'));

// As `WebStandardStreamableHTTPServerTransport` answers a POST, in the order `toNodeHandler` writes them
// (a Headers object iterates sorted, lowercased); no Content-Length, so the same chunked framing.
const SSE_HEADERS = {
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'content-type': 'text/event-stream',
  'x-accel-buffering': 'no',
};

/** What the SDK reads before it dispatches, and accepts for these requests: else `undefined`. */
function plainRequest(req: Request, body: unknown): { id: string | number; method: string } | undefined {
  if (req.method !== 'POST' || !isJsonContentType(req.get('content-type'))) return;
  // The transport's own test: both media types named anywhere in Accept (a substring check).
  const accept = req.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return;
  const version = req.get('mcp-protocol-version');
  if (version !== undefined && !LEGACY_VERSIONS.has(version)) return;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const { jsonrpc, id, method, ...rest } = body as Record<string, unknown>;
  // No params at all: a cursor, `_meta` (a 2026 envelope claim, a progress token) or anything else is the SDK's.
  if (jsonrpc !== '2.0' || Object.keys(rest).length > 0) return;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return;
  if (method !== 'tools/list' && method !== 'ping') return;
  return { id: id as string | number, method };
}

// The SDK's response is `{"result":…,"jsonrpc":"2.0","id":…}` in one SSE `message` event; the part before
// the id is kept per result object (the tool lists are cached and frozen, so a WeakMap key per visible set).
const heads = new WeakMap<object, Buffer>();
const PING: object = Object.freeze({});
const TAIL = Buffer.from('}\n\n');

function head(result: object): Buffer {
  let h = heads.get(result);
  if (!h) {
    h = Buffer.from(`event: message\ndata: {"result":${JSON.stringify(result)},"jsonrpc":"2.0","id":`);
    heads.set(result, h);
  }
  return h;
}

/**
 * Answers a plain `tools/list` or `ping` from bytes kept per visible tool set, in one write, after the
 * endpoint's own checks (host, server, origin, bearer, user) passed. Returns false, having written nothing,
 * for any other request.
 */
export function directAnswer(
  req: Request,
  res: Response,
  body: unknown,
  restrictions: Restrictions,
): boolean {
  const rpc = plainRequest(req, body);
  if (!rpc || res.headersSent) return false;
  let result: ListToolsResult | object = PING;
  if (rpc.method === 'tools/list') {
    const visible = TOOLS.filter((t) => restrictions.tool(t.name));
    // No tool visible: the SDK answers "method not found".
    if (visible.length === 0) return false;
    result = toolList(visible);
  }
  res.writeHead(200, SSE_HEADERS);
  res.end(Buffer.concat([head(result), Buffer.from(JSON.stringify(rpc.id)), TAIL]));
  return true;
}

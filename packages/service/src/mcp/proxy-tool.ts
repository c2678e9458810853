import { PROXY_METHODS } from '@inlay/contract';
import { z } from 'zod';
import { HttpProblem } from '../http/problem.ts';
import { isProxyable, sendProxy } from '../proxy/proxy-call.ts';
import { forwardedRequestHeaders, returnedResponseHeaders } from '../proxy/proxy-headers.ts';
import { type McpSession, requireUser, ToolFailure } from './session.ts';

export const ProxyToolInput = z.object({
  connectorId: z
    .string()
    .min(1)
    .max(64)
    .describe('Machine name of the connector, e.g. `github` (from list_connectors_inlay)'),
  method: z.enum(PROXY_METHODS).describe('HTTP method'),
  path: z.string().min(1).max(2048).describe("Path below the connector's base URL, e.g. `/user/repos`"),
  query: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .optional()
    .describe('Query parameters'),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .describe('Extra request headers (Accept, API versions)'),
  // Typed, as every input property of a Tool must be: a JSON object here, anything else as text.
  body: z.record(z.string(), z.unknown()).optional().describe('A JSON object body (POST, PUT, PATCH)'),
  bodyText: z
    .string()
    .optional()
    .describe('A body sent as it is (a JSON array, form data, XML); set content-type in headers'),
  api: z.string().max(64).optional().describe("One of the connector's named APIs instead of its base URL"),
  credentialId: z
    .uuid()
    .optional()
    .describe("Defaults to x-credential-id, else the user's only connected credential for the connector"),
});

export const ProxyToolOutput = z.object({
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.unknown(),
  truncated: z.boolean().optional(),
});

/**
 * `proxy_request_inlay`: one call to any endpoint of a connector the server's restrictions allow, as the
 * user. The answer is read up to the result cap; JSON is parsed, anything else is returned as text.
 */
export async function proxyTool(
  s: McpSession,
  a: z.output<typeof ProxyToolInput>,
): Promise<z.output<typeof ProxyToolOutput>> {
  const u = requireUser(s);
  const def = s.ctx.connectors.get(a.connectorId);
  if (!def || !isProxyable(def) || !s.restrictions.connector(def.id))
    throw new ToolFailure(
      `Unknown connector "${a.connectorId}". Call list_connectors_inlay to see the available ones.`,
    );
  // The server's action lists bind the proxy too (Restrictions.proxy): it can reach what any action can.
  if (!s.restrictions.proxy(def.id))
    throw new ToolFailure(
      `This MCP server does not allow proxied requests to ${def.name}. Its restrictions must allow "${def.id}.proxy".`,
    );
  if (a.api !== undefined && !Object.hasOwn(def.apis ?? {}, a.api))
    throw new ToolFailure(`Connector "${def.id}" has no API named "${a.api}".`);
  const headers = forwardedRequestHeaders(a.headers ?? {});
  if (a.body !== undefined && a.bodyText !== undefined)
    throw new ToolFailure('Send either body (a JSON object) or bodyText, not both.');
  let body: Buffer | undefined;
  if (a.bodyText !== undefined) body = Buffer.from(a.bodyText);
  else if (a.body !== undefined) {
    body = Buffer.from(JSON.stringify(a.body));
    headers['content-type'] ??= 'application/json';
  }
  const query = Object.fromEntries(Object.entries(a.query ?? {}).map(([k, v]) => [k, [v].flat()]));
  const cap = s.ctx.config.maxStepOutputBytes;
  // Held until the answer is read: a user's proxied answers in memory are at most the limit × the cap.
  const release = await s.ports.proxySlot(u);
  try {
    const res = await sendProxy(s.ctx, { accountId: u.accountId, id: u.user.id }, def, {
      method: a.method,
      path: a.path,
      api: a.api,
      query,
      headers,
      body,
      credentialId: a.credentialId ?? s.credentialId,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      chunks.push(chunk as Buffer);
      if (size > cap) {
        truncated = true;
        res.body.destroy();
        break;
      }
    }
    const text = Buffer.concat(chunks).subarray(0, cap).toString('utf8');
    s.ctx.proxyMetrics.record(u.accountId, def.id, res.status >= 500, size);
    return {
      status: res.status,
      headers: returnedResponseHeaders(res.headers),
      body: truncated ? text : parse(text, res.headers['content-type']),
      ...(truncated ? { truncated } : {}),
    };
  } catch (err) {
    if (err instanceof HttpProblem) {
      s.ctx.proxyMetrics.record(u.accountId, def.id, true, 0);
      throw new ToolFailure(err.message);
    }
    throw err;
  } finally {
    release();
  }
}

function parse(text: string, type = ''): unknown {
  if (text === '') return null;
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

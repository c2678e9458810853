import { jsonTextTooDeep } from '@inlay/contract';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Request, RequestHandler, Response } from 'express';
import { loadSettings } from '../accounts/settings.ts';
import type { AppContext } from '../context.ts';
import { type Authenticator, bearer } from '../http/auth.ts';
import { isUnavailable } from '../http/error-handler.ts';
import { tooDeep } from '../http/json-body.ts';
import { forbidden } from '../http/problem.ts';
import { isUuid } from '../http/validate.ts';
import { lookUpUser } from '../users/resolve-user.ts';
import type { UserRow } from '../users/users.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import { directAnswer } from './direct-answer.ts';
import { buildMcpServer } from './factory.ts';
import { hostProblem, originProblem, originRules } from './request-origin.ts';
import { Restrictions } from './restrictions.ts';
import { findByToken } from './servers.ts';
import type { McpPorts, McpSession } from './session.ts';

export const MCP_MAX_BODY = 1024 * 1024;

/** HTTP-level refusals still answer in JSON-RPC, so MCP clients can read them. */
function rpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  res
    .status(status)
    .set(headers)
    .type('application/json')
    .send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/**
 * A refused `Host` or `Origin`: 403 as the MCP specification requires, as a problem+json that also carries
 * the JSON-RPC error envelope, so both an HTTP client and an MCP client can read why.
 */
function refuse(res: Response, detail: string) {
  // No `instance`: the path holds the server's access token.
  const body = forbidden(detail).toBody();
  res
    .status(403)
    .type('application/problem+json')
    .send(JSON.stringify({ ...body, jsonrpc: '2.0', id: null, error: { code: FORBIDDEN, message: detail } }));
}

/**
 * Reads a JSON POST body for the SDK, so that a body nested deeper than MAX_JSON_DEPTH is refused with a
 * 400 (problem+json with the JSON-RPC envelope) before anything walks it. Answers the request itself and
 * returns `done` when the body is refused; otherwise the parsed body (undefined: the SDK reads the stream).
 */
async function readRpcBody(req: Request, res: Response): Promise<{ body?: unknown } | 'done'> {
  if (req.method !== 'POST' || !req.is('application/json')) return {};
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MCP_MAX_BODY) {
      rpcError(res, 413, INVALID_REQUEST, `The request body exceeds ${MCP_MAX_BODY} bytes`);
      return 'done';
    }
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  if (jsonTextTooDeep(raw)) {
    const problem = tooDeep();
    res
      .status(400)
      .type('application/problem+json')
      .send(
        JSON.stringify({
          ...problem.toBody(),
          jsonrpc: '2.0',
          id: null,
          error: { code: INVALID_REQUEST, message: problem.message },
        }),
      );
    return 'done';
  }
  try {
    return { body: JSON.parse(raw.toString('utf8')) };
  } catch {
    rpcError(res, 400, PARSE_ERROR, 'Parse error: the body is not valid JSON');
    return 'done';
  }
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const FORBIDDEN = -32005;
const UNAUTHORIZED = -32001;
const NOT_FOUND = -32004;
const INVALID_PARAMS = -32602;
const UNAVAILABLE = -32003;

// Through the read cache, as the REST API looks users up: an id wins over a username that looks like it.
const byId = (ctx: AppContext, accountId: string, id: string) =>
  lookUpUser(ctx, { accountId, id: id.toLowerCase(), username: null });

async function userFor(ctx: AppContext, req: Request, accountId: string, principalUser?: string) {
  if (principalUser) return { user: await byId(ctx, accountId, principalUser) };
  const token = req.get('x-inlay-user-token');
  if (token) {
    const claims = await ctx.tokens.verify(token);
    if (!claims || claims.accountId !== accountId)
      return { error: 'x-inlay-user-token is not a valid user token of this account' };
    return { user: await byId(ctx, accountId, claims.userId) };
  }
  const ref = req.get('x-inlay-userid');
  if (ref) {
    const user = await lookUpUser(ctx, {
      accountId,
      id: isUuid(ref) ? ref.toLowerCase() : null,
      username: ref,
    });
    return user ? { user } : { missing: true };
  }
  return {};
}

/**
 * `POST /mcp/{serverId}/{accessToken}`: checks the URL, the bearer and the user, then hands over to the MCP SDK
 * (a plain `tools/list` or `ping` is answered directly, see direct-answer.ts; `sdkOnly` turns that off, for
 * the tests that compare the two).
 */
export function mcpEndpoint(
  ctx: AppContext,
  auth: Authenticator,
  defs: DefinitionCache,
  ports: McpPorts,
  opts: { sdkOnly?: boolean } = {},
): RequestHandler {
  const rules = originRules(ctx.config);
  // The account's own allowed origins (`PUT /settings {allowedOrigins}`), read only when an Origin is sent.
  const accountOrigins = async (accountId: string) =>
    (await loadSettings(ctx.db, accountId))?.allowedOrigins ?? [];
  const handler = createMcpHandler((rc) => buildMcpServer(rc.authInfo?.extra?.session as McpSession), {
    legacy: 'stateless',
    maxRequestBodySize: MCP_MAX_BODY,
    onerror: (err) => ctx.logger.debug({ err: err.message }, 'MCP request rejected'),
  });
  ctx.onClose(() => handler.close());
  const serve = toNodeHandler(handler, {
    maxRequestBodySize: MCP_MAX_BODY,
    onerror: (err) => ctx.logger.error({ err }, 'MCP adapter error'),
  });

  const handle = async (req: Request, res: Response) => {
    // Against DNS rebinding: checked before anything else, so a rebound page learns nothing.
    const badHost = hostProblem(req, rules);
    if (badHost) return refuse(res, badHost);
    const { serverId, accessToken } = req.params as { serverId: string; accessToken: string };
    const server = isUuid(serverId) ? await findByToken(ctx, serverId.toLowerCase(), accessToken) : undefined;
    if (!server) return rpcError(res, 404, NOT_FOUND, 'No MCP server at this URL');
    const origin = req.get('origin');
    const badOrigin =
      origin === undefined ? undefined : originProblem(origin, rules, await accountOrigins(server.accountId));
    if (badOrigin) return refuse(res, badOrigin);

    const principal = await auth.resolve(bearer(req.headers.authorization));
    if (!principal || principal.accountId !== server.accountId)
      return rpcError(
        res,
        401,
        UNAUTHORIZED,
        'Send Authorization: Bearer <API key or user JWT> of this server’s account',
        {
          'www-authenticate': 'Bearer realm="inlay-mcp"',
        },
      );

    const found = await userFor(
      ctx,
      req,
      server.accountId,
      principal.kind === 'user' ? principal.userId : undefined,
    );
    if ('error' in found) return rpcError(res, 401, UNAUTHORIZED, found.error as string);
    if ('missing' in found)
      return rpcError(res, 404, NOT_FOUND, 'x-inlay-userid names no user of this account');
    if (principal.kind === 'user' && !found.user)
      return rpcError(res, 401, UNAUTHORIZED, 'The user of this token no longer exists');

    const credentialId = req.get('x-credential-id');
    if (credentialId !== undefined && !isUuid(credentialId))
      return rpcError(res, 400, INVALID_PARAMS, 'x-credential-id must be a UUID');
    const redirectUri = req.get('x-redirect-uri');
    // http(s) only: a `javascript:` redirect would run in Inlay's callback page. The account's allowed
    // origins are checked when a flow starts (create_credential_inlay).
    if (redirectUri !== undefined && !/^https?:$/.test(URL.parse(redirectUri)?.protocol ?? ''))
      return rpcError(res, 400, INVALID_PARAMS, 'x-redirect-uri must be an absolute http(s) URL');

    const restrictions = new Restrictions(server.restrictions as never);
    const read = await readRpcBody(req, res);
    if (read === 'done') return;
    // Before the session is built: a tool list needs neither the account's connectors nor the SDK.
    if (!opts.sdkOnly && directAnswer(req, res, read.body, restrictions)) return;

    const session: McpSession = {
      // Tools, resources and prompts name connectors: the account's own ones are among them.
      ctx: { ...ctx, connectors: await ctx.registry.forAccount(server.accountId) },
      defs,
      ports,
      server,
      accountId: server.accountId,
      user: found.user as UserRow | undefined,
      credentialId: credentialId?.toLowerCase(),
      redirectUri,
      restrictions,
    };
    (req as Request & { auth?: unknown }).auth = {
      token: 'bearer',
      clientId: server.id,
      scopes: [],
      extra: { session },
    };
    await serve(req, res, read.body);
  };

  return async (req, res, next) => {
    try {
      await handle(req, res);
    } catch (err) {
      // A database outage still answers in JSON-RPC, with the same Retry-After as the REST API.
      if (!isUnavailable(err) || res.headersSent) return next(err);
      rpcError(res, 503, UNAVAILABLE, 'The service is temporarily unavailable; retry shortly', {
        'retry-after': '5',
      });
    }
  };
}

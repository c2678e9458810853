import { pipeline } from 'node:stream/promises';
import type { HttpMethod, StreamedResponse } from '@inlay/connectors';
import { operations as ops, proxiedContentHeaders } from '@inlay/contract';
import express, { type Request, type RequestHandler, Router } from 'express';
import type { AppContext } from '../context.ts';
import { type Authenticator, accountOf, authenticate } from '../http/auth.ts';
import { HttpProblem, invalid, notFound } from '../http/problem.ts';
import { type RouteHandler, route } from '../http/route.ts';
import type { Limiters } from '../ratelimit/limiters.ts';
import { limitProxy } from '../ratelimit/rate-limit.ts';
import { proxySpan } from '../tracing/proxy-span.ts';
import { tracing } from '../tracing/tracing.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { isProxyable, sendProxy } from './proxy-call.ts';
import { CREDENTIAL_HEADER } from './proxy-credential.ts';
import { forwardedRequestHeaders, returnedResponseHeaders } from './proxy-headers.ts';
import type { ProxyMetrics } from './proxy-metrics.ts';

export const PROXY_MAX_REQUEST_MB = 10;
/** Query parameters that steer the proxy itself and are not forwarded. */
const CONTROL_PARAMS = ['userId', 'api'];

/** The request body as bytes, whatever its type: the proxy forwards JSON, forms and files alike. Its 413 names
 * this limit (the error handler reads it off the parser's error). */
const rawBody: RequestHandler = express.raw({ type: () => true, limit: `${PROXY_MAX_REQUEST_MB}mb` });

/** The provider path and query of the call, as the caller wrote them (percent-encoding kept). */
function upstreamTarget(req: Request): { path: string; query: Record<string, string[]> } {
  const [rawPath = '', search = ''] = req.originalUrl.split('?', 2) as [string, string?];
  const path = /^\/connectors\/[^/]+\/proxy(\/.*)$/.exec(rawPath)?.[1] ?? '/';
  // No prototype: a caller's `__proto__` or `constructor` parameter is a key like any other.
  const query: Record<string, string[]> = Object.create(null);
  for (const [k, v] of new URLSearchParams(search)) {
    if (CONTROL_PARAMS.includes(k)) continue;
    query[k] = [...(query[k] ?? []), v];
  }
  return { path, query };
}

/**
 * `GET|POST|PUT|PATCH|DELETE /connectors/{connector}/proxy/{path…}`: sends the call to the provider as the
 * user, with the credential inserted here (the caller never holds it), and streams the answer back.
 * Mounted before the JSON body parser: the body is forwarded as bytes.
 */
export function proxyRoutes(
  ctx: AppContext,
  auth: Authenticator,
  limiters: Limiters,
  metrics: ProxyMetrics,
): Router {
  const r = Router();
  const handler: RouteHandler<(typeof ops)['proxyGet']> = async (req, res) => {
    const connector = String(req.params.connector);
    const def = (await ctx.registry.forAccount(req.principal!.accountId)).get(connector);
    if (!def || !isProxyable(def)) throw notFound('Connector');
    const userId = typeof req.query.userId === 'string' ? req.query.userId : undefined;
    const api = req.query.api;
    if (api !== undefined && (typeof api !== 'string' || !Object.hasOwn(def.apis ?? {}, api)))
      throw invalid(
        'query.api',
        'enum',
        `must name one of ${def.id}'s APIs: ${Object.keys(def.apis ?? {}).join(', ') || 'none'}`,
      );
    const user = await resolveUser(ctx, req, userId);
    await limitProxy(limiters, user, ctx.config.rateLimit.windowSeconds, res);
    const { path, query } = upstreamTarget(req);
    const started = Date.now();
    const span = tracing ? proxySpan(def.id, req.method) : undefined;
    res.once('close', () => span?.end());
    const used: { credentialId?: string } = {};
    const logCall = (status: number | undefined, bytes: number) =>
      ctx.providerCalls.record(
        {
          accountId: user.accountId,
          userId: user.id,
          credentialId: used.credentialId ?? null,
          connector: def.id,
          kind: 'proxy',
        },
        { method: req.method, path, status, ms: Date.now() - started, bytes },
      );
    let upstream: StreamedResponse;
    try {
      upstream = await sendProxy(
        ctx,
        user,
        def,
        {
          method: req.method === 'HEAD' ? 'GET' : (req.method as HttpMethod),
          path,
          api,
          query,
          headers: forwardedRequestHeaders(req.headers),
          body: Buffer.isBuffer(req.body) && req.body.length > 0 ? req.body : undefined,
          credentialId: req.headers[CREDENTIAL_HEADER],
        },
        used,
      );
    } catch (err) {
      // A request refused before a credential was chosen (a bad path, no connection) never left: not a call.
      if (used.credentialId !== undefined || (err instanceof HttpProblem && err.status === 502))
        logCall(undefined, 0);
      metrics.record(user.accountId, def.id, true, 0);
      ctx.metrics?.proxy(def.id, undefined, Date.now() - started);
      throw err;
    }
    res.status(upstream.status);
    // setHeader, not res.set: Express would add a charset to the provider's content type.
    for (const [name, value] of Object.entries(returnedResponseHeaders(upstream.headers)))
      res.setHeader(name, value);
    // The provider's content never runs in the caller's origin: never sniffed; HTML, SVG, XML and scripts sandboxed
    // and downloaded.
    for (const [name, value] of Object.entries(proxiedContentHeaders(upstream.headers['content-type'])))
      res.setHeader(name, value);
    // Tells the provider's own 404 or 401 from Inlay's.
    res.set('x-inlay-upstream-status', String(upstream.status));
    let bytes = 0;
    upstream.body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    try {
      await pipeline(upstream.body, res);
    } catch (err) {
      // Headers are gone: a body cut short (size cap, provider hung up) can only end the connection.
      ctx.logger.warn({ connector: def.id, err: (err as Error).message }, 'proxy response cut short');
      res.destroy();
    } finally {
      metrics.record(user.accountId, def.id, upstream.status >= 500 || !res.writableFinished, bytes);
      ctx.metrics?.proxy(def.id, res.writableFinished ? upstream.status : undefined, Date.now() - started);
      logCall(upstream.status, bytes);
      span?.setAttributes({ 'http.response.status_code': upstream.status, 'http.response.body.size': bytes });
      ctx.logger.info(
        { connector: def.id, userId: user.id, status: upstream.status, bytes, ms: Date.now() - started },
        'proxy call',
      );
    }
  };
  // The query is the provider's too: the handler picks out the proxy's own parameters.
  for (const op of [ops.proxyGet, ops.proxyPost, ops.proxyPut, ops.proxyPatch, ops.proxyDelete])
    route(r, op, { before: [authenticate(auth), rawBody], raw: ['query'] }, handler);
  return r;
}

/** `GET /stats/proxy` (API key): the account's proxy calls per connector, every node's together. */
export function proxyStatsRoutes(metrics: ProxyMetrics): Router {
  const r = Router();
  route(r, ops.getProxyStats, async (req, res) => {
    res.json({ data: await metrics.of(accountOf(req)) });
  });
  return r;
}

import { createServerClient, type InlayError, isInlayError, jwtExpiry } from '@inlay/client/server';
import { jsonTextTooDeep, MAX_JSON_DEPTH, valueTooDeep } from '@inlay/contract';
import express, { type Request, type Response, type Router } from 'express';
import { type AllowedOrigins, csrfGuard, hasBody } from './csrf.ts';
import { upstreamRequestHeaders } from './headers.ts';
import { iconHandler } from './icons.ts';
import { oauthRelay } from './oauth-relay.ts';
import { sendProblem } from './problem.ts';
import { guardProxied, isProxyPath, relay } from './relay.ts';
import { type CachedToken, TokenCache } from './token-cache.ts';
import { fetchUpstream, nodeUpstream } from './upstream.ts';

export interface InlayMiddlewareOptions {
  /** Base URL of the Inlay service, e.g. `http://127.0.0.1:8080`. */
  serviceUrl: string;
  /** The account's API key. It stays on the server: the browser only ever sees user JWTs. */
  apiKey: string;
  /** The signed-in host user's Inlay user id or username; null when nobody is signed in. */
  userId: (req: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** Create the Inlay user on first use. */
  autoCreateUsers?: {
    username: (req: Request) => string;
    fullName?: (req: Request) => string | undefined;
  };
  /**
   * Origins besides the host's own that may write (POST, PUT, PATCH, DELETE) through the proxy, e.g.
   * `['https://app.example.com']` when the page and this backend live on different origins; or a predicate.
   * The host's own origin (the `Host` the browser addressed) is always allowed.
   */
  allowedOrigins?: AllowedOrigins;
  /** Upper bound of one upstream call, in ms (default 30 000). */
  timeoutMs?: number;
  /** Largest JSON request body that is rewritten, in bytes (default 1 MB, the service's own limit). */
  maxBodyBytes?: number;
  /** Replaces the HTTP transport (token, user and proxied calls), for tests; default node:http, kept alive. */
  fetch?: typeof fetch;
  /** Clock, for tests. */
  now?: () => number;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function subOf(token: string): string {
  const payload = token.split('.')[1] ?? '';
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub: string }).sub;
}

/**
 * Express router: `GET /token` for the signed-in user, connector icons for anyone (they are public), and
 * every other path proxied to Inlay as that user.
 */
export function inlay(opts: InlayMiddlewareOptions): Router {
  const base = opts.serviceUrl.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? globalThis.fetch;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const cache = new TokenCache(opts.now);
  const csrf = csrfGuard(opts.allowedOrigins);
  // Proxied calls go over node:http with kept-alive connections; an injected fetch replaces it (tests).
  const upstream = opts.fetch ? fetchUpstream(opts.fetch, base, timeoutMs) : nodeUpstream(base, timeoutMs);
  // Token and user calls go through the typed server client; each is bounded like the proxied calls.
  const api = createServerClient({
    baseUrl: base,
    apiKey: opts.apiKey,
    fetch: (input, init) => doFetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
  });

  async function mint(hostUser: string, req: Request): Promise<CachedToken> {
    let minted: { token: string; expiresAt?: string };
    try {
      minted = await api.users.token(hostUser);
    } catch (err) {
      if (!(isInlayError(err) && err.status === 404 && opts.autoCreateUsers)) throw err;
      const username = opts.autoCreateUsers.username(req);
      const fullName = opts.autoCreateUsers.fullName?.(req);
      let created: string | undefined;
      try {
        ({ userId: created } = await api.users.create({ username, ...(fullName ? { fullName } : {}) }));
      } catch (e) {
        // 409: another request or node created the user first, which is just as good.
        if (!(isInlayError(e) && e.status === 409)) throw e;
      }
      minted = await api.users.token(created ?? username);
    }
    const expiresAt = minted.expiresAt ? Date.parse(minted.expiresAt) : (jwtExpiry(minted.token) ?? 0);
    return { token: minted.token, expiresAt, userId: subOf(minted.token) };
  }

  async function session(
    req: Request,
    res: Response,
  ): Promise<{ hostUser: string; token: CachedToken } | undefined> {
    const hostUser = await opts.userId(req);
    if (!hostUser) {
      sendProblem(res, 401, 'unauthorized', 'Unauthorized', 'Sign in to use integrations');
      return undefined;
    }
    return { hostUser, token: await cache.get(hostUser, () => mint(hostUser, req)) };
  }

  function fail(res: Response, err: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (isInlayError(err) && err.status > 0) {
      res
        .status(err.status)
        .type('application/problem+json')
        .send(JSON.stringify(problemOf(err)));
      return;
    }
    // The client wraps a failed fetch (timeout included) as a network error: the cause says which.
    const cause = isInlayError(err) ? (err.cause as Error | undefined) : (err as Error);
    const name = cause?.name;
    if (name === 'TimeoutError' || name === 'AbortError')
      sendProblem(
        res,
        504,
        'upstream_timeout',
        'Gateway Timeout',
        `Inlay did not answer within ${timeoutMs} ms`,
      );
    else sendProblem(res, 502, 'upstream_error', 'Bad Gateway', 'Inlay could not be reached');
  }

  /**
   * The JSON body to forward, rewritten so it can only name the session's user. The CSRF guard has already
   * refused any other type, so a body a host parser turned into an object was JSON on the wire.
   */
  async function bodyFor(
    req: Request,
    userId: string,
  ): Promise<string | undefined | 'too-large' | 'too-deep'> {
    if (!BODY_METHODS.has(req.method)) return undefined;
    // A host body parser ran first: the stream is spent and `req.body` holds the parsed value.
    if (req.body !== undefined || req.readableEnded) {
      if (req.body === undefined) return undefined;
      const raw = typeof req.body === 'string' || Buffer.isBuffer(req.body) ? String(req.body) : undefined;
      if (raw === undefined)
        return valueTooDeep(req.body) ? 'too-deep' : JSON.stringify(withUser(req.body, userId));
      return jsonTextTooDeep(raw) ? 'too-deep' : rewritten(raw, userId);
    }
    if (!hasBody(req)) return undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBody) return 'too-large';
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks);
    // Nested deeper than the service accepts: refused here, before JSON.parse and stringify walk it.
    return jsonTextTooDeep(raw) ? 'too-deep' : rewritten(raw.toString('utf8'), userId);
  }

  const router = express.Router();

  router.get('/connectors/:connector/icon.svg', iconHandler(upstream, fail));
  // Public like the icons: the provider sends the browser back without the host's API session mattering.
  router.get(['/oauth/start', '/oauth/callback', '/oauth/callback/:connector'], oauthRelay(upstream, fail));

  router.get('/token', async (req, res) => {
    try {
      const s = await session(req, res);
      if (!s) return;
      res
        .set('cache-control', 'no-store')
        .json({ token: s.token.token, expiresAt: new Date(s.token.expiresAt).toISOString() });
    } catch (err) {
      fail(res, err);
    }
  });

  router.use(async (req, res) => {
    try {
      // Before the session: a forged write never mints a token nor reaches the service.
      const refused = csrf(req);
      if (refused) {
        sendProblem(res, refused.status, refused.code, refused.title, refused.detail, refused.errors);
        return;
      }
      const s = await session(req, res);
      if (!s) return;
      const path = withQueryUser(req.url, s.token.userId);
      const body = await bodyFor(req, s.token.userId);
      if (body === 'too-large') {
        sendProblem(
          res,
          413,
          'payload_too_large',
          'Payload Too Large',
          `The request body exceeds ${maxBody} bytes`,
        );
        return;
      }
      if (body === 'too-deep') {
        sendProblem(
          res,
          400,
          'invalid_request',
          'Bad Request',
          `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`,
          [
            {
              field: 'body',
              rule: 'max_depth',
              message: `must not nest deeper than ${MAX_JSON_DEPTH} levels`,
            },
          ],
        );
        return;
      }
      const forwarded = upstreamRequestHeaders(req.headers);
      forwarded['x-forwarded-for'] = req.ip ?? '';
      forwarded['x-forwarded-proto'] = req.protocol;
      if (typeof body === 'string') forwarded['content-type'] = 'application/json';
      const send = (token: string) =>
        upstream({
          method: req.method,
          path,
          headers: { ...forwarded, authorization: `Bearer ${token}` },
          body,
        });
      let answer = await send(s.token.token);
      // A token the service no longer accepts (user re-created, keys rotated): mint once more and retry.
      if (answer.status === 401) {
        answer.discard();
        cache.forget(s.hostUser);
        const fresh = await cache.get(s.hostUser, () => mint(s.hostUser, req));
        answer = await send(fresh.token);
      }
      relay(isProxyPath(path) ? guardProxied(answer) : answer, res);
    } catch (err) {
      fail(res, err);
    }
  });

  return router;
}

/** `url` with its `userId` query parameter, if any, naming the session's user. */
function withQueryUser(url: string, userId: string): string {
  if (!url.includes('userId')) return url;
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  if (!params.has('userId')) return url;
  params.set('userId', userId);
  return `${url.slice(0, q)}?${params}`;
}

/** JSON text with its `userId`s naming the session's user; invalid JSON goes on as is (the service names the problem). */
function rewritten(text: string, userId: string): string {
  try {
    return JSON.stringify(withUser(JSON.parse(text), userId));
  } catch {
    return text;
  }
}

/** Any `userId` in a JSON body becomes the session's user, at the top level and in arrays of objects. */
function withUser(body: unknown, userId: string): unknown {
  if (Array.isArray(body)) return body.map((b) => withUser(b, userId));
  if (body && typeof body === 'object' && 'userId' in body) return { ...(body as object), userId };
  return body;
}

/** The service's problem as it answered it, or one rebuilt from the error's fields. */
function problemOf(err: InlayError): Record<string, unknown> {
  if (err.problem) return { ...err.problem };
  return {
    type: err.type,
    title: err.title,
    status: err.status,
    detail: err.detail,
    message: err.detail,
    code: err.code,
    ...(err.errors.length ? { errors: err.errors } : {}),
  };
}

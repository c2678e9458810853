import { createServerClient, type InlayError, isInlayError, jwtExpiry } from '@inlay/client/server';
import { jsonTextTooDeep, MAX_JSON_DEPTH, valueTooDeep } from '@inlay/contract';
import { type AllowedOrigins, csrfGuard } from './csrf.ts';
import { upstreamRequestHeaders } from './headers.ts';
import { problem, problemResponse } from './problem.ts';
import { guardProxied, isProxyPath } from './relay.ts';
import { type CachedToken, TokenCache } from './token-cache.ts';
import { fetchUpstream, type Upstream } from './upstream.ts';

/**
 * What every adapter takes. `R` is what the host's callbacks are given: the web `Request` for
 * `createInlayHandler` and Next.js, Express's `req`, Hono's context, Fastify's request.
 */
export interface InlayOptions<R = Request> {
  /** Base URL of the Inlay service, e.g. `http://127.0.0.1:8080`. */
  serviceUrl: string;
  /** The account's API key. It stays on the server: the browser only ever sees user JWTs. */
  apiKey: string;
  /** The signed-in host user's Inlay user id or username; null when nobody is signed in. */
  userId: (req: R) => string | null | undefined | Promise<string | null | undefined>;
  /** Create the Inlay user on first use. */
  autoCreateUsers?: {
    username: (req: R) => string;
    fullName?: (req: R) => string | undefined;
  };
  /**
   * Origins besides the host's own that may write (POST, PUT, PATCH, DELETE) through the proxy, e.g.
   * `['https://app.example.com']` when the page and this backend live on different origins; or a predicate.
   * The host's own origin (the `Host` the browser addressed) is always allowed.
   */
  allowedOrigins?: AllowedOrigins<R>;
  /** Upper bound of one upstream call, in ms, body included (default 30 000). */
  timeoutMs?: number;
  /** Largest JSON request body that is rewritten, in bytes (default 1 MB, the service's own limit). */
  maxBodyBytes?: number;
  /** Replaces the HTTP transport (token, user and proxied calls), for tests; default the global `fetch`. */
  fetch?: typeof fetch;
  /** Clock, for tests. */
  now?: () => number;
}

/** One request, as an adapter hands it to the core. */
export interface InlayCall<R> {
  /** The web request: method, URL (its host is one the browser may have addressed), headers, body, signal. */
  request: Request;
  /** What the host's callbacks get. */
  hostRequest: R;
  /** The path and query below the mount, starting with `/` (`/token`, `/workflows?limit=30`). */
  path: string;
  /** The browser's address, sent to the service as `X-Forwarded-For` (when the framework knows it). */
  clientIp?: string;
  /**
   * Aborts when the browser goes away (default `request.signal`); a Node adapter passes its own rather than
   * make the `Request` follow one, which costs more.
   */
  signal?: AbortSignal;
  /** A body the host's own parser already read (Express's `express.json()`); its stream is spent. */
  parsed?: { body: unknown };
}

/**
 * Makes the proxied calls' transport for a service base URL and time limit: an adapter on a runtime with a
 * cheaper client than `fetch` passes its own (the Node adapters pass `nodeUpstream`).
 */
export type Transport = (serviceUrl: string, timeoutMs: number) => Upstream;

/** Answers one request; never rejects (failures are problem+json answers). */
export type InlayCore<R> = (call: InlayCall<R>) => Promise<Response>;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** A custom connector's icon `key` (the service's is a UUID): nothing that could add to the query or path. */
const KEY = /^[A-Za-z0-9-]{1,64}$/;
/** Request headers an icon request passes on: caching ones only (no cookie, no credentials). */
const ICON_PASSED = ['if-none-match', 'if-modified-since'] as const;
/** The cookies Inlay's OAuth start link sets, one per flow (`inlay_oauth_<16 hex>`). */
const FLOW_COOKIE = /^inlay_oauth_[0-9a-f]{16}$/;
const nameOf = (pair: string) => pair.slice(0, Math.max(0, pair.indexOf('='))).trim();
const ICON = /^\/connectors\/([^/]+)\/icon\.svg\/?$/i;
/** A connector's own OAuth callback: its id is a slug, so no dot segment or encoded `/` can ride along. */
const CONNECTOR_CALLBACK = /^\/oauth\/callback\/([a-z][a-z0-9_-]{0,62})\/?$/i;
const isRoute = (pathname: string, route: string) =>
  pathname.toLowerCase() === route || pathname.toLowerCase() === `${route}/`;

function subOf(token: string): string {
  const payload = token.split('.')[1] ?? '';
  const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return (JSON.parse(new TextDecoder().decode(bytes)) as { sub: string }).sub;
}

/**
 * The framework-free core: `GET /token` for the signed-in user, connector icons and the OAuth pages for
 * anyone (they are public), and every other path proxied to Inlay as that user. Adapters map their request
 * to an `InlayCall` and send the `Response` back.
 */
export function createInlayCore<R>(opts: InlayOptions<R>, transport?: Transport): InlayCore<R> {
  const base = opts.serviceUrl.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? globalThis.fetch;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const cache = new TokenCache(opts.now);
  const csrf = csrfGuard(opts.allowedOrigins);
  // A host's own `fetch` (tests, instrumentation) carries every call, proxied ones included.
  const upstream: Upstream =
    transport && !opts.fetch ? transport(base, timeoutMs) : fetchUpstream(doFetch, base, timeoutMs);
  // Token and user calls go through the typed server client; each is bounded like the proxied calls.
  const api = createServerClient({
    baseUrl: base,
    apiKey: opts.apiKey,
    fetch: (input, init) => doFetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
  });

  async function mint(hostUser: string, req: R): Promise<CachedToken> {
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

  /** The signed-in user and their JWT, or the 401 to answer. */
  async function session(req: R): Promise<{ hostUser: string; token: CachedToken } | Response> {
    const hostUser = await opts.userId(req);
    if (!hostUser) return problem(401, 'unauthorized', 'Unauthorized', 'Sign in to use integrations');
    return { hostUser, token: await cache.get(hostUser, () => mint(hostUser, req)) };
  }

  function fail(err: unknown): Response {
    if (isInlayError(err) && err.status > 0) return problemResponse(err.status, problemOf(err));
    // The client wraps a failed fetch (timeout included) as a network error: the cause says which.
    const cause = isInlayError(err) ? (err.cause as Error | undefined) : (err as Error);
    const name = cause?.name;
    if (name === 'TimeoutError' || name === 'AbortError')
      return problem(
        504,
        'upstream_timeout',
        'Gateway Timeout',
        `Inlay did not answer within ${timeoutMs} ms`,
      );
    return problem(502, 'upstream_error', 'Bad Gateway', 'Inlay could not be reached');
  }

  /**
   * The JSON body to forward, rewritten so it can only name the session's user. The CSRF guard has already
   * refused any other type, so a body a host parser turned into an object was JSON on the wire. Read in
   * chunks, and no further than `maxBodyBytes`.
   */
  async function bodyFor(call: InlayCall<R>, userId: string): Promise<string | undefined | Response> {
    const { request } = call;
    if (!BODY_METHODS.has(request.method)) return undefined;
    if (call.parsed) {
      const parsed = call.parsed.body;
      if (parsed === undefined) return undefined;
      const raw =
        typeof parsed === 'string'
          ? parsed
          : parsed instanceof Uint8Array
            ? new TextDecoder().decode(parsed)
            : undefined;
      if (raw === undefined)
        return valueTooDeep(parsed) ? tooDeep() : JSON.stringify(withUser(parsed, userId));
      return jsonTextTooDeep(raw) ? tooDeep() : rewritten(raw, userId);
    }
    if (!request.body) return undefined;
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBody) {
        reader.cancel().catch(() => {});
        return problem(
          413,
          'payload_too_large',
          'Payload Too Large',
          `The request body exceeds ${maxBody} bytes`,
        );
      }
      chunks.push(value);
    }
    if (size === 0) return undefined;
    const raw = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      raw.set(c, at);
      at += c.byteLength;
    }
    // Nested deeper than the service accepts: refused here, before JSON.parse and stringify walk it.
    return jsonTextTooDeep(raw) ? tooDeep() : rewritten(new TextDecoder().decode(raw), userId);
  }

  async function proxy(call: InlayCall<R>): Promise<Response> {
    const { request } = call;
    const url = new URL(request.url);
    // Before the session: a forged write never mints a token nor reaches the service.
    const refused = csrf(request.method, request.headers, hostsOf(request, url), call.hostRequest);
    if (refused) return problem(refused.status, refused.code, refused.title, refused.detail, refused.errors);
    const s = await session(call.hostRequest);
    if (s instanceof Response) return s;
    const path = withQueryUser(call.path, s.token.userId);
    const body = await bodyFor(call, s.token.userId);
    if (body instanceof Response) return body;
    const forwarded = upstreamRequestHeaders(request.headers);
    if (call.clientIp !== undefined) forwarded.set('x-forwarded-for', call.clientIp);
    forwarded.set('x-forwarded-proto', url.protocol.slice(0, -1));
    if (typeof body === 'string') forwarded.set('content-type', 'application/json');
    const send = (token: string) => {
      forwarded.set('authorization', `Bearer ${token}`);
      return upstream({
        method: request.method,
        path,
        headers: forwarded,
        body,
        signal: call.signal ?? request.signal,
      });
    };
    let answer = await send(s.token.token);
    // A token the service no longer accepts (user re-created, keys rotated): mint once more and retry.
    if (answer.status === 401) {
      answer.body?.cancel().catch(() => {});
      cache.forget(s.hostUser);
      const fresh = await cache.get(s.hostUser, () => mint(s.hostUser, call.hostRequest));
      answer = await send(fresh.token);
    }
    return isProxyPath(path) ? guardProxied(answer) : answer;
  }

  /**
   * `GET /connectors/{connector}/icon.svg`, relayed from the service without a session: icons are public, an
   * `<img>` carries no token, and the browser may not reach the service itself. The connector must be a slug,
   * so the path can name nothing but an icon. A custom connector's icon URL carries `?key=` (it stands in for
   * the account); that parameter, and no other, goes on to the service.
   */
  function icon(call: InlayCall<R>, encoded: string, query: URLSearchParams): Promise<Response> | Response {
    const { request } = call;
    let connector: string;
    try {
      connector = decodeURIComponent(encoded);
    } catch {
      connector = '';
    }
    const keys = query.getAll('key');
    const key = keys[0];
    if (!SLUG.test(connector) || keys.length > 1 || (key !== undefined && !KEY.test(key)))
      return problem(404, 'not_found', 'Not Found', 'No such connector');
    const headers = new Headers({ accept: 'image/svg+xml' });
    for (const h of ICON_PASSED) {
      const v = request.headers.get(h);
      if (v !== null) headers.set(h, v);
    }
    return upstream({
      method: 'GET',
      path: `/connectors/${connector}/icon.svg${key ? `?key=${key}` : ''}`,
      headers,
      signal: call.signal ?? request.signal,
    });
  }

  /**
   * `GET /oauth/start` and `GET /oauth/callback[/<connector>]`, relayed without a session, for a host that serves Inlay's
   * OAuth pages under its own origin (`INLAY_PUBLIC_URL` is the host's mount, e.g.
   * `https://app.example.com/api/inlay`). The browser arrives from the provider with no bearer token.
   *
   * Unlike every other proxied route, the flow cookie must cross the proxy in both directions: the start
   * link sets it (binding the flow to this browser) and the callback refuses to connect without it. So only
   * the `inlay_oauth_*` cookies pass, both ways: the host's own cookies never go upstream, and the service
   * can set no other cookie on the host's origin. Its path is the public URL's `/oauth`, which the service
   * computes, so it lands below the host's mount.
   */
  function oauth(call: InlayCall<R>, route: string, search: string) {
    const { request } = call;
    const headers = new Headers({ accept: request.headers.get('accept') ?? 'text/html' });
    const flowCookies = (request.headers.get('cookie') ?? '')
      .split(';')
      .map((p) => p.trim())
      .filter((p) => FLOW_COOKIE.test(nameOf(p)));
    if (flowCookies.length) headers.set('cookie', flowCookies.join('; '));
    if (call.clientIp !== undefined) headers.set('x-forwarded-for', call.clientIp);
    headers.set('x-forwarded-proto', new URL(request.url).protocol.slice(0, -1));
    return upstream({
      method: 'GET',
      path: `${route}${search}`,
      headers,
      keepCookie: (line) => FLOW_COOKIE.test(nameOf(line.split(';')[0] ?? '')),
      signal: call.signal ?? request.signal,
    });
  }

  return async (call) => {
    try {
      const method = call.request.method;
      const q = call.path.indexOf('?');
      const pathname = q < 0 ? call.path : call.path.slice(0, q);
      const search = q < 0 ? '' : call.path.slice(q);
      if (method === 'GET' || method === 'HEAD') {
        const isIcon = ICON.exec(pathname);
        if (isIcon) return await icon(call, isIcon[1]!, new URLSearchParams(search));
        // Public like the icons: the provider sends the browser back without the host's API session mattering.
        if (isRoute(pathname, '/oauth/start')) return await oauth(call, '/oauth/start', search);
        if (isRoute(pathname, '/oauth/callback')) return await oauth(call, '/oauth/callback', search);
        // A connector's own callback: its name as one encoded segment, never a dot segment.
        const callback = CONNECTOR_CALLBACK.exec(pathname);
        if (callback) return await oauth(call, `/oauth/callback/${callback[1]}`, search);
        if (isRoute(pathname, '/token')) {
          const s = await session(call.hostRequest);
          if (s instanceof Response) return s;
          return Response.json(
            { token: s.token.token, expiresAt: new Date(s.token.expiresAt).toISOString() },
            { headers: { 'cache-control': 'no-store' } },
          );
        }
      }
      return await proxy(call);
    } catch (err) {
      return fail(err);
    }
  };
}

/** The names the browser may have addressed this backend by: `Host`, and the URL's (a trusted proxy's) host. */
function hostsOf(request: Request, url: URL): string[] {
  const host = request.headers.get('host');
  return host === null || host === url.host ? [url.host] : [host, url.host];
}

function tooDeep(): Response {
  return problem(
    400,
    'invalid_request',
    'Bad Request',
    `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`,
    [{ field: 'body', rule: 'max_depth', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }],
  );
}

/** `path` with its `userId` query parameter, if any, naming the session's user. */
function withQueryUser(path: string, userId: string): string {
  if (!path.includes('userId')) return path;
  const q = path.indexOf('?');
  if (q < 0) return path;
  const params = new URLSearchParams(path.slice(q + 1));
  if (!params.has('userId')) return path;
  params.set('userId', userId);
  return `${path.slice(0, q)}?${params}`;
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

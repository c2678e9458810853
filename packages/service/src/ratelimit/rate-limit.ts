import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Authenticator } from '../http/auth.ts';
import { isUnavailable } from '../http/error-handler.ts';
import type { Principal } from '../http/principal.ts';
import { HttpProblem } from '../http/problem.ts';
import type { Limiter } from './batched-limiter.ts';
import type { Limiters } from './limiters.ts';

interface Quota {
  policy: 'per-key' | 'per-user' | 'per-webhook' | 'proxy-per-user';
  key: string;
  limit: number;
}

function quotaFor(p: Principal, limiters: Limiters): Quota | undefined {
  if (p.kind === 'account' && limiters.perKey)
    return { policy: 'per-key', key: p.apiKeyId, limit: limiters.perKey.points };
  if (p.kind === 'user' && limiters.perUser)
    return { policy: 'per-user', key: `${p.accountId}:${p.userId}`, limit: limiters.perUser.points };
  return undefined;
}

/** IETF draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy` (quota, window) and `RateLimit` (remaining, reset). */
function setHeaders(res: Response, q: Quota, windowSeconds: number, r: RateLimiterRes) {
  const reset = Math.max(0, Math.ceil(r.msBeforeNext / 1000));
  // setHeader, not res.set: both values are plain strings, and this runs on every request.
  res.setHeader('ratelimit-policy', `"${q.policy}";q=${q.limit};w=${windowSeconds}`);
  res.setHeader('ratelimit', `"${q.policy}";r=${r.remainingPoints};t=${reset}`);
  return reset;
}

/**
 * Counts each authenticated request against its API key's or its user's quota. A request without a valid
 * credential is not counted here: `authenticate` (or the MCP endpoint) answers it with 401.
 * On `/mcp/…` the 429 is a JSON-RPC error, everywhere else a problem+json.
 *
 * Synchronous in the common case (the principal known, the batched limiter answering from memory): a promise
 * only when the credential must be resolved or the limiter waits for its store.
 */
export function rateLimit(limiters: Limiters, auth: Authenticator, windowSeconds: number): RequestHandler {
  const off = !limiters.perKey && !limiters.perUser;
  const limit = (principal: Principal | undefined, req: Request, res: Response, next: NextFunction) => {
    const q = principal && quotaFor(principal, limiters);
    if (!q) return next();
    const limiter = q.policy === 'per-key' ? limiters.perKey! : limiters.perUser!;
    let counted: Promise<void> | undefined;
    try {
      counted = consume(limiter, q, windowSeconds, res);
    } catch (err) {
      return tooMany(err, req, res);
    }
    if (!counted) return next();
    return counted.then(next, (err) => tooMany(err, req, res));
  };
  const resolveThenLimit = async (req: Request, res: Response, next: NextFunction) => {
    let principal: Principal | undefined;
    try {
      principal = await auth.fromRequest(req);
    } catch (err) {
      // In an outage the route answers 503 itself, in its own format (problem+json or JSON-RPC).
      if (isUnavailable(err)) return next();
      throw err;
    }
    // Kept for `authenticate`, so a JWT is verified once per request.
    if (principal) req.principal = principal;
    return limit(principal, req, res, next);
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (off) return next();
    if (req.principal) return limit(req.principal, req, res, next);
    return resolveThenLimit(req, res, next);
  };
}

/** The 429 on `/mcp/…` as a JSON-RPC error; anything else goes on to the error handler. */
function tooMany(err: unknown, req: Request, res: Response) {
  if (!(err instanceof HttpProblem) || !req.path.startsWith('/mcp/')) throw err;
  res.status(429).json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: err.message } });
}

/**
 * Counts one request against a quota and sets the rate-limit headers; over the quota, throws the 429
 * problem (with `Retry-After`). Returns nothing when the limiter answered at once, else a promise of the same.
 */
function consume(
  limiter: Limiter,
  q: Quota,
  windowSeconds: number,
  res: Response,
): Promise<void> | undefined {
  let r: RateLimiterRes | Promise<RateLimiterRes>;
  try {
    r = limiter.consume(q.key);
  } catch (err) {
    refuse(err, q, windowSeconds, res);
  }
  if (r instanceof RateLimiterRes) {
    setHeaders(res, q, windowSeconds, r);
    return undefined;
  }
  return r.then(
    (ok) => void setHeaders(res, q, windowSeconds, ok),
    (err) => refuse(err, q, windowSeconds, res),
  );
}

/** A refused `consume` as the 429 problem (with `Retry-After`); any other error as it is. */
function refuse(err: unknown, q: Quota, windowSeconds: number, res: Response): never {
  if (!(err instanceof RateLimiterRes)) throw err;
  const retryAfter = Math.max(1, setHeaders(res, q, windowSeconds, err));
  res.setHeader('retry-after', String(retryAfter));
  throw new HttpProblem(
    429,
    'rate_limited',
    `Rate limit of ${q.limit} requests per ${windowSeconds} s (${q.policy}) exceeded; retry in ${retryAfter} s`,
    { extra: { retryAfter }, headers: { 'retry-after': String(retryAfter) } },
  );
}

/**
 * Counts a call of an installation's webhook (after its secret was checked, so only holders of the URL
 * spend its quota). Anonymous senders have no key or user: the installation is what they share.
 */
export async function limitWebhook(
  limiters: Limiters,
  installationId: string,
  windowSeconds: number,
  res: Response,
): Promise<void> {
  const limiter = limiters.perWebhook;
  if (!limiter) return;
  await consume(
    limiter,
    { policy: 'per-webhook', key: installationId, limit: limiter.points },
    windowSeconds,
    res,
  );
}

/** Counts one proxy call against the user's proxy quota (on top of the key's or the JWT's quota). */
export async function limitProxy(
  limiters: Limiters,
  user: { accountId: string; id: string },
  windowSeconds: number,
  res: Response,
): Promise<void> {
  const limiter = limiters.perProxy;
  if (!limiter) return;
  await consume(
    limiter,
    { policy: 'proxy-per-user', key: `${user.accountId}:${user.id}`, limit: limiter.points },
    windowSeconds,
    res,
  );
}

/**
 * Counts one proxy call that has no HTTP answer of its own (an agent's `proxy_request_inlay`) against the user's
 * proxy quota, the same one `limitProxy` counts. Resolves with the seconds to wait when over it, else undefined.
 */
export async function proxyQuotaWait(
  limiters: Limiters,
  user: { accountId: string; id: string },
): Promise<number | undefined> {
  const limiter = limiters.perProxy;
  if (!limiter) return undefined;
  try {
    await limiter.consume(`${user.accountId}:${user.id}`);
    return undefined;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
  }
}

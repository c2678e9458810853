import type { Request, RequestHandler, Response } from 'express';
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
  res.set('ratelimit-policy', `"${q.policy}";q=${q.limit};w=${windowSeconds}`);
  res.set('ratelimit', `"${q.policy}";r=${r.remainingPoints};t=${reset}`);
  return reset;
}

/**
 * Counts each authenticated request against its API key's or its user's quota. A request without a valid
 * credential is not counted here: `authenticate` (or the MCP endpoint) answers it with 401.
 * On `/mcp/…` the 429 is a JSON-RPC error, everywhere else a problem+json.
 */
export function rateLimit(limiters: Limiters, auth: Authenticator, windowSeconds: number): RequestHandler {
  const off = !limiters.perKey && !limiters.perUser;
  return async (req: Request, res: Response, next) => {
    if (off) return next();
    let principal: Principal | undefined;
    try {
      principal = req.principal ?? (await auth.fromRequest(req));
    } catch (err) {
      // In an outage the route answers 503 itself, in its own format (problem+json or JSON-RPC).
      if (isUnavailable(err)) return next();
      throw err;
    }
    // Kept for `authenticate`, so a JWT is verified once per request.
    if (principal) req.principal = principal;
    const q = principal && quotaFor(principal, limiters);
    if (!q) return next();
    const limiter = q.policy === 'per-key' ? limiters.perKey! : limiters.perUser!;
    try {
      await consume(limiter, q, windowSeconds, res);
      return next();
    } catch (err) {
      if (!(err instanceof HttpProblem) || !req.path.startsWith('/mcp/')) throw err;
      res.status(429).json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: err.message } });
    }
  };
}

/**
 * Counts one request against a quota and sets the rate-limit headers; over the quota, throws the 429
 * problem (with `Retry-After`).
 */
async function consume(limiter: Limiter, q: Quota, windowSeconds: number, res: Response) {
  try {
    setHeaders(res, q, windowSeconds, await limiter.consume(q.key));
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retryAfter = Math.max(1, setHeaders(res, q, windowSeconds, err));
    res.set('retry-after', String(retryAfter));
    throw new HttpProblem(
      429,
      'rate_limited',
      `Rate limit of ${q.limit} requests per ${windowSeconds} s (${q.policy}) exceeded; retry in ${retryAfter} s`,
      { extra: { retryAfter }, headers: { 'retry-after': String(retryAfter) } },
    );
  }
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

import { and, eq, isNull } from 'drizzle-orm';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { API_KEY_RE, sha256 } from '../accounts/api-keys.ts';
import { CSRF_HEADER, cookieValue, csrfMatches, findSession, SESSION_COOKIE } from '../console/sessions.ts';
import type { AppContext } from '../context.ts';
import { apiKeys } from '../store/schema.ts';
import type { Principal } from './principal.ts';
import { forbidden, unauthorized } from './problem.ts';

/** The credential of `Authorization: <any case of "bearer"> <credential>`. */
export function bearer(header: string | undefined): string | undefined {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

/**
 * Resolves a bearer credential to a principal: API keys by hash, JWTs by signature. A looked-up key is kept
 * for 30 seconds at most, and dropped as soon as a change to its account's API keys is announced, so a revoked
 * key stops working on every node at once.
 */
export function createAuthenticator(ctx: AppContext) {
  const keyCache = new LRUCache<string, { accountId: string; apiKeyId: string } | false>({
    max: 10_000,
    ttl: 30_000,
  });
  // Bumped by every change to keys: a lookup that was in flight across one may have read the row before it, so
  // its answer is used but not kept (else a key revoked meanwhile would keep working for 30 s).
  let keyEpoch = 0;
  ctx.onClose(
    ctx.store.changes.subscribe((change) => {
      if (change.kind === 'all' || change.kind === 'keys') keyEpoch++;
      if (change.kind === 'all') keyCache.clear();
      // A change to one account's keys (created, renamed, revoked, cascading away with the account) drops that
      // account's keys and every unknown one (a new key may be one of them); other accounts' keys stay, since
      // on a busy service some tenant is always creating a key.
      else if (change.kind === 'keys') forgetKeysOf(change.accountId);
    }),
  );
  function forgetKeysOf(accountId: string) {
    const stale: string[] = [];
    for (const [hash, hit] of keyCache.entries()) if (!hit || hit.accountId === accountId) stale.push(hash);
    for (const hash of stale) keyCache.delete(hash);
  }

  async function apiKey(key: string): Promise<Principal | undefined> {
    const hash = sha256(key);
    let hit = keyCache.get(hash);
    if (hit === undefined) {
      const epoch = keyEpoch;
      const [row] = await ctx.db
        .select({ accountId: apiKeys.accountId, apiKeyId: apiKeys.id })
        .from(apiKeys)
        .where(and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt)));
      hit = row ?? false;
      if (epoch === keyEpoch) keyCache.set(hash, hit);
    }
    if (!hit) return undefined;
    touch(hit.apiKeyId);
    return { kind: 'account', ...hit };
  }

  // `lastUsedAt` to the minute: one write per key and node a minute keeps authentication a read.
  const touched = new LRUCache<string, number>({ max: 10_000 });
  function touch(apiKeyId: string) {
    const now = Date.now();
    if (now - (touched.get(apiKeyId) ?? 0) < 60_000) return;
    touched.set(apiKeyId, now);
    ctx.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, apiKeyId))
      .catch((err: unknown) => ctx.logger.debug({ err }, 'could not record when an API key was used'));
  }

  /** A console session cookie: sessions are not cached, so signing out or revoking the key ends them at once. */
  async function session(cookieHeader: string | undefined): Promise<Principal | undefined> {
    const token = cookieValue(cookieHeader, SESSION_COOKIE);
    if (!token) return undefined;
    const s = await findSession(ctx.db, token);
    if (!s) return undefined;
    touch(s.apiKeyId);
    return {
      kind: 'account',
      accountId: s.accountId,
      apiKeyId: s.apiKeyId,
      session: { id: s.id, csrfToken: s.csrfToken },
    };
  }

  /** A request's bearer credential, or else its console session cookie. */
  async function fromRequest(req: Request): Promise<Principal | undefined> {
    const credential = bearer(req.headers.authorization);
    if (credential || req.headers.authorization) return resolve(credential);
    return session(req.headers.cookie);
  }

  async function resolve(credential: string | undefined): Promise<Principal | undefined> {
    if (!credential) return undefined;
    if (API_KEY_RE.test(credential)) return apiKey(credential);
    const claims = await ctx.tokens.verify(credential);
    return claims
      ? { kind: 'user', accountId: claims.accountId, userId: claims.userId, tokenId: claims.jti }
      : undefined;
  }

  return { resolve, fromRequest, forget: () => keyCache.clear() };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Requires an API key or a user JWT (or a console session, which acts as its API key). */
export function authenticate(auth: Authenticator): RequestHandler {
  const admit = (principal: Principal | undefined, req: Request, next: NextFunction) => {
    if (!principal) throw unauthorized();
    // A cookie rides along on any request the browser makes: writes must prove the console's page sent them.
    if (principal.kind === 'account' && principal.session && !SAFE_METHODS.has(req.method))
      if (!csrfMatches(req.get(CSRF_HEADER), principal.session.csrfToken))
        throw forbidden(`A console session's writes need the ${CSRF_HEADER} header of the session`);
    req.principal = principal;
    next();
  };
  return (req: Request, _res: Response, next: NextFunction) => {
    // The rate limiter may have resolved this same bearer already: then no promise is needed.
    if (req.principal) return admit(req.principal, req, next);
    return auth.fromRequest(req).then((principal) => admit(principal, req, next));
  };
}

/** Authoring and account routes take an API key only. */
export const requireApiKey: RequestHandler = (req, _res, next) => {
  if (req.principal?.kind !== 'account')
    throw forbidden('This route needs an API key; user tokens cannot use it');
  next();
};

export function accountOf(req: Request): string {
  if (!req.principal) throw unauthorized();
  return req.principal.accountId;
}

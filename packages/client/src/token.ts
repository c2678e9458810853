import { InlayError } from './error.ts';

/** What a `getToken` callback may return: the JWT, or the JWT with its expiry (as `GET /users/{id}/token` answers). */
export type TokenResult = string | { token: string; expiresAt?: string | number | Date | null };
export type GetToken = () => TokenResult | Promise<TokenResult>;

export interface TokenManagerOptions {
  /** Refresh this long before `exp` (default 60 s), or halfway through a shorter lifetime. */
  refreshBeforeMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface TokenManager {
  /** A token that is not about to expire; fetches one (shared by concurrent callers) when needed. */
  get(): Promise<string>;
  /** After a 401 with `rejected`: a new token, unless another caller already replaced it. */
  refresh(rejected: string | undefined): Promise<string>;
  /** Forgets the cached token (e.g. on sign-out). */
  clear(): void;
}

/** Expiry of a JWT from its `exp` claim, in ms; undefined for an opaque token. */
export function jwtExpiry(token: string): number | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Caches a user token, refreshes it before it expires and once after a 401; concurrent refreshes share one call. */
export function createTokenManager(getToken: GetToken, opts: TokenManagerOptions = {}): TokenManager {
  const now = opts.now ?? Date.now;
  const before = opts.refreshBeforeMs ?? 60_000;
  let current: { token: string; refreshAt: number } | undefined;
  let inflight: Promise<string> | undefined;

  const store = (r: TokenResult): string => {
    const token = typeof r === 'string' ? r : r?.token;
    if (!token) throw new Error('getToken returned no token');
    const at = now();
    const raw = typeof r === 'string' ? undefined : r.expiresAt;
    const exp = raw != null ? new Date(raw).getTime() : jwtExpiry(token);
    const refreshAt =
      exp === undefined || Number.isNaN(exp) ? Infinity : Math.max(exp - before, at + (exp - at) / 2);
    current = { token, refreshAt };
    return token;
  };
  // Started in a microtask, so a getToken that throws synchronously still clears `inflight`.
  const fetchNew = (): Promise<string> =>
    (inflight ??= Promise.resolve()
      .then(getToken)
      .then(store)
      .finally(() => {
        inflight = undefined;
      }));

  return {
    get: () => (current && now() < current.refreshAt ? Promise.resolve(current.token) : fetchNew()),
    refresh(rejected) {
      if (inflight) return inflight;
      if (current && current.token !== rejected) return Promise.resolve(current.token);
      current = undefined;
      return fetchNew();
    },
    clear() {
      current = undefined;
    },
  };
}

/** A `getToken` that reads `{token, expiresAt}` from a host endpoint (e.g. `@inlay/express`'s `GET /token`). */
export function tokenFromUrl(url: string, init: RequestInit = {}, fetchImpl?: typeof fetch): GetToken {
  return async () => {
    const res = await (fetchImpl ?? fetch)(url, { credentials: 'same-origin', ...init });
    if (!res.ok) {
      let body: any;
      try {
        body = await res.json();
      } catch {}
      throw new InlayError({ ...body, status: res.status });
    }
    return (await res.json()) as TokenResult;
  };
}

import { createTokenManager, type GetToken, type TokenManagerOptions } from './token.ts';
import { createTransport, fromTokenManager, type Request, type TransportOptions } from './transport.ts';
import { type UserRoutes, userRoutes } from './user-api.ts';

export interface UserClientOptions extends TransportOptions, TokenManagerOptions {
  /**
   * Returns the user's JWT (or `{token, expiresAt}`). Called on first use, shortly before `exp`, and once
   * after a 401; concurrent calls share one. Leave it out behind a proxy that injects the token itself.
   */
  getToken?: GetToken;
}

export interface UserClient extends UserRoutes {
  readonly baseUrl: string;
  /** The raw request function: `request('GET', '/workflows')`. */
  readonly request: Request;
  /** Forgets the cached token. */
  clearToken(): void;
}

/** A client for the user-level routes, authenticated with a user JWT. Works in browsers and Node ≥ 20. */
export function createUserClient(opts: UserClientOptions): UserClient {
  const tokens = opts.getToken ? createTokenManager(opts.getToken, opts) : undefined;
  const request = createTransport(opts, tokens && fromTokenManager(tokens));
  return { ...userRoutes(request), baseUrl: opts.baseUrl, request, clearToken: () => tokens?.clear() };
}

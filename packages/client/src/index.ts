export type * from '@inlay/contract';
export { type ClientErrorCode, InlayError, isInlayError } from './error.ts';
export {
  type ConnectOAuthOptions,
  connectOAuth,
  OAUTH_CHANNEL,
  OAuthError,
  type OAuthResult,
  type PendingOAuth,
  takePendingOAuth,
  waitForCredential,
} from './oauth.ts';
export { inlayKeys, inlayQueries } from './query.ts';
export { createServerClient, type ServerClient, type ServerClientOptions } from './server.ts';
export {
  createTokenManager,
  type GetToken,
  jwtExpiry,
  type TokenManager,
  type TokenManagerOptions,
  type TokenResult,
  tokenFromUrl,
} from './token.ts';
export {
  API_VERSION,
  type Auth,
  type CallOptions,
  createTransport,
  queryString,
  type Request,
  type TransportOptions,
} from './transport.ts';
export { createUserClient, type UserClient, type UserClientOptions } from './user.ts';
export type { LogsParams, UserRoutes, UserScope } from './user-api.ts';

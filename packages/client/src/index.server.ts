// The server-side entry (`@inlay/client/server`): everything but the browser's OAuth helpers, so its
// declarations need no DOM types. A backend (and @inlay/express) type-checks with `lib: ["ES2023"]` alone.
export type * from '@inlay/contract';
export { type ClientErrorCode, InlayError, isInlayError } from './error.ts';
export type { ProxyRequestInit } from './proxy.ts';
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
  CLIENT_HEADER,
  createRawTransport,
  createTransport,
  queryString,
  type RawInit,
  type RawRequest,
  type Request,
  type TransportOptions,
  UPSTREAM_STATUS_HEADER,
} from './transport.ts';
export { createUserClient, type UserClient, type UserClientOptions } from './user.ts';
export type { LogsParams, UserRoutes, UserScope } from './user-api.ts';
export { verifyWebhook, WebhookVerificationError } from './webhooks.ts';

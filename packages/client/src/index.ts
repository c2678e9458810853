// The browser entry: the server entry plus the OAuth popup and redirect helpers.
export { CSRF_HEADER, consoleSessions, createConsoleClient } from './console.ts';
export * from './index.server.ts';
export {
  type ConnectOAuthOptions,
  connectOAuth,
  OAUTH_CHANNEL,
  OAuthError,
  type OAuthPopup,
  type OAuthResult,
  type PendingOAuth,
  takePendingOAuth,
  waitForCredential,
} from './oauth.ts';

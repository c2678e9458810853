/** Google's OAuth 2.0 endpoints, shared by the Google connectors: https://developers.google.com/identity/protocols/oauth2/web-server */
export const googleOAuth = {
  type: 'oauth2',
  authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  pkce: true,
  // Without offline access and a fresh consent Google issues no refresh token.
  authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
} as const;

import {
  type ConnectorDefinition,
  type ConnectorRuntime,
  type CredentialSecrets,
  EgressDenied,
  egressFetch,
  type ProviderCallInfo,
} from '@inlay/connectors';
import * as oauth from 'oauth4webapi';
import type { OAuthClientApp } from './oauth-apps.ts';
import { normalizeTokenResponses } from './token-response.ts';

export type TokenSet = NonNullable<CredentialSecrets['oauth']>;

/** A failed authorization or token request. `transient` failures (network, 5xx) say nothing about the grant. */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly reason: string,
    readonly transient: boolean,
    /** The provider's error code (`access_denied`, `invalid_grant`...), or Inlay's own for a refusal it made. */
    readonly code?: string,
  ) {
    super(reason);
  }
}

/** Which provider to talk to, as whom: the connector, the user's non-secret fields (a shop, a domain) and the account's app. */
export interface ProviderTarget {
  def: ConnectorDefinition;
  fields: Record<string, string>;
  app: OAuthClientApp;
  /** Told of each token request (method, URL, status, time, size; never headers or bodies), for the call log. */
  onCall?: (call: ProviderCallInfo) => void;
}

export interface OAuthClientOptions {
  /** Whether a plain-http endpoint may be used (local sandboxes and tests); https is always allowed. */
  allowHttp: (url: URL) => boolean;
  timeoutMs?: number;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
export const isLoopback = (url: URL) => LOOPBACK.has(url.hostname);

/**
 * The authorization code flow (RFC 6749 + PKCE, RFC 7636) and refresh grant over oauth4webapi. Endpoints
 * come from the connector with the deployment's `INLAY_CONNECTOR_<ID>_*_URL` overrides applied. Token
 * requests go through the runtime's egress policy: an operator's token URL is trusted as written, one
 * filled from a user's fields (a Shopify shop) must resolve to a public address like any other request.
 */
export class OAuthClient {
  constructor(
    private readonly runtime: ConnectorRuntime,
    private readonly opts: OAuthClientOptions,
  ) {}

  /** The provider's consent URL. */
  authorizeUrl(t: ProviderTarget, p: { redirectUri: string; state: string; codeChallenge?: string }): string {
    const auth = this.#auth(t.def);
    const url = this.#endpoint(t, 'authorizeUrl');
    const scopes = t.app.scopes.length ? t.app.scopes : auth.scopes;
    const q = url.searchParams;
    q.set('response_type', 'code');
    q.set('client_id', t.app.clientId);
    q.set('redirect_uri', p.redirectUri);
    if (scopes.length) q.set('scope', scopes.join(auth.scopeSeparator ?? ' '));
    q.set('state', p.state);
    if (p.codeChallenge) {
      q.set('code_challenge', p.codeChallenge);
      q.set('code_challenge_method', 'S256');
    }
    for (const [k, v] of Object.entries(auth.authorizeParams ?? {})) q.set(k, v);
    return url.href;
  }

  /** Turns the callback's parameters into tokens. Provider errors (denied consent included) become OAuthError. */
  async exchangeCode(
    t: ProviderTarget,
    p: { params: URLSearchParams; state: string; redirectUri: string; codeVerifier?: string },
  ): Promise<TokenSet> {
    return this.#call(t, async (as, client, clientAuth, options) => {
      // RFC 9207: a response that names its issuer must name this connector's, else it came from another
      // authorization server (a mix-up) and its code is never sent to this connector's token endpoint.
      const params = new URLSearchParams(p.params);
      const iss = params.get('iss');
      if (iss !== null) {
        const auth = this.#auth(t.def);
        const authorize = this.#endpoint(t, 'authorizeUrl');
        const expected = auth.issuer ?? authorize.origin;
        const same = auth.issuer ? iss === auth.issuer : URL.parse(iss)?.origin === authorize.origin;
        if (!same)
          throw new OAuthError(
            `issuer_mismatch: the authorization response came from another server (issuer ${iss.slice(0, 200)}, expected ${expected}); connect again`,
            false,
            'issuer_mismatch',
          );
      }
      params.delete('iss');
      const checked = oauth.validateAuthResponse(as, client, params, p.state);
      const res = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuth,
        checked,
        p.redirectUri,
        p.codeVerifier ?? oauth.nopkce,
        options,
      );
      return oauth.processAuthorizationCodeResponse(as, client, res);
    });
  }

  /** Exchanges a refresh token; a provider that issues no new refresh token keeps the old one valid. */
  async refresh(t: ProviderTarget, refreshToken: string): Promise<TokenSet> {
    const tokens = await this.#call(t, async (as, client, clientAuth, options) => {
      const res = await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, options);
      return oauth.processRefreshTokenResponse(as, client, res);
    });
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  }

  async #call(
    t: ProviderTarget,
    run: (
      as: oauth.AuthorizationServer,
      client: oauth.Client,
      clientAuth: oauth.ClientAuth,
      options: oauth.TokenEndpointRequestOptions,
    ) => Promise<oauth.TokenEndpointResponse>,
  ): Promise<TokenSet> {
    const auth = this.#auth(t.def);
    const tokenUrl = this.#endpoint(t, 'tokenUrl');
    const as: oauth.AuthorizationServer = {
      issuer: tokenUrl.origin,
      token_endpoint: tokenUrl.href,
      authorization_endpoint: this.#endpoint(t, 'authorizeUrl').href,
    };
    const client: oauth.Client = { client_id: t.app.clientId };
    const clientAuth =
      auth.tokenAuth === 'basic'
        ? oauth.ClientSecretBasic(t.app.clientSecret)
        : oauth.ClientSecretPost(t.app.clientSecret);
    const transport = egressFetch(this.runtime.egress, {
      trustedOrigin: this.runtime.operatorOrigin(t.def, 'TOKEN_URL'),
      maxBytes: 2 * 1024 * 1024,
      onCall: t.onCall,
    });
    const options = {
      [oauth.customFetch]: normalizeTokenResponses(transport, this.opts.timeoutMs ?? 15_000),
      [oauth.allowInsecureRequests]: tokenUrl.protocol === 'http:',
    };
    let res: oauth.TokenEndpointResponse;
    try {
      res = await run(as, client, clientAuth, options);
    } catch (err) {
      throw toOAuthError(err);
    }
    return {
      accessToken: res.access_token,
      ...(res.refresh_token ? { refreshToken: res.refresh_token } : {}),
      tokenType: res.token_type,
      ...(typeof res.expires_in === 'number'
        ? {
            expiresAt: new Date(Date.now() + res.expires_in * 1000).toISOString(),
            obtainedAt: new Date().toISOString(),
          }
        : {}),
      ...(res.scope ? { scope: res.scope } : {}),
    };
  }

  #auth(def: ConnectorDefinition) {
    if (def.auth.type !== 'oauth2') throw new OAuthError(`${def.id} does not use OAuth 2.0`, false);
    return def.auth;
  }

  #endpoint(t: ProviderTarget, which: 'authorizeUrl' | 'tokenUrl'): URL {
    const endpoints = this.runtime.oauthEndpoints(t.def, this.runtime.settings(t.def, { fields: t.fields }));
    let url: URL;
    try {
      url = new URL(endpoints![which]);
    } catch {
      throw new OAuthError(`${t.def.id}: the ${which} is not a valid URL`, false);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.opts.allowHttp(url)))
      throw new OAuthError(`${t.def.id}: the ${which} must use https`, false);
    return url;
  }
}

/** The provider's own words where it gave some (`error: error_description`), else what went wrong. */
export function toOAuthError(err: unknown): OAuthError {
  if (err instanceof OAuthError) return err;
  // A refusal says the endpoint is not allowed, not that it is down: not worth a retry.
  if (err instanceof EgressDenied) return new OAuthError(err.message, false);
  if (err instanceof oauth.AuthorizationResponseError || err instanceof oauth.ResponseBodyError)
    return new OAuthError(
      err.error_description ? `${err.error}: ${err.error_description}` : err.error,
      false,
      err.error,
    );
  if (err instanceof oauth.WWWAuthenticateChallengeError) {
    const error = err.cause[0]?.parameters.error;
    return new OAuthError(
      `HTTP ${err.status}${error ? `: ${error}` : ': the provider rejected the client'}`,
      false,
    );
  }
  if (err instanceof oauth.OperationProcessingError) {
    const res = err.cause instanceof Response ? err.cause : undefined;
    if (res) return new OAuthError(`the token endpoint answered HTTP ${res.status}`, res.status >= 500);
    return new OAuthError(`the provider's answer was not usable: ${err.message}`, false);
  }
  const e = err as Error;
  const timedOut = e?.name === 'TimeoutError' || e?.name === 'AbortError';
  return new OAuthError(
    timedOut
      ? 'the token endpoint did not answer in time'
      : `could not reach the token endpoint: ${e?.message}`,
    true,
  );
}

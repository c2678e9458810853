import { randomUUID } from 'node:crypto';
import type { CreateOAuthCredentialBody, CredentialStatus, OAuthStartResponse } from '@inlay/contract';
import { and, eq } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { sha256 } from '../accounts/api-keys.ts';
import type { AppContext } from '../context.ts';
import { invalid, notFound, unprocessable } from '../http/problem.ts';
import { credentials } from '../store/schema.ts';
import { checkCredentialFields } from './credential-fields.ts';
import { shortReason } from './credentials.ts';
import { loadOAuthApp, oauthRedirectUri, oauthStartUrl } from './oauth-apps.ts';
import { OAuthError } from './oauth-client.ts';
import { consumeState, newState, saveState } from './oauth-states.ts';
import { RedirectTargets } from './redirect-targets.ts';

/** The origin of an http(s) URL, or undefined for anything else (`null` origins, other schemes, garbage). */
export function httpOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the authorization code flow: a pending credential, a single-use state (10 minutes, bound to the
 * user, stored hashed with the PKCE verifier sealed), and the provider's consent URL.
 */
export async function startOAuth(
  ctx: AppContext,
  req: {
    accountId: string;
    userId: string;
    body: CreateOAuthCredentialBody;
    /** The browser's Origin header: where a popup posts its result when the body names no origin. */
    requestOrigin?: string;
  },
): Promise<OAuthStartResponse> {
  const { body } = req;
  const def = (await ctx.registry.forAccount(req.accountId)).get(body.connector);
  if (!def) throw unprocessable('body.connector', 'exists', `no connector "${body.connector}"`);
  if (def.auth.type !== 'oauth2')
    throw unprocessable(
      'body.connector',
      'auth_type',
      `${def.id} uses ${def.auth.type} credentials, not OAuth: use POST /credentials`,
    );
  const existing = body.credentialId ? await reconnectTarget(ctx, req, def.id, body.credentialId) : undefined;
  const fields = checkCredentialFields(
    def.auth.fields ?? [],
    body.data ?? existing?.fields ?? {},
    'body.data',
  );
  const app = await loadOAuthApp(ctx.db, ctx.vault, req.accountId, def.id);
  if (!app)
    throw unprocessable(
      'body.connector',
      'oauth_app',
      `no OAuth app is registered for ${def.id}: PUT /connectors/${def.id}/oauth-app first`,
    );
  const popup = body.popup ?? body.redirectUri === undefined;
  if (!popup && !body.redirectUri)
    throw invalid('body.redirectUri', 'required', 'is required when popup is false');
  // Both where the browser is sent and where the popup posts its result must be the account's own pages.
  const targets = await RedirectTargets.of(ctx, req.accountId);
  if (body.redirectUri !== undefined) targets.check(body.redirectUri, 'body.redirectUri');
  let origin: string | undefined;
  if (popup) {
    const [value, field] =
      body.origin !== undefined
        ? [body.origin, 'body.origin']
        : body.redirectUri !== undefined
          ? [body.redirectUri, 'body.redirectUri']
          : [httpOrigin(req.requestOrigin), 'header.origin'];
    if (!value)
      throw invalid(
        'body.origin',
        'required',
        'is required for a popup (the origin its result is posted to) when neither redirectUri nor an Origin header gives one',
      );
    origin = targets.check(value, field);
  }

  const state = newState();
  const startToken = newState();
  const codeVerifier = def.auth.pkce ? oauth.generateRandomCodeVerifier() : undefined;
  let authorizeUrl: string;
  try {
    authorizeUrl = ctx.credentials.oauth!.authorizeUrl(
      { def, fields, app },
      {
        redirectUri: oauthRedirectUri(ctx.config.publicUrl, def.id, ctx.config.oauthSharedRedirect),
        state,
        codeChallenge: codeVerifier ? await oauth.calculatePKCECodeChallenge(codeVerifier) : undefined,
      },
    );
  } catch (err) {
    if (err instanceof OAuthError) throw unprocessable('body.connector', 'oauth_endpoint', err.reason);
    throw err;
  }
  const credentialId = existing?.id ?? randomUUID();
  await ctx.db.transaction(async (tx) => {
    // A reconnect keeps the credential (and its tokens) as it is until the new consent completes.
    if (!existing)
      await tx.insert(credentials).values({
        id: credentialId,
        accountId: req.accountId,
        userId: req.userId,
        connector: def.id,
        name: body.name ?? def.name,
        type: 'oauth2',
        status: 'pending',
      });
    await saveState(tx, ctx.vault, {
      state,
      accountId: req.accountId,
      userId: req.userId,
      credentialId,
      redirectUri: body.redirectUri ?? null,
      popup,
      origin: origin ?? null,
      startToken,
      secrets: { codeVerifier, fields, authorizeUrl, ...(existing ? { reconnect: true } : {}) },
    });
  });
  // The browser goes to the provider through Inlay's start link, which binds the flow to it (a cookie the
  // callback requires): a consent link handed to someone else's browser connects nothing.
  return { credentialId, authorizeUrl: oauthStartUrl(ctx.config.publicUrl, startToken) };
}

/**
 * The credential `POST /credentials/oauth {credentialId}` reconnects: the user's own, of the same
 * connector; another user's is a 404 like a missing one. Its non-secret fields (a shop) are kept.
 */
async function reconnectTarget(
  ctx: AppContext,
  req: { accountId: string; userId: string },
  connector: string,
  credentialId: string,
): Promise<{ id: string; fields?: Record<string, string> }> {
  const row = await ctx.credentials.find(req.accountId, req.userId, credentialId);
  if (!row) throw notFound('Credential');
  if (row.connector !== connector)
    throw unprocessable(
      'body.credentialId',
      'connector',
      `is a ${row.connector} credential, not ${connector}`,
    );
  return { id: row.id, fields: row.sealed ? ctx.credentials.open(row).fields : undefined };
}

export type CallbackOutcome =
  | { ok: false; why: 'missing' | 'unknown' | 'used' | 'expired' | 'not_started' | 'browser' | 'callback' }
  | {
      ok: true;
      credentialId: string;
      status: Extract<CredentialStatus, 'connected' | 'failed'>;
      reason?: string;
      /** With `failed`: the provider's error code (`access_denied`...), else `failed`. */
      code?: string;
      popup: boolean;
      origin: string | null;
      redirectUri: string | null;
    };

/**
 * Handles the provider's redirect: spends the state, exchanges the code (with the PKCE verifier and the
 * client authentication the connector wants) and stores the tokens sealed. A provider error or denied
 * consent marks the credential `failed` with the provider's reason. A missing, spent or expired state, or
 * a callback from a browser without the start link's cookie, changes nothing; nor does a response that came
 * back to another connector's callback than the flow's (`arrivedAt`: the redirect URI it came back to), whose
 * code is never exchanged.
 */
export async function completeOAuth(
  ctx: AppContext,
  params: URLSearchParams,
  /** The nonce of this flow's browser cookie, if the request carries one (looked up by the state's hash). */
  presented: (stateHash: string) => string | undefined,
  arrivedAt: string,
): Promise<CallbackOutcome> {
  const state = params.get('state');
  if (!state) return { ok: false, why: 'missing' };
  const spent = await consumeState(ctx.db, ctx.vault, state, presented(sha256(state)));
  if (!spent.ok) return spent;
  const { row, secrets } = spent;
  const [cred] = await ctx.db
    .select()
    .from(credentials)
    .where(
      and(
        eq(credentials.id, row.credentialId),
        eq(credentials.accountId, row.accountId),
        eq(credentials.userId, row.userId),
      ),
    );
  if (!cred || (!secrets.reconnect && cred.status !== 'pending')) return { ok: false, why: 'used' };
  const redirectUri = oauthRedirectUri(ctx.config.publicUrl, cred.connector, ctx.config.oauthSharedRedirect);
  if (arrivedAt !== redirectUri) {
    ctx.logger.warn(
      { credentialId: cred.id, connector: cred.connector },
      'OAuth response came back to another callback than its flow’s; its code was not exchanged',
    );
    return { ok: false, why: 'callback' };
  }
  const done = (status: 'connected' | 'failed', reason?: string, code?: string): CallbackOutcome => ({
    ok: true,
    credentialId: cred.id,
    status,
    ...(reason ? { reason } : {}),
    ...(code ? { code } : {}),
    popup: row.popup,
    origin: row.origin,
    redirectUri: row.redirectUri,
  });
  const failed = async (reason: string, code = 'failed') => {
    await ctx.credentials.fail(cred, reason);
    ctx.logger.info({ credentialId: cred.id, connector: cred.connector, reason }, 'OAuth connection failed');
    return done('failed', shortReason(reason), code.slice(0, 64));
  };

  const def = (await ctx.registry.forAccount(cred.accountId)).get(cred.connector);
  const app = def && (await loadOAuthApp(ctx.db, ctx.vault, cred.accountId, cred.connector));
  if (!def || !app) return failed(`No OAuth app is registered for ${cred.connector} any more`);
  try {
    const onCall = ctx.providerCalls.listener({
      accountId: cred.accountId,
      userId: cred.userId,
      credentialId: cred.id,
      connector: cred.connector,
      kind: 'oauth',
    });
    const tokens = await ctx.credentials.oauth!.exchangeCode(
      { def, fields: secrets.fields, app, onCall },
      {
        params,
        state,
        redirectUri,
        codeVerifier: secrets.codeVerifier,
      },
    );
    const reconnect = secrets.reconnect === true;
    if (!(await ctx.credentials.connect(cred, { fields: secrets.fields, oauth: tokens }, { reconnect })))
      return { ok: false, why: 'used' };
    ctx.logger.info({ credentialId: cred.id, connector: cred.connector }, 'OAuth connection completed');
    return done('connected');
  } catch (err) {
    if (err instanceof OAuthError) return failed(err.reason, err.code);
    throw err;
  }
}

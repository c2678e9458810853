import type { OAuthApp } from '@inlay/contract';
import { and, eq } from 'drizzle-orm';
import { oauthApps } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { rowAad, type Vault } from './vault.ts';

export type OAuthAppRow = typeof oauthApps.$inferSelect;

/** The account's OAuth client for one connector, secret decrypted: in memory only. */
export interface OAuthClientApp {
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

export const oauthAppAad = (row: { accountId: string; connector: string }) =>
  rowAad('oauth_apps', row.accountId, row.connector);

/**
 * The redirect URI a connector's provider app registers: a callback per connector, so a response that comes back
 * to another connector's callback (an authorization server mix-up, RFC 9700 §4.4) is refused before any code is
 * exchanged. With `shared` (`INLAY_OAUTH_SHARED_REDIRECT`), the one callback of every connector.
 */
export const oauthRedirectUri = (publicUrl: string, connector: string, shared = false) =>
  shared ? `${publicUrl}/oauth/callback` : `${publicUrl}/oauth/callback/${encodeURIComponent(connector)}`;

/** Inlay's start link for one flow: the `authorizeUrl` handed out; it redirects to the provider. */
export const oauthStartUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/oauth/start?flow=${encodeURIComponent(token)}`;

/**
 * The path of the flow's browser cookie: below the public URL's `/oauth`, so the browser sends it to the
 * start link (a reopened popup) and the callback, and to nothing else of the service (or of a host that
 * relays Inlay under its own origin).
 */
export const oauthCookiePath = (publicUrl: string) =>
  `${new URL(publicUrl).pathname.replace(/\/+$/, '')}/oauth`;

/** Creates or replaces the account's app for a connector; the client secret is sealed to its row. */
export async function saveOAuthApp(
  db: Db,
  vault: Vault,
  app: { accountId: string; connector: string; clientId: string; clientSecret: string; scopes: string[] },
): Promise<OAuthAppRow> {
  const now = new Date();
  const values = {
    accountId: app.accountId,
    connector: app.connector,
    clientId: app.clientId,
    clientSecretSealed: vault.seal(app.clientSecret, oauthAppAad(app)),
    keyId: vault.keyId,
    scopes: app.scopes,
    updatedAt: now,
  };
  const [row] = await db
    .insert(oauthApps)
    .values(values)
    .onConflictDoUpdate({ target: [oauthApps.accountId, oauthApps.connector], set: values })
    .returning();
  return row!;
}

export async function loadOAuthApp(
  db: Db,
  vault: Vault,
  accountId: string,
  connector: string,
): Promise<OAuthClientApp | undefined> {
  const [row] = await db
    .select()
    .from(oauthApps)
    .where(and(eq(oauthApps.accountId, accountId), eq(oauthApps.connector, connector)));
  if (!row) return undefined;
  return {
    clientId: row.clientId,
    clientSecret: vault.open(row.clientSecretSealed, oauthAppAad(row)),
    scopes: row.scopes,
  };
}

export const toOAuthApp = (row: OAuthAppRow, publicUrl: string, sharedRedirect = false): OAuthApp => ({
  connector: row.connector,
  clientId: row.clientId,
  scopes: row.scopes,
  redirectUri: oauthRedirectUri(publicUrl, row.connector, sharedRedirect),
  updatedAt: row.updatedAt.toISOString(),
});

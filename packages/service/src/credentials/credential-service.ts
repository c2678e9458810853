import { randomUUID } from 'node:crypto';
import type { ConnectorRuntime, CredentialSecrets } from '@inlay/connectors';
import type { AuthType } from '@inlay/contract';
import { and, eq } from 'drizzle-orm';
import type { Logger } from '../logger.ts';
import { credentials } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { shortReason } from './credentials.ts';
import { loadOAuthApp } from './oauth-apps.ts';
import { type OAuthClient, type TokenSet, toOAuthError } from './oauth-client.ts';
import { rowAad, type Vault } from './vault.ts';

export type CredentialRow = typeof credentials.$inferSelect;

/** A credential ready for the connector runtime: secrets in memory only. */
export interface ResolvedCredential {
  credentialId: string;
  connector: string;
  secrets: CredentialSecrets;
  /** Refreshes an OAuth token after a 401; undefined when it cannot (the credential is then `expired`). */
  refresh(): Promise<CredentialSecrets | undefined>;
}

export const credentialAad = (accountId: string, credentialId: string) =>
  rowAad('credentials', accountId, credentialId);

export interface CredentialServiceOptions {
  connectors: ConnectorRuntime;
  oauth: OAuthClient;
  logger?: Logger;
  /** How long before expiry an access token is refreshed; two minutes by default. */
  refreshAheadMs?: number;
}

/** How long a refreshed token is handed out again instead of refreshing once more after a 401. */
const RECENT_REFRESH_MS = 60_000;

type RefreshMode = { ahead: true } | { ahead?: false; staleToken?: string };

const expiresAtOf = (tokens: TokenSet | undefined) => (tokens?.expiresAt ? new Date(tokens.expiresAt) : null);

/**
 * The one place credential secrets are sealed and opened. Callers (engine, MCP, option sources) only ever
 * see `ResolvedCredential`. OAuth tokens are refreshed ahead of expiry and after a 401, once per credential
 * at a time in this process; writes are compare-and-swap on the sealed value, so API nodes that refresh
 * the same credential concurrently keep whichever token landed first instead of overwriting each other.
 */
export class CredentialService {
  readonly #inflight = new Map<string, Promise<CredentialSecrets | undefined>>();

  constructor(
    protected readonly db: Db,
    protected readonly vault: Vault,
    protected readonly options?: CredentialServiceOptions,
  ) {}

  /** The OAuth client the flow and refreshes use; undefined when the service was built without one. */
  get oauth(): OAuthClient | undefined {
    return this.options?.oauth;
  }

  seal(accountId: string, credentialId: string, secrets: CredentialSecrets) {
    return {
      sealed: this.vault.sealJson(secrets, credentialAad(accountId, credentialId)),
      keyId: this.vault.keyId,
    };
  }

  open(row: Pick<CredentialRow, 'accountId' | 'id' | 'sealed'>): CredentialSecrets {
    if (!row.sealed) throw new Error(`credential ${row.id} holds no secrets yet`);
    return this.vault.openJson<CredentialSecrets>(row.sealed, credentialAad(row.accountId, row.id));
  }

  async find(accountId: string, userId: string, credentialId: string): Promise<CredentialRow | undefined> {
    const [row] = await this.db
      .select()
      .from(credentials)
      .where(
        and(
          eq(credentials.id, credentialId),
          eq(credentials.userId, userId),
          eq(credentials.accountId, accountId),
        ),
      );
    return row;
  }

  /** Stores a credential that is usable now (API key, basic); its secrets sealed to the new row. */
  async create(c: {
    accountId: string;
    userId: string;
    connector: string;
    name: string;
    type: AuthType;
    secrets: CredentialSecrets;
  }): Promise<CredentialRow> {
    const id = randomUUID();
    const [row] = await this.db
      .insert(credentials)
      .values({
        id,
        accountId: c.accountId,
        userId: c.userId,
        connector: c.connector,
        name: c.name,
        type: c.type,
        status: 'connected',
        ...this.seal(c.accountId, id, c.secrets),
        expiresAt: expiresAtOf(c.secrets.oauth),
      })
      .returning();
    return row!;
  }

  /** Completes a pending OAuth credential with its tokens; false when it is no longer pending. */
  async connect(row: Pick<CredentialRow, 'accountId' | 'id'>, secrets: CredentialSecrets): Promise<boolean> {
    const done = await this.db
      .update(credentials)
      .set({
        ...this.seal(row.accountId, row.id, secrets),
        status: 'connected',
        statusReason: null,
        expiresAt: expiresAtOf(secrets.oauth),
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(credentials.id, row.id),
          eq(credentials.accountId, row.accountId),
          eq(credentials.status, 'pending'),
        ),
      )
      .returning({ id: credentials.id });
    return done.length > 0;
  }

  /** Marks a pending OAuth credential failed with the provider's reason. */
  async fail(row: Pick<CredentialRow, 'accountId' | 'id'>, reason: string): Promise<void> {
    await this.db
      .update(credentials)
      .set({ status: 'failed', statusReason: shortReason(reason), updatedAt: new Date() })
      .where(
        and(
          eq(credentials.id, row.id),
          eq(credentials.accountId, row.accountId),
          eq(credentials.status, 'pending'),
        ),
      );
  }

  /**
   * The user's connected credential, decrypted; undefined when it is missing, not the user's, or not usable.
   * An OAuth token close to expiry is refreshed first.
   */
  async resolve(
    accountId: string,
    userId: string,
    credentialId: string,
  ): Promise<ResolvedCredential | undefined> {
    const row = await this.find(accountId, userId, credentialId);
    if (row?.status !== 'connected' || !row.sealed) return undefined;
    let secrets: CredentialSecrets | undefined = this.open(row);
    if (row.type === 'oauth2' && this.#due(row)) {
      secrets = await this.#refresh(row, { ahead: true });
      if (!secrets) return undefined;
    }
    let current = secrets;
    let refreshedAt = 0;
    return {
      credentialId: row.id,
      connector: row.connector,
      secrets,
      refresh: async () => {
        if (row.type !== 'oauth2') return undefined;
        // A caller that pinned the secrets it got first (the runtime does, for every page of a listing)
        // meets a 401 again with the old token: hand it the token refreshed moments ago, not a new refresh.
        if (Date.now() - refreshedAt < RECENT_REFRESH_MS) return current;
        const fresh = await this.#refresh(row, { staleToken: current.oauth?.accessToken });
        if (fresh) {
          current = fresh;
          refreshedAt = Date.now();
        }
        return fresh;
      },
    };
  }

  #due(row: CredentialRow): boolean {
    if (!row.expiresAt) return false;
    return row.expiresAt.getTime() - Date.now() <= (this.options?.refreshAheadMs ?? 120_000);
  }

  /** Single-flight per credential: concurrent callers share one refresh request. */
  #refresh(row: CredentialRow, mode: RefreshMode): Promise<CredentialSecrets | undefined> {
    const pending = this.#inflight.get(row.id);
    if (pending) return pending;
    const p = this.#doRefresh(row.accountId, row.id, mode).finally(() => this.#inflight.delete(row.id));
    this.#inflight.set(row.id, p);
    return p;
  }

  async #reload(accountId: string, id: string): Promise<CredentialRow | undefined> {
    const [row] = await this.db
      .select()
      .from(credentials)
      .where(and(eq(credentials.id, id), eq(credentials.accountId, accountId)));
    return row;
  }

  /** What another writer left: its secrets when the credential is still connected. */
  #usable(row: CredentialRow | undefined): CredentialSecrets | undefined {
    return row && row.status === 'connected' && row.sealed ? this.open(row) : undefined;
  }

  async #doRefresh(accountId: string, id: string, mode: RefreshMode): Promise<CredentialSecrets | undefined> {
    const row = await this.#reload(accountId, id);
    if (row?.status !== 'connected' || !row.sealed || row.type !== 'oauth2') return undefined;
    const secrets = this.open(row);
    // Another caller refreshed since this one read its token (or it is no longer due): use that token.
    if (mode.ahead ? !this.#due(row) : mode.staleToken !== secrets.oauth?.accessToken) return secrets;
    const opts = this.options;
    const def = opts?.connectors.get(row.connector);
    const refreshToken = secrets.oauth?.refreshToken;
    const stillValid = mode.ahead && row.expiresAt !== null && row.expiresAt.getTime() > Date.now();
    if (!opts || !def) return stillValid ? secrets : undefined;
    if (!refreshToken) {
      if (stillValid) return secrets;
      await this.#expire(row, 'The access token expired and the provider issued no refresh token; reconnect');
      return undefined;
    }
    const app = await loadOAuthApp(this.db, this.vault, row.accountId, row.connector);
    if (!app) {
      await this.#expire(row, `No OAuth app is registered for ${row.connector} any more; reconnect`);
      return undefined;
    }
    try {
      const tokens = await opts.oauth.refresh({ def, fields: secrets.fields, app }, refreshToken);
      const next: CredentialSecrets = { fields: secrets.fields, oauth: tokens };
      const written = await this.db
        .update(credentials)
        .set({
          ...this.seal(row.accountId, row.id, next),
          expiresAt: expiresAtOf(tokens),
          statusReason: null,
          updatedAt: new Date(),
        })
        .where(and(eq(credentials.id, row.id), eq(credentials.sealed, row.sealed)))
        .returning({ id: credentials.id });
      if (written.length === 0) return this.#usable(await this.#reload(accountId, id));
      opts.logger?.debug({ credentialId: row.id, connector: row.connector }, 'refreshed an OAuth token');
      return next;
    } catch (err) {
      const e = toOAuthError(err);
      opts.logger?.warn(
        { credentialId: row.id, connector: row.connector, reason: e.reason, transient: e.transient },
        'OAuth token refresh failed',
      );
      // A network failure says nothing about the grant: keep the credential, let the caller retry later.
      if (e.transient) return mode.ahead ? secrets : undefined;
      // With rotating refresh tokens a concurrent refresh elsewhere invalidates ours: theirs is the good one.
      const now = await this.#reload(accountId, id);
      if (now && now.sealed !== row.sealed) return this.#usable(now);
      await this.#expire(row, `Refreshing the access token failed: ${e.reason}`);
      return undefined;
    }
  }

  async #expire(row: CredentialRow, reason: string): Promise<void> {
    await this.db
      .update(credentials)
      .set({ status: 'expired', statusReason: shortReason(reason), updatedAt: new Date() })
      .where(and(eq(credentials.id, row.id), eq(credentials.sealed, row.sealed!)));
  }
}

import { randomUUID } from 'node:crypto';
import type { ConnectorRuntime, CredentialSecrets, TestVerdict } from '@inlay/connectors';
import type { AuthType, CredentialStatus } from '@inlay/contract';
import { and, eq, type SQL } from 'drizzle-orm';
import type { Logger } from '../logger.ts';
import type { ProviderCallLog } from '../provider-calls/provider-call-log.ts';
import { credentials } from '../store/schema.ts';
import type { Db, Tx } from '../store/store.ts';
import type { CredentialRow } from './credential-row.ts';
import { shortReason } from './credentials.ts';
import { loadOAuthApp } from './oauth-apps.ts';
import { type OAuthClient, type TokenSet, toOAuthError } from './oauth-client.ts';
import { rowAad, type Vault } from './vault.ts';

export type { CredentialRow };

/** A credential ready for the connector runtime: secrets in memory only. */
export interface ResolvedCredential {
  credentialId: string;
  connector: string;
  secrets: CredentialSecrets;
  /** Refreshes an OAuth token after a 401; undefined when it cannot (the credential then `needs_reconnect`). */
  refresh(): Promise<CredentialSecrets | undefined>;
  /**
   * The provider still refuses the credential (after the refresh and retry, for OAuth): an OAuth credential
   * becomes `needs_reconnect`; an API-key or basic one does when its test request is refused too. True when
   * the credential now needs reconnecting.
   */
  authRefused(reason: string): Promise<boolean>;
}

/** A credential's status changed: what webhooks and logs hear about. */
export interface StatusChange {
  row: CredentialRow;
  from: CredentialStatus;
}

export const credentialAad = (accountId: string, credentialId: string) =>
  rowAad('credentials', accountId, credentialId);

export interface CredentialServiceOptions {
  /** The connectors an account can use (the built-ins and its own). */
  connectors: { forAccount(accountId: string): Promise<ConnectorRuntime> };
  oauth: OAuthClient;
  logger?: Logger;
  /** How long before expiry an access token is refreshed; two minutes by default. */
  refreshAheadMs?: number;
  /**
   * Lock the credential row (`SELECT … FOR UPDATE`) around a refresh, so API nodes sharing one PostgreSQL
   * never refresh the same credential twice. Off on PGlite, where one process owns the database and the
   * in-process single flight is enough (and a long transaction would stall every other query).
   */
  rowLocks?: boolean;
  /** Where each test request is logged (`GET /provider-calls`). */
  calls?: ProviderCallLog;
}

/** How long a refreshed token is handed out again instead of refreshing once more after a 401. */
const RECENT_REFRESH_MS = 60_000;

type RefreshMode = ({ ahead: true } | { ahead?: false; staleToken?: string }) & {
  /** `POST /credentials/{id}/test` may refresh a credential that needs reconnecting: it may work again. */
  retest?: boolean;
};

const expiresAtOf = (tokens: TokenSet | undefined) => (tokens?.expiresAt ? new Date(tokens.expiresAt) : null);

/**
 * The one place credential secrets are sealed and opened. Callers (engine, MCP, option sources) only ever
 * see `ResolvedCredential`. OAuth tokens are refreshed ahead of expiry and after a 401, once per credential
 * at a time in this process; writes are compare-and-swap on the sealed value, so API nodes that refresh
 * the same credential concurrently keep whichever token landed first instead of overwriting each other.
 */
export class CredentialService {
  readonly #inflight = new Map<string, Promise<CredentialSecrets | undefined>>();
  readonly #listeners: ((change: StatusChange) => void)[] = [];
  /** Whether the last refresh of each credential failed only transiently (read by `authRefused`). */
  readonly #transient = new Set<string>();

  constructor(
    protected readonly db: Db,
    protected readonly vault: Vault,
    protected readonly options?: CredentialServiceOptions,
  ) {}

  /** The OAuth client the flow and refreshes use; undefined when the service was built without one. */
  get oauth(): OAuthClient | undefined {
    return this.options?.oauth;
  }

  /** Hears every status change this process makes (connected, needs_reconnect, failed). */
  onStatusChange(fn: (change: StatusChange) => void): void {
    this.#listeners.push(fn);
  }

  #announce(row: CredentialRow, from: CredentialStatus) {
    if (row.status === from) return;
    for (const fn of this.#listeners) {
      try {
        fn({ row, from });
      } catch (err) {
        this.options?.logger?.error({ err, credentialId: row.id }, 'a credential status listener failed');
      }
    }
  }

  /**
   * Moves a credential to `status` when `guard` (and the id) still match; stamps `statusChangedAt` when the
   * status really changes, and tells the listeners. Returns the row as written, or undefined.
   */
  async #setStatus(
    q: Db | Tx,
    row: Pick<CredentialRow, 'accountId' | 'id' | 'status'>,
    status: CredentialStatus,
    reason: string | null,
    guard?: SQL,
    extra: Partial<typeof credentials.$inferInsert> = {},
  ): Promise<CredentialRow | undefined> {
    const now = new Date();
    const [written] = await q
      .update(credentials)
      .set({
        ...extra,
        status,
        statusReason: reason === null ? null : shortReason(reason),
        ...(row.status !== status ? { statusChangedAt: now } : {}),
        updatedAt: now,
      })
      .where(and(eq(credentials.id, row.id), eq(credentials.accountId, row.accountId), guard))
      .returning();
    if (written) this.#announce(written, row.status);
    return written;
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
    /** For a bound credential: the origins it may be sent to (also sealed inside `secrets`). */
    allowedOrigins?: string[];
    /** What the connector's test request said the account is. */
    accountLabel?: string;
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
        allowedOrigins: c.allowedOrigins ?? null,
        accountLabel: c.accountLabel ?? null,
      })
      .returning();
    this.#announce(row!, 'pending');
    return row!;
  }

  /** The connector's test request with these secrets: its verdict, with the account label when it passes. */
  async test(
    accountId: string,
    connector: string,
    secrets: CredentialSecrets,
    who?: { userId?: string; credentialId: string },
  ): Promise<TestVerdict> {
    const runtime = this.options && (await this.options.connectors.forAccount(accountId));
    if (!runtime) return { ok: true };
    return runtime.test(connector, secrets, { onCall: this.#logged(accountId, connector, who) });
  }

  /** The `onCall` that logs a test request of this credential, when there is a log. */
  #logged(accountId: string, connector: string, who?: { userId?: string; credentialId: string }) {
    return this.options?.calls?.listener({
      accountId,
      userId: who?.userId ?? null,
      credentialId: who?.credentialId ?? null,
      connector,
      kind: 'test',
    });
  }

  /**
   * Replaces an API-key or basic credential's secrets (already tested) in place: same id, so installations
   * keep it; a credential that needed reconnecting is connected again.
   */
  async replace(
    row: CredentialRow,
    secrets: CredentialSecrets,
    extra: { accountLabel?: string; allowedOrigins?: string[] },
  ): Promise<CredentialRow | undefined> {
    return this.#setStatus(this.db, row, 'connected', null, undefined, {
      ...this.seal(row.accountId, row.id, secrets),
      expiresAt: expiresAtOf(secrets.oauth),
      ...(extra.accountLabel ? { accountLabel: extra.accountLabel } : {}),
      ...(extra.allowedOrigins ? { allowedOrigins: extra.allowedOrigins } : {}),
    });
  }

  /** Renames a credential (its `name`, what pickers show next to the account label). */
  async rename(row: CredentialRow, name: string): Promise<CredentialRow | undefined> {
    const [written] = await this.db
      .update(credentials)
      .set({ name, updatedAt: new Date() })
      .where(and(eq(credentials.id, row.id), eq(credentials.accountId, row.accountId)))
      .returning();
    return written;
  }

  /**
   * Completes an OAuth credential with its tokens: a pending one, or (`reconnect`) one already connected or
   * needing reconnection, which keeps its id and installations. The connector's test request reads the
   * account label. False when the credential is no longer in a state the flow may complete.
   */
  async connect(
    row: Pick<CredentialRow, 'accountId' | 'id' | 'connector'>,
    secrets: CredentialSecrets,
    opts: { reconnect?: boolean } = {},
  ): Promise<boolean> {
    const verdict = await this.test(row.accountId, row.connector, secrets, { credentialId: row.id }).catch(
      () => undefined,
    );
    const label = verdict?.ok ? verdict.accountLabel : undefined;
    const [current] = await this.db
      .select({ status: credentials.status })
      .from(credentials)
      .where(and(eq(credentials.id, row.id), eq(credentials.accountId, row.accountId)));
    if (!current) return false;
    const allowed: CredentialStatus[] = opts.reconnect
      ? ['pending', 'connected', 'needs_reconnect', 'failed']
      : ['pending'];
    if (!allowed.includes(current.status)) return false;
    const done = await this.#setStatus(
      this.db,
      { ...row, status: current.status },
      'connected',
      null,
      eq(credentials.status, current.status),
      {
        ...this.seal(row.accountId, row.id, secrets),
        expiresAt: expiresAtOf(secrets.oauth),
        ...(label ? { accountLabel: label } : {}),
      },
    );
    return done !== undefined;
  }

  /** Marks a pending OAuth credential failed with the provider's reason. */
  async fail(row: Pick<CredentialRow, 'accountId' | 'id'>, reason: string): Promise<void> {
    await this.#setStatus(
      this.db,
      { ...row, status: 'pending' },
      'failed',
      reason,
      eq(credentials.status, 'pending'),
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
    if (row.type === 'oauth2' && this.#due(row, secrets)) {
      secrets = await this.#refresh(row, { ahead: true });
      if (!secrets) return undefined;
    }
    let current = secrets;
    let refreshedAt = 0;
    let tested: Promise<boolean> | undefined;
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
      authRefused: (reason) => {
        tested ??= this.#authRefused(row, current, reason);
        return tested;
      },
    };
  }

  /** See `ResolvedCredential.authRefused`. */
  async #authRefused(row: CredentialRow, secrets: CredentialSecrets, reason: string): Promise<boolean> {
    if (row.type === 'oauth2') {
      // The refresh could not reach the provider: that says nothing about the grant.
      if (this.#transient.has(row.id)) return false;
      const now = await this.#reload(row.accountId, row.id);
      if (now?.status === 'needs_reconnect') return true;
      if (now?.status !== 'connected') return false;
      await this.#setStatus(
        this.db,
        now,
        'needs_reconnect',
        `${row.connector} refused the credential: ${reason}`,
        eq(credentials.status, 'connected'),
      );
      return true;
    }
    // An API key refused by one endpoint may lack a permission only: the test request decides.
    const verdict = await this.test(row.accountId, row.connector, secrets, {
      userId: row.userId,
      credentialId: row.id,
    });
    if (verdict.ok || !verdict.authFailure) return false;
    const now = await this.#reload(row.accountId, row.id);
    if (now?.status !== 'connected') return now?.status === 'needs_reconnect';
    await this.#setStatus(
      this.db,
      now,
      'needs_reconnect',
      `${row.connector} refused the credential: ${verdict.reason}`,
      eq(credentials.status, 'connected'),
    );
    return true;
  }

  /**
   * `POST /credentials/{id}/test`: tests the credential now (refreshing an OAuth token that is due or
   * refused), and records what it found: `connected` with the account label, or `needs_reconnect` when the
   * provider refuses it. A provider that cannot be reached changes nothing and is reported as `transient`.
   */
  async retest(row: CredentialRow): Promise<{ row: CredentialRow; transient?: string }> {
    if (!row.sealed || (row.status !== 'connected' && row.status !== 'needs_reconnect')) return { row };
    let secrets: CredentialSecrets | undefined = this.open(row);
    // A refresh ahead of expiry that the provider refused is not tried again after the old token's 401: the
    // refresh token is the same, and so would the answer be. The old token is still tested (it may be valid).
    let refused = false;
    if (row.type === 'oauth2' && this.#due(row, secrets)) {
      const fresh = await this.#refresh(row, { ahead: true, retest: true });
      if (fresh) secrets = fresh;
      else refused = true;
    }
    let current = secrets;
    const runtime = await this.options!.connectors.forAccount(row.accountId);
    const verdict = await runtime.test(row.connector, current, {
      onCall: this.#logged(row.accountId, row.connector, { userId: row.userId, credentialId: row.id }),
      onUnauthorized: async () => {
        if (row.type !== 'oauth2' || refused) return undefined;
        const fresh = await this.#refresh(row, { staleToken: current.oauth?.accessToken, retest: true });
        if (fresh) current = fresh;
        return fresh;
      },
    });
    const now = (await this.#reload(row.accountId, row.id)) ?? row;
    if (verdict.ok)
      return {
        row:
          (await this.#setStatus(this.db, now, 'connected', null, undefined, {
            ...(verdict.accountLabel ? { accountLabel: verdict.accountLabel } : {}),
          })) ?? now,
      };
    if (verdict.transient) return { row: now, transient: verdict.reason };
    if (!verdict.authFailure) return { row: now };
    if (now.status === 'needs_reconnect') return { row: now };
    return {
      row:
        (await this.#setStatus(
          this.db,
          now,
          'needs_reconnect',
          `${row.connector} refused the credential: ${verdict.reason}`,
        )) ?? now,
    };
  }

  /**
   * Whether a token is close enough to its expiry to refresh before use: within `refreshAheadMs` (2 minutes),
   * but never more than a quarter of its lifetime, so a token that lives 120 s is refreshed in its last 30 s
   * instead of on every call.
   */
  #due(row: CredentialRow, secrets: CredentialSecrets): boolean {
    if (!row.expiresAt) return false;
    const expires = row.expiresAt.getTime();
    const ahead = this.options?.refreshAheadMs ?? 120_000;
    const obtained = Date.parse(secrets.oauth?.obtainedAt ?? '');
    const lifetime = Number.isFinite(obtained) ? expires - obtained : Number.NaN;
    const window = lifetime > 0 ? Math.min(ahead, lifetime / 4) : ahead;
    return expires - Date.now() <= window;
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
    const seen = await this.#reload(accountId, id);
    if (!seen) return undefined;
    // Loaded before any lock is taken: a refresh holding a row lock never waits for another connection.
    const app = await loadOAuthApp(this.db, this.vault, seen.accountId, seen.connector);
    if (!this.options?.rowLocks) return this.#refreshRow(this.db, seen, mode, app);
    // The row lock makes every other node's refresh of this credential wait, then find the new token.
    return this.db.transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(credentials)
        .where(and(eq(credentials.id, id), eq(credentials.accountId, accountId)))
        .for('update');
      return locked ? this.#refreshRow(tx, locked, mode, app) : undefined;
    });
  }

  async #refreshRow(
    q: Db | Tx,
    row: CredentialRow,
    mode: RefreshMode,
    app: Awaited<ReturnType<typeof loadOAuthApp>>,
  ): Promise<CredentialSecrets | undefined> {
    const statusOk = row.status === 'connected' || (mode.retest && row.status === 'needs_reconnect');
    if (!statusOk || !row.sealed || row.type !== 'oauth2') return undefined;
    const secrets = this.open(row);
    // Another caller refreshed since this one read its token (or it is no longer due): use that token.
    if (mode.ahead ? !this.#due(row, secrets) : mode.staleToken !== secrets.oauth?.accessToken)
      return secrets;
    const opts = this.options;
    const def = opts && (await opts.connectors.forAccount(row.accountId)).get(row.connector);
    const refreshToken = secrets.oauth?.refreshToken;
    const stillValid = mode.ahead && row.expiresAt !== null && row.expiresAt.getTime() > Date.now();
    if (!opts || !def) return stillValid ? secrets : undefined;
    if (!refreshToken) {
      if (stillValid) return secrets;
      await this.#needsReconnect(
        q,
        row,
        'The access token expired and the provider issued no refresh token; reconnect',
      );
      return undefined;
    }
    if (!app) {
      await this.#needsReconnect(
        q,
        row,
        `No OAuth app is registered for ${row.connector} any more; reconnect`,
      );
      return undefined;
    }
    try {
      const onCall = opts.calls?.listener({
        accountId: row.accountId,
        userId: row.userId,
        credentialId: row.id,
        connector: row.connector,
        kind: 'oauth',
      });
      const tokens = await opts.oauth.refresh({ def, fields: secrets.fields, app, onCall }, refreshToken);
      this.#transient.delete(row.id);
      const next: CredentialSecrets = { fields: secrets.fields, oauth: tokens };
      const written = await this.#setStatus(q, row, 'connected', null, eq(credentials.sealed, row.sealed), {
        ...this.seal(row.accountId, row.id, next),
        expiresAt: expiresAtOf(tokens),
      });
      if (!written) return this.#usable(await this.#reload(row.accountId, row.id));
      opts.logger?.debug({ credentialId: row.id, connector: row.connector }, 'refreshed an OAuth token');
      return next;
    } catch (err) {
      const e = toOAuthError(err);
      opts.logger?.warn(
        { credentialId: row.id, connector: row.connector, reason: e.reason, transient: e.transient },
        'OAuth token refresh failed',
      );
      // A network failure says nothing about the grant: keep the credential, let the caller retry later.
      if (e.transient) {
        this.#transient.add(row.id);
        return mode.ahead ? secrets : undefined;
      }
      this.#transient.delete(row.id);
      // With rotating refresh tokens a concurrent refresh elsewhere invalidates ours: theirs is the good one.
      const now = await this.#reload(row.accountId, row.id);
      if (now && now.sealed !== row.sealed) return this.#usable(now);
      await this.#needsReconnect(q, row, `Refreshing the access token failed: ${e.reason}`);
      return undefined;
    }
  }

  /**
   * Marks every connected credential of an account's connector as needing a reconnect (announced like any
   * status change): the user consented to the hosts the connector called then, not to new ones.
   */
  async requireReconnect(accountId: string, connector: string, reason: string): Promise<number> {
    const rows = await this.db
      .select()
      .from(credentials)
      .where(
        and(
          eq(credentials.accountId, accountId),
          eq(credentials.connector, connector),
          eq(credentials.status, 'connected'),
        ),
      );
    for (const row of rows) if (row.sealed) await this.#needsReconnect(this.db, row, reason);
    return rows.length;
  }

  async #needsReconnect(q: Db | Tx, row: CredentialRow, reason: string): Promise<void> {
    await this.#setStatus(q, row, 'needs_reconnect', reason, eq(credentials.sealed, row.sealed!));
  }
}

import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { sha256 } from '../accounts/api-keys.ts';
import { oauthStates } from '../store/schema.ts';
import type { Db, Tx } from '../store/store.ts';
import { rowAad, type Vault } from './vault.ts';

export const STATE_TTL_MS = 10 * 60_000;
/** Spent and expired states stay a day, so a late or replayed callback reads "already used", not "unknown". */
const STATE_RETENTION_MS = 24 * 60 * 60_000;

export type OAuthStateRow = typeof oauthStates.$inferSelect;

/**
 * What a state carries that must stay secret until the callback: the PKCE verifier, pre-consent fields and
 * the provider's consent URL (it holds the raw `state`), which only the start link reveals.
 */
export interface StateSecrets {
  codeVerifier?: string;
  fields: Record<string, string>;
  /** The flow reconnects an existing credential in place (same id) instead of completing a pending one. */
  reconnect?: boolean;
  authorizeUrl?: string;
}

export const stateAad = (row: { accountId: string; stateHash: string }) =>
  rowAad('oauth_states', row.accountId, row.stateHash);

/** A fresh `state`: 256 random bits, unguessable, sent to the provider and never stored. */
export const newState = () => randomBytes(32).toString('base64url');

/**
 * The cookie that binds a flow to the browser that opened its start link: one per flow (so two connections
 * started side by side do not overwrite each other), named after the state's hash so the callback, which
 * has only the state, can find it.
 */
export const browserCookieName = (stateHash: string) => `inlay_oauth_${stateHash.slice(0, 16)}`;

/** Stores a single-use state bound to the user and credential; only its hash is kept. */
export async function saveState(
  db: Db | Tx,
  vault: Vault,
  s: {
    state: string;
    accountId: string;
    userId: string;
    credentialId: string;
    redirectUri: string | null;
    popup: boolean;
    origin: string | null;
    /** The single-use start link's token; only its hash is kept. */
    startToken: string;
    secrets: StateSecrets;
  },
): Promise<void> {
  const stateHash = sha256(s.state);
  const now = Date.now();
  await db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date(now - STATE_RETENTION_MS)));
  await db.insert(oauthStates).values({
    stateHash,
    accountId: s.accountId,
    userId: s.userId,
    credentialId: s.credentialId,
    sealed: vault.sealJson(s.secrets, stateAad({ accountId: s.accountId, stateHash })),
    keyId: vault.keyId,
    redirectUri: s.redirectUri,
    popup: s.popup,
    origin: s.origin,
    startHash: sha256(s.startToken),
    expiresAt: new Date(now + STATE_TTL_MS),
  });
}

export type StartedFlow =
  | { ok: true; authorizeUrl: string; cookie: string; stateHash: string; expiresAt: Date }
  | { ok: false; why: 'unknown' | 'started' | 'used' | 'expired' };

/**
 * Opens a start link: the first browser to open it owns the flow (the hash of a fresh nonce is stored; the
 * nonce goes into that browser's cookie). The same browser may open it again (a closed popup reopened): it
 * presents the nonce. Anyone else gets nothing, not even the provider's URL.
 */
export async function openStartLink(
  db: Db,
  vault: Vault,
  token: string,
  presented: (stateHash: string) => string | undefined,
): Promise<StartedFlow> {
  const startHash = sha256(token);
  const now = new Date();
  const nonce = randomBytes(32).toString('base64url');
  const live = and(
    eq(oauthStates.startHash, startHash),
    isNull(oauthStates.usedAt),
    gt(oauthStates.expiresAt, now),
  );
  let [row] = await db
    .update(oauthStates)
    .set({ startedAt: now, browserHash: sha256(nonce) })
    .where(and(live, isNull(oauthStates.startedAt)))
    .returning();
  let cookie = nonce;
  if (!row) {
    const [seen] = await db.select().from(oauthStates).where(eq(oauthStates.startHash, startHash));
    if (!seen) return { ok: false, why: 'unknown' };
    if (seen.usedAt) return { ok: false, why: 'used' };
    if (seen.expiresAt <= now) return { ok: false, why: 'expired' };
    const mine = presented(seen.stateHash);
    if (!mine || !seen.browserHash || sha256(mine) !== seen.browserHash) return { ok: false, why: 'started' };
    row = seen;
    cookie = mine;
  }
  const secrets = vault.openJson<StateSecrets>(row.sealed, stateAad(row));
  if (!secrets.authorizeUrl) return { ok: false, why: 'unknown' };
  return {
    ok: true,
    authorizeUrl: secrets.authorizeUrl,
    cookie,
    stateHash: row.stateHash,
    expiresAt: row.expiresAt,
  };
}

export type ConsumedState =
  | { ok: true; row: OAuthStateRow; secrets: StateSecrets }
  | { ok: false; why: 'unknown' | 'used' | 'expired' | 'not_started' | 'browser' };

/**
 * Spends a state atomically: of two callbacks with the same state only one gets it, and only from the
 * browser holding the start link's cookie (`nonce`). Nothing changes otherwise: a callback opened in another
 * browser neither connects nor spends the state.
 */
export async function consumeState(
  db: Db,
  vault: Vault,
  state: string,
  nonce: string | undefined,
): Promise<ConsumedState> {
  const stateHash = sha256(state);
  const now = new Date();
  const [row] = nonce
    ? await db
        .update(oauthStates)
        .set({ usedAt: now })
        .where(
          and(
            eq(oauthStates.stateHash, stateHash),
            eq(oauthStates.browserHash, sha256(nonce)),
            isNull(oauthStates.usedAt),
            gt(oauthStates.expiresAt, now),
          ),
        )
        .returning()
    : [];
  if (row) return { ok: true, row, secrets: vault.openJson<StateSecrets>(row.sealed, stateAad(row)) };
  const [seen] = await db
    .select({
      usedAt: oauthStates.usedAt,
      expiresAt: oauthStates.expiresAt,
      browserHash: oauthStates.browserHash,
    })
    .from(oauthStates)
    .where(eq(oauthStates.stateHash, stateHash));
  if (!seen) return { ok: false, why: 'unknown' };
  if (seen.usedAt) return { ok: false, why: 'used' };
  if (seen.expiresAt <= now) return { ok: false, why: 'expired' };
  return { ok: false, why: seen.browserHash ? 'browser' : 'not_started' };
}

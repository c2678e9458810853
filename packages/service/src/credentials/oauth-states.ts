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

/** What a state carries that must stay secret until the callback: the PKCE verifier and pre-consent fields. */
export interface StateSecrets {
  codeVerifier?: string;
  fields: Record<string, string>;
}

export const stateAad = (row: { accountId: string; stateHash: string }) =>
  rowAad('oauth_states', row.accountId, row.stateHash);

/** A fresh `state`: 256 random bits, unguessable, sent to the provider and never stored. */
export const newState = () => randomBytes(32).toString('base64url');

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
    expiresAt: new Date(now + STATE_TTL_MS),
  });
}

export type ConsumedState =
  | { ok: true; row: OAuthStateRow; secrets: StateSecrets }
  | { ok: false; why: 'unknown' | 'used' | 'expired' };

/** Spends a state atomically: of two callbacks with the same state only one gets it. Nothing changes otherwise. */
export async function consumeState(db: Db, vault: Vault, state: string): Promise<ConsumedState> {
  const stateHash = sha256(state);
  const now = new Date();
  const [row] = await db
    .update(oauthStates)
    .set({ usedAt: now })
    .where(
      and(eq(oauthStates.stateHash, stateHash), isNull(oauthStates.usedAt), gt(oauthStates.expiresAt, now)),
    )
    .returning();
  if (row) return { ok: true, row, secrets: vault.openJson<StateSecrets>(row.sealed, stateAad(row)) };
  const [seen] = await db
    .select({ usedAt: oauthStates.usedAt })
    .from(oauthStates)
    .where(eq(oauthStates.stateHash, stateHash));
  return { ok: false, why: !seen ? 'unknown' : seen.usedAt ? 'used' : 'expired' };
}

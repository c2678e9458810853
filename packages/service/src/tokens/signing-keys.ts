import { randomUUID } from 'node:crypto';
import { desc, isNull } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

import type { Vault } from '../credentials/vault.ts';
import { signingKeys } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

export interface SigningKey {
  kid: string;
  privateKey: PrivateKey;
  publicJwk: JWK;
}

/** Associated data of a signing key's sealed private half (key rotation reseals it). */
export const signingKeyAad = (kid: string) => `signing_keys:${kid}`;

/** The newest unretired Ed25519 key, created on first use. */
export async function loadOrCreateSigningKey(db: Db, vault: Vault): Promise<SigningKey> {
  const [row] = await db
    .select()
    .from(signingKeys)
    .where(isNull(signingKeys.retiredAt))
    .orderBy(desc(signingKeys.createdAt))
    .limit(1);
  if (row) {
    const jwk = vault.openJson<JWK>(row.privateJwkSealed, signingKeyAad(row.kid));
    return {
      kid: row.kid,
      privateKey: (await importJWK(jwk, 'EdDSA')) as PrivateKey,
      publicJwk: row.publicJwk as JWK,
    };
  }
  return createSigningKey(db, vault);
}

export async function createSigningKey(db: Db, vault: Vault): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' };
  await db
    .insert(signingKeys)
    .values({ kid, publicJwk, privateJwkSealed: vault.sealJson(privateJwk, signingKeyAad(kid)) });
  return { kid, privateKey, publicJwk };
}

/** Public keys that may still verify tokens: every key not retired longer ago than the token lifetime. */
export async function publishedKeys(db: Db, ttlSeconds: number): Promise<JWK[]> {
  const rows = await db.select().from(signingKeys).orderBy(desc(signingKeys.createdAt));
  const cutoff = Date.now() - ttlSeconds * 1000 - 60_000;
  return rows.filter((r) => !r.retiredAt || r.retiredAt.getTime() > cutoff).map((r) => r.publicJwk as JWK);
}

/** Retires the current key(s) and creates a new one; old tokens keep verifying until they expire. */
export async function rotateSigningKey(db: Db, vault: Vault): Promise<SigningKey> {
  await db.update(signingKeys).set({ retiredAt: new Date() }).where(isNull(signingKeys.retiredAt));
  return createSigningKey(db, vault);
}

import { KeyObject, randomUUID, sign } from 'node:crypto';
import { JWT_ALGORITHM, JWT_AUDIENCE } from '@inlay/contract';
import { createLocalJWKSet, errors, type JSONWebKeySet, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Vault } from '../credentials/vault.ts';
import type { Db } from '../store/store.ts';
import { loadOrCreateSigningKey, publishedKeys, rotateSigningKey, type SigningKey } from './signing-keys.ts';

export interface VerifiedUserToken {
  userId: string;
  accountId: string;
  jti: string;
  exp: number;
}

/** Mints and verifies user JWTs (EdDSA, pinned `iss`/`aud`, required `exp`). */
export class UserTokens {
  #key?: SigningKey;
  #jwks?: { set: ReturnType<typeof createLocalJWKSet>; doc: JSONWebKeySet; loadedAt: number };
  #refreshing?: Promise<void>;
  #signer?: { kid: string; header: string; key: KeyObject };
  // A widget sends the same token with every request for its whole lifetime: its signature is checked once.
  readonly #verified = new LRUCache<string, VerifiedUserToken>({ max: 10_000 });

  constructor(
    private readonly db: Db,
    private readonly vault: Vault,
    readonly issuer: string,
    readonly ttlSeconds: number,
  ) {}

  async init(): Promise<void> {
    this.#key = await loadOrCreateSigningKey(this.db, this.vault);
    await this.#reloadJwks();
  }

  async mint(accountId: string, userId: string): Promise<{ token: string; expiresAt: Date }> {
    const key = this.#key ?? (await loadOrCreateSigningKey(this.db, this.vault));
    this.#key = key;
    const now = Math.floor(Date.now() / 1000);
    const exp = now + this.ttlSeconds;
    const payload = {
      acct: accountId,
      iss: this.issuer,
      aud: JWT_AUDIENCE,
      sub: userId,
      iat: now,
      exp,
      jti: randomUUID(),
    };
    const signer = this.#signerFor(key);
    const input = `${signer.header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const token = `${input}.${sign(null, Buffer.from(input), signer.key).toString('base64url')}`;
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /**
   * The same compact JWS jose's SignJWT makes, signed with node:crypto directly: jose signs through WebCrypto,
   * which costs about four times as much per token.
   */
  #signerFor(key: SigningKey): { kid: string; header: string; key: KeyObject } {
    if (this.#signer?.kid !== key.kid) {
      const header = { alg: JWT_ALGORITHM, kid: key.kid, typ: 'JWT' };
      this.#signer = {
        kid: key.kid,
        header: Buffer.from(JSON.stringify(header)).toString('base64url'),
        key: KeyObject.from(key.privateKey),
      };
    }
    return this.#signer;
  }

  /** Returns the claims, or undefined for any token that does not verify. */
  async verify(token: string): Promise<VerifiedUserToken | undefined> {
    const known = this.#verified.get(token);
    if (known && known.exp * 1000 > Date.now()) return known;
    const claims = await this.#verifyOnce(token);
    if (claims) this.#verified.set(token, claims, { ttl: Math.max(1, claims.exp * 1000 - Date.now()) });
    return claims;
  }

  async #verifyOnce(token: string): Promise<VerifiedUserToken | undefined> {
    if (!this.#jwks) await this.#reloadJwks();
    try {
      return await this.#verifyWith(token);
    } catch (err) {
      // Another node may have rotated the key since we loaded the JWKS.
      if (err instanceof errors.JWKSNoMatchingKey && Date.now() - (this.#jwks?.loadedAt ?? 0) > 5_000) {
        await this.#reloadJwks();
        try {
          return await this.#verifyWith(token);
        } catch {
          return undefined;
        }
      }
      return undefined;
    }
  }

  async jwks(): Promise<JSONWebKeySet> {
    if (!this.#jwks || Date.now() - this.#jwks.loadedAt > 60_000) await this.#reloadJwks();
    return this.#jwks!.doc;
  }

  async rotate(): Promise<string> {
    this.#key = await rotateSigningKey(this.db, this.vault);
    await this.#reloadJwks();
    return this.#key.kid;
  }

  async #verifyWith(token: string): Promise<VerifiedUserToken> {
    const { payload } = await jwtVerify(token, this.#jwks!.set, {
      algorithms: [JWT_ALGORITHM],
      issuer: this.issuer,
      audience: JWT_AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
    });
    if (typeof payload.acct !== 'string' || typeof payload.sub !== 'string')
      throw new Error('missing claims');
    return { userId: payload.sub, accountId: payload.acct, jti: payload.jti!, exp: payload.exp! };
  }

  #reloadJwks(): Promise<void> {
    this.#refreshing ??= (async () => {
      try {
        const doc = { keys: await publishedKeys(this.db, this.ttlSeconds) } as JSONWebKeySet;
        this.#jwks = { set: createLocalJWKSet(doc), doc, loadedAt: Date.now() };
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }
}

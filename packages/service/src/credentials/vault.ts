import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export class VaultError extends Error {
  override name = 'VaultError';
}

/** A key id is a fingerprint of the key: it names the key without revealing it. */
export const masterKeyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 12);

/**
 * AES-256-GCM envelope `v1.<keyId>.<iv>.<ciphertext+tag>` (base64url). The associated data binds a
 * ciphertext to its row (account and id), so a ciphertext copied to another row does not open.
 */
export class Vault {
  readonly keyId: string;
  readonly #current: Buffer;
  readonly #keys = new Map<string, Buffer>();

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new VaultError('the vault needs at least one master key');
    for (const k of keys) {
      if (k.length !== 32) throw new VaultError('master keys must be 32 bytes');
      this.#keys.set(masterKeyId(k), k);
    }
    this.#current = keys[0]!;
    this.keyId = masterKeyId(this.#current);
  }

  seal(plaintext: string, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, this.keyId, iv.toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, aad: string): string {
    const [version, kid, ivText, bodyText] = sealed.split('.');
    if (version !== VERSION || !kid || !ivText || !bodyText) throw new VaultError('not a vault envelope');
    const key = this.#keys.get(kid);
    if (!key) throw new VaultError(`master key ${kid} is not configured`);
    const body = Buffer.from(bodyText, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new VaultError('ciphertext does not open for this row');
    }
  }

  sealJson(value: unknown, aad: string): string {
    return this.seal(JSON.stringify(value), aad);
  }

  openJson<T>(sealed: string, aad: string): T {
    return JSON.parse(this.open(sealed, aad)) as T;
  }

  /** Re-encrypts under the current key; a no-op for envelopes already on it. */
  reseal(sealed: string, aad: string): string {
    return keyIdOf(sealed) === this.keyId ? sealed : this.seal(this.open(sealed, aad), aad);
  }
}

export const keyIdOf = (sealed: string) => sealed.split('.')[1] ?? '';

/** Associated data of a row: its table, account and id. */
export const rowAad = (table: string, accountId: string, id: string) => `${table}:${accountId}:${id}`;

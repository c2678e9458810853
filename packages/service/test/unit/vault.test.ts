import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyIdOf, masterKeyId, rowAad, Vault, VaultError } from '../../src/credentials/vault.ts';

describe('vault', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);

  it('seals with AES-256-GCM under the current key id and opens only with the same associated data', () => {
    const v = new Vault([k1]);
    const aad = rowAad('credentials', 'acct-1', 'cred-1');
    const sealed = v.seal('s3cret-value', aad);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{12}\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('s3cret');
    expect(keyIdOf(sealed)).toBe(masterKeyId(k1));
    expect(v.open(sealed, aad)).toBe('s3cret-value');
    expect(() => v.open(sealed, rowAad('credentials', 'acct-1', 'cred-2'))).toThrow(VaultError);
    expect(() => v.open(sealed, rowAad('credentials', 'acct-2', 'cred-1'))).toThrow(VaultError);
  });

  it('detects tampering', () => {
    const v = new Vault([k1]);
    const sealed = v.seal('x', 'a');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0]! ^= 1;
    parts[3] = body.toString('base64url');
    expect(() => v.open(parts.join('.'), 'a')).toThrow(VaultError);
  });

  it('opens old envelopes with a previous key and reseals them under the current one', () => {
    const old = new Vault([k1]).seal('value', 'a');
    const v = new Vault([k2, k1]);
    expect(v.open(old, 'a')).toBe('value');
    const resealed = v.reseal(old, 'a');
    expect(keyIdOf(resealed)).toBe(masterKeyId(k2));
    expect(new Vault([k2]).open(resealed, 'a')).toBe('value');
    expect(v.reseal(resealed, 'a')).toBe(resealed);
    expect(() => new Vault([k2]).open(old, 'a')).toThrow(/not configured/);
  });
});

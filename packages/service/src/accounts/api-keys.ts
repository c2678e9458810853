import { createHash, randomBytes, randomUUID } from 'node:crypto';

export type KeyMode = 'live' | 'test';

export const API_KEY_RE = /^inlay_(live|test)_[A-Za-z0-9_-]{16,}$/;

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function generateApiKey(mode: KeyMode = 'live'): string {
  return `inlay_${mode}_${randomBytes(24).toString('base64url')}`;
}

/** The row an API key is stored as: only its hash and a display prefix. */
export function apiKeyRow(key: string, accountId: string) {
  const mode = key.startsWith('inlay_test_') ? 'test' : 'live';
  return { id: randomUUID(), accountId, hash: sha256(key), prefix: `${key.slice(0, 15)}…`, mode } as const;
}

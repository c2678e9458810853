import { createHash, randomBytes, randomUUID } from 'node:crypto';

export type KeyMode = 'live' | 'test';

export const API_KEY_RE = /^inlay_(live|test)_[A-Za-z0-9_-]{16,}$/;

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function generateApiKey(mode: KeyMode = 'live'): string {
  return `inlay_${mode}_${randomBytes(24).toString('base64url')}`;
}

// Three letters each, as PostgreSQL's `Mon` writes them (the migration that named older keys uses it).
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A key's name when it was created without one: the day it was made, e.g. "Key created 2 Dec 2026" (UTC). */
export const defaultKeyName = (at = new Date()) =>
  `Key created ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;

/** The row an API key is stored as: only its hash and a display prefix. */
export function apiKeyRow(key: string, accountId: string) {
  const mode = key.startsWith('inlay_test_') ? 'test' : 'live';
  return { id: randomUUID(), accountId, hash: sha256(key), prefix: `${key.slice(0, 15)}…`, mode } as const;
}

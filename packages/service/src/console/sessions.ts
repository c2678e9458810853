import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { sha256 } from '../accounts/api-keys.ts';
import { accounts, apiKeys, consoleSessions } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

export const SESSION_COOKIE = 'inlay_console';
export const CSRF_HEADER = 'x-inlay-csrf';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface ConsoleSessionRow {
  id: string;
  accountId: string;
  accountName: string;
  apiKeyId: string;
  csrfToken: string;
  expiresAt: Date;
}

/** The value of one cookie of a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Opens a session for an account's key; the token goes in the cookie and only its hash in the database. */
export async function openSession(db: Db, accountId: string, apiKeyId: string, now = new Date()) {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db
    .insert(consoleSessions)
    .values({ id: randomUUID(), accountId, apiKeyId, hash: sha256(token), csrfToken, expiresAt });
  return { token, csrfToken, expiresAt };
}

/** The live session a cookie token stands for: not expired, not revoked, its API key not revoked. */
export async function findSession(db: Db, token: string): Promise<ConsoleSessionRow | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const [row] = await db
    .select({
      id: consoleSessions.id,
      accountId: consoleSessions.accountId,
      accountName: accounts.name,
      apiKeyId: consoleSessions.apiKeyId,
      csrfToken: consoleSessions.csrfToken,
      expiresAt: consoleSessions.expiresAt,
    })
    .from(consoleSessions)
    .innerJoin(apiKeys, eq(apiKeys.id, consoleSessions.apiKeyId))
    .innerJoin(accounts, eq(accounts.id, consoleSessions.accountId))
    .where(
      and(
        eq(consoleSessions.hash, sha256(token)),
        isNull(consoleSessions.revokedAt),
        gt(consoleSessions.expiresAt, new Date()),
        isNull(apiKeys.revokedAt),
      ),
    );
  return row;
}

export async function revokeSession(db: Db, id: string) {
  await db.update(consoleSessions).set({ revokedAt: new Date() }).where(eq(consoleSessions.id, id));
}

/** Constant-time comparison of the CSRF header with the session's token. */
export function csrfMatches(sent: string | undefined, expected: string): boolean {
  if (!sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

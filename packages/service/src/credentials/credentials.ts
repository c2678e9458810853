import type { Credential } from '@inlay/contract';
import { and, asc, desc, eq, getTableColumns, lt, ne } from 'drizzle-orm';
import { credentials, users } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import type { CredentialRow } from './credential-row.ts';
import { STATE_TTL_MS } from './oauth-states.ts';

/** A credential as the API shows it: status and timestamps, never the sealed secret. */
export const toCredential = (row: CredentialRow): Credential => ({
  credentialId: row.id,
  userId: row.userId,
  connector: row.connector,
  name: row.name,
  type: row.type,
  status: row.status,
  statusReason: row.statusReason,
  statusChangedAt: row.statusChangedAt.toISOString(),
  ...(row.accountLabel ? { accountLabel: row.accountLabel } : {}),
  ...(row.allowedOrigins ? { allowedOrigins: row.allowedOrigins } : {}),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * A user's credentials, oldest first, optionally for one connector. A `failed` one (consent denied, a sign-in
 * abandoned, a provider error on the first connect) never held a working account, so it is not listed; it is
 * still read by id, which is how the flow that made it learns its result.
 */
export function listCredentials(
  db: Db,
  filter: { accountId: string; userId: string; connector?: string },
): Promise<CredentialRow[]> {
  return db
    .select()
    .from(credentials)
    .where(
      and(
        eq(credentials.accountId, filter.accountId),
        eq(credentials.userId, filter.userId),
        ne(credentials.status, 'failed'),
        filter.connector ? eq(credentials.connector, filter.connector) : undefined,
      ),
    )
    .orderBy(asc(credentials.createdAt), asc(credentials.id));
}

/** Every user's credentials in the account, most recent status change first (`GET /account/credentials`). */
export function listAccountCredentials(
  db: Db,
  accountId: string,
  filter: { status?: CredentialRow['status']; connector?: string; limit: number },
): Promise<(CredentialRow & { username: string })[]> {
  return db
    .select({ ...getTableColumns(credentials), username: users.username })
    .from(credentials)
    .innerJoin(users, eq(users.id, credentials.userId))
    .where(
      and(
        eq(credentials.accountId, accountId),
        filter.status ? eq(credentials.status, filter.status) : undefined,
        filter.connector ? eq(credentials.connector, filter.connector) : undefined,
      ),
    )
    .orderBy(desc(credentials.statusChangedAt), desc(credentials.id))
    .limit(filter.limit);
}

/** Provider reasons are shown to users and stored: keep them to one readable line. */
export const shortReason = (reason: string, max = 500) => {
  const line = reason.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

export const ABANDONED_REASON = 'The sign-in was not completed within 10 minutes; connect again';

/**
 * A pending OAuth credential whose state has expired can never complete (the popup was closed, consent
 * never given): it reads as `failed`, so a client polling for the result stops waiting.
 */
export async function failAbandoned(db: Db, owner: { accountId: string; userId: string }): Promise<void> {
  await db
    .update(credentials)
    .set({
      status: 'failed',
      statusReason: ABANDONED_REASON,
      statusChangedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(credentials.accountId, owner.accountId),
        eq(credentials.userId, owner.userId),
        eq(credentials.status, 'pending'),
        lt(credentials.createdAt, new Date(Date.now() - STATE_TTL_MS)),
      ),
    );
}

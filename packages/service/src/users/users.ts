import type { User } from '@inlay/contract';
import { and, eq, or } from 'drizzle-orm';
import { isUuid } from '../http/validate.ts';
import { users } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

export type UserRow = typeof users.$inferSelect;

/** A user of the account by id or username; undefined when there is none. */
export async function findUser(db: Db, accountId: string, ref: string): Promise<UserRow | undefined> {
  const match = isUuid(ref)
    ? or(eq(users.id, ref.toLowerCase()), eq(users.username, ref))
    : eq(users.username, ref);
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), match))
    .limit(2);
  // A username that looks like another user's id must not shadow that user: the id wins.
  return rows.find((r) => r.id === ref.toLowerCase()) ?? rows[0];
}

export const toUser = (u: UserRow): User => ({
  userId: u.id,
  username: u.username,
  fullName: u.fullName,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});

import { LIMITS } from '@inlay/contract';
import type { Request } from 'express';
import type { AppContext } from '../context.ts';
import { invalid, notFound, unauthorized } from '../http/problem.ts';
import { isUuid } from '../http/validate.ts';
import { preparedPerStore } from '../store/prepared.ts';
import type { UserRow } from './users.ts';

/**
 * The user a user-level call acts on. A JWT scopes the call to its `sub`: naming anyone else is a 404,
 * exactly like naming nobody. An API key must name the user (id or username).
 */
export async function resolveUser(
  ctx: AppContext,
  req: Request,
  ref: string | undefined,
  field = 'query.userId',
): Promise<UserRow> {
  const lookup = userLookup(req, ref, field);
  return checkLookedUp(req, ref, await lookUpUser(ctx, lookup));
}

/** The user a lookup finds, through the read cache: kept until a write to that user or account, on any node. */
export function lookUpUser(ctx: AppContext, lookup: UserLookup): Promise<UserRow | undefined> {
  return ctx.reads.through(
    `user|${lookupKey(lookup)}`,
    async () => (await findUserStatement(ctx.store)([lookup.accountId, lookup.id, lookup.username]))[0],
    (u) => u && { accountId: u.accountId, userId: u.id, bytes: 256 },
  );
}

/** A lookup as a cache key; account and id have fixed forms, so whatever follows them is the username. */
export const lookupKey = (l: UserLookup) => `${l.accountId}|${l.id ?? ''}|${l.username ?? ''}`;

/** `userId` from the query or the JSON body, whichever the route uses. */
export const userRefOf = (req: Request): string | undefined => {
  const q = req.query.userId;
  if (typeof q === 'string') return q;
  const b = (req.body as { userId?: unknown } | undefined)?.userId;
  return typeof b === 'string' ? b : undefined;
};

/**
 * The SQL that finds the user of a lookup inside the account (`$1` account, `$2` id or null, `$3` username or
 * null): the id wins over a username that looks like it. Combined queries embed it as a CTE named `u`; two
 * index lookups rather than an `or`, which a generic plan would answer by scanning the account's users.
 */
export const USER_CTE = `u as (
  select id, "accountId", username, "fullName", "createdAt", "updatedAt" from (
    select 0 as rank, id, account_id as "accountId", username, full_name as "fullName", created_at as "createdAt",
           updated_at as "updatedAt" from users where account_id = $1 and id = $2::uuid
    union all
    select 1, id, account_id, username, full_name, created_at, updated_at from users
    where account_id = $1 and username = $3
  ) found order by rank limit 1)`;

/** What `USER_CTE` needs, checked before any query exactly as `resolveUser` checks it. */
export interface UserLookup {
  accountId: string;
  id: string | null;
  username: string | null;
}

export function userLookup(req: Request, ref: string | undefined, field = 'query.userId'): UserLookup {
  const p = req.principal;
  if (!p) throw unauthorized();
  checkRefLength(ref, field);
  if (p.kind === 'user') return { accountId: p.accountId, id: p.userId, username: null };
  if (ref === undefined || ref === '') throw invalid(field, 'required', 'is required with an API key');
  return { accountId: p.accountId, id: isUuid(ref) ? ref.toLowerCase() : null, username: ref };
}

/** A user reference longer than any id or username is refused before it is looked up. */
export function checkRefLength(ref: unknown, field: string): void {
  if (typeof ref === 'string' && ref.length > LIMITS.id)
    throw invalid(field, 'max', `must be at most ${LIMITS.id} characters`);
}

/** The verdict on what `USER_CTE` found, with `resolveUser`'s errors. */
export function checkLookedUp<U extends { id: string; username: string }>(
  req: Request,
  ref: string | undefined,
  user: U | undefined,
): U {
  if (req.principal?.kind === 'user') {
    if (!user) throw unauthorized('The user of this token no longer exists');
    if (ref !== undefined && ref !== user.id && ref.toLowerCase() !== user.id && ref !== user.username)
      throw notFound('User');
    return user;
  }
  if (!user) throw notFound('User');
  return user;
}

const findUserStatement = preparedPerStore<UserRow>('inlay_find_user', `with ${USER_CTE} select * from u`);

import type { Request } from 'express';
import type { AppContext } from '../context.ts';
import { invalid, notFound, unauthorized } from '../http/problem.ts';
import { findUser, type UserRow } from './users.ts';

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
  const p = req.principal;
  if (!p) throw unauthorized();
  if (p.kind === 'user') {
    const user = await findUser(ctx.db, p.accountId, p.userId);
    if (!user) throw unauthorized('The user of this token no longer exists');
    if (ref !== undefined && ref !== user.id && ref.toLowerCase() !== user.id && ref !== user.username)
      throw notFound('User');
    return user;
  }
  if (ref === undefined || ref === '') throw invalid(field, 'required', 'is required with an API key');
  const user = await findUser(ctx.db, p.accountId, ref);
  if (!user) throw notFound('User');
  return user;
}

/** `userId` from the query or the JSON body, whichever the route uses. */
export const userRefOf = (req: Request): string | undefined => {
  const q = req.query.userId;
  if (typeof q === 'string') return q;
  const b = (req.body as { userId?: unknown } | undefined)?.userId;
  return typeof b === 'string' ? b : undefined;
};

import { randomUUID } from 'node:crypto';
import { operations as ops } from '@inlay/contract';
import { and, asc, eq, ilike, or } from 'drizzle-orm';
import { type Request, Router } from 'express';
import type { AppContext } from '../context.ts';
import { disarmUser } from '../engine/app-triggers/subscriptions.ts';
import { conflict, notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { isUuid } from '../http/validate.ts';
import { users } from '../store/schema.ts';
import { isUniqueViolation } from '../store/unique-violation.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import { checkRefLength, resolveUser } from './resolve-user.ts';
import { toUser } from './users.ts';

/** The user named by the path, checked against any `?userId=` that names one too. */
export async function pathUser(ctx: AppContext, req: Request) {
  const user = await resolveUser(ctx, req, String(req.params.userId), 'path.userId');
  const q = req.query.userId;
  checkRefLength(q, 'query.userId');
  if (typeof q === 'string' && q !== user.id && q !== user.username) throw notFound('User');
  return user;
}

/** `?search=`: the exact id, or a username or full name containing the text (LIKE wildcards taken literally). */
function userMatches(search: string) {
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(
    isUuid(search) ? eq(users.id, search.toLowerCase()) : undefined,
    ilike(users.username, like),
    ilike(users.fullName, like),
  );
}

export function usersRoutes(ctx: AppContext, defs?: DefinitionCache): Router {
  const r = Router();
  const { db } = ctx;

  route(r, ops.createUser, async (req, res, { body }) => {
    const id = randomUUID();
    try {
      await db.insert(users).values({
        id,
        accountId: req.principal!.accountId,
        username: body.username,
        fullName: body.fullName ?? null,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('body.username', 'a user with this username already exists');
      throw err;
    }
    res.status(201).json({ userId: id });
  });

  route(r, ops.listUsers, async (req, res, { query: q }) => {
    const rows = await db
      .select()
      .from(users)
      .where(and(eq(users.accountId, req.principal!.accountId), q.search ? userMatches(q.search) : undefined))
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit);
    res.json({ data: rows.map(toUser) });
  });

  route(r, ops.getUser, async (req, res) => {
    res.json({ data: toUser(await pathUser(ctx, req)) });
  });

  route(r, ops.updateUser, async (req, res, { body }) => {
    const user = await pathUser(ctx, req);
    try {
      const [row] = await db
        .update(users)
        .set({
          ...(body.username !== undefined ? { username: body.username } : {}),
          ...(body.fullName !== undefined ? { fullName: body.fullName } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(users.id, user.id), eq(users.accountId, user.accountId)))
        .returning();
      res.json({ data: toUser(row!) });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('body.username', 'a user with this username already exists');
      throw err;
    }
  });

  route(r, ops.deleteUser, async (req, res) => {
    const user = await pathUser(ctx, req);
    if (defs) await disarmUser(ctx, defs, user.id);
    // Credentials, installations and executions cascade with the user row, in one statement.
    await db.delete(users).where(and(eq(users.id, user.id), eq(users.accountId, user.accountId)));
    res.json({ message: 'Success' });
  });

  // pathUser reads `?userId=` itself: it must name the same user as the path.
  route(r, ops.getUserToken, { raw: ['query'] }, async (req, res) => {
    const user = await pathUser(ctx, req);
    const { token, expiresAt } = await ctx.tokens.mint(user.accountId, user.id);
    // What `res.json` would write, composed directly (a compact JWS is base64url and the date ISO: nothing to
    // escape): on this hot path Express's conversions cost a noticeable share of the request.
    const body = `{"token":"${token}","expiresAt":"${expiresAt.toISOString()}"}`;
    res.setHeader('cache-control', 'no-store');
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', body.length);
    res.end(body);
  });

  return r;
}

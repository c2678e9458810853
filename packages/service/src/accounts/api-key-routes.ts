import { type ApiKey, operations as ops } from '@inlay/contract';
import { and, count, desc, eq, isNull, ne } from 'drizzle-orm';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { conflict, HttpProblem, notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { apiKeys, consoleSessions } from '../store/schema.ts';
import { apiKeyRow, defaultKeyName, generateApiKey } from './api-keys.ts';

type KeyRow = typeof apiKeys.$inferSelect;

const toApiKey = (k: KeyRow): ApiKey => ({
  apiKeyId: k.id,
  name: k.name,
  prefix: k.prefix,
  mode: k.mode,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** `GET|POST /api-keys`, `DELETE /api-keys/{id}`: the account's keys, shown once and stored hashed. */
export function apiKeyRoutes(ctx: AppContext): Router {
  const r = Router();

  route(r, ops.listApiKeys, async (req, res) => {
    const rows = await ctx.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.accountId, req.principal!.accountId))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    res.json({ data: rows.map(toApiKey) });
  });

  route(r, ops.createApiKey, async (req, res, { body }) => {
    const accountId = req.principal!.accountId;
    const max = ctx.config.maxApiKeys;
    // Counted before the insert: concurrent creations can pass the cap by the requests in flight, no more.
    const [{ n } = { n: 0 }] = await ctx.db
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
    if (n >= max)
      throw new HttpProblem(
        409,
        'conflict',
        `The account has ${n} active API keys, the most it may have (INLAY_MAX_API_KEYS is ${max}): revoke one it no longer uses, then create the new one.`,
        {
          errors: [
            { field: 'body', rule: 'max_count', message: `at most ${max} active API keys per account` },
          ],
        },
      );
    const key = generateApiKey(body.mode);
    const [row] = await ctx.db
      .insert(apiKeys)
      .values({ ...apiKeyRow(key, req.principal!.accountId), name: body.name ?? defaultKeyName() })
      .returning();
    res.status(201).json({ data: toApiKey(row!), key });
  });

  route(r, ops.revokeApiKey, async (req, res, { params: { apiKeyId: id } }) => {
    const accountId = req.principal!.accountId;
    await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
        .for('update');
      if (!row) throw notFound('API key');
      // An account without a working key could never sign in again.
      const [others] = await tx
        .select({ n: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt), ne(apiKeys.id, id)));
      if (!others?.n) throw conflict('apiKeyId', "the account's last active key cannot be revoked");
      const now = new Date();
      await tx.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, id));
      await tx
        .update(consoleSessions)
        .set({ revokedAt: now })
        .where(and(eq(consoleSessions.apiKeyId, id), isNull(consoleSessions.revokedAt)));
    });
    res.json({ message: 'Success' });
  });

  return r;
}

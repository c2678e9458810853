import { operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { providerCallsPage } from './provider-calls-page.ts';

const date = (v: string | undefined) => (v === undefined ? undefined : new Date(v));

/**
 * `GET /provider-calls` (API key): the account's calls to providers, newest first, every user's or those of the
 * user `userId` names (another account's user is a 404, like a missing one).
 */
export function providerCallsRoutes(ctx: AppContext): Router {
  const r = Router();
  route(r, ops.listProviderCalls, async (req, res, { query: q }) => {
    const principal = req.principal!;
    const user = q.userId === undefined ? undefined : await resolveUser(ctx, req, q.userId);
    // This node's calls not yet written are written first, so what it just did shows at once.
    await ctx.providerCalls.flush().catch(() => {});
    res.json(
      await providerCallsPage(ctx.db, {
        accountId: principal.accountId,
        userId: user?.id,
        credentialId: q.credentialId,
        connector: q.connector,
        kind: q.kind,
        failed: q.failed === undefined ? undefined : q.failed === 'true',
        from: date(q.from),
        to: date(q.to),
        cursor: q.cursor,
        limit: q.limit,
      }),
    );
  });
  return r;
}

import { operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { pathUser } from '../users/routes.ts';
import { deleteUserExecutions, findExecution, logEntriesOf } from './executions.ts';
import { LogPages } from './log-page.ts';

export interface ExecutionHooks {
  /** Runs inside a compliance delete, before rows go (the engine cancels the user's queued and running work). */
  beforeDeleteUserLogs?: (accountId: string, userId: string) => Promise<void>;
}

export function executionsRoutes(ctx: AppContext, hooks: ExecutionHooks = {}): Router {
  const r = Router();
  // A quarter of the read cache's budget each for kept log pages and entries (`INLAY_READ_CACHE_MB`; 0 keeps none).
  const share = ctx.config.readCacheBytes / 4;
  const pages = new LogPages(ctx.store, {
    pageBytes: ctx.config.logPagesBytes ?? share,
    entryBytes: ctx.config.logEntriesBytes ?? share,
    maxEntryBytes: ctx.config.maxLogEntryBytes,
  });

  route(r, ops.getWorkflowLogs, async (req, res, { params: { workflowId }, query: q }) => {
    const body = await pages.body(req, q.userId, {
      workflowId,
      page: q.page,
      limit: q.limit,
      order: q.order,
      status: q.status,
    });
    // The bytes as they are: what `res.type('json').send()` would write, without its conversions.
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', body.length);
    res.end(body);
  });

  // One run, e.g. the one a rerun links to when it is not on the page shown.
  route(r, ops.getWorkflowLog, async (req, res, { params: { workflowId, executionId }, query: q }) => {
    const user = await resolveUser(ctx, req, q.userId);
    const row = await findExecution(ctx.db, user.accountId, user.id, executionId);
    if (!row || row.workflowId !== workflowId) throw notFound('Execution');
    const [entry] = await logEntriesOf(ctx.db, [row]);
    res.json({ data: entry });
  });

  // pathUser reads `?userId=` itself: it must name the same user as the path.
  route(r, ops.deleteUserLogs, { raw: ['query'] }, async (req, res) => {
    const user = await pathUser(ctx, req);
    await hooks.beforeDeleteUserLogs?.(user.accountId, user.id);
    await deleteUserExecutions(ctx.db, user.accountId, user.id);
    res.json({ message: 'Success' });
  });

  return r;
}

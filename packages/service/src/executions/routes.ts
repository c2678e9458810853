import { LogsQuery } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { parse, pathId } from '../http/validate.ts';
import { pathUser } from '../users/routes.ts';
import { deleteUserExecutions, logPageOf } from './executions.ts';

export interface ExecutionHooks {
  /** Runs inside a compliance delete, before rows go (the engine cancels the user's queued and running work). */
  beforeDeleteUserLogs?: (accountId: string, userId: string) => Promise<void>;
}

export function executionsRoutes(ctx: AppContext, hooks: ExecutionHooks = {}): Router {
  const r = Router();

  r.get('/workflows/:workflowId/logs', async (req, res) => {
    const workflowId = pathId(req.params.workflowId, 'workflowId');
    const q = parse(LogsQuery, req.query, 'query');
    const data = await logPageOf(ctx.store, req, q.userId, {
      workflowId,
      page: q.page,
      limit: q.limit,
      order: q.order,
    });
    res.json({ data });
  });

  r.delete('/users/:userId/logs', async (req, res) => {
    const user = await pathUser(ctx, req);
    await hooks.beforeDeleteUserLogs?.(user.accountId, user.id);
    await deleteUserExecutions(ctx.db, user.accountId, user.id);
    res.json({ message: 'Success' });
  });

  return r;
}

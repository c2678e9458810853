import { LogsQuery } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/problem.ts';
import { parse, pathId } from '../http/validate.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { pathUser } from '../users/routes.ts';
import { findWorkflow } from '../workflows/workflows.ts';
import { deleteUserExecutions, logPage } from './executions.ts';

export interface ExecutionHooks {
  /** Runs inside a compliance delete, before rows go (the engine cancels the user's queued and running work). */
  beforeDeleteUserLogs?: (accountId: string, userId: string) => Promise<void>;
}

export function executionsRoutes(ctx: AppContext, hooks: ExecutionHooks = {}): Router {
  const r = Router();

  r.get('/workflows/:workflowId/logs', async (req, res) => {
    const workflowId = pathId(req.params.workflowId, 'workflowId');
    const q = parse(LogsQuery, req.query, 'query');
    const user = await resolveUser(ctx, req, q.userId);
    const wf = await findWorkflow(ctx.db, user.accountId, workflowId);
    if (!wf) throw notFound('Workflow');
    const data = await logPage(ctx.db, {
      accountId: user.accountId,
      userId: user.id,
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

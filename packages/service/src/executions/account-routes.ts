import { operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { accountExecution, executionStats, executionsPage } from './account-executions.ts';

const date = (v: string | undefined) => (v === undefined ? undefined : new Date(v));

/** The account-wide views the console reads: runs across users and their counts over time (API key only). */
export function accountExecutionsRoutes(ctx: AppContext): Router {
  const r = Router();

  route(r, ops.listExecutions, async (req, res, { query: q }) => {
    res.json(
      await executionsPage(ctx.db, {
        accountId: req.principal!.accountId,
        status: q.status,
        workflowId: q.workflowId,
        userId: q.userId,
        from: date(q.from),
        to: date(q.to),
        cursor: q.cursor,
        limit: q.limit,
      }),
    );
  });

  route(r, ops.getExecution, async (req, res, { params: { executionId } }) => {
    const data = await accountExecution(ctx.db, req.principal!.accountId, executionId);
    if (!data) throw notFound('Execution');
    res.json({ data });
  });

  route(r, ops.executionStats, async (req, res, { query: q }) => {
    const data = await executionStats(ctx.db, req.principal!.accountId, q.bucket, date(q.from), date(q.to));
    res.json({ data });
  });

  return r;
}

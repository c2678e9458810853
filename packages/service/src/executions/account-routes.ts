import { ExecutionStatsQuery, ExecutionsQuery } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { requireApiKey } from '../http/auth.ts';
import { notFound } from '../http/problem.ts';
import { parse, pathId } from '../http/validate.ts';
import { accountExecution, executionStats, executionsPage } from './account-executions.ts';

const date = (v: string | undefined) => (v === undefined ? undefined : new Date(v));

/** The account-wide views the console reads: runs across users and their counts over time (API key only). */
export function accountExecutionsRoutes(ctx: AppContext): Router {
  const r = Router();

  r.get('/executions', requireApiKey, async (req, res) => {
    const q = parse(ExecutionsQuery, req.query, 'query');
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

  r.get('/executions/:executionId', requireApiKey, async (req, res) => {
    const executionId = pathId(req.params.executionId, 'executionId');
    const data = await accountExecution(ctx.db, req.principal!.accountId, executionId);
    if (!data) throw notFound('Execution');
    res.json({ data });
  });

  r.get('/stats/executions', requireApiKey, async (req, res) => {
    const q = parse(ExecutionStatsQuery, req.query, 'query');
    const data = await executionStats(ctx.db, req.principal!.accountId, q.bucket, date(q.from), date(q.to));
    res.json({ data });
  });

  return r;
}

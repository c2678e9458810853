import { operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { findExecution } from '../executions/executions.ts';
import { HttpProblem, notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { resolveUser } from '../users/resolve-user.ts';
import type { Engine } from './engine.ts';
import { findInstalled, type InstalledWorkflow, listeningTo, runFor } from './installed.ts';

/** An explicit run of a workflow the user switched off (or whose installation is disabled) is refused. */
function requireActive(w: InstalledWorkflow, field: string) {
  if (w.active && w.enabled) return;
  const message = w.enabled
    ? 'the workflow is deactivated for this user; activate it first'
    : 'the installation of this workflow is disabled';
  throw new HttpProblem(409, 'conflict', `${field}: ${message}`, {
    errors: [{ field, rule: 'active', message }],
  });
}

/** `POST /run/workflow`, `POST /run/event` and rerun: API key (with `userId`) or the user's JWT. */
export function runRoutes(ctx: AppContext, engine: Engine): Router {
  const r = Router();

  route(r, ops.runWorkflow, async (req, res, { body }) => {
    const user = await resolveUser(ctx, req, body.userId, 'body.userId');
    const installed = await findInstalled(ctx.db, user.accountId, user.id, body.workflowId);
    if (!installed) throw notFound('Installed workflow');
    requireActive(installed, 'body.workflowId');
    const executionIds = await engine.enqueue([runFor(installed, body.data, 'manual')]);
    res.json({ message: 'success', executionIds });
  });

  route(r, ops.runEvent, async (req, res, { body }) => {
    const user = await resolveUser(ctx, req, body.userId, 'body.userId');
    const listening = await listeningTo(ctx.db, user.accountId, user.id, body.event);
    const executionIds = await engine.enqueue(
      listening.map((w) => runFor(w, body.data, 'event', { event: body.event })),
    );
    res.json({ message: 'success', executionIds });
  });

  route(r, ops.rerunExecution, async (req, res, { params: { workflowId, executionId }, query: q }) => {
    const user = await resolveUser(ctx, req, q.userId);
    const original = await findExecution(ctx.db, user.accountId, user.id, executionId);
    if (!original || original.workflowId !== workflowId) throw notFound('Execution');
    const installed = await findInstalled(ctx.db, user.accountId, user.id, workflowId);
    if (!installed) throw notFound('Installed workflow');
    requireActive(installed, 'path.workflowId');
    const [id] = await engine.enqueue([
      runFor(installed, original.trigger, original.triggerType, {
        event: original.event,
        rerunOf: original.id,
      }),
    ]);
    res.json({ executionId: id });
  });

  return r;
}

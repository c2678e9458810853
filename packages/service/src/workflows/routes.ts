import { randomUUID } from 'node:crypto';
import {
  CreateIntegrationBody,
  CreateWorkflowBody,
  ToggleWorkflowBody,
  UpdateWorkflowBody,
  WorkflowQuery,
  WorkflowsQuery,
} from '@inlay/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { requireApiKey } from '../http/auth.ts';
import { notFound, unprocessable } from '../http/problem.ts';
import { parse, pathId } from '../http/validate.ts';
import { integrations, userWorkflows, workflows, workflowVersions } from '../store/schema.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { checkDefinition, type DefinitionCache } from './definitions.ts';
import { findWorkflow, listWorkflowsJsonOf, listWorkflowsOf } from './workflows.ts';

export interface WorkflowHooks {
  /** Runs after a user's workflow is switched on or off (the scheduler recomputes its next run). */
  onToggle?: (userId: string, workflowId: string, active: boolean) => Promise<void>;
}

export function workflowsRoutes(ctx: AppContext, defs: DefinitionCache, hooks: WorkflowHooks = {}): Router {
  const r = Router();
  const { db } = ctx;

  r.post('/integrations', requireApiKey, async (req, res) => {
    const body = parse(CreateIntegrationBody, req.body, 'body');
    if (body.connector && !ctx.connectors.get(body.connector))
      throw unprocessable('body.connector', 'exists', `no connector "${body.connector}"`);
    const id = randomUUID();
    await db.insert(integrations).values({
      id,
      accountId: req.principal!.accountId,
      name: body.name,
      description: body.description ?? null,
      connector: body.connector ?? null,
    });
    res.status(201).json({ integrationId: id });
  });

  r.get('/integrations', async (req, res) => {
    const rows = await db
      .select()
      .from(integrations)
      .where(eq(integrations.accountId, req.principal!.accountId))
      .orderBy(asc(integrations.createdAt), asc(integrations.id));
    res.json({
      data: rows.map((i) => ({
        integrationId: i.id,
        name: i.name,
        description: i.description,
        connector: i.connector,
        createdAt: i.createdAt.toISOString(),
      })),
    });
  });

  r.post('/workflows', requireApiKey, async (req, res) => {
    const body = parse(CreateWorkflowBody, req.body, 'body');
    const accountId = req.principal!.accountId;
    const [integration] = await db
      .select({ id: integrations.id })
      .from(integrations)
      .where(and(eq(integrations.id, body.integrationId), eq(integrations.accountId, accountId)));
    if (!integration)
      throw unprocessable('body.integrationId', 'exists', 'no such integration in this account');
    checkDefinition(body.definition, ctx.connectors, undefined, ctx.config.pollMinIntervalMs);
    const id = randomUUID();
    await db.transaction(async (tx) => {
      await tx.insert(workflows).values({
        id,
        accountId,
        integrationId: body.integrationId,
        name: body.name,
        description: body.description ?? null,
        currentVersion: 1,
      });
      await tx.insert(workflowVersions).values({ workflowId: id, version: 1, definition: body.definition });
    });
    res.status(201).json({ workflowId: id, version: 1 });
  });

  r.get('/workflows', async (req, res) => {
    const q = parse(WorkflowsQuery, req.query, 'query');
    const data = await listWorkflowsJsonOf(ctx, defs, req, q.userId, {
      integrationId: q.integrationId,
    });
    res.type('json').send(`{"data":${data}}`);
  });

  // Registered before `/workflows/:workflowId` so the literal segments win.
  for (const [path, active] of [
    ['/workflows/activate', true],
    ['/workflows/deactivate', false],
  ] as const) {
    r.put(path, async (req, res) => {
      const body = parse(ToggleWorkflowBody, req.body, 'body');
      const user = await resolveUser(ctx, req, body.userId, 'body.userId');
      const updated = await db
        .update(userWorkflows)
        .set({ active, updatedAt: new Date() })
        .where(and(eq(userWorkflows.userId, user.id), eq(userWorkflows.workflowId, body.workflowId)))
        .returning({ workflowId: userWorkflows.workflowId });
      if (updated.length === 0) throw notFound('Installed workflow');
      await hooks.onToggle?.(user.id, body.workflowId, active);
      res.json({ message: 'Success' });
    });
  }

  r.get('/workflows/:workflowId', async (req, res) => {
    const workflowId = pathId(req.params.workflowId, 'workflowId');
    const q = parse(WorkflowQuery, req.query, 'query');
    const [wf] = await listWorkflowsOf(ctx, defs, req, q.userId, { workflowId });
    if (!wf) throw notFound('Workflow');
    res.json({ data: wf });
  });

  r.get('/workflows/:workflowId/definition', requireApiKey, async (req, res) => {
    const workflowId = pathId(req.params.workflowId, 'workflowId');
    const wf = await findWorkflow(db, req.principal!.accountId, workflowId);
    if (!wf) throw notFound('Workflow');
    const v = await defs.get(wf.id, wf.currentVersion);
    res.json({ workflowId: wf.id, version: wf.currentVersion, definition: v!.definition });
  });

  r.put('/workflows/:workflowId', requireApiKey, async (req, res) => {
    const workflowId = pathId(req.params.workflowId, 'workflowId');
    const body = parse(UpdateWorkflowBody, req.body, 'body');
    const wf = await findWorkflow(db, req.principal!.accountId, workflowId);
    if (!wf) throw notFound('Workflow');
    checkDefinition(body.definition, ctx.connectors, undefined, ctx.config.pollMinIntervalMs);
    const version = await db.transaction(async (tx) => {
      // Incrementing in SQL serialises concurrent publishes on the workflow row.
      const [row] = await tx
        .update(workflows)
        .set({
          currentVersion: sql`${workflows.currentVersion} + 1`,
          updatedAt: new Date(),
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
        })
        .where(eq(workflows.id, wf.id))
        .returning({ version: workflows.currentVersion });
      await tx
        .insert(workflowVersions)
        .values({ workflowId: wf.id, version: row!.version, definition: body.definition });
      return row!.version;
    });
    res.json({ workflowId: wf.id, version });
  });

  return r;
}

import { randomUUID } from 'node:crypto';
import {
  AccountWorkflowsQuery,
  CreateIntegrationBody,
  CreateWorkflowBody,
  type Integration,
  ToggleWorkflowBody,
  UpdateIntegrationBody,
  UpdateWorkflowBody,
  WorkflowDefinitionQuery,
  WorkflowQuery,
  WorkflowsQuery,
} from '@inlay/contract';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { type Request, Router } from 'express';
import type { AppContext } from '../context.ts';
import { requireApiKey } from '../http/auth.ts';
import { HttpProblem, notFound, unprocessable } from '../http/problem.ts';
import { parse, pathId } from '../http/validate.ts';
import { integrations, userWorkflows, workflows, workflowVersions } from '../store/schema.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { checkDefinition, type DefinitionCache } from './definitions.ts';
import { findWorkflow, listWorkflows, listWorkflowsJsonOf, listWorkflowsOf } from './workflows.ts';

const integrationJson = (i: typeof integrations.$inferSelect): Integration => ({
  integrationId: i.id,
  name: i.name,
  description: i.description,
  connector: i.connector,
  createdAt: i.createdAt.toISOString(),
});

/**
 * The body's `definition` as the caller sent it: the parsed body keeps the order its keys were typed in, where
 * the checked one (and `jsonb`) would not.
 */
const asSent = (req: Request) => JSON.stringify((req.body as { definition: unknown }).definition);

/** No user (the nil UUID): the account's workflows as authored, none installed. */
const NO_USER = '00000000-0000-0000-0000-000000000000';

export interface WorkflowHooks {
  /** Runs after a user's workflow is switched on or off (the scheduler recomputes its next run). */
  onToggle?: (userId: string, workflowId: string, active: boolean) => Promise<void>;
}

export function workflowsRoutes(ctx: AppContext, defs: DefinitionCache, hooks: WorkflowHooks = {}): Router {
  const r = Router();
  const { db } = ctx;

  r.post('/integrations', requireApiKey, async (req, res) => {
    const body = parse(CreateIntegrationBody, req.body, 'body');
    if (body.connector && !(await ctx.registry.forAccount(req.principal!.accountId)).get(body.connector))
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
    res.json({ data: rows.map(integrationJson) });
  });

  r.patch('/integrations/:integrationId', requireApiKey, async (req, res) => {
    const integrationId = pathId(req.params.integrationId, 'integrationId');
    const body = parse(UpdateIntegrationBody, req.body, 'body');
    const accountId = req.principal!.accountId;
    if (body.connector && !(await ctx.registry.forAccount(accountId)).get(body.connector))
      throw unprocessable('body.connector', 'exists', `no connector "${body.connector}"`);
    const mine = and(eq(integrations.id, integrationId), eq(integrations.accountId, accountId));
    const changes = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.connector !== undefined ? { connector: body.connector } : {}),
    };
    const [row] = Object.keys(changes).length
      ? await db.update(integrations).set(changes).where(mine).returning()
      : await db.select().from(integrations).where(mine);
    if (!row) throw notFound('Integration');
    res.json({ data: integrationJson(row) });
  });

  r.delete('/integrations/:integrationId', requireApiKey, async (req, res) => {
    const integrationId = pathId(req.params.integrationId, 'integrationId');
    const accountId = req.principal!.accountId;
    await db.transaction(async (tx) => {
      // The row lock waits for a workflow being created in it (its foreign key check shares the row), so
      // the count below sees that workflow and the delete never cascades through one.
      const [row] = await tx
        .select({ id: integrations.id })
        .from(integrations)
        .where(and(eq(integrations.id, integrationId), eq(integrations.accountId, accountId)))
        .for('update');
      if (!row) throw notFound('Integration');
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(workflows)
        .where(eq(workflows.integrationId, integrationId));
      if (n > 0)
        throw new HttpProblem(
          409,
          'conflict',
          `The integration has ${n} workflow${n === 1 ? '' : 's'}: it can be deleted once it has none`,
          {
            errors: [{ field: 'path.integrationId', rule: 'in_use', message: `has ${n} workflow(s)` }],
            extra: { workflowCount: n },
          },
        );
      await tx.delete(integrations).where(eq(integrations.id, integrationId));
    });
    res.json({ message: 'Success' });
  });

  r.post('/workflows', requireApiKey, async (req, res) => {
    const body = parse(CreateWorkflowBody, req.body, 'body');
    const accountId = req.principal!.accountId;
    const integration = (tx: Pick<typeof db, 'select'>, lock: boolean) => {
      const q = tx
        .select({ id: integrations.id })
        .from(integrations)
        .where(and(eq(integrations.id, body.integrationId), eq(integrations.accountId, accountId)));
      return (lock ? q.for('key share') : q).then(([row]) => {
        if (!row) throw unprocessable('body.integrationId', 'exists', 'no such integration in this account');
      });
    };
    await integration(db, false);
    const connectors = await ctx.registry.forAccount(accountId);
    checkDefinition(body.definition, connectors, undefined, ctx.config.pollMinIntervalMs);
    const id = randomUUID();
    await db.transaction(async (tx) => {
      // Again under a lock, as the delete of an integration takes one: a delete that came first is a 422
      // here (not a foreign key error), and one that comes later waits and counts this workflow.
      await integration(tx, true);
      await tx.insert(workflows).values({
        id,
        accountId,
        integrationId: body.integrationId,
        name: body.name,
        description: body.description ?? null,
        currentVersion: 1,
      });
      await tx
        .insert(workflowVersions)
        .values({ workflowId: id, version: 1, definition: body.definition, definitionText: asSent(req) });
    });
    res.status(201).json({ workflowId: id, version: 1 });
  });

  // No user's state here: the nil UUID is no user, so every workflow reads as not installed.
  r.get('/account/workflows', requireApiKey, async (req, res) => {
    const q = parse(AccountWorkflowsQuery, req.query, 'query');
    const data = await listWorkflows(db, defs, req.principal!.accountId, NO_USER, {
      integrationId: q.integrationId,
    });
    res.json({ data: data.map((w) => ({ ...w, attention: null })) });
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
    const q = parse(WorkflowDefinitionQuery, req.query, 'query');
    const wf = await findWorkflow(db, req.principal!.accountId, workflowId);
    if (!wf) throw notFound('Workflow');
    const version = q.version ?? wf.currentVersion;
    const v = version <= wf.currentVersion ? await defs.get(wf.id, version) : undefined;
    if (!v) throw notFound('Workflow version');
    res.json({ workflowId: wf.id, version, definition: v.asTyped });
  });

  r.put('/workflows/:workflowId', requireApiKey, async (req, res) => {
    const workflowId = pathId(req.params.workflowId, 'workflowId');
    const body = parse(UpdateWorkflowBody, req.body, 'body');
    const wf = await findWorkflow(db, req.principal!.accountId, workflowId);
    if (!wf) throw notFound('Workflow');
    const connectors = await ctx.registry.forAccount(req.principal!.accountId);
    checkDefinition(body.definition, connectors, undefined, ctx.config.pollMinIntervalMs);
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
      await tx.insert(workflowVersions).values({
        workflowId: wf.id,
        version: row!.version,
        definition: body.definition,
        definitionText: asSent(req),
      });
      return row!.version;
    });
    res.json({ workflowId: wf.id, version });
  });

  // Its runs are kept: `executions` has no foreign key to the workflow, and the account-wide explorer reads
  // them with the workflow's name null. Only its versions go with it (their foreign key cascades).
  r.delete('/workflows/:workflowId', requireApiKey, async (req, res) => {
    const workflowId = pathId(req.params.workflowId, 'workflowId');
    const accountId = req.principal!.accountId;
    await db.transaction(async (tx) => {
      // The row lock waits for an install in flight (it locks the workflow too), so the count below sees
      // it; an install that comes later finds the workflow gone (422) instead of leaving an empty installation.
      const [row] = await tx
        .select({ id: workflows.id })
        .from(workflows)
        .where(and(eq(workflows.id, workflowId), eq(workflows.accountId, accountId)))
        .for('update');
      if (!row) throw notFound('Workflow');
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(userWorkflows)
        .where(eq(userWorkflows.workflowId, workflowId));
      if (n > 0)
        throw new HttpProblem(
          409,
          'conflict',
          `The workflow is installed by ${n} user${n === 1 ? '' : 's'}: uninstall it first (DELETE /installations/{installationId}), then delete it`,
          {
            errors: [
              { field: 'path.workflowId', rule: 'in_use', message: `installed in ${n} installation(s)` },
            ],
            extra: { installationCount: n },
          },
        );
      await tx.delete(workflows).where(eq(workflows.id, workflowId));
    });
    res.status(204).end();
  });

  return r;
}

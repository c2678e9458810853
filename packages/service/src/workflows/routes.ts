import { randomUUID } from 'node:crypto';
import { type Integration, operations as ops } from '@inlay/contract';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { type Request, Router } from 'express';
import type { AppContext } from '../context.ts';
import { HttpProblem, notFound, unprocessable } from '../http/problem.ts';
import { route } from '../http/route.ts';
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

  route(r, ops.createIntegration, async (req, res, { body }) => {
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

  route(r, ops.listIntegrations, async (req, res) => {
    const rows = await db
      .select()
      .from(integrations)
      .where(eq(integrations.accountId, req.principal!.accountId))
      .orderBy(asc(integrations.createdAt), asc(integrations.id));
    res.json({ data: rows.map(integrationJson) });
  });

  route(r, ops.updateIntegration, async (req, res, { params: { integrationId }, body }) => {
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

  route(r, ops.deleteIntegration, async (req, res, { params: { integrationId } }) => {
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

  route(r, ops.createWorkflow, async (req, res, { body }) => {
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
  route(r, ops.listAccountWorkflows, async (req, res, { query: q }) => {
    const data = await listWorkflows(db, defs, req.principal!.accountId, NO_USER, {
      integrationId: q.integrationId,
    });
    res.json({ data: data.map((w) => ({ ...w, attention: null })) });
  });

  route(r, ops.listWorkflows, async (req, res, { query: q }) => {
    const data = await listWorkflowsJsonOf(ctx, defs, req, q.userId, {
      integrationId: q.integrationId,
    });
    res.type('json').send(`{"data":${data}}`);
  });

  // Registered before `/workflows/:workflowId` so the literal segments win.
  for (const [op, active] of [
    [ops.activateWorkflow, true],
    [ops.deactivateWorkflow, false],
  ] as const) {
    route(r, op, async (req, res, { body }) => {
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

  route(r, ops.getWorkflow, async (req, res, { params: { workflowId }, query: q }) => {
    const [wf] = await listWorkflowsOf(ctx, defs, req, q.userId, { workflowId });
    if (!wf) throw notFound('Workflow');
    res.json({ data: wf });
  });

  route(r, ops.getWorkflowDefinition, async (req, res, { params: { workflowId }, query: q }) => {
    const wf = await findWorkflow(db, req.principal!.accountId, workflowId);
    if (!wf) throw notFound('Workflow');
    const version = q.version ?? wf.currentVersion;
    const v = version <= wf.currentVersion ? await defs.get(wf.id, version) : undefined;
    if (!v) throw notFound('Workflow version');
    res.json({ workflowId: wf.id, version, definition: v.asTyped });
  });

  route(r, ops.updateWorkflow, async (req, res, { params: { workflowId }, body }) => {
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
  route(r, ops.deleteWorkflow, async (req, res, { params: { workflowId } }) => {
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

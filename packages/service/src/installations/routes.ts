import { type FormData, operations as ops } from '@inlay/contract';
import { eq } from 'drizzle-orm';
import { type Request, Router } from 'express';
import type { AppContext } from '../context.ts';
import { announceDeleted } from '../credentials/announce-deleted.ts';
import { disarmInstallation } from '../engine/app-triggers/subscriptions.ts';
import { notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { pathId } from '../http/validate.ts';
import { installations } from '../store/schema.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { attentionOfNeed } from '../workflows/attention.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import {
  createInstallation,
  deleteInstallation,
  installedVersions,
  installTargets,
  valuesOf,
} from './install.ts';
import { validateInstall } from './install-validation.ts';
import { listInstallations, toInstallation } from './installations.ts';
import { credentialNeeds } from './readiness.ts';

/** Who the listing covers: a JWT sees its user only; an API key sees the account, or one user with `userId`. */
async function scope(ctx: AppContext, req: Request, userRef: string | undefined) {
  const p = req.principal!;
  if (p.kind === 'account' && userRef === undefined) return { accountId: p.accountId };
  const user = await resolveUser(ctx, req, userRef);
  return { accountId: user.accountId, userId: user.id };
}

export function installationsRoutes(ctx: AppContext, defs: DefinitionCache): Router {
  const r = Router();
  type Listed = Awaited<ReturnType<typeof listInstallations>>[number];
  // Each with its `attention`: the first credential need among its workflows, as their own `attention` says.
  const presentAll = async (list: Listed[]) => {
    if (!list.length) return [];
    const needs = await credentialNeeds(ctx, {
      accountId: list[0]!.row.accountId,
      installationIds: list.map((i) => i.row.id),
    });
    return list.map((i) => {
      const need = needs.get(i.row.id)?.values().next().value;
      return {
        ...toInstallation(i.row, i.workflowIds, ctx.config.publicUrl, ctx.vault),
        attention: need ? attentionOfNeed(need) : null,
      };
    });
  };
  const present = async (i: Listed) => (await presentAll([i]))[0]!;

  route(r, ops.listInstallations, async (req, res, { query: q }) => {
    const rows = await presentAll(await listInstallations(ctx.db, await scope(ctx, req, q.userId)));
    res.json({ data: q.attention === 'true' ? rows.filter((i) => i.attention) : rows });
  });

  /** One installation within the caller's scope; another account's or user's answers 404 like a missing one. */
  const findScoped = async (req: Request, userRef: string | undefined) => {
    const installationId = pathId(req.params.installationId, 'installationId');
    const [hit] = await listInstallations(ctx.db, { ...(await scope(ctx, req, userRef)), installationId });
    if (!hit) throw notFound('Installation');
    return hit;
  };

  route(r, ops.getInstallation, async (req, res, { query: q }) => {
    res.json({ data: await present(await findScoped(req, q.userId)) });
  });

  route(r, ops.createInstallation, async (req, res, { body }) => {
    const user = await resolveUser(ctx, req, body.userId, 'body.userId');
    const target = await installTargets(ctx.db, defs, user.accountId, user.id, body.workflowIds);
    const formData = await validateInstall(ctx, {
      user,
      workflows: target.workflows,
      credentialIds: body.credentialIds,
      values: body.values,
    });
    const id = await createInstallation(ctx.db, ctx.vault, {
      accountId: user.accountId,
      userId: user.id,
      integrationId: target.integrationId,
      workflows: target.workflows,
      credentialIds: body.credentialIds,
      formData,
    });
    const [hit] = await listInstallations(ctx.db, { accountId: user.accountId, installationId: id });
    void ctx.events.emit(user.accountId, 'installation.created', {
      installationId: id,
      userId: user.id,
      integrationId: target.integrationId,
      workflowIds: body.workflowIds,
    });
    res.status(201).json({ data: await present(hit!) });
  });

  // `values` and `credentialIds` replace what is stored and pass the same checks as an install.
  route(r, ops.updateInstallation, async (req, res, { body }) => {
    const { row } = await findScoped(req, body.userId);
    const edits: Partial<typeof installations.$inferInsert> = {};
    if (body.enabled !== undefined) edits.enabled = body.enabled;
    if (body.values !== undefined || body.credentialIds !== undefined) {
      const credentialIds = body.credentialIds ?? row.credentialIds;
      edits.formData = await validateInstall(ctx, {
        user: { accountId: row.accountId, id: row.userId },
        workflows: await installedVersions(ctx.db, defs, row.id),
        credentialIds,
        values: body.values ?? valuesOf(row.formData as FormData[]),
      });
      edits.credentialIds = credentialIds;
    }
    if (Object.keys(edits).length)
      await ctx.db
        .update(installations)
        .set({ ...edits, updatedAt: new Date() })
        .where(eq(installations.id, row.id));
    res.json({ data: await present((await findScoped(req, body.userId))!) });
  });

  route(r, ops.deleteInstallation, async (req, res, { query: q }) => {
    const { row } = await findScoped(req, q.userId);
    // Unsubscribed while the credentials still exist (deleteCredentials may remove them).
    await disarmInstallation(ctx, defs, row.id);
    const gone = await deleteInstallation(ctx.db, row, q.deleteCredentials === 'true');
    void ctx.events.emit(row.accountId, 'installation.deleted', {
      installationId: row.id,
      userId: row.userId,
      integrationId: row.integrationId,
    });
    announceDeleted(ctx, row.accountId, gone, 'uninstalled');
    res.json({ message: 'Success' });
  });

  return r;
}

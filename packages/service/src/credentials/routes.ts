import { operations as ops } from '@inlay/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { HttpProblem, notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { announceNeeds } from '../installations/announce-needs.ts';
import { credentials, installations, userWorkflows, workflows } from '../store/schema.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { announceDeleted, DELETED } from './announce-deleted.ts';
import { connectWithSecrets, replaceSecrets } from './connect.ts';
import { failAbandoned, listAccountCredentials, listCredentials, toCredential } from './credentials.ts';
import { startOAuth } from './oauth-flow.ts';

export function credentialsRoutes(ctx: AppContext): Router {
  const r = Router();

  route(r, ops.listAccountCredentials, async (req, res, { query: q }) => {
    const rows = await listAccountCredentials(ctx.db, req.principal!.accountId, q);
    res.json({ data: rows.map(({ username, ...row }) => ({ ...toCredential(row), username })) });
  });

  route(r, ops.listCredentials, async (req, res, { query: q }) => {
    const user = await resolveUser(ctx, req, q.userId);
    await failAbandoned(ctx.db, { accountId: user.accountId, userId: user.id });
    const rows = await listCredentials(ctx.db, {
      accountId: user.accountId,
      userId: user.id,
      connector: q.connector,
    });
    res.json({ data: rows.map(toCredential) });
  });

  // API-key and basic credentials are proven with the connector's test request before anything is stored.
  route(r, ops.createCredential, async (req, res, { body }) => {
    const user = await resolveUser(ctx, req, body.userId, 'body.userId');
    const row = await connectWithSecrets(ctx, user, body);
    res.status(201).json({ data: toCredential(row) });
  });

  route(r, ops.startOAuth, async (req, res, { body }) => {
    const user = await resolveUser(ctx, req, body.userId, 'body.userId');
    const started = await startOAuth(ctx, {
      accountId: user.accountId,
      userId: user.id,
      body,
      requestOrigin: req.headers.origin,
    });
    res.status(201).json(started);
  });

  route(r, ops.getCredential, async (req, res, { params: { credentialId: id }, query: q }) => {
    const user = await resolveUser(ctx, req, q.userId);
    await failAbandoned(ctx.db, { accountId: user.accountId, userId: user.id });
    const row = await ctx.credentials.find(user.accountId, user.id, id);
    if (!row) throw notFound('Credential');
    res.json({ data: toCredential(row) });
  });

  // Re-tests now: refreshes an OAuth token when due or refused, records the status and account label.
  route(r, ops.testCredential, async (req, res, { params: { credentialId: id }, query: q }) => {
    const user = await resolveUser(ctx, req, q.userId);
    const row = await ctx.credentials.find(user.accountId, user.id, id);
    if (!row) throw notFound('Credential');
    const tested = await ctx.credentials.retest(row);
    if (tested.transient)
      throw new HttpProblem(502, 'upstream_error', `Could not test the credential: ${tested.transient}`);
    res.json({ data: toCredential(tested.row) });
  });

  route(r, ops.replaceCredential, async (req, res, { params: { credentialId: id }, body }) => {
    const user = await resolveUser(ctx, req, body.userId, 'body.userId');
    const row = await ctx.credentials.find(user.accountId, user.id, id);
    if (!row) throw notFound('Credential');
    res.json({ data: toCredential(await replaceSecrets(ctx, row, body.data)) });
  });

  route(r, ops.renameCredential, async (req, res, { params: { credentialId: id }, body }) => {
    const user = await resolveUser(ctx, req, body.userId, 'body.userId');
    const row = await ctx.credentials.find(user.accountId, user.id, id);
    if (!row) throw notFound('Credential');
    const renamed = await ctx.credentials.rename(row, body.label);
    if (!renamed) throw notFound('Credential');
    res.json({ data: toCredential(renamed) });
  });

  route(r, ops.deleteCredential, async (req, res, { params: { credentialId: id }, query: q }) => {
    const user = await resolveUser(ctx, req, q.userId);
    const row = await ctx.credentials.find(user.accountId, user.id, id);
    if (!row) throw notFound('Credential');
    const usesIt = sql`exists (select 1 from jsonb_each_text(${installations.credentialIds}) c where c.value = ${id})`;
    const { gone, detached } = await ctx.db.transaction(async (tx) => {
      const users = await tx
        .select({ id: installations.id })
        .from(installations)
        .where(and(eq(installations.userId, user.id), usesIt))
        .orderBy(installations.id);
      // Deleting a credential an installation runs on would leave it without an account: say which, unless
      // told to go ahead; then each such installation reads as `needs_credential` until an account is chosen.
      if (users.length && q.detach !== 'true') {
        const ids = users.map((u) => u.id);
        const named = await tx
          .select({ workflowId: workflows.id, name: workflows.name })
          .from(userWorkflows)
          .innerJoin(workflows, eq(workflows.id, userWorkflows.workflowId))
          .where(inArray(userWorkflows.installationId, ids))
          .orderBy(workflows.name);
        const message = `is used by ${named.map((w) => `"${w.name}"`).join(', ') || `installation ${ids.join(', ')}`}: delete with ?detach=true to leave ${named.length === 1 ? 'it' : 'them'} without an account, or choose another account first (PATCH /installations/{id})`;
        throw new HttpProblem(409, 'conflict', `path.credentialId ${message}`, {
          errors: [{ field: 'path.credentialId', rule: 'in_use', message }],
          extra: { installationIds: ids, workflows: named },
        });
      }
      if (users.length)
        await tx
          .update(installations)
          .set({
            credentialIds: sql`(select coalesce(jsonb_object_agg(c.key, c.value), '{}'::jsonb) from jsonb_each(${installations.credentialIds}) c where c.value <> to_jsonb(${id}::text))`,
            updatedAt: new Date(),
          })
          .where(and(eq(installations.userId, user.id), usesIt));
      const gone = await tx
        .delete(credentials)
        .where(and(eq(credentials.id, id), eq(credentials.userId, user.id)))
        .returning(DELETED);
      return { gone, detached: users.map((u) => u.id) };
    });
    announceDeleted(ctx, user.accountId, gone, 'deleted');
    await announceNeeds(ctx, user.accountId, detached);
    res.json({ message: 'Success' });
  });

  return r;
}

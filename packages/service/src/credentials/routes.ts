import { CreateCredentialBody, CreateOAuthCredentialBody, CredentialsQuery } from '@inlay/contract';
import { and, eq, sql } from 'drizzle-orm';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { HttpProblem, notFound } from '../http/problem.ts';
import { parse, pathId } from '../http/validate.ts';
import { credentials, installations } from '../store/schema.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { connectWithSecrets } from './connect.ts';
import { failAbandoned, listCredentials, toCredential } from './credentials.ts';
import { startOAuth } from './oauth-flow.ts';

const UserQuery = CredentialsQuery.pick({ userId: true });

export function credentialsRoutes(ctx: AppContext): Router {
  const r = Router();

  r.get('/credentials', async (req, res) => {
    const q = parse(CredentialsQuery, req.query, 'query');
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
  r.post('/credentials', async (req, res) => {
    const body = parse(CreateCredentialBody, req.body, 'body');
    const user = await resolveUser(ctx, req, body.userId, 'body.userId');
    const row = await connectWithSecrets(ctx, user, body);
    res.status(201).json({ data: toCredential(row) });
  });

  r.post('/credentials/oauth', async (req, res) => {
    const body = parse(CreateOAuthCredentialBody, req.body, 'body');
    const user = await resolveUser(ctx, req, body.userId, 'body.userId');
    const started = await startOAuth(ctx, {
      accountId: user.accountId,
      userId: user.id,
      body,
      requestOrigin: req.headers.origin,
    });
    res.status(201).json(started);
  });

  r.get('/credentials/:credentialId', async (req, res) => {
    const id = pathId(req.params.credentialId, 'credentialId');
    const q = parse(UserQuery, req.query, 'query');
    const user = await resolveUser(ctx, req, q.userId);
    await failAbandoned(ctx.db, { accountId: user.accountId, userId: user.id });
    const row = await ctx.credentials.find(user.accountId, user.id, id);
    if (!row) throw notFound('Credential');
    res.json({ data: toCredential(row) });
  });

  r.delete('/credentials/:credentialId', async (req, res) => {
    const id = pathId(req.params.credentialId, 'credentialId');
    const q = parse(UserQuery, req.query, 'query');
    const user = await resolveUser(ctx, req, q.userId);
    const row = await ctx.credentials.find(user.accountId, user.id, id);
    if (!row) throw notFound('Credential');
    // Deleting a credential an installation runs on would break it silently: uninstall or switch it first.
    const users = await ctx.db
      .select({ id: installations.id })
      .from(installations)
      .where(
        and(
          eq(installations.userId, user.id),
          sql`exists (select 1 from jsonb_each_text(${installations.credentialIds}) c where c.value = ${id})`,
        ),
      );
    if (users.length) {
      const message = `is used by installation ${users.map((u) => u.id).join(', ')}: switch it to another credential (PATCH /installations/{id}) or uninstall first`;
      throw new HttpProblem(409, 'conflict', `path.credentialId ${message}`, {
        errors: [{ field: 'path.credentialId', rule: 'in_use', message }],
      });
    }
    await ctx.db.delete(credentials).where(and(eq(credentials.id, id), eq(credentials.userId, user.id)));
    res.json({ message: 'Success' });
  });

  return r;
}

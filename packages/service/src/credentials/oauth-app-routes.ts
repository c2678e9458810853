import { operations as ops } from '@inlay/contract';
import { and, eq } from 'drizzle-orm';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { notFound, unprocessable } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { parse } from '../http/validate.ts';
import { oauthApps } from '../store/schema.ts';
import { saveOAuthApp, toOAuthApp } from './oauth-apps.ts';

/** `GET|PUT /connectors/{connector}/oauth-app`: the account's OAuth client for a connector (API key only). */
export function oauthAppRoutes(ctx: AppContext): Router {
  const r = Router();
  // The app as registered (never its secret); `{data: null}` while the account has none for this connector.
  route(r, ops.getOAuthApp, async (req, res) => {
    const def = (await ctx.registry.forAccount(req.principal!.accountId)).get(String(req.params.connector));
    if (!def) throw notFound('Connector');
    const [row] = await ctx.db
      .select()
      .from(oauthApps)
      .where(and(eq(oauthApps.accountId, req.principal!.accountId), eq(oauthApps.connector, def.id)));
    res.json({ data: row ? toOAuthApp(row, ctx.config.publicUrl, ctx.config.oauthSharedRedirect) : null });
  });
  // The connector is checked first: a connector without OAuth is a 422 whatever the body.
  route(r, ops.putOAuthApp, { raw: ['body'] }, async (req, res) => {
    const def = (await ctx.registry.forAccount(req.principal!.accountId)).get(String(req.params.connector));
    if (!def) throw notFound('Connector');
    if (def.auth.type !== 'oauth2')
      throw unprocessable(
        'path.connector',
        'auth_type',
        `${def.id} uses ${def.auth.type} credentials, not OAuth`,
      );
    const body = parse(ops.putOAuthApp.body, req.body, 'body');
    const row = await saveOAuthApp(ctx.db, ctx.vault, {
      accountId: req.principal!.accountId,
      connector: def.id,
      clientId: body.clientId,
      clientSecret: body.clientSecret,
      scopes: body.scopes ?? def.auth.scopes,
    });
    res.json({ data: toOAuthApp(row, ctx.config.publicUrl, ctx.config.oauthSharedRedirect) });
  });
  return r;
}

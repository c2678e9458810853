import { OAuthAppBody } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { requireApiKey } from '../http/auth.ts';
import { notFound, unprocessable } from '../http/problem.ts';
import { parse } from '../http/validate.ts';
import { saveOAuthApp, toOAuthApp } from './oauth-apps.ts';

/** `PUT /connectors/{connector}/oauth-app`: the account registers its OAuth client (API key only). */
export function oauthAppRoutes(ctx: AppContext): Router {
  const r = Router();
  r.put('/connectors/:connector/oauth-app', requireApiKey, async (req, res) => {
    const def = ctx.connectors.get(String(req.params.connector));
    if (!def) throw notFound('Connector');
    if (def.auth.type !== 'oauth2')
      throw unprocessable(
        'path.connector',
        'auth_type',
        `${def.id} uses ${def.auth.type} credentials, not OAuth`,
      );
    const body = parse(OAuthAppBody, req.body, 'body');
    const row = await saveOAuthApp(ctx.db, ctx.vault, {
      accountId: req.principal!.accountId,
      connector: def.id,
      clientId: body.clientId,
      clientSecret: body.clientSecret,
      scopes: body.scopes ?? def.auth.scopes,
    });
    res.json({ data: toOAuthApp(row, ctx.config.publicUrl) });
  });
  return r;
}

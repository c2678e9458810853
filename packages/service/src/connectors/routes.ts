import { connectorIconSvg, toConnector, toConnectorAction } from '@inlay/connectors';
import { operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { findCustomIcon } from '../custom-connectors/custom-connector-store.ts';
import { notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';

/**
 * The public icon route, mounted before authentication: `<img src>` carries no bearer token. A custom
 * connector's icon URL carries its unguessable `key`, which stands in for the account.
 */
export function connectorIconRoutes(ctx: AppContext): Router {
  const r = Router();
  // Any `key` but one string is no key: the built-in icon.
  route(r, ops.getConnectorIcon, { raw: ['query'] }, async (req, res) => {
    const id = String(req.params.connector);
    const key = typeof req.query.key === 'string' ? req.query.key : undefined;
    const def = key ? await findCustomIcon(ctx, id, key) : ctx.connectors.get(id);
    if (!def) throw notFound('Connector');
    res
      .type('image/svg+xml')
      .set('cache-control', key ? 'public, max-age=300' : 'public, max-age=86400')
      .set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .set('cross-origin-resource-policy', 'cross-origin')
      .send(connectorIconSvg(def));
  });
  return r;
}

export function connectorsRoutes(ctx: AppContext): Router {
  const r = Router();

  route(r, ops.listConnectors, async (req, res, { query: q }) => {
    const all = (await ctx.registry.forAccount(req.principal!.accountId))
      .list()
      .map((d) => toConnector(d, ctx.config.publicUrl));
    res.json({ data: all.filter((c) => !q.category || c.category === q.category) });
  });

  route(r, ops.listConnectorActions, async (req, res) => {
    const def = (await ctx.registry.forAccount(req.principal!.accountId)).get(String(req.params.connector));
    if (!def) throw notFound('Connector');
    res.json({ data: def.actions.map(toConnectorAction) });
  });

  return r;
}

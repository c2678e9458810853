import { connectorIconSvg, toConnector, toConnectorAction } from '@inlay/connectors';
import { ConnectorsQuery } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { findCustomIcon } from '../custom-connectors/custom-connector-store.ts';
import { notFound } from '../http/problem.ts';
import { parse } from '../http/validate.ts';

/**
 * The public icon route, mounted before authentication: `<img src>` carries no bearer token. A custom
 * connector's icon URL carries its unguessable `key`, which stands in for the account.
 */
export function connectorIconRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get('/connectors/:connector/icon.svg', async (req, res) => {
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

  r.get('/connectors', async (req, res) => {
    const q = parse(ConnectorsQuery, req.query, 'query');
    const all = (await ctx.registry.forAccount(req.principal!.accountId))
      .list()
      .map((d) => toConnector(d, ctx.config.publicUrl));
    res.json({ data: all.filter((c) => !q.category || c.category === q.category) });
  });

  r.get('/connectors/:connector/actions', async (req, res) => {
    const def = (await ctx.registry.forAccount(req.principal!.accountId)).get(String(req.params.connector));
    if (!def) throw notFound('Connector');
    res.json({ data: def.actions.map(toConnectorAction) });
  });

  return r;
}

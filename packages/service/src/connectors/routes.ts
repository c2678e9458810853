import { connectorIconSvg, toConnector, toConnectorAction } from '@inlay/connectors';
import { ConnectorsQuery } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/problem.ts';
import { parse } from '../http/validate.ts';

/** The public icon route, mounted before authentication: `<img src>` carries no bearer token. */
export function connectorIconRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get('/connectors/:connector/icon.svg', (req, res) => {
    const def = ctx.connectors.get(String(req.params.connector));
    if (!def) throw notFound('Connector');
    res
      .type('image/svg+xml')
      .set('cache-control', 'public, max-age=86400')
      .set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .set('cross-origin-resource-policy', 'cross-origin')
      .send(connectorIconSvg(def));
  });
  return r;
}

export function connectorsRoutes(ctx: AppContext): Router {
  const r = Router();
  const all = () => ctx.connectors.list().map((d) => toConnector(d, ctx.config.publicUrl));

  r.get('/connectors', (req, res) => {
    const q = parse(ConnectorsQuery, req.query, 'query');
    res.json({ data: all().filter((c) => !q.category || c.category === q.category) });
  });

  r.get('/connectors/:connector/actions', (req, res) => {
    const def = ctx.connectors.get(String(req.params.connector));
    if (!def) throw notFound('Connector');
    res.json({ data: def.actions.map(toConnectorAction) });
  });

  return r;
}

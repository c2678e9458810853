import { operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { resolveUser } from '../users/resolve-user.ts';
import { loadOptions, usableCredential } from './options.ts';

/** `GET /connectors/{connector}/options/{source}?credentialId=`: a dynamic option list, live from the provider. */
export function connectorOptionsRoutes(ctx: AppContext): Router {
  const r = Router();
  route(r, ops.getConnectorOptions, async (req, res, { query: q }) => {
    const def = (await ctx.registry.forAccount(req.principal!.accountId)).get(String(req.params.connector));
    if (!def) throw notFound('Connector');
    const source = String(req.params.source);
    if (!Object.hasOwn(def.sources ?? {}, source)) throw notFound('Option source');
    const user = await resolveUser(ctx, req, q.userId);
    const credential = await usableCredential(ctx, user, def, q.credentialId, 'query.credentialId', () =>
      notFound('Credential'),
    );
    res.json({ data: await loadOptions(ctx, def, source, credential, 'query.credentialId', user, q.search) });
  });
  return r;
}

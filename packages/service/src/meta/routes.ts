import { operations as ops } from '@inlay/contract';
import { buildOpenApiDocument } from '@inlay/contract/openapi';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';

export function metaRoutes(ctx: AppContext): Router {
  const r = Router();
  let openapi: string | undefined;

  route(r, ops.healthz, (_req, res) => {
    res.json({ status: 'ok' });
  });

  route(r, ops.readyz, async (_req, res) => {
    const ok = await ctx.store.ping();
    if (!ok) res.set('retry-after', '5');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'database unavailable' });
  });

  route(r, ops.getOpenApi, (_req, res) => {
    openapi ??= JSON.stringify(buildOpenApiDocument(ctx.config.publicUrl));
    res.type('application/json').send(openapi);
  });

  route(r, ops.getJwks, async (_req, res) => {
    res.set('cache-control', 'public, max-age=300').json(await ctx.tokens.jwks());
  });

  return r;
}

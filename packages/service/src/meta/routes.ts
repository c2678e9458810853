import { buildOpenApiDocument } from '@inlay/contract/openapi';
import { Router } from 'express';
import type { AppContext } from '../context.ts';

export function metaRoutes(ctx: AppContext): Router {
  const r = Router();
  let openapi: string | undefined;

  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  r.get('/readyz', async (_req, res) => {
    const ok = await ctx.store.ping();
    if (!ok) res.set('retry-after', '5');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'database unavailable' });
  });

  r.get('/openapi.json', (_req, res) => {
    openapi ??= JSON.stringify(buildOpenApiDocument(ctx.config.publicUrl));
    res.type('application/json').send(openapi);
  });

  r.get('/.well-known/jwks.json', async (_req, res) => {
    res.set('cache-control', 'public, max-age=300').json(await ctx.tokens.jwks());
  });

  return r;
}

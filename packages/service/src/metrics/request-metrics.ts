import type { Request, RequestHandler } from 'express';
import type { Metrics } from './metrics.ts';

/** The matched route's template; every request no route matched (404s, the console's files) shares one label. */
export function routeTemplate(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : 'unmatched';
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Counts and times each answered request by route template, method and status; a 429 counts as rate limited. */
export function requestMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const route = routeTemplate(req);
      const labels = {
        route,
        method: METHODS.has(req.method) ? req.method : 'other',
        status: String(res.statusCode),
      };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
      if (res.statusCode === 429) metrics.rateLimited.inc({ route });
    });
    next();
  };
}

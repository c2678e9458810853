import { createHash, timingSafeEqual } from 'node:crypto';
import { operations as ops } from '@inlay/contract';
import express, { type Express, type RequestHandler, Router } from 'express';
import { HttpProblem } from '../http/problem.ts';
import { route } from '../http/route.ts';
import type { Metrics } from './metrics.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `GET /metrics`: the Prometheus exposition text; with a token, only for `Authorization: Bearer <token>`. */
export function metricsHandler(metrics: Metrics, token?: string): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return async (req, res) => {
    if (expected) {
      const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!timingSafeEqual(digest(given), expected))
        throw new HttpProblem(401, 'unauthorized', 'The metrics need INLAY_METRICS_TOKEN as a bearer token', {
          headers: { 'www-authenticate': 'Bearer realm="inlay-metrics"' },
        });
    }
    const { contentType, text } = await metrics.scrape();
    res.setHeader('content-type', contentType);
    res.setHeader('cache-control', 'no-store');
    res.end(text);
  };
}

/**
 * `GET /metrics` on the API's port, for `Authorization: Bearer <token>`. Without metrics or a token the route
 * passes the request on, to be answered like any unknown route.
 */
export function metricsRoutes(metrics: Metrics | undefined, token: string | undefined): Router {
  const r = Router();
  const handler = metrics && token ? metricsHandler(metrics, token) : undefined;
  route(r, ops.getMetrics, (req, res, _input, next) => (handler ? handler(req, res, next) : next()));
  return r;
}

/** The metrics on a listener of their own (`INLAY_METRICS_PORT`): only `GET /metrics`, without a token. */
export function metricsApp(metrics: Metrics): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/metrics', metricsHandler(metrics));
  app.use((_req, res) => void res.status(404).type('text/plain').end('Not found\n'));
  return app;
}

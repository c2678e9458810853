import { z } from 'zod';
import { DOCS_ASSETS } from './common.ts';
import { defineOperations, problem, retryAfter } from './operation.ts';
import { Jwks } from './tokens.ts';

/** The meta operations of the REST API, keyed by operationId. */
export const metaOperations = defineOperations({
  getJwks: {
    method: 'get',
    path: '/.well-known/jwks.json',
    summary: 'Public keys that verify user JWTs',
    tag: 'Meta',
    auth: 'none',
    ok: Jwks,
    notFound: false,
  },
  healthz: {
    method: 'get',
    path: '/healthz',
    summary: 'Liveness',
    tag: 'Meta',
    auth: 'none',
    ok: z.object({ status: z.string() }),
    notFound: false,
    db: false,
  },
  readyz: {
    method: 'get',
    path: '/readyz',
    summary: 'Readiness (database reachable)',
    tag: 'Meta',
    auth: 'none',
    ok: z.object({ status: z.string() }),
    notFound: false,
    db: false,
    extra: {
      '503': {
        description: 'The database does not answer',
        headers: retryAfter('Seconds to wait before asking again'),
        content: { 'application/json': { schema: z.object({ status: z.string() }) } },
      },
    },
  },
  getMetrics: {
    method: 'get',
    path: '/metrics',
    summary:
      'Prometheus metrics (text exposition format) for `Authorization: Bearer <INLAY_METRICS_TOKEN>`; a 404 when INLAY_METRICS_TOKEN is unset (INLAY_METRICS_PORT serves them on a port of its own)',
    tag: 'Meta',
    auth: 'none',
    ok: z.string(),
    content: 'text/plain',
    limited: false,
    extra: {
      '401': problem('The bearer token is missing or is not INLAY_METRICS_TOKEN', {
        'www-authenticate': { schema: { type: 'string' } },
      }),
    },
  },
  getOpenApi: {
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    tag: 'Meta',
    auth: 'none',
    ok: z.record(z.string(), z.unknown()),
    notFound: false,
    db: false,
  },
  getDocs: {
    method: 'get',
    path: '/docs',
    summary: 'This reference, interactive (Swagger UI, served by the service itself)',
    tag: 'Meta',
    auth: 'none',
    ok: z.string(),
    content: 'text/html',
    notFound: false,
    db: false,
  },
  getDocsAsset: {
    method: 'get',
    path: '/docs/{asset}',
    summary: 'A script or style sheet the reference loads',
    tag: 'Meta',
    auth: 'none',
    params: z.object({ asset: z.enum(DOCS_ASSETS) }),
    ok: null,
    db: false,
    extra: {
      '200': {
        description: 'The file',
        content: {
          'text/javascript': { schema: { type: 'string' } },
          'text/css': { schema: { type: 'string' } },
        },
      },
    },
  },
});

import { z } from 'zod';
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from 'zod-openapi';
import { API_VERSIONS, Uuid } from './common.ts';
import { type Operation, problem, retryAfter, UuidParam } from './operation.ts';
import { operations } from './operations.ts';

type ProblemStatus = '400' | '401' | '403' | '404' | '409' | '413' | '415' | '422' | '429' | '502' | '503';

const COMMON: Record<ProblemStatus, string> = {
  '400': 'Malformed request (or an unsupported `x-api-version`): the body names the field and the rule',
  '401': 'Missing or invalid credentials',
  '403':
    'A user JWT on a route that needs the account API key, or a console session cookie on a write without its `x-inlay-csrf` header',
  '404': "Not found, or not yours (another account's or user's object answers exactly like a missing one)",
  '409': 'Conflict',
  '413': 'The JSON body exceeds 1 MB',
  '415': 'The body is not `application/json`, or its charset or content encoding is not supported',
  '422': 'Unprocessable',
  '429': 'Rate limited: `retry-after` says when to retry',
  '502': 'The provider could not be reached or failed',
  '503': 'The database is unreachable: retry after `retry-after` seconds',
};

/** Every status the operation can answer, from what the routes and the middleware in front of them do. */
function responsesOf(op: Operation, write: boolean): oas31.ResponsesObject {
  const status = op.status ?? '200';
  const authed = op.auth !== 'none';
  const out: oas31.ResponsesObject = {
    [status]: op.ok
      ? { description: 'Success', content: { [op.content ?? 'application/json']: { schema: op.ok } } }
      : { description: 'Success' },
    '400': problem(COMMON['400']),
  };
  if (authed) out['401'] = problem(COMMON['401'], { 'www-authenticate': { schema: { type: 'string' } } });
  // A console session (cookie) may make any authenticated call; its writes need the CSRF header.
  if (op.auth === 'key' || (authed && write)) out['403'] = problem(COMMON['403']);
  if (op.notFound !== false) out['404'] = problem(COMMON['404']);
  if (op.problems?.['409']) out['409'] = problem(op.problems['409']);
  if (op.jsonBody ?? authed) {
    out['413'] = problem(COMMON['413']);
    out['415'] = problem(COMMON['415']);
  }
  if (op.problems?.['422']) out['422'] = problem(op.problems['422']);
  if (op.limited ?? authed)
    out['429'] = problem(COMMON['429'], retryAfter('Seconds until the quota refills'));
  if (op.problems?.['502']) out['502'] = problem(op.problems['502']);
  if (op.db !== false) out['503'] = problem(COMMON['503'], retryAfter('Seconds to wait before retrying'));
  Object.assign(out, op.extra);
  if (op.proxy) {
    // The provider's own answer may carry any of these statuses too, with whatever body it sends.
    for (const r of Object.values(out) as oas31.ResponseObject[])
      r.content = { ...r.content, '*/*': { schema: {} } };
    out.default = {
      description:
        "The provider's answer, streamed back (`x-inlay-upstream-status` says it is the provider's)",
      content: { '*/*': { schema: {} } },
    };
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function operation(op: Operation & { id: string }): ZodOpenApiOperationObject {
  const security: Record<string, string[]>[] =
    op.auth === 'none' ? [] : op.auth === 'key' ? [{ apiKey: [] }] : [{ apiKey: [] }, { userJwt: [] }];
  return {
    operationId: op.id,
    summary: op.summary,
    tags: [op.tag],
    security,
    requestParams: {
      ...(op.params ? { path: op.params } : {}),
      ...(op.query ? { query: op.query as z.ZodObject } : {}),
      header: op.proxy
        ? z.object({
            'x-api-version': z.enum(API_VERSIONS).optional(),
            'x-inlay-credential-id': UuidParam.optional().meta({
              description: "Which of the user's credentials to use; by default the only connected one",
            }),
          })
        : z.object({ 'x-api-version': z.enum(API_VERSIONS).optional() }),
    },
    ...(op.proxy
      ? {
          requestBody: {
            required: false,
            description: 'Forwarded as bytes with its content type (JSON, a form, a file)',
            content: { '*/*': { schema: {} } },
          },
        }
      : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } }
      : {}),
    responses: responsesOf(op, op.method !== 'get'),
  };
}

/** Builds the OpenAPI 3.1 document from the contract's schemas. */
export function buildOpenApiDocument(serverUrl = 'http://localhost:8080'): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of Object.values(operations) as (Operation & { id: string })[])
    paths[op.path] = { ...paths[op.path], [op.method]: operation(op) };
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Inlay API',
      version: API_VERSIONS[0],
      description: 'Embedded integrations API, compatible with the Alloy Embedded `2025-09` REST contract.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Account API key: `inlay_live_…` or `inlay_test_…`',
        },
        userJwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'User JWT from `/users/{userId}/token`',
        },
      },
    },
    paths,
  });
}

export { Uuid };

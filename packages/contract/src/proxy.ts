import { z } from 'zod';
import { listOf, UserRef } from './common.ts';
import { defineOperations, type HttpMethod, type Operation } from './operation.ts';

/** The proxy's own query parameters; every other parameter goes to the provider as written. */
export const ProxyQuery = z
  .object({
    userId: UserRef.optional().meta({ description: 'The user (id or username); required with an API key' }),
    api: z
      .string()
      .optional()
      .meta({ description: "One of the connector's named APIs instead of its base URL (e.g. `drive`)" }),
  })
  .meta({ id: 'ProxyQuery' });
export type ProxyQuery = z.infer<typeof ProxyQuery>;

/** One connector's proxy traffic (`GET /stats/proxy`). */
export const ProxyCount = z
  .object({
    connector: z.string(),
    requests: z.number().int(),
    errors: z.number().int().meta({ description: 'Calls refused or failed in Inlay, or answered with 5xx' }),
    bytes: z.number().int().meta({ description: 'Response bytes streamed back' }),
  })
  .meta({ id: 'ProxyCount' });
export type ProxyCount = z.infer<typeof ProxyCount>;

export const PROXY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ProxyMethod = (typeof PROXY_METHODS)[number];

/** `/connectors/{connector}/proxy/{path}` with one method: any provider endpoint as the user. */
const proxyOperation = <M extends HttpMethod>(m: M) =>
  ({
    method: m,
    path: '/connectors/{connector}/proxy/{path}' as const,
    summary: `${m.toUpperCase()} any provider endpoint as the user (the credential is inserted by Inlay)`,
    tag: 'Proxy',
    auth: 'user',
    params: z.object({
      connector: z.string(),
      path: z
        .string()
        .meta({ description: "The provider path below the connector's base URL; may hold `/`" }),
    }),
    query: ProxyQuery,
    ok: null,
    proxy: true,
    wildcard: true,
    problems: {
      '409':
        'The user has several connected credentials for the connector: name one with `x-inlay-credential-id`',
      '422':
        "The credential is not usable (`credential_needs_reconnect`, another connector's), or the egress policy refused the host (`code: egress_denied`)",
      '502': 'The provider could not be reached, did not answer in time, or answered more than the size cap',
    },
  }) satisfies Operation;

/** The proxy operations of the REST API, keyed by operationId. */
export const proxyOperations = defineOperations({
  getProxyStats: {
    method: 'get',
    path: '/stats/proxy',
    summary:
      "The account's proxy calls per connector, every node's together (another node's within about a second)",
    tag: 'Proxy',
    auth: 'key',
    ok: listOf(ProxyCount),
    notFound: false,
  },
  proxyGet: proxyOperation('get'),
  proxyPost: proxyOperation('post'),
  proxyPut: proxyOperation('put'),
  proxyPatch: proxyOperation('patch'),
  proxyDelete: proxyOperation('delete'),
});

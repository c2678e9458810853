import type {
  AccountCredentialsQuery,
  CreateApiKeyBody,
  CreateIntegrationBody,
  CreateMcpServerBody,
  CreateUserBody,
  CreateWebhookEndpointBody,
  CreateWorkflowBody,
  DeclarativeConnector,
  ExecutionStatsQuery,
  ExecutionsQuery,
  ImportConnectorBody,
  OAuthAppBody,
  ProviderCallsQuery,
  UpdateAccountSettingsBody,
  UpdateIntegrationBody,
  UpdateMcpServerBody,
  UpdateUserBody,
  UpdateWorkflowBody,
  WebhookDeliveriesQuery,
} from '@inlay/contract';
import { call } from './call.ts';
import { proxyRoutes } from './proxy.ts';
import { type CallOptions, createTransport, type Request, type TransportOptions } from './transport.ts';
import { userRoutes } from './user-api.ts';

export interface ServerClientOptions extends TransportOptions {
  /** The account's API key (`inlay_live_…`). Server side only: never ship it to a browser. */
  apiKey: string;
}

type Data<T> = { data: T };

/** A contract query whose `limit` is text (query strings are) taken as a number too, as the other lists take it. */
type NumericLimit<Q extends { limit?: string }> = Omit<Q, 'limit'> & { limit?: number | string };

const unwrap = <T>(p: Promise<Data<T>>) => p.then((r) => r.data);

export function serverRoutes(r: Request) {
  const u = userRoutes(r);
  return {
    ...u,
    /**
     * `/connectors/{connector}/proxy/{path}`: any provider endpoint as the user. Server only, so the widget
     * does not ship it; a browser with a user token can call the route itself.
     */
    proxy: proxyRoutes(r),
    users: {
      ...u.users,
      /** `GET /users` */
      list: (q: { page?: number; limit?: number; search?: string } = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /users', { ...o, query: q })),
      /** `POST /users` → `{userId}` */
      create: (body: CreateUserBody) => call(r, 'POST /users', { body }),
      /** `PUT /users/{userId}` */
      update: (userId: string, body: UpdateUserBody) =>
        unwrap(call(r, 'PUT /users/{userId}', { params: { userId }, body })),
      /** `DELETE /users/{userId}`: the user and all their data. */
      delete: (userId: string) => call(r, 'DELETE /users/{userId}', { params: { userId } }),
      /** `GET /users/{userId}/token` → `{token, expiresAt}`: mint a user JWT for the widget. */
      token: (userId: string) => call(r, 'GET /users/{userId}/token', { params: { userId } }),
    },
    integrations: {
      ...u.integrations,
      /** `POST /integrations` → `{integrationId}` */
      create: (body: CreateIntegrationBody) => call(r, 'POST /integrations', { body }),
      /** `PATCH /integrations/{integrationId}`: the fields given change; `null` clears description or connector. */
      update: (integrationId: string, body: UpdateIntegrationBody) =>
        unwrap(call(r, 'PATCH /integrations/{integrationId}', { params: { integrationId }, body })),
      /** `DELETE /integrations/{integrationId}`: refused (409, `workflowCount`) while it has workflows. */
      delete: (integrationId: string) =>
        call(r, 'DELETE /integrations/{integrationId}', { params: { integrationId } }),
    },
    workflows: {
      ...u.workflows,
      /** `GET /account/workflows`: every workflow of the account as authored (no user's state). */
      listAll: (q: { integrationId?: string } = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /account/workflows', { ...o, query: q })),
      /** `POST /workflows` → `{workflowId, version}` */
      create: (body: CreateWorkflowBody) => call(r, 'POST /workflows', { body }),
      /** `PUT /workflows/{workflowId}`: publishes a new version. */
      update: (workflowId: string, body: UpdateWorkflowBody) =>
        call(r, 'PUT /workflows/{workflowId}', { params: { workflowId }, body }),
      /**
       * `DELETE /workflows/{workflowId}` (204): the workflow and its versions; its runs stay readable. Refused
       * (409, `installationCount`) while a user has it installed.
       */
      delete: (workflowId: string) => call(r, 'DELETE /workflows/{workflowId}', { params: { workflowId } }),
      /** `GET /workflows/{workflowId}/definition`: the current version, or `{version}` (1 is the first). */
      definition: (workflowId: string, q: { version?: number } = {}, o?: CallOptions) =>
        call(r, 'GET /workflows/{workflowId}/definition', { params: { workflowId }, ...o, query: q }),
    },
    connectors: {
      ...u.connectors,
      /** `GET /connectors/{connector}/oauth-app`: the registered app (no secret), or null when there is none. */
      getOAuthApp: (connector: string, o?: CallOptions) =>
        unwrap(call(r, 'GET /connectors/{connector}/oauth-app', { params: { connector }, ...o })),
      /** `PUT /connectors/{connector}/oauth-app`: the account's OAuth app for a connector. */
      putOAuthApp: (connector: string, body: OAuthAppBody) =>
        unwrap(call(r, 'PUT /connectors/{connector}/oauth-app', { params: { connector }, body })),
      /** `POST /connectors`: one of the account's own connectors, from a declarative definition. */
      create: (body: DeclarativeConnector) => unwrap(call(r, 'POST /connectors', { body })),
      /**
       * `GET /connectors/{connector}/definition`: one of the account's own connectors as stored (the current
       * version, or `{version}`), to edit and send back with `update`.
       */
      definition: (connector: string, q: { version?: number } = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /connectors/{connector}/definition', { params: { connector }, ...o, query: q })),
      /** `PUT /connectors/{connector}`: publishes a new version of the account's own connector. */
      update: (connector: string, body: DeclarativeConnector) =>
        unwrap(call(r, 'PUT /connectors/{connector}', { params: { connector }, body })),
      /** `DELETE /connectors/{connector}`: refused (409) while a workflow that uses it is installed. */
      delete: (connector: string) => call(r, 'DELETE /connectors/{connector}', { params: { connector } }),
      /**
       * `POST /connectors/import`: a draft custom connector from an OpenAPI 3.x or Swagger 2.0 document (an
       * object, or its YAML or JSON text), with warnings naming what was dropped; `{create: true}` also
       * creates it (`connector` in the answer).
       */
      import: (body: ImportConnectorBody, opts: { create?: boolean } = {}) =>
        unwrap(
          call(r, 'POST /connectors/import', { body, ...(opts.create ? { query: { create: 'true' } } : {}) }),
        ),
    },
    runs: {
      ...u.runs,
      /**
       * `POST /hooks/{installationId}/{secret}`: triggers an installation's webhook workflows with `data` as
       * the trigger (what a third party does with the installation's `webhookUrl`; the secret is the credential).
       */
      webhook: (installationId: string, secret: string, data: Record<string, unknown> = {}) =>
        call(r, 'POST /hooks/{installationId}/{secret}', { params: { installationId, secret }, body: data }),
    },
    credentials: {
      ...u.credentials,
      /** `GET /account/credentials`: every user's credentials (`{status: 'needs_reconnect'}`: those to repair). */
      listAll: (q: AccountCredentialsQuery = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /account/credentials', { ...o, query: q })),
    },
    mcpServers: {
      /** `GET /mcp-servers` */
      list: (o?: CallOptions) => unwrap(call(r, 'GET /mcp-servers', o)),
      /** `POST /mcp-servers` → `{serverId, accessToken, url}`; the token is shown once. */
      create: (body: CreateMcpServerBody) => call(r, 'POST /mcp-servers', { body }),
      /** `PATCH /mcp-servers/{serverId}`: rename it or replace its restrictions (agents see them at once). */
      update: (serverId: string, body: UpdateMcpServerBody) =>
        unwrap(call(r, 'PATCH /mcp-servers/{serverId}', { params: { serverId }, body })),
      /** `DELETE /mcp-servers/{serverId}` */
      delete: (serverId: string) => call(r, 'DELETE /mcp-servers/{serverId}', { params: { serverId } }),
    },
    webhookEndpoints: {
      /** `GET /webhook-endpoints` (never the secrets) */
      list: (o?: CallOptions) => unwrap(call(r, 'GET /webhook-endpoints', o)),
      /** `POST /webhook-endpoints` → `{webhookEndpointId, secret}`; the `whsec_…` secret is shown once. */
      create: (body: CreateWebhookEndpointBody) => call(r, 'POST /webhook-endpoints', { body }),
      /** `DELETE /webhook-endpoints/{webhookEndpointId}` */
      delete: (webhookEndpointId: string) =>
        call(r, 'DELETE /webhook-endpoints/{webhookEndpointId}', { params: { webhookEndpointId } }),
      /** `GET /webhook-endpoints/{webhookEndpointId}/deliveries`: the latest 100, newest first. */
      deliveries: (webhookEndpointId: string, o?: CallOptions) =>
        unwrap(
          call(r, 'GET /webhook-endpoints/{webhookEndpointId}/deliveries', {
            params: { webhookEndpointId },
            ...o,
          }),
        ),
    },
    webhookDeliveries: {
      /** `GET /webhook-deliveries`: every endpoint's latest deliveries, newest first (`{status: 'failing'}`). */
      list: (q: NumericLimit<WebhookDeliveriesQuery> = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /webhook-deliveries', { ...o, query: q })),
      /** `GET /webhook-deliveries` as a page: `{data, nextCursor}`; pass `nextCursor` back as `cursor`. */
      page: (q: NumericLimit<WebhookDeliveriesQuery> = {}, o?: CallOptions) =>
        call(r, 'GET /webhook-deliveries', { ...o, query: q }),
    },
    executions: {
      /** `GET /executions`: every user's runs, newest first; pass `nextCursor` back as `cursor`. */
      list: (q: NumericLimit<ExecutionsQuery> = {}, o?: CallOptions) =>
        call(r, 'GET /executions', { ...o, query: q }),
      /** `GET /executions/{executionId}`: one run of any user, with its steps. */
      get: (executionId: string, o?: CallOptions) =>
        unwrap(call(r, 'GET /executions/{executionId}', { params: { executionId }, ...o })),
      /** `GET /stats/executions`: runs per hour or day by status, error rate, slowest workflows. */
      stats: (q: ExecutionStatsQuery = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /stats/executions', { ...o, query: q })),
    },
    providerCalls: {
      /**
       * `GET /provider-calls`: the account's calls to providers (steps, proxy, polls, option lists, connection
       * tests), newest first; filter by `userId`, `credentialId`, `connector`, `kind`, `failed`, `from`, `to`;
       * pass `nextCursor` back as `cursor`.
       */
      list: (q: NumericLimit<ProviderCallsQuery> = {}, o?: CallOptions) =>
        call(r, 'GET /provider-calls', { ...o, query: q }),
    },
    apiKeys: {
      /** `GET /api-keys` (never the keys themselves) */
      list: (o?: CallOptions) => unwrap(call(r, 'GET /api-keys', o)),
      /** `POST /api-keys` → `{data, key}`; the key is shown once. */
      create: (body: CreateApiKeyBody = {}) => call(r, 'POST /api-keys', { body }),
      /** `DELETE /api-keys/{apiKeyId}`: revokes it and the console sessions opened with it. */
      revoke: (apiKeyId: string) => call(r, 'DELETE /api-keys/{apiKeyId}', { params: { apiKeyId } }),
    },
    settings: {
      /** `GET /settings`: the account's settings (`allowedOrigins`, its log retention and the service's). */
      get: (o?: CallOptions) => unwrap(call(r, 'GET /settings', o)),
      /**
       * `PUT /settings`: replaces each setting given (the origins OAuth may redirect or post its result to, the
       * account's own log retention) and keeps the others.
       */
      put: (body: UpdateAccountSettingsBody) => unwrap(call(r, 'PUT /settings', { body })),
    },
    stats: {
      /** `GET /stats/proxy`: the account's proxy calls per connector, every node's together. */
      proxy: (o?: CallOptions) => unwrap(call(r, 'GET /stats/proxy', o)),
    },
    meta: {
      /** `GET /.well-known/jwks.json` */
      jwks: () => call(r, 'GET /.well-known/jwks.json'),
      /** `GET /openapi.json` */
      openapi: () => call(r, 'GET /openapi.json'),
      /** `GET /healthz` */
      health: () => call(r, 'GET /healthz'),
      /** `GET /readyz` */
      ready: () => call(r, 'GET /readyz'),
    },
  };
}

export type ServerClient = ReturnType<typeof serverRoutes> & {
  readonly baseUrl: string;
  readonly request: Request;
};

/** A client for every REST route, authenticated with the account's API key. For servers only. */
export function createServerClient(opts: ServerClientOptions): ServerClient {
  const request = createTransport(opts, { get: async () => opts.apiKey });
  return { ...serverRoutes(request), baseUrl: opts.baseUrl, request };
}

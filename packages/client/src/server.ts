import type {
  AccountCredential,
  AccountCredentialsQuery,
  AccountExecution,
  AccountSettings,
  AccountWebhookDeliveriesPage,
  AccountWebhookDelivery,
  ApiKey,
  Connector,
  CreateApiKeyBody,
  CreateApiKeyResponse,
  CreateIntegrationBody,
  CreateMcpServerBody,
  CreateMcpServerResponse,
  CreateUserBody,
  CreateUserResponse,
  CreateWebhookEndpointBody,
  CreateWebhookEndpointResponse,
  CreateWorkflowBody,
  CustomConnectorDefinition,
  DeclarativeConnector,
  ExecutionStats,
  ExecutionStatsQuery,
  ExecutionsPage,
  ExecutionsQuery,
  ImportConnectorBody,
  ImportConnectorResponse,
  Integration,
  Jwks,
  McpServer,
  MessageResponse,
  OAuthApp,
  OAuthAppBody,
  ProviderCallsPage,
  ProviderCallsQuery,
  ProxyCount,
  RunResponse,
  UpdateAccountSettingsBody,
  UpdateIntegrationBody,
  UpdateMcpServerBody,
  UpdateUserBody,
  UpdateWorkflowBody,
  User,
  UserToken,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookEndpoint,
  Workflow,
  WorkflowDefinition,
  WorkflowVersionResponse,
} from '@inlay/contract';
import { proxyRoutes } from './proxy.ts';
import { type CallOptions, createTransport, type Request, seg, type TransportOptions } from './transport.ts';
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
        unwrap(r<Data<User[]>>('GET', '/users', { ...o, query: q })),
      /** `POST /users` → `{userId}` */
      create: (body: CreateUserBody) => r<CreateUserResponse>('POST', '/users', { body }),
      /** `PUT /users/{userId}` */
      update: (userId: string, body: UpdateUserBody) =>
        unwrap(r<Data<User>>('PUT', `/users/${seg(userId)}`, { body })),
      /** `DELETE /users/{userId}`: the user and all their data. */
      delete: (userId: string) => r<MessageResponse>('DELETE', `/users/${seg(userId)}`),
      /** `GET /users/{userId}/token` → `{token, expiresAt}`: mint a user JWT for the widget. */
      token: (userId: string) => r<UserToken>('GET', `/users/${seg(userId)}/token`),
    },
    integrations: {
      ...u.integrations,
      /** `POST /integrations` → `{integrationId}` */
      create: (body: CreateIntegrationBody) =>
        r<{ integrationId: string }>('POST', '/integrations', { body }),
      /** `PATCH /integrations/{integrationId}`: the fields given change; `null` clears description or connector. */
      update: (integrationId: string, body: UpdateIntegrationBody) =>
        unwrap(r<Data<Integration>>('PATCH', `/integrations/${seg(integrationId)}`, { body })),
      /** `DELETE /integrations/{integrationId}`: refused (409, `workflowCount`) while it has workflows. */
      delete: (integrationId: string) => r<MessageResponse>('DELETE', `/integrations/${seg(integrationId)}`),
    },
    workflows: {
      ...u.workflows,
      /** `GET /account/workflows`: every workflow of the account as authored (no user's state). */
      listAll: (q: { integrationId?: string } = {}, o?: CallOptions) =>
        unwrap(r<Data<Workflow[]>>('GET', '/account/workflows', { ...o, query: q })),
      /** `POST /workflows` → `{workflowId, version}` */
      create: (body: CreateWorkflowBody) => r<WorkflowVersionResponse>('POST', '/workflows', { body }),
      /** `PUT /workflows/{workflowId}`: publishes a new version. */
      update: (workflowId: string, body: UpdateWorkflowBody) =>
        r<WorkflowVersionResponse>('PUT', `/workflows/${seg(workflowId)}`, { body }),
      /**
       * `DELETE /workflows/{workflowId}` (204): the workflow and its versions; its runs stay readable. Refused
       * (409, `installationCount`) while a user has it installed.
       */
      delete: (workflowId: string) => r<void>('DELETE', `/workflows/${seg(workflowId)}`),
      /** `GET /workflows/{workflowId}/definition`: the current version, or `{version}` (1 is the first). */
      definition: (workflowId: string, q: { version?: number } = {}, o?: CallOptions) =>
        r<WorkflowVersionResponse & { definition: WorkflowDefinition }>(
          'GET',
          `/workflows/${seg(workflowId)}/definition`,
          { ...o, query: q },
        ),
    },
    connectors: {
      ...u.connectors,
      /** `GET /connectors/{connector}/oauth-app`: the registered app (no secret), or null when there is none. */
      getOAuthApp: (connector: string, o?: CallOptions) =>
        unwrap(r<Data<OAuthApp | null>>('GET', `/connectors/${seg(connector)}/oauth-app`, o)),
      /** `PUT /connectors/{connector}/oauth-app`: the account's OAuth app for a connector. */
      putOAuthApp: (connector: string, body: OAuthAppBody) =>
        unwrap(r<Data<OAuthApp>>('PUT', `/connectors/${seg(connector)}/oauth-app`, { body })),
      /** `POST /connectors`: one of the account's own connectors, from a declarative definition. */
      create: (body: DeclarativeConnector) => unwrap(r<Data<Connector>>('POST', '/connectors', { body })),
      /**
       * `GET /connectors/{connector}/definition`: one of the account's own connectors as stored (the current
       * version, or `{version}`), to edit and send back with `update`.
       */
      definition: (connector: string, q: { version?: number } = {}, o?: CallOptions) =>
        unwrap(
          r<Data<CustomConnectorDefinition>>('GET', `/connectors/${seg(connector)}/definition`, {
            ...o,
            query: q,
          }),
        ),
      /** `PUT /connectors/{connector}`: publishes a new version of the account's own connector. */
      update: (connector: string, body: DeclarativeConnector) =>
        unwrap(r<Data<Connector>>('PUT', `/connectors/${seg(connector)}`, { body })),
      /** `DELETE /connectors/{connector}`: refused (409) while a workflow that uses it is installed. */
      delete: (connector: string) => r<MessageResponse>('DELETE', `/connectors/${seg(connector)}`),
      /**
       * `POST /connectors/import`: a draft custom connector from an OpenAPI 3.x or Swagger 2.0 document (an
       * object, or its YAML or JSON text), with warnings naming what was dropped; `{create: true}` also
       * creates it (`connector` in the answer).
       */
      import: (body: ImportConnectorBody, opts: { create?: boolean } = {}) =>
        unwrap(
          r<Data<ImportConnectorResponse>>('POST', '/connectors/import', {
            body,
            ...(opts.create ? { query: { create: 'true' } } : {}),
          }),
        ),
    },
    runs: {
      ...u.runs,
      /**
       * `POST /hooks/{installationId}/{secret}`: triggers an installation's webhook workflows with `data` as
       * the trigger (what a third party does with the installation's `webhookUrl`; the secret is the credential).
       */
      webhook: (installationId: string, secret: string, data: Record<string, unknown> = {}) =>
        r<RunResponse>('POST', `/hooks/${seg(installationId)}/${seg(secret)}`, { body: data }),
    },
    credentials: {
      ...u.credentials,
      /** `GET /account/credentials`: every user's credentials (`{status: 'needs_reconnect'}`: those to repair). */
      listAll: (q: AccountCredentialsQuery = {}, o?: CallOptions) =>
        unwrap(r<Data<AccountCredential[]>>('GET', '/account/credentials', { ...o, query: q })),
    },
    mcpServers: {
      /** `GET /mcp-servers` */
      list: (o?: CallOptions) => unwrap(r<Data<McpServer[]>>('GET', '/mcp-servers', o)),
      /** `POST /mcp-servers` → `{serverId, accessToken, url}`; the token is shown once. */
      create: (body: CreateMcpServerBody) => r<CreateMcpServerResponse>('POST', '/mcp-servers', { body }),
      /** `PATCH /mcp-servers/{serverId}`: rename it or replace its restrictions (agents see them at once). */
      update: (serverId: string, body: UpdateMcpServerBody) =>
        unwrap(r<Data<McpServer>>('PATCH', `/mcp-servers/${seg(serverId)}`, { body })),
      /** `DELETE /mcp-servers/{serverId}` */
      delete: (serverId: string) => r<MessageResponse>('DELETE', `/mcp-servers/${seg(serverId)}`),
    },
    webhookEndpoints: {
      /** `GET /webhook-endpoints` (never the secrets) */
      list: (o?: CallOptions) => unwrap(r<Data<WebhookEndpoint[]>>('GET', '/webhook-endpoints', o)),
      /** `POST /webhook-endpoints` → `{webhookEndpointId, secret}`; the `whsec_…` secret is shown once. */
      create: (body: CreateWebhookEndpointBody) =>
        r<CreateWebhookEndpointResponse>('POST', '/webhook-endpoints', { body }),
      /** `DELETE /webhook-endpoints/{webhookEndpointId}` */
      delete: (webhookEndpointId: string) =>
        r<MessageResponse>('DELETE', `/webhook-endpoints/${seg(webhookEndpointId)}`),
      /** `GET /webhook-endpoints/{webhookEndpointId}/deliveries`: the latest 100, newest first. */
      deliveries: (webhookEndpointId: string, o?: CallOptions) =>
        unwrap(
          r<Data<WebhookDelivery[]>>('GET', `/webhook-endpoints/${seg(webhookEndpointId)}/deliveries`, o),
        ),
    },
    webhookDeliveries: {
      /** `GET /webhook-deliveries`: every endpoint's latest deliveries, newest first (`{status: 'failing'}`). */
      list: (q: NumericLimit<WebhookDeliveriesQuery> = {}, o?: CallOptions) =>
        unwrap(r<Data<AccountWebhookDelivery[]>>('GET', '/webhook-deliveries', { ...o, query: q })),
      /** `GET /webhook-deliveries` as a page: `{data, nextCursor}`; pass `nextCursor` back as `cursor`. */
      page: (q: NumericLimit<WebhookDeliveriesQuery> = {}, o?: CallOptions) =>
        r<AccountWebhookDeliveriesPage>('GET', '/webhook-deliveries', { ...o, query: q }),
    },
    executions: {
      /** `GET /executions`: every user's runs, newest first; pass `nextCursor` back as `cursor`. */
      list: (q: NumericLimit<ExecutionsQuery> = {}, o?: CallOptions) =>
        r<ExecutionsPage>('GET', '/executions', { ...o, query: q }),
      /** `GET /executions/{executionId}`: one run of any user, with its steps. */
      get: (executionId: string, o?: CallOptions) =>
        unwrap(r<Data<AccountExecution>>('GET', `/executions/${seg(executionId)}`, o)),
      /** `GET /stats/executions`: runs per hour or day by status, error rate, slowest workflows. */
      stats: (q: ExecutionStatsQuery = {}, o?: CallOptions) =>
        unwrap(r<Data<ExecutionStats>>('GET', '/stats/executions', { ...o, query: q })),
    },
    providerCalls: {
      /**
       * `GET /provider-calls`: the account's calls to providers (steps, proxy, polls, option lists, connection
       * tests), newest first; filter by `userId`, `credentialId`, `connector`, `kind`, `failed`, `from`, `to`;
       * pass `nextCursor` back as `cursor`.
       */
      list: (q: NumericLimit<ProviderCallsQuery> = {}, o?: CallOptions) =>
        r<ProviderCallsPage>('GET', '/provider-calls', { ...o, query: q }),
    },
    apiKeys: {
      /** `GET /api-keys` (never the keys themselves) */
      list: (o?: CallOptions) => unwrap(r<Data<ApiKey[]>>('GET', '/api-keys', o)),
      /** `POST /api-keys` → `{data, key}`; the key is shown once. */
      create: (body: CreateApiKeyBody = {}) => r<CreateApiKeyResponse>('POST', '/api-keys', { body }),
      /** `DELETE /api-keys/{apiKeyId}`: revokes it and the console sessions opened with it. */
      revoke: (apiKeyId: string) => r<MessageResponse>('DELETE', `/api-keys/${seg(apiKeyId)}`),
    },
    settings: {
      /** `GET /settings`: the account's settings (`allowedOrigins`, its log retention and the service's). */
      get: (o?: CallOptions) => unwrap(r<Data<AccountSettings>>('GET', '/settings', o)),
      /**
       * `PUT /settings`: replaces each setting given (the origins OAuth may redirect or post its result to, the
       * account's own log retention) and keeps the others.
       */
      put: (body: UpdateAccountSettingsBody) =>
        unwrap(r<Data<AccountSettings>>('PUT', '/settings', { body })),
    },
    stats: {
      /** `GET /stats/proxy`: the account's proxy calls per connector, every node's together. */
      proxy: (o?: CallOptions) => unwrap(r<Data<ProxyCount[]>>('GET', '/stats/proxy', o)),
    },
    meta: {
      /** `GET /.well-known/jwks.json` */
      jwks: () => r<Jwks>('GET', '/.well-known/jwks.json'),
      /** `GET /openapi.json` */
      openapi: () => r<Record<string, unknown>>('GET', '/openapi.json'),
      /** `GET /healthz` */
      health: () => r<{ status: string }>('GET', '/healthz'),
      /** `GET /readyz` */
      ready: () => r<{ status: string }>('GET', '/readyz'),
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

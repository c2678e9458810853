import { accountExecutionOperations } from './account-executions.ts';
import { apiKeyOperations } from './api-keys.ts';
import { connectorImportOperations } from './connector-import.ts';
import { connectorOperations } from './connectors.ts';
import { credentialOperations } from './credentials.ts';
import { customConnectorDefinitionOperations } from './custom-connector-definition.ts';
import { customConnectorOperations } from './custom-connectors.ts';
import { installationOperations } from './installations.ts';
import { logOperations } from './logs.ts';
import { mcpServerOperations } from './mcp.ts';
import { metaOperations } from './meta.ts';
import type { RouteOf } from './operation.ts';
import { providerCallOperations } from './provider-calls.ts';
import { proxyOperations } from './proxy.ts';
import { settingsOperations } from './settings.ts';
import { userOperations } from './users.ts';
import { webhookOperations } from './webhooks.ts';
import { workflowOperations } from './workflows.ts';

/** Every operation of the REST API, keyed by operationId: each resource's entries sit beside its schemas. */
export const operations = {
  ...userOperations,
  ...workflowOperations,
  ...logOperations,
  ...installationOperations,
  ...connectorOperations,
  ...customConnectorOperations,
  ...customConnectorDefinitionOperations,
  ...connectorImportOperations,
  ...proxyOperations,
  ...credentialOperations,
  ...settingsOperations,
  ...accountExecutionOperations,
  ...providerCallOperations,
  ...apiKeyOperations,
  ...mcpServerOperations,
  ...webhookOperations,
  ...metaOperations,
};

export type Operations = typeof operations;
export type OperationId = keyof Operations;

/** Every operation as a client names it: `GET /users/{userId}`. */
export type Route = { [K in OperationId]: RouteOf<Operations[K]> }[OperationId];

/** The operation a route names. */
export type OperationAt<R extends Route> = {
  [K in OperationId]: RouteOf<Operations[K]> extends R ? Operations[K] : never;
}[OperationId];

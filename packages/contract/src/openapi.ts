import { z } from 'zod';
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from 'zod-openapi';
import { API_VERSIONS, dataOf, listOf, MessageResponse, UserRef, Uuid } from './common.ts';
import {
  Connector,
  ConnectorAction,
  ConnectorsQuery,
  OAuthApp,
  OAuthAppBody,
  OptionItem,
  OptionsQuery,
} from './connectors.ts';
import {
  CreateCredentialBody,
  CreateOAuthCredentialBody,
  Credential,
  CredentialsQuery,
  OAuthStartResponse,
} from './credentials.ts';
import {
  CreateInstallationBody,
  DeleteInstallationQuery,
  Installation,
  InstallationsQuery,
  UpdateInstallationBody,
} from './installations.ts';
import { LogEntry, LogsQuery } from './logs.ts';
import { CreateMcpServerBody, CreateMcpServerResponse, McpServer } from './mcp.ts';
import { Problem } from './problem.ts';
import { Jwks, UserToken } from './tokens.ts';
import { CreateUserBody, CreateUserResponse, UpdateUserBody, User } from './users.ts';
import {
  CreateIntegrationBody,
  CreateIntegrationResponse,
  CreateWorkflowBody,
  Integration,
  RerunResponse,
  RunEventBody,
  RunResponse,
  RunWorkflowBody,
  ToggleWorkflowBody,
  UpdateWorkflowBody,
  Workflow,
  WorkflowDefinitionResponse,
  WorkflowQuery,
  WorkflowsQuery,
  WorkflowVersionResponse,
} from './workflows.ts';

type Auth = 'key' | 'user' | 'none';
interface Op {
  id: string;
  summary: string;
  tag: string;
  auth: Auth;
  path?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  ok: z.ZodType | null;
  status?: '200' | '201' | '204';
  content?: string;
}

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Problem } },
});
const id = (name: string) => z.object({ [name]: z.string() });
const userQuery = z.object({ userId: UserRef.optional() });

function operation(op: Op): ZodOpenApiOperationObject {
  const status = op.status ?? '200';
  const security: Record<string, string[]>[] =
    op.auth === 'none' ? [] : op.auth === 'key' ? [{ apiKey: [] }] : [{ apiKey: [] }, { userJwt: [] }];
  return {
    operationId: op.id,
    summary: op.summary,
    tags: [op.tag],
    security,
    requestParams: {
      ...(op.path ? { path: op.path } : {}),
      ...(op.query ? { query: op.query as z.ZodObject } : {}),
      header: z.object({ 'x-api-version': z.enum(API_VERSIONS).optional() }),
    },
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } }
      : {}),
    responses: {
      [status]: op.ok
        ? { description: 'Success', content: { [op.content ?? 'application/json']: { schema: op.ok } } }
        : { description: 'Success' },
      '400': problem('Malformed request: the body names the field and the rule'),
      ...(op.auth === 'none' ? {} : { '401': problem('Missing or invalid credentials') }),
      '404': problem('Not found, or not yours'),
      '429': problem('Rate limited'),
    },
  };
}

const ops: Record<string, Record<string, Op>> = {
  '/users': {
    get: { id: 'listUsers', summary: 'List users', tag: 'Users', auth: 'key', ok: listOf(User) },
    post: {
      id: 'createUser',
      summary: 'Create a user',
      tag: 'Users',
      auth: 'key',
      body: CreateUserBody,
      ok: CreateUserResponse,
      status: '201',
    },
  },
  '/users/{userId}': {
    get: {
      id: 'getUser',
      summary: 'Get a user',
      tag: 'Users',
      auth: 'user',
      path: id('userId'),
      ok: dataOf(User),
    },
    put: {
      id: 'updateUser',
      summary: 'Update a user',
      tag: 'Users',
      auth: 'key',
      path: id('userId'),
      body: UpdateUserBody,
      ok: dataOf(User),
    },
    delete: {
      id: 'deleteUser',
      summary: 'Delete a user and all their data',
      tag: 'Users',
      auth: 'key',
      path: id('userId'),
      ok: MessageResponse,
    },
  },
  '/users/{userId}/token': {
    get: {
      id: 'getUserToken',
      summary: 'Mint a user JWT',
      tag: 'Users',
      auth: 'key',
      path: id('userId'),
      query: userQuery,
      ok: UserToken,
    },
  },
  '/users/{userId}/logs': {
    delete: {
      id: 'deleteUserLogs',
      summary: 'Hard-delete every execution of the user',
      tag: 'Users',
      auth: 'user',
      path: id('userId'),
      query: userQuery,
      ok: MessageResponse,
    },
  },
  '/integrations': {
    get: {
      id: 'listIntegrations',
      summary: 'List integrations',
      tag: 'Authoring',
      auth: 'user',
      ok: listOf(Integration),
    },
    post: {
      id: 'createIntegration',
      summary: 'Create an integration',
      tag: 'Authoring',
      auth: 'key',
      body: CreateIntegrationBody,
      ok: CreateIntegrationResponse,
      status: '201',
    },
  },
  '/workflows': {
    get: {
      id: 'listWorkflows',
      summary: 'List workflows for a user',
      tag: 'Workflows',
      auth: 'user',
      query: WorkflowsQuery,
      ok: listOf(Workflow),
    },
    post: {
      id: 'createWorkflow',
      summary: 'Create a workflow',
      tag: 'Authoring',
      auth: 'key',
      body: CreateWorkflowBody,
      ok: WorkflowVersionResponse,
      status: '201',
    },
  },
  '/workflows/{workflowId}': {
    get: {
      id: 'getWorkflow',
      summary: 'Get a workflow',
      tag: 'Workflows',
      auth: 'user',
      path: id('workflowId'),
      query: WorkflowQuery,
      ok: dataOf(Workflow),
    },
    put: {
      id: 'updateWorkflow',
      summary: 'Publish a new version',
      tag: 'Authoring',
      auth: 'key',
      path: id('workflowId'),
      body: UpdateWorkflowBody,
      ok: WorkflowVersionResponse,
    },
  },
  '/workflows/{workflowId}/definition': {
    get: {
      id: 'getWorkflowDefinition',
      summary: 'Get the current definition',
      tag: 'Authoring',
      auth: 'key',
      path: id('workflowId'),
      ok: WorkflowDefinitionResponse,
    },
  },
  '/workflows/{workflowId}/logs': {
    get: {
      id: 'getWorkflowLogs',
      summary: 'Execution logs of a workflow',
      tag: 'Workflows',
      auth: 'user',
      path: id('workflowId'),
      query: LogsQuery,
      ok: listOf(LogEntry),
    },
  },
  '/workflows/activate': {
    put: {
      id: 'activateWorkflow',
      summary: "Activate a user's workflow",
      tag: 'Workflows',
      auth: 'user',
      body: ToggleWorkflowBody,
      ok: MessageResponse,
    },
  },
  '/workflows/deactivate': {
    put: {
      id: 'deactivateWorkflow',
      summary: "Deactivate a user's workflow",
      tag: 'Workflows',
      auth: 'user',
      body: ToggleWorkflowBody,
      ok: MessageResponse,
    },
  },
  '/workflows/{workflowId}/rerun/{executionId}': {
    post: {
      id: 'rerunExecution',
      summary: 'Re-run an execution',
      tag: 'Workflows',
      auth: 'user',
      path: z.object({ workflowId: z.string(), executionId: z.string() }),
      query: userQuery,
      ok: RerunResponse,
    },
  },
  '/run/workflow': {
    post: {
      id: 'runWorkflow',
      summary: 'Run a workflow',
      tag: 'Runs',
      auth: 'user',
      body: RunWorkflowBody,
      ok: RunResponse,
    },
  },
  '/run/event': {
    post: {
      id: 'runEvent',
      summary: 'Send an event',
      tag: 'Runs',
      auth: 'user',
      body: RunEventBody,
      ok: RunResponse,
    },
  },
  '/hooks/{installationId}/{secret}': {
    post: {
      id: 'runWebhook',
      summary: "Trigger an installation's webhook workflows (the secret in the URL is the credential)",
      tag: 'Runs',
      auth: 'none',
      path: z.object({ installationId: z.string(), secret: z.string() }),
      body: z.record(z.string(), z.unknown()),
      ok: RunResponse,
    },
  },
  '/installations': {
    get: {
      id: 'listInstallations',
      summary: 'List installations',
      tag: 'Installations',
      auth: 'user',
      query: InstallationsQuery,
      ok: listOf(Installation),
    },
    post: {
      id: 'createInstallation',
      summary: 'Install workflows',
      tag: 'Installations',
      auth: 'user',
      body: CreateInstallationBody,
      ok: dataOf(Installation),
      status: '201',
    },
  },
  '/installations/{installationId}': {
    get: {
      id: 'getInstallation',
      summary: 'Get an installation',
      tag: 'Installations',
      auth: 'user',
      path: id('installationId'),
      query: InstallationsQuery,
      ok: dataOf(Installation),
    },
    patch: {
      id: 'updateInstallation',
      summary: 'Edit an installation',
      tag: 'Installations',
      auth: 'user',
      path: id('installationId'),
      body: UpdateInstallationBody,
      ok: dataOf(Installation),
    },
    delete: {
      id: 'deleteInstallation',
      summary: 'Uninstall',
      tag: 'Installations',
      auth: 'user',
      path: id('installationId'),
      query: DeleteInstallationQuery,
      ok: MessageResponse,
    },
  },
  '/connectors': {
    get: {
      id: 'listConnectors',
      summary: 'The connector catalog',
      tag: 'Connectors',
      auth: 'user',
      query: ConnectorsQuery,
      ok: listOf(Connector),
    },
  },
  '/connectors/{connector}/actions': {
    get: {
      id: 'listConnectorActions',
      summary: "A connector's actions",
      tag: 'Connectors',
      auth: 'user',
      path: id('connector'),
      ok: listOf(ConnectorAction),
    },
  },
  '/connectors/{connector}/icon.svg': {
    get: {
      id: 'getConnectorIcon',
      summary: 'Connector icon',
      tag: 'Connectors',
      auth: 'none',
      path: id('connector'),
      ok: z.string(),
      content: 'image/svg+xml',
    },
  },
  '/connectors/{connector}/options/{source}': {
    get: {
      id: 'getConnectorOptions',
      summary: 'Dynamic options from the provider',
      tag: 'Connectors',
      auth: 'user',
      path: z.object({ connector: z.string(), source: z.string() }),
      query: OptionsQuery,
      ok: listOf(OptionItem),
    },
  },
  '/connectors/{connector}/oauth-app': {
    put: {
      id: 'putOAuthApp',
      summary: "Register the account's OAuth app",
      tag: 'Connectors',
      auth: 'key',
      path: id('connector'),
      body: OAuthAppBody,
      ok: dataOf(OAuthApp),
    },
  },
  '/credentials': {
    get: {
      id: 'listCredentials',
      summary: "A user's credentials",
      tag: 'Credentials',
      auth: 'user',
      query: CredentialsQuery,
      ok: listOf(Credential),
    },
    post: {
      id: 'createCredential',
      summary: 'Store an API-key or basic credential',
      tag: 'Credentials',
      auth: 'user',
      body: CreateCredentialBody,
      ok: dataOf(Credential),
      status: '201',
    },
  },
  '/credentials/oauth': {
    post: {
      id: 'startOAuth',
      summary: 'Start an OAuth connection',
      tag: 'Credentials',
      auth: 'user',
      body: CreateOAuthCredentialBody,
      ok: OAuthStartResponse,
      status: '201',
    },
  },
  '/credentials/{credentialId}': {
    get: {
      id: 'getCredential',
      summary: 'Get a credential',
      tag: 'Credentials',
      auth: 'user',
      path: id('credentialId'),
      query: userQuery,
      ok: dataOf(Credential),
    },
    delete: {
      id: 'deleteCredential',
      summary: 'Delete a credential',
      tag: 'Credentials',
      auth: 'user',
      path: id('credentialId'),
      query: userQuery,
      ok: MessageResponse,
    },
  },
  '/mcp-servers': {
    get: {
      id: 'listMcpServers',
      summary: 'List MCP servers',
      tag: 'MCP',
      auth: 'key',
      ok: listOf(McpServer),
    },
    post: {
      id: 'createMcpServer',
      summary: 'Create an MCP server',
      tag: 'MCP',
      auth: 'key',
      body: CreateMcpServerBody,
      ok: CreateMcpServerResponse,
      status: '201',
    },
  },
  '/mcp-servers/{serverId}': {
    delete: {
      id: 'deleteMcpServer',
      summary: 'Delete an MCP server',
      tag: 'MCP',
      auth: 'key',
      path: id('serverId'),
      ok: MessageResponse,
    },
  },
  '/.well-known/jwks.json': {
    get: { id: 'getJwks', summary: 'Public keys that verify user JWTs', tag: 'Meta', auth: 'none', ok: Jwks },
  },
  '/healthz': {
    get: {
      id: 'healthz',
      summary: 'Liveness',
      tag: 'Meta',
      auth: 'none',
      ok: z.object({ status: z.string() }),
    },
  },
  '/openapi.json': {
    get: {
      id: 'getOpenApi',
      summary: 'This OpenAPI 3.1 document',
      tag: 'Meta',
      auth: 'none',
      ok: z.record(z.string(), z.unknown()),
    },
  },
  '/oauth/callback': {
    get: {
      id: 'oauthCallback',
      summary:
        "OAuth redirect target: exchanges the code, then answers the popup's page (postMessage + BroadcastChannel) or redirects to `redirectUri` with `credentialId` and `status`",
      tag: 'Credentials',
      auth: 'none',
      query: z.object({
        state: z.string(),
        code: z.string().optional(),
        error: z.string().optional(),
        error_description: z.string().optional(),
      }),
      ok: z.string(),
      content: 'text/html',
    },
  },
  '/readyz': {
    get: {
      id: 'readyz',
      summary: 'Readiness (database reachable)',
      tag: 'Meta',
      auth: 'none',
      ok: z.object({ status: z.string() }),
    },
  },
};

/** Builds the OpenAPI 3.1 document from the contract's schemas. */
export function buildOpenApiDocument(serverUrl = 'http://localhost:8080'): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const [path, methods] of Object.entries(ops)) {
    paths[path] = Object.fromEntries(Object.entries(methods).map(([m, op]) => [m, operation(op)]));
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Inlay API',
      version: API_VERSIONS[0],
      description: 'Embedded integrations API, compatible with the Alloy Embedded `2025-09` REST contract.',
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

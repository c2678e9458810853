import { z } from 'zod';
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from 'zod-openapi';
import {
  AccountExecution,
  ExecutionStats,
  ExecutionStatsQuery,
  ExecutionsPage,
  ExecutionsQuery,
} from './account-executions.ts';
import {
  ApiKey,
  ConsoleSession,
  CreateApiKeyBody,
  CreateApiKeyResponse,
  CreateConsoleSessionBody,
} from './api-keys.ts';
import { API_VERSIONS, DOCS_ASSETS, dataOf, listOf, MessageResponse, UserRef, Uuid } from './common.ts';
import { ImportConnectorBody, ImportConnectorQuery, ImportConnectorResponse } from './connector-import.ts';
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
  AccountCredential,
  AccountCredentialsQuery,
  CreateCredentialBody,
  CreateOAuthCredentialBody,
  Credential,
  CredentialsQuery,
  DeleteCredentialQuery,
  OAuthStartResponse,
  ReplaceCredentialBody,
  UpdateCredentialBody,
} from './credentials.ts';
import { CustomConnectorDefinition, CustomConnectorDefinitionQuery } from './custom-connector-definition.ts';
import { DeclarativeConnector } from './custom-connectors.ts';
import {
  CreateInstallationBody,
  DeleteInstallationQuery,
  Installation,
  InstallationsQuery,
  ListInstallationsQuery,
  UpdateInstallationBody,
} from './installations.ts';
import { LogEntry, LogsQuery } from './logs.ts';
import { CreateMcpServerBody, CreateMcpServerResponse, McpServer, UpdateMcpServerBody } from './mcp.ts';
import { Problem } from './problem.ts';
import { ProviderCallsPage, ProviderCallsQuery } from './provider-calls.ts';
import { ProxyCount, ProxyQuery } from './proxy.ts';
import { AccountSettings, UpdateAccountSettingsBody } from './settings.ts';
import { Jwks, UserToken } from './tokens.ts';
import { CreateUserBody, CreateUserResponse, UpdateUserBody, User, UsersQuery } from './users.ts';
import {
  AccountWebhookDeliveriesPage,
  CreateWebhookEndpointBody,
  CreateWebhookEndpointResponse,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookEndpoint,
} from './webhooks.ts';
import {
  AccountWorkflowsQuery,
  CreateIntegrationBody,
  CreateIntegrationResponse,
  CreateWorkflowBody,
  Integration,
  RerunResponse,
  RunEventBody,
  RunResponse,
  RunWorkflowBody,
  ToggleWorkflowBody,
  UpdateIntegrationBody,
  UpdateWorkflowBody,
  Workflow,
  WorkflowDefinitionQuery,
  WorkflowDefinitionResponse,
  WorkflowQuery,
  WorkflowsQuery,
  WorkflowVersionResponse,
} from './workflows.ts';

type Auth = 'key' | 'user' | 'none';
type ProblemStatus = '400' | '401' | '403' | '404' | '409' | '413' | '415' | '422' | '429' | '502' | '503';
interface Op {
  id: string;
  summary: string;
  tag: string;
  /** `key`: API key only (a user JWT is a 403); `user`: API key or user JWT; `none`: public. */
  auth: Auth;
  path?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  ok: z.ZodType | null;
  status?: '200' | '201' | '204' | '302';
  content?: string;
  /** What the operation answers besides its own statuses, e.g. a redirect. */
  extra?: oas31.ResponsesObject;
  /** Further problem statuses the operation answers, with what each means. */
  problems?: Partial<Record<'409' | '422' | '502', string>>;
  /** False when nothing the operation names can be missing: it never answers 404. */
  notFound?: false;
  /** False when the operation never reads the database: it never answers 503. */
  db?: false;
  /** The request goes through the JSON body parser, so 413 and 415 apply: authenticated routes by default. */
  jsonBody?: boolean;
  /** A quota applies, so 429 does: authenticated routes by default. */
  limited?: boolean;
  /** Passes the provider's answer through: any status, any body, besides the problems Inlay answers itself. */
  proxy?: boolean;
}

const problem = (description: string, headers?: oas31.HeadersObject) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: Problem } },
});
const retryAfter = (what: string): oas31.HeadersObject => ({
  'retry-after': { description: what, schema: { type: 'integer', minimum: 1 } },
});
/** A path id: any UUID; anything else is a 400 naming the parameter. */
const uuidParam = z.string().meta({ override: { type: 'string', format: 'uuid' } });
const id = (name: string) => z.object({ [name]: uuidParam });
const userPath = z.object({ userId: UserRef });
const userQuery = z.object({ userId: UserRef.optional() });

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
function responsesOf(op: Op, write: boolean): oas31.ResponsesObject {
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

function operation(op: Op, method: string): ZodOpenApiOperationObject {
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
      header: op.proxy
        ? z.object({
            'x-api-version': z.enum(API_VERSIONS).optional(),
            'x-inlay-credential-id': uuidParam.optional().meta({
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
    responses: responsesOf(op, method !== 'get'),
  };
}

/**
 * An OAuth redirect target (the shared one or a connector's own): exchanges the code, then answers the popup's
 * page or redirects to `redirectUri`. `refused` says which other flows it refuses with rule `callback`.
 */
const oauthCallback = (o: { id: string; target: string; refused: string; path?: z.ZodObject }): Op => ({
  id: o.id,
  summary: `${o.target}: exchanges the code, then answers the popup's page (postMessage + BroadcastChannel) or redirects to \`redirectUri\` with \`credentialId\` and \`status\``,
  tag: 'Credentials',
  auth: 'none',
  ...(o.path ? { path: o.path } : {}),
  query: z.object({
    state: z.string(),
    code: z.string().optional(),
    error: z.string().optional(),
    error_description: z.string().optional(),
  }),
  ok: z.string(),
  content: 'text/html',
  notFound: false,
  extra: {
    '302': {
      description: 'Not a popup: redirects to `redirectUri` with `credentialId`, `status` and `reason`',
      headers: { location: { required: true, schema: { type: 'string', format: 'uri' } } },
    },
    '400': {
      description: `Unknown, used or expired \`state\`, a browser without the cookie the start link set (rule \`browser\`), or ${o.refused}; nothing is connected: a page saying so to a browser, else a problem naming \`query.state\``,
      content: {
        'text/html': { schema: { type: 'string' } },
        'application/problem+json': { schema: Problem },
      },
    },
  },
});

const DEFINITION_422 =
  'The definition names what cannot run: an unknown connector, action or source, a bad template or cron, or an http header the transport owns (`host`, `transfer-encoding`, `proxy-*`, ...)';

const ops: Record<string, Record<string, Op>> = {
  '/users': {
    get: {
      id: 'listUsers',
      summary: 'List users, oldest first',
      tag: 'Users',
      auth: 'key',
      query: UsersQuery,
      ok: listOf(User),
      notFound: false,
    },
    post: {
      id: 'createUser',
      summary: 'Create a user',
      tag: 'Users',
      auth: 'key',
      body: CreateUserBody,
      ok: CreateUserResponse,
      status: '201',
      notFound: false,
      problems: { '409': 'A user with this username already exists in the account' },
    },
  },
  '/users/{userId}': {
    get: {
      id: 'getUser',
      summary: 'Get a user',
      tag: 'Users',
      auth: 'user',
      path: userPath,
      ok: dataOf(User),
    },
    put: {
      id: 'updateUser',
      summary: 'Update a user',
      tag: 'Users',
      auth: 'key',
      path: userPath,
      body: UpdateUserBody,
      ok: dataOf(User),
      problems: { '409': 'A user with this username already exists in the account' },
    },
    delete: {
      id: 'deleteUser',
      summary: 'Delete a user and all their data',
      tag: 'Users',
      auth: 'key',
      path: userPath,
      ok: MessageResponse,
    },
  },
  '/users/{userId}/token': {
    get: {
      id: 'getUserToken',
      summary: 'Mint a user JWT',
      tag: 'Users',
      auth: 'key',
      path: userPath,
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
      path: userPath,
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
      notFound: false,
    },
    post: {
      id: 'createIntegration',
      summary: 'Create an integration',
      tag: 'Authoring',
      auth: 'key',
      body: CreateIntegrationBody,
      ok: CreateIntegrationResponse,
      status: '201',
      notFound: false,
      problems: { '422': 'No connector has the slug `connector` names' },
    },
  },
  '/integrations/{integrationId}': {
    patch: {
      id: 'updateIntegration',
      summary: 'Rename or edit an integration',
      tag: 'Authoring',
      auth: 'key',
      path: id('integrationId'),
      body: UpdateIntegrationBody,
      ok: dataOf(Integration),
      problems: { '422': 'No connector has the slug `connector` names' },
    },
    delete: {
      id: 'deleteIntegration',
      summary: 'Delete an integration that has no workflows',
      tag: 'Authoring',
      auth: 'key',
      path: id('integrationId'),
      ok: MessageResponse,
      problems: { '409': 'The integration still has workflows: `workflowCount` says how many' },
    },
  },
  '/account/workflows': {
    get: {
      id: 'listAccountWorkflows',
      summary:
        "The account's workflows as authored, oldest first (no user's state: installed and active are false)",
      tag: 'Authoring',
      auth: 'key',
      query: AccountWorkflowsQuery,
      ok: listOf(Workflow),
      notFound: false,
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
      notFound: false,
      problems: { '422': `No such integration in the account, or: ${DEFINITION_422}` },
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
      problems: { '422': DEFINITION_422 },
    },
    delete: {
      id: 'deleteWorkflow',
      summary: 'Delete a workflow that no user has installed, with its versions (its runs stay readable)',
      tag: 'Authoring',
      auth: 'key',
      path: id('workflowId'),
      ok: null,
      status: '204',
      problems: { '409': 'Users still have the workflow installed: `installationCount` says how many' },
    },
  },
  '/workflows/{workflowId}/definition': {
    get: {
      id: 'getWorkflowDefinition',
      summary: 'Get the current definition, or an earlier version',
      tag: 'Authoring',
      auth: 'key',
      path: id('workflowId'),
      query: WorkflowDefinitionQuery,
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
  '/workflows/{workflowId}/logs/{executionId}': {
    get: {
      id: 'getWorkflowLog',
      summary: 'One execution log entry',
      tag: 'Workflows',
      auth: 'user',
      path: z.object({ workflowId: uuidParam, executionId: uuidParam }),
      query: userQuery,
      ok: dataOf(LogEntry),
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
      path: z.object({ workflowId: uuidParam, executionId: uuidParam }),
      query: userQuery,
      ok: RerunResponse,
      problems: { '409': 'The workflow is deactivated for the user, or its installation is disabled' },
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
      problems: { '409': 'The workflow is deactivated for the user, or its installation is disabled' },
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
      jsonBody: true,
      // Counted per installation, after the secret check.
      limited: true,
      body: z.record(z.string(), z.unknown()),
      ok: RunResponse,
    },
  },
  '/hooks/app/{installationId}/{workflowId}/{secret}': {
    post: {
      id: 'receiveAppTrigger',
      summary:
        "Where an app delivers a webhook trigger's events (subscribed on install; the secret in the URL picks the subscription, the app's signature must verify)",
      tag: 'Runs',
      auth: 'none',
      path: z.object({ installationId: z.string(), workflowId: z.string(), secret: z.string() }),
      jsonBody: true,
      limited: true,
      body: z.record(z.string(), z.unknown()),
      ok: RunResponse,
      extra: {
        '401': problem(
          'The signature (`X-Hub-Signature-256`, `Stripe-Signature`, ...) does not verify; nothing starts',
        ),
        '422': problem(
          'The delivery verifies but its items cannot be read (more than 1000 of them, an item without an id, or a custom connector’s `items` expression fails on it); nothing starts',
        ),
      },
    },
  },
  '/installations': {
    get: {
      id: 'listInstallations',
      summary: 'List installations',
      tag: 'Installations',
      auth: 'user',
      query: ListInstallationsQuery,
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
      problems: {
        '409': 'A workflow is already installed for the user',
        '422':
          'A workflow, credential or field cannot be installed: no such workflow in the account, workflows of different integrations, a missing required field or credential, a value of the wrong type, a credential of another connector',
      },
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
      problems: {
        '422':
          'The values or credentials cannot be installed: a missing required field or credential, a value of the wrong type, a credential of another connector',
      },
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
      notFound: false,
    },
    post: {
      id: 'createConnector',
      summary: "Create one of the account's own connectors from a declarative definition",
      tag: 'Connectors',
      auth: 'key',
      body: DeclarativeConnector,
      ok: dataOf(Connector),
      status: '201',
      notFound: false,
      problems: {
        '409': 'The account already has a connector with this id, or the id is a built-in connector',
        '422': "The egress policy refuses the definition's `baseUrl` (`code: egress_denied`)",
      },
    },
  },
  '/connectors/{connector}': {
    put: {
      id: 'updateConnector',
      summary: "Publish a new version of the account's own connector",
      tag: 'Connectors',
      auth: 'key',
      path: z.object({ connector: z.string() }),
      body: DeclarativeConnector,
      ok: dataOf(Connector),
      problems: {
        '409': 'The new version drops an action or trigger that an installed workflow uses',
        '422':
          "The body's `id` is not the connector's, or the egress policy refuses its `baseUrl` (`code: egress_denied`)",
      },
    },
    delete: {
      id: 'deleteConnector',
      summary: "Delete the account's own connector",
      tag: 'Connectors',
      auth: 'key',
      path: z.object({ connector: z.string() }),
      ok: MessageResponse,
      problems: { '409': 'A workflow that uses the connector is installed' },
    },
  },
  '/connectors/{connector}/definition': {
    get: {
      id: 'getConnectorDefinition',
      summary: "The stored definition of one of the account's own connectors, current or an earlier version",
      tag: 'Connectors',
      auth: 'key',
      path: z.object({ connector: z.string() }),
      query: CustomConnectorDefinitionQuery,
      ok: dataOf(CustomConnectorDefinition),
    },
  },
  '/connectors/import': {
    post: {
      id: 'importConnector',
      summary: 'Draft a custom connector from an OpenAPI document',
      tag: 'Connectors',
      auth: 'key',
      query: ImportConnectorQuery,
      body: ImportConnectorBody,
      ok: dataOf(ImportConnectorResponse),
      notFound: false,
      extra: {
        '201': {
          description:
            "With `?create=true`: the draft was created as one of the account's connectors (`connector`)",
          content: { 'application/json': { schema: dataOf(ImportConnectorResponse) } },
        },
      },
      problems: {
        '409':
          'With `?create=true`: the account already has a connector with this id, or the id is a built-in connector',
        '422':
          'The document cannot be imported: not YAML or JSON, not OpenAPI 3.0/3.1 or Swagger 2.0 (`rule: version`), no `paths`, a `$ref` outside the document (`rule: external_ref`), no absolute server and no `baseUrl`, an unknown entry in `operations`, or more than 200 operations without `operations`; with `?create=true`, the egress policy refuses its `baseUrl` (`code: egress_denied`). `errors[0]` names the field and the rule',
      },
    },
  },
  '/connectors/{connector}/actions': {
    get: {
      id: 'listConnectorActions',
      summary: "A connector's actions",
      tag: 'Connectors',
      auth: 'user',
      path: z.object({ connector: z.string() }),
      ok: listOf(ConnectorAction),
    },
  },
  '/connectors/{connector}/icon.svg': {
    get: {
      id: 'getConnectorIcon',
      summary: 'Connector icon',
      tag: 'Connectors',
      auth: 'none',
      path: z.object({ connector: z.string() }),
      query: z.object({
        key: z
          .string()
          .optional()
          .meta({ description: "A custom connector's icon key, as its `icon` URL has it" }),
      }),
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
      problems: {
        '422':
          'The provider rejected the credential, the credential needs reconnecting (`code: credential_needs_reconnect`), or the egress policy refused the host its settings name (`code: egress_denied`)',
        '502': 'The provider could not be reached or failed',
      },
    },
  },
  '/connectors/{connector}/proxy/{path}': Object.fromEntries(
    (['get', 'post', 'put', 'patch', 'delete'] as const).map((m) => [
      m,
      {
        id: `proxy${m[0]!.toUpperCase()}${m.slice(1)}`,
        summary: `${m.toUpperCase()} any provider endpoint as the user (the credential is inserted by Inlay)`,
        tag: 'Proxy',
        auth: 'user',
        path: z.object({
          connector: z.string(),
          path: z
            .string()
            .meta({ description: "The provider path below the connector's base URL; may hold `/`" }),
        }),
        query: ProxyQuery,
        ok: null,
        proxy: true,
        problems: {
          '409':
            'The user has several connected credentials for the connector: name one with `x-inlay-credential-id`',
          '422':
            "The credential is not usable (`credential_needs_reconnect`, another connector's), or the egress policy refused the host (`code: egress_denied`)",
          '502':
            'The provider could not be reached, did not answer in time, or answered more than the size cap',
        },
      } satisfies Op,
    ]),
  ),
  '/stats/proxy': {
    get: {
      id: 'getProxyStats',
      summary:
        "The account's proxy calls per connector, every node's together (another node's within about a second)",
      tag: 'Proxy',
      auth: 'key',
      ok: listOf(ProxyCount),
      notFound: false,
    },
  },
  '/connectors/{connector}/oauth-app': {
    get: {
      id: 'getOAuthApp',
      summary:
        "The account's OAuth app for a connector (never its secret); `data` is null while none is registered",
      tag: 'Connectors',
      auth: 'key',
      path: z.object({ connector: z.string() }),
      ok: dataOf(OAuthApp.nullable()),
    },
    put: {
      id: 'putOAuthApp',
      summary: "Register the account's OAuth app",
      tag: 'Connectors',
      auth: 'key',
      path: z.object({ connector: z.string() }),
      body: OAuthAppBody,
      ok: dataOf(OAuthApp),
      problems: { '422': 'The connector does not use OAuth' },
    },
  },
  '/account/credentials': {
    get: {
      id: 'listAccountCredentials',
      summary:
        "Every user's credentials, most recent status change first; `?status=needs_reconnect` lists the connections to repair",
      tag: 'Credentials',
      auth: 'key',
      query: AccountCredentialsQuery,
      ok: listOf(AccountCredential),
      notFound: false,
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
      problems: {
        '422':
          'Unknown connector, a connector that does not take this kind of credential, the provider rejected the credential, or the egress policy refused its host (`code: egress_denied`)',
        '502': 'The provider could not be reached to check the credential',
      },
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
      problems: {
        '422':
          'Unknown connector, a connector without OAuth, no OAuth app registered for it, an authorize endpoint its settings cannot form, a `redirectUri` or popup origin not allowed (`allowed_origin`), or a `credentialId` (reconnect in place) of another connector',
      },
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
    put: {
      id: 'replaceCredential',
      summary: 'Replace the secrets of an API-key or basic credential in place, once they pass the test',
      tag: 'Credentials',
      auth: 'user',
      path: id('credentialId'),
      body: ReplaceCredentialBody,
      ok: dataOf(Credential),
      problems: {
        '422':
          'The provider rejected the new secrets, the egress policy refused its host, or the credential uses OAuth (reconnect it instead)',
        '502': 'The provider could not be reached to check the secrets',
      },
    },
    patch: {
      id: 'renameCredential',
      summary: 'Rename a credential',
      tag: 'Credentials',
      auth: 'user',
      path: id('credentialId'),
      body: UpdateCredentialBody,
      ok: dataOf(Credential),
    },
    delete: {
      id: 'deleteCredential',
      summary: 'Delete a credential',
      tag: 'Credentials',
      auth: 'user',
      path: id('credentialId'),
      query: DeleteCredentialQuery,
      ok: MessageResponse,
      problems: {
        '409':
          'Installations use the credential: `installationIds` and `workflows` name them; delete with `?detach=true` to remove it from them (each then has `attention.code` `needs_credential` and an `installation.needs_credential` event is sent)',
      },
    },
  },
  '/credentials/{credentialId}/test': {
    post: {
      id: 'testCredential',
      summary:
        'Test a credential now: refreshes an OAuth token when due or refused, records `status` and `accountLabel`',
      tag: 'Credentials',
      auth: 'user',
      path: id('credentialId'),
      query: userQuery,
      ok: dataOf(Credential),
      problems: { '502': 'The provider could not be reached; the status is unchanged' },
    },
  },
  '/settings': {
    get: {
      id: 'getSettings',
      summary: "The account's settings",
      tag: 'Account',
      auth: 'key',
      ok: dataOf(AccountSettings),
      notFound: false,
    },
    put: {
      id: 'putSettings',
      summary:
        "Change the account's settings: each one given (allowed origins, log retention) is replaced, the others are kept",
      tag: 'Account',
      auth: 'key',
      body: UpdateAccountSettingsBody,
      ok: dataOf(AccountSettings),
      notFound: false,
    },
  },
  '/executions': {
    get: {
      id: 'listExecutions',
      summary:
        "The account's runs across users, newest first; keyset pages (`cursor` is the previous page's `nextCursor`)",
      tag: 'Executions',
      auth: 'key',
      query: ExecutionsQuery,
      ok: ExecutionsPage,
      notFound: false,
    },
  },
  '/executions/{executionId}': {
    get: {
      id: 'getExecution',
      summary: "One run of any user of the account: trigger data, each step's input, output and error",
      tag: 'Executions',
      auth: 'key',
      path: id('executionId'),
      ok: dataOf(AccountExecution),
    },
  },
  '/provider-calls': {
    get: {
      id: 'listProviderCalls',
      summary:
        "The account's calls to providers (steps, proxy calls, polls, option lists, connection tests), newest first; keyset pages. Never headers or bodies",
      tag: 'Executions',
      auth: 'key',
      query: ProviderCallsQuery,
      ok: ProviderCallsPage,
    },
  },
  '/stats/executions': {
    get: {
      id: 'executionStats',
      summary: 'Runs per hour or day by status over a window, the error rate and the slowest workflows (p95)',
      tag: 'Executions',
      auth: 'key',
      query: ExecutionStatsQuery,
      ok: dataOf(ExecutionStats),
      notFound: false,
    },
  },
  '/api-keys': {
    get: {
      id: 'listApiKeys',
      summary: "The account's API keys (never the keys themselves), newest first",
      tag: 'Account',
      auth: 'key',
      ok: listOf(ApiKey),
      notFound: false,
    },
    post: {
      id: 'createApiKey',
      summary: 'Create an API key; the key is in this reply only and stored as a hash',
      tag: 'Account',
      auth: 'key',
      body: CreateApiKeyBody,
      ok: CreateApiKeyResponse,
      status: '201',
      notFound: false,
      problems: { '409': 'The account has INLAY_MAX_API_KEYS active keys already: revoke one first' },
    },
  },
  '/api-keys/{apiKeyId}': {
    delete: {
      id: 'revokeApiKey',
      summary: 'Revoke an API key (and the console sessions opened with it) at once',
      tag: 'Account',
      auth: 'key',
      path: id('apiKeyId'),
      ok: MessageResponse,
      problems: { '409': "The account's last active key: create another one first" },
    },
  },
  '/console/session': {
    post: {
      id: 'createConsoleSession',
      summary:
        'Sign in to the console: trades an API key for a session cookie (httpOnly, SameSite=Strict, 12 h); the key is not kept in the browser',
      tag: 'Console',
      auth: 'none',
      body: CreateConsoleSessionBody,
      ok: dataOf(ConsoleSession),
      status: '201',
      notFound: false,
      jsonBody: true,
      limited: false,
      extra: {
        '201': {
          description: 'Signed in: the cookie is set',
          headers: { 'set-cookie': { required: true, schema: { type: 'string' } } },
          content: { 'application/json': { schema: dataOf(ConsoleSession) } },
        },
        '401': problem('The API key is unknown or revoked'),
      },
    },
    get: {
      id: 'getConsoleSession',
      summary:
        'The signed-in console session of this browser (from its cookie), with its CSRF token; `data` is null when there is none (signed out, expired or revoked)',
      tag: 'Console',
      auth: 'none',
      ok: dataOf(ConsoleSession.nullable()),
      notFound: false,
      limited: false,
    },
    delete: {
      id: 'deleteConsoleSession',
      summary: 'Sign out: revokes the session and clears its cookie (needs `x-inlay-csrf`)',
      tag: 'Console',
      auth: 'none',
      ok: MessageResponse,
      notFound: false,
      limited: false,
      extra: {
        '401': problem('No session, or it expired or was revoked'),
        '403': problem('The `x-inlay-csrf` header is missing or wrong'),
      },
    },
  },
  '/mcp-servers': {
    get: {
      id: 'listMcpServers',
      summary: 'List MCP servers',
      tag: 'MCP',
      auth: 'key',
      ok: listOf(McpServer),
      notFound: false,
    },
    post: {
      id: 'createMcpServer',
      summary: 'Create an MCP server',
      tag: 'MCP',
      auth: 'key',
      body: CreateMcpServerBody,
      ok: CreateMcpServerResponse,
      status: '201',
      notFound: false,
      problems: {
        '422':
          'A restriction names a connector the account does not have, an action the connector does not have, or no MCP tool (`field` points at the entry)',
      },
    },
  },
  '/mcp-servers/{serverId}': {
    patch: {
      id: 'updateMcpServer',
      summary:
        'Rename an MCP server or change its restrictions; the MCP endpoint applies them from the next request, on every node',
      tag: 'MCP',
      auth: 'key',
      path: id('serverId'),
      body: UpdateMcpServerBody,
      ok: dataOf(McpServer),
      problems: {
        '422':
          'A restriction names a connector the account does not have, an action the connector does not have, or no MCP tool (`field` points at the entry)',
      },
    },
    delete: {
      id: 'deleteMcpServer',
      summary: 'Delete an MCP server',
      tag: 'MCP',
      auth: 'key',
      path: id('serverId'),
      ok: MessageResponse,
    },
  },
  '/webhook-endpoints': {
    get: {
      id: 'listWebhookEndpoints',
      summary: "The account's webhook endpoints (never their secrets)",
      tag: 'Webhooks',
      auth: 'key',
      ok: listOf(WebhookEndpoint),
    },
    post: {
      id: 'createWebhookEndpoint',
      summary: 'Subscribe a URL to account events, signed per Standard Webhooks; the secret is shown once',
      tag: 'Webhooks',
      auth: 'key',
      body: CreateWebhookEndpointBody,
      ok: CreateWebhookEndpointResponse,
      status: '201',
      problems: {
        '409': 'The account has INLAY_MAX_WEBHOOK_ENDPOINTS endpoints already: delete one first',
        '422': 'The egress policy refuses the URL (`code: egress_denied`)',
      },
    },
  },
  '/webhook-endpoints/{webhookEndpointId}': {
    delete: {
      id: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint and its queued deliveries',
      tag: 'Webhooks',
      auth: 'key',
      path: id('webhookEndpointId'),
      ok: MessageResponse,
    },
  },
  '/webhook-deliveries': {
    get: {
      id: 'listAccountWebhookDeliveries',
      summary:
        "The deliveries to every endpoint of the account (or one, `webhookEndpointId`), newest first, in one request (`status=failing`: those that need looking at); keyset pages (`cursor` is the previous page's `nextCursor`)",
      tag: 'Webhooks',
      auth: 'key',
      query: WebhookDeliveriesQuery,
      ok: AccountWebhookDeliveriesPage,
      notFound: false,
    },
  },
  '/webhook-endpoints/{webhookEndpointId}/deliveries': {
    get: {
      id: 'listWebhookDeliveries',
      summary: "An endpoint's latest 100 deliveries, newest first: attempts and statuses",
      tag: 'Webhooks',
      auth: 'key',
      path: id('webhookEndpointId'),
      ok: listOf(WebhookDelivery),
    },
  },
  '/.well-known/jwks.json': {
    get: {
      id: 'getJwks',
      summary: 'Public keys that verify user JWTs',
      tag: 'Meta',
      auth: 'none',
      ok: Jwks,
      notFound: false,
    },
  },
  '/healthz': {
    get: {
      id: 'healthz',
      summary: 'Liveness',
      tag: 'Meta',
      auth: 'none',
      ok: z.object({ status: z.string() }),
      notFound: false,
      db: false,
    },
  },
  '/metrics': {
    get: {
      id: 'getMetrics',
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
  },
  '/openapi.json': {
    get: {
      id: 'getOpenApi',
      summary: 'This OpenAPI 3.1 document',
      tag: 'Meta',
      auth: 'none',
      ok: z.record(z.string(), z.unknown()),
      notFound: false,
      db: false,
    },
  },
  '/docs': {
    get: {
      id: 'getDocs',
      summary: 'This reference, interactive (Swagger UI, served by the service itself)',
      tag: 'Meta',
      auth: 'none',
      ok: z.string(),
      content: 'text/html',
      notFound: false,
      db: false,
    },
  },
  '/docs/{asset}': {
    get: {
      id: 'getDocsAsset',
      summary: 'A script or style sheet the reference loads',
      tag: 'Meta',
      auth: 'none',
      path: z.object({ asset: z.enum(DOCS_ASSETS) }),
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
  },
  '/oauth/start': {
    get: {
      id: 'oauthStart',
      summary:
        "The `authorizeUrl` of `POST /credentials/oauth`: sets the flow's browser cookie (httpOnly, SameSite=Lax, path `/oauth`) and redirects to the provider's consent page. Single use: another browser gets a 400 page; the browser that opened it may open it again",
      tag: 'Credentials',
      auth: 'none',
      query: z.object({ flow: z.string() }),
      ok: null,
      status: '302',
      notFound: false,
      extra: {
        '302': {
          description: "To the provider's consent page, with the flow's cookie set",
          headers: {
            location: { required: true, schema: { type: 'string', format: 'uri' } },
            'set-cookie': { required: true, schema: { type: 'string' } },
          },
        },
        '400': {
          description:
            'Missing, unknown, used or expired `flow`, or a link already opened in another browser: a page saying so to a browser, else a problem naming `query.flow`',
          content: {
            'text/html': { schema: { type: 'string' } },
            'application/problem+json': { schema: Problem },
          },
        },
      },
    },
  },
  '/oauth/callback': {
    get: oauthCallback({
      id: 'oauthCallback',
      target: 'The one OAuth redirect target of every connector, with `INLAY_OAUTH_SHARED_REDIRECT=true`',
      refused: "a flow whose callback is its connector's own (rule `callback`)",
    }),
  },
  '/oauth/callback/{connector}': {
    get: oauthCallback({
      id: 'oauthConnectorCallback',
      target: "A connector's own OAuth redirect target (the default; see `INLAY_OAUTH_SHARED_REDIRECT`)",
      refused:
        'a flow of another connector (rule `callback`, an authorization server mix-up: its code is not exchanged)',
      path: z.object({ connector: z.string() }),
    }),
  },
  '/readyz': {
    get: {
      id: 'readyz',
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
  },
};

/** Builds the OpenAPI 3.1 document from the contract's schemas. */
export function buildOpenApiDocument(serverUrl = 'http://localhost:8080'): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const [path, methods] of Object.entries(ops)) {
    paths[path] = Object.fromEntries(Object.entries(methods).map(([m, op]) => [m, operation(op, m)]));
  }
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

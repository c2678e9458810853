import { customConnector, petstore, type Tenant } from './tenant.ts';

/** The kinds of object a request can name; each tenant has one of every kind. */
export type Slot =
  | 'userId'
  /** A user named by username (API keys accept either). */
  | 'userRef'
  | 'workflowId'
  | 'integrationId'
  | 'installationId'
  | 'executionId'
  | 'credentialId'
  /** A custom connector's machine name. */
  | 'connector'
  /** A custom OAuth connector (with an OAuth app). */
  | 'oauthConnector'
  /** A custom connector made by `POST /connectors/import` (apart from `connector`, which phase 3 creates in B). */
  | 'importedConnector'
  /** A custom connector's icon key. */
  | 'iconKey'
  | 'serverId'
  | 'apiKeyId'
  | 'webhookEndpointId';

export type Values = Record<Slot, string>;

export interface Env {
  caller: Tenant;
  /** The slot aimed at another object in this request. */
  slot: Slot;
  /** The stub provider every connector calls. */
  stub: string;
}

export interface Case {
  /** `METHOD /openapi/{path}`, as the document names the operation. */
  op: string;
  /** The references aimed, one at a time, at A's object (the others name B's own). */
  slots: Slot[];
  label?: string;
  /** B's objects to start from instead of the defaults (e.g. a user with no installation yet). */
  base?: (b: Tenant) => Partial<Values>;
  /** Why no call of the owner's own reaches the object (the controls skip the case). */
  uncontrolled?: string;
  /** Order of runs: 1 reads and writes, 2 deletes, 3 creations that would change what later cases find. */
  phase?: number;
  request(v: Values, env: Env): { path: string; body?: unknown; headers?: Record<string, string> };
}

const USER: Slot[] = ['userId', 'userRef'];
const fresh = (t: Tenant) => ({ userId: t.freshUserId, userRef: `fresh-${t.label}` });
const workflowOn = (connector: string) => ({
  trigger: { type: 'event', event: 'deal.created' },
  steps: [
    {
      id: '6f1f2c39-3a3e-4c59-9b57-6f3e1c6f0a01',
      connector,
      action: 'get_contact',
      input: { id: '1' },
    },
  ],
  config: [],
});

/** Every operation that takes an object reference, with the requests that aim it. */
export const CASES: Case[] = [
  { op: 'GET /users/{userId}', slots: USER, request: (v, e) => ({ path: `/users/${ref(v, e)}` }) },
  {
    op: 'PUT /users/{userId}',
    slots: USER,
    base: fresh,
    request: (v, e) => ({ path: `/users/${ref(v, e)}`, body: { fullName: 'Renamed' } }),
  },
  { op: 'DELETE /users/{userId}', slots: USER, request: (v, e) => ({ path: `/users/${ref(v, e)}` }) },
  {
    op: 'GET /users/{userId}/token',
    slots: USER,
    request: (v, e) => ({ path: `/users/${ref(v, e)}/token` }),
  },
  {
    op: 'DELETE /users/{userId}/logs',
    slots: USER,
    request: (v, e) => ({ path: `/users/${ref(v, e)}/logs` }),
  },
  // Usernames belong to an account: another account's is free to take.
  {
    op: 'POST /users',
    slots: ['userRef'],
    phase: 3,
    request: (v) => ({ path: '/users', body: { username: v.userRef } }),
  },
  {
    op: 'POST /integrations',
    slots: ['connector'],
    phase: 3,
    request: (v) => ({ path: '/integrations', body: { name: 'I', connector: v.connector } }),
  },
  {
    op: 'PATCH /integrations/{integrationId}',
    slots: ['integrationId', 'connector'],
    request: (v) => ({
      path: `/integrations/${v.integrationId}`,
      body: { name: 'Renamed', connector: v.connector },
    }),
  },
  // The owner's own integration has a workflow: its control is the 409, where another's is the 404.
  {
    op: 'DELETE /integrations/{integrationId}',
    slots: ['integrationId'],
    phase: 2,
    request: (v) => ({ path: `/integrations/${v.integrationId}` }),
  },
  {
    op: 'GET /account/workflows',
    slots: ['integrationId'],
    request: (v) => ({ path: `/account/workflows?integrationId=${v.integrationId}` }),
  },
  {
    op: 'GET /workflows',
    slots: [...USER, 'integrationId'],
    request: (v, e) => ({ path: `/workflows?userId=${ref(v, e)}&integrationId=${v.integrationId}` }),
  },
  {
    op: 'POST /workflows',
    slots: ['integrationId', 'connector'],
    phase: 3,
    request: (v) => ({
      path: '/workflows',
      body: { integrationId: v.integrationId, name: 'W', definition: workflowOn(v.connector) },
    }),
  },
  {
    op: 'GET /workflows/{workflowId}',
    slots: [...USER, 'workflowId'],
    request: (v, e) => ({ path: `/workflows/${v.workflowId}?userId=${ref(v, e)}` }),
  },
  {
    op: 'PUT /workflows/{workflowId}',
    slots: ['workflowId', 'connector'],
    request: (v) => ({ path: `/workflows/${v.workflowId}`, body: { definition: workflowOn(v.connector) } }),
  },
  // The owner's own workflow is installed: its control is the 409, where another's is the 404.
  {
    op: 'DELETE /workflows/{workflowId}',
    slots: ['workflowId'],
    phase: 2,
    request: (v) => ({ path: `/workflows/${v.workflowId}` }),
  },
  {
    op: 'GET /workflows/{workflowId}/definition',
    slots: ['workflowId'],
    request: (v) => ({ path: `/workflows/${v.workflowId}/definition` }),
  },
  {
    op: 'GET /workflows/{workflowId}/logs',
    slots: [...USER, 'workflowId'],
    request: (v, e) => ({ path: `/workflows/${v.workflowId}/logs?userId=${ref(v, e)}` }),
  },
  {
    op: 'GET /workflows/{workflowId}/logs/{executionId}',
    slots: [...USER, 'workflowId', 'executionId'],
    request: (v, e) => ({ path: `/workflows/${v.workflowId}/logs/${v.executionId}?userId=${ref(v, e)}` }),
  },
  {
    op: 'PUT /workflows/activate',
    slots: [...USER, 'workflowId'],
    request: (v, e) => ({
      path: '/workflows/activate',
      body: { userId: ref(v, e), workflowId: v.workflowId },
    }),
  },
  {
    op: 'PUT /workflows/deactivate',
    slots: [...USER, 'workflowId'],
    request: (v, e) => ({
      path: '/workflows/deactivate',
      body: { userId: ref(v, e), workflowId: v.workflowId },
    }),
  },
  {
    op: 'POST /workflows/{workflowId}/rerun/{executionId}',
    slots: [...USER, 'workflowId', 'executionId'],
    request: (v, e) => ({ path: `/workflows/${v.workflowId}/rerun/${v.executionId}?userId=${ref(v, e)}` }),
  },
  {
    op: 'POST /run/workflow',
    slots: [...USER, 'workflowId'],
    request: (v, e) => ({
      path: '/run/workflow',
      body: { userId: ref(v, e), workflowId: v.workflowId, data: {} },
    }),
  },
  {
    op: 'POST /run/event',
    slots: USER,
    request: (v, e) => ({ path: '/run/event', body: { userId: ref(v, e), event: 'deal.created', data: {} } }),
  },
  // Public: the secret in the URL is the credential; A's installation with a wrong secret is as unknown as none.
  {
    op: 'POST /hooks/{installationId}/{secret}',
    slots: ['installationId'],
    request: (v, e) => ({ path: `/hooks/${v.installationId}/${e.caller.hookSecret}`, body: {} }),
  },
  {
    op: 'POST /hooks/app/{installationId}/{workflowId}/{secret}',
    slots: ['installationId', 'workflowId'],
    uncontrolled:
      'an app subscription secret exists only while an app trigger is installed (app-triggers.test.ts)',
    request: (v) => ({ path: `/hooks/app/${v.installationId}/${v.workflowId}/${'s'.repeat(43)}`, body: {} }),
  },
  {
    op: 'GET /installations',
    slots: USER,
    request: (v, e) => ({ path: `/installations?userId=${ref(v, e)}` }),
  },
  {
    op: 'POST /installations',
    slots: [...USER, 'workflowId', 'credentialId'],
    base: fresh,
    request: (v, e) => ({
      path: '/installations',
      body: {
        userId: ref(v, e),
        workflowIds: [v.workflowId],
        credentialIds: { slack: v.credentialId },
        values: [],
      },
    }),
  },
  {
    op: 'GET /installations/{installationId}',
    slots: [...USER, 'installationId'],
    request: (v, e) => ({ path: `/installations/${v.installationId}?userId=${ref(v, e)}` }),
  },
  {
    op: 'PATCH /installations/{installationId}',
    slots: [...USER, 'installationId'],
    request: (v, e) => ({
      path: `/installations/${v.installationId}`,
      body: { userId: ref(v, e), enabled: true },
    }),
  },
  {
    op: 'PATCH /installations/{installationId}',
    slots: ['credentialId'],
    label: 'credential',
    request: (v, e) => ({
      path: `/installations/${v.installationId}`,
      body: { userId: ref(v, e), credentialIds: { slack: v.credentialId } },
    }),
  },
  {
    op: 'DELETE /installations/{installationId}',
    slots: [...USER, 'installationId'],
    request: (v, e) => ({ path: `/installations/${v.installationId}?userId=${ref(v, e)}` }),
  },
  {
    op: 'POST /connectors',
    slots: ['connector'],
    phase: 3,
    request: (v, e) => ({ path: '/connectors', body: customConnector(v.connector, e.stub) }),
  },
  {
    op: 'PUT /connectors/{connector}',
    slots: ['connector'],
    request: (v, e) => ({ path: `/connectors/${v.connector}`, body: customConnector(v.connector, e.stub) }),
  },
  {
    op: 'DELETE /connectors/{connector}',
    slots: ['connector'],
    request: (v) => ({ path: `/connectors/${v.connector}` }),
  },
  {
    op: 'POST /connectors/import',
    slots: ['importedConnector'],
    phase: 3,
    request: (v) => ({
      path: '/connectors/import?create=true',
      body: { document: petstore, id: v.importedConnector },
    }),
  },
  {
    op: 'GET /connectors/{connector}/definition',
    slots: ['connector'],
    request: (v) => ({ path: `/connectors/${v.connector}/definition?version=1` }),
  },
  {
    op: 'GET /connectors/{connector}/definition',
    slots: ['connector'],
    label: 'current',
    request: (v) => ({ path: `/connectors/${v.connector}/definition` }),
  },
  {
    op: 'GET /connectors/{connector}/actions',
    slots: ['connector'],
    request: (v) => ({ path: `/connectors/${v.connector}/actions` }),
  },
  {
    op: 'GET /connectors/{connector}/icon.svg',
    slots: ['connector', 'iconKey'],
    request: (v) => ({ path: `/connectors/${v.connector}/icon.svg?key=${v.iconKey}` }),
  },
  {
    op: 'GET /connectors/{connector}/options/{source}',
    slots: ['connector'],
    request: (v, e) => ({ path: `/connectors/${v.connector}/options/lists?userId=${ref(v, e)}` }),
  },
  {
    op: 'GET /connectors/{connector}/options/{source}',
    slots: [...USER, 'credentialId'],
    label: 'credential',
    request: (v, e) => ({
      path: `/connectors/discord/options/channels?userId=${ref(v, e)}&credentialId=${v.credentialId}`,
    }),
  },
  ...(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).flatMap((m): Case[] => [
    // Phase 1 whatever the method: the provider's object is what a proxied DELETE deletes.
    {
      op: `${m} /connectors/{connector}/proxy/{path}`,
      slots: ['connector'],
      phase: 1,
      request: (v, e) => ({ path: `/connectors/${v.connector}/proxy/me?userId=${ref(v, e)}` }),
    },
    {
      op: `${m} /connectors/{connector}/proxy/{path}`,
      slots: [...USER, 'credentialId'],
      label: 'credential',
      phase: 1,
      request: (v, e) => ({
        path: `/connectors/discord/proxy/users/@me?userId=${ref(v, e)}`,
        headers: { 'x-inlay-credential-id': v.credentialId },
      }),
    },
  ]),
  {
    op: 'GET /connectors/{connector}/oauth-app',
    slots: ['connector'],
    request: (v) => ({ path: `/connectors/${v.connector}/oauth-app` }),
  },
  {
    op: 'GET /connectors/{connector}/oauth-app',
    slots: ['oauthConnector'],
    label: 'oauth',
    request: (v) => ({ path: `/connectors/${v.oauthConnector}/oauth-app` }),
  },
  {
    op: 'PUT /connectors/{connector}/oauth-app',
    slots: ['connector'],
    request: (v) => ({
      path: `/connectors/${v.connector}/oauth-app`,
      body: { clientId: 'c', clientSecret: 'attacker-secret-0123456789' },
    }),
  },
  {
    op: 'PUT /connectors/{connector}/oauth-app',
    slots: ['oauthConnector'],
    label: 'oauth',
    request: (v) => ({
      path: `/connectors/${v.oauthConnector}/oauth-app`,
      body: { clientId: 'c', clientSecret: 'attacker-secret-0123456789' },
    }),
  },
  {
    op: 'GET /account/credentials',
    slots: ['connector'],
    request: (v) => ({ path: `/account/credentials?connector=${v.connector}` }),
  },
  {
    op: 'GET /credentials',
    slots: [...USER, 'connector'],
    request: (v, e) => ({ path: `/credentials?userId=${ref(v, e)}&connector=${v.connector}` }),
  },
  {
    op: 'POST /credentials',
    slots: [...USER, 'connector'],
    request: (v, e) => ({
      path: '/credentials',
      body: { userId: ref(v, e), connector: v.connector, data: { apiKey: 'k'.repeat(20) } },
    }),
  },
  {
    op: 'POST /credentials/oauth',
    slots: ['oauthConnector'],
    label: 'custom oauth',
    request: (v, e) => ({
      path: '/credentials/oauth',
      body: { userId: ref(v, e), connector: v.oauthConnector },
    }),
  },
  {
    op: 'POST /credentials/oauth',
    slots: [...USER, 'connector'],
    request: (v, e) => ({ path: '/credentials/oauth', body: { userId: ref(v, e), connector: v.connector } }),
  },
  {
    op: 'POST /credentials/oauth',
    slots: ['credentialId'],
    label: 'reconnect',
    request: (v, e) => ({
      path: '/credentials/oauth',
      body: { userId: ref(v, e), connector: 'slack', credentialId: v.credentialId },
    }),
  },
  {
    op: 'GET /credentials/{credentialId}',
    slots: [...USER, 'credentialId'],
    request: (v, e) => ({ path: `/credentials/${v.credentialId}?userId=${ref(v, e)}` }),
  },
  {
    op: 'POST /credentials/{credentialId}/test',
    slots: [...USER, 'credentialId'],
    request: (v, e) => ({ path: `/credentials/${v.credentialId}/test?userId=${ref(v, e)}` }),
  },
  {
    op: 'PUT /credentials/{credentialId}',
    slots: [...USER, 'credentialId'],
    request: (v, e) => ({
      path: `/credentials/${v.credentialId}`,
      body: { userId: ref(v, e), data: { botToken: 'x'.repeat(20) } },
    }),
  },
  {
    op: 'PATCH /credentials/{credentialId}',
    slots: [...USER, 'credentialId'],
    request: (v, e) => ({
      path: `/credentials/${v.credentialId}`,
      body: { userId: ref(v, e), label: 'Renamed' },
    }),
  },
  {
    op: 'DELETE /credentials/{credentialId}',
    slots: [...USER, 'credentialId'],
    request: (v, e) => ({ path: `/credentials/${v.credentialId}?userId=${ref(v, e)}` }),
  },
  {
    op: 'GET /executions',
    slots: [...USER, 'workflowId'],
    request: (v, e) => ({ path: `/executions?userId=${ref(v, e)}&workflowId=${v.workflowId}` }),
  },
  {
    op: 'GET /provider-calls',
    slots: [...USER, 'credentialId', 'connector'],
    request: (v, e) => ({
      path: `/provider-calls?userId=${ref(v, e)}&credentialId=${v.credentialId}&connector=${v.connector}`,
    }),
  },
  {
    op: 'GET /executions/{executionId}',
    slots: ['executionId'],
    request: (v) => ({ path: `/executions/${v.executionId}` }),
  },
  {
    op: 'DELETE /api-keys/{apiKeyId}',
    slots: ['apiKeyId'],
    request: (v) => ({ path: `/api-keys/${v.apiKeyId}` }),
  },
  {
    op: 'POST /mcp-servers',
    slots: ['connector'],
    request: (v) => ({
      path: '/mcp-servers',
      body: { name: 'S', restrictions: { connectors: { block: [v.connector] } } },
    }),
  },
  {
    op: 'PATCH /mcp-servers/{serverId}',
    slots: ['serverId', 'connector'],
    request: (v) => ({
      path: `/mcp-servers/${v.serverId}`,
      body: { name: 'Renamed', restrictions: { connectors: { block: [v.connector] } } },
    }),
  },
  {
    op: 'DELETE /mcp-servers/{serverId}',
    slots: ['serverId'],
    request: (v) => ({ path: `/mcp-servers/${v.serverId}` }),
  },
  {
    op: 'DELETE /webhook-endpoints/{webhookEndpointId}',
    slots: ['webhookEndpointId'],
    request: (v) => ({ path: `/webhook-endpoints/${v.webhookEndpointId}` }),
  },
  {
    op: 'GET /webhook-endpoints/{webhookEndpointId}/deliveries',
    slots: ['webhookEndpointId'],
    request: (v) => ({ path: `/webhook-endpoints/${v.webhookEndpointId}/deliveries` }),
  },
  {
    op: 'GET /webhook-deliveries',
    slots: ['webhookEndpointId'],
    request: (v) => ({ path: `/webhook-deliveries?webhookEndpointId=${v.webhookEndpointId}` }),
  },
];

/** The user reference of a request: the username when that is the slot aimed, else the id. */
function ref(v: Values, e: Env): string {
  return e.slot === 'userRef' ? v.userRef : v.userId;
}

/**
 * Listings (B's key, and B's user JWT where the operation takes one): the reply must name none of A's objects.
 * The path is built for the caller, so each tenant's own listing is the control.
 */
export const LISTINGS: Record<string, (t: Tenant) => string> = {
  'GET /users': () => '/users?search=user-',
  'GET /integrations': () => '/integrations',
  'GET /account/workflows': () => '/account/workflows',
  'GET /workflows': (t) => `/workflows?userId=${t.userId}`,
  'GET /installations': (t) => `/installations?userId=${t.userId}`,
  'GET /connectors': () => '/connectors',
  'GET /stats/proxy': () => '/stats/proxy',
  'GET /account/credentials': () => '/account/credentials',
  'GET /credentials': (t) => `/credentials?userId=${t.userId}`,
  'GET /settings': () => '/settings',
  'GET /executions': () => '/executions',
  'GET /provider-calls': () => '/provider-calls',
  'GET /stats/executions': () =>
    '/stats/executions?from=2025-09-01T00:00:00.000Z&to=2025-09-02T00:00:00.000Z&bucket=day',
  'GET /api-keys': () => '/api-keys',
  'GET /mcp-servers': () => '/mcp-servers',
  'GET /webhook-endpoints': () => '/webhook-endpoints',
  'GET /webhook-deliveries': () => '/webhook-deliveries',
  'GET /workflows/{workflowId}/logs': (t) => `/workflows/${t.workflowId}/logs?userId=${t.userId}`,
};

/** Operations that name no object of an account or a user, and why. */
export const NO_OBJECT_ID: Record<string, string> = {
  'POST /api-keys': 'creates a key of the caller’s account from a name and a mode',
  'PUT /settings': 'the caller’s own account settings (allowed origins, log retention)',
  'POST /webhook-endpoints': 'a URL and event names',
  'POST /console/session': 'exchanges an API key for a cookie: the key is the credential',
  'GET /console/session': 'the caller’s own session cookie',
  'DELETE /console/session': 'the caller’s own session cookie',
  'GET /.well-known/jwks.json': 'public keys of the service',
  'GET /healthz': 'liveness',
  'GET /readyz': 'readiness',
  'GET /openapi.json': 'the document itself',
  'GET /metrics': 'the service’s Prometheus metrics: bounded labels, no account or user id',
  'GET /docs': 'the reference page',
  'GET /docs/{asset}': 'a static file of the reference page',
  // A flow and a state are one-time unguessable tokens, not object ids (oauth*.test.ts cover forged and reused ones).
  'GET /oauth/start': 'one-time flow token',
  'GET /oauth/callback': 'one-time state token',
  'GET /oauth/callback/{connector}':
    'one-time state token (the connector in the path is no object of an account)',
};

/** Path parameters that are not object ids: a capability secret, a provider path, an option source, a file. */
const NOT_IDS = new Set(['secret', 'path', 'source', 'asset']);

/** Which slot a parameter or body field is (`undefined`: a reference the matrix has no slot for). */
const SLOT_OF: Record<string, Slot> = {
  userId: 'userId',
  workflowId: 'workflowId',
  workflowIds: 'workflowId',
  integrationId: 'integrationId',
  installationId: 'installationId',
  executionId: 'executionId',
  credentialId: 'credentialId',
  credentialIds: 'credentialId',
  'x-inlay-credential-id': 'credentialId',
  connector: 'connector',
  serverId: 'serverId',
  apiKeyId: 'apiKeyId',
  webhookEndpointId: 'webhookEndpointId',
  key: 'iconKey',
};

interface Doc {
  components?: Record<string, Record<string, unknown>>;
}
interface Op {
  parameters?: { $ref?: string; name?: string; in?: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

/** The object references an operation takes (path ids, `…Id` query parameters and body fields), with their slots. */
export function idLikeParams(doc: Doc, op: Op): [string, Slot | undefined][] {
  const deref = (x: any): any => {
    let s = x;
    while (s?.$ref)
      s = s.$ref
        .split('/')
        .slice(1)
        .reduce((o: any, k: string) => o?.[k], doc);
    return s;
  };
  const out: [string, Slot | undefined][] = [];
  // `clientId` is the OAuth app's id at the provider, not an Inlay object.
  const idLike = (name: string) =>
    (/Ids?$/.test(name) && name !== 'clientId') || name === 'connector' || name === 'x-inlay-credential-id';
  for (const p of (op.parameters ?? []).map(deref)) {
    if (p.in === 'path' ? NOT_IDS.has(p.name) : !idLike(p.name)) continue;
    out.push([`${p.in}.${p.name}`, SLOT_OF[p.name]]);
  }
  const body = deref(op.requestBody?.content?.['application/json']?.schema);
  for (const name of Object.keys(body?.properties ?? {}))
    if (idLike(name)) out.push([`body.${name}`, SLOT_OF[name]]);
  return out;
}

/** An MCP request that names an object: a tool call, a resource read or a prompt. */
export interface McpCase {
  kind: 'tool' | 'resource' | 'prompt';
  /** The tool or prompt name, or the resource template, as the server lists it. */
  name: string;
  slots: Slot[];
  /** Whether the owner's own call gets what a missing id gets (the controls skip it), and why. */
  uncontrolled?: string;
  params(v: Values): object;
}

const toolCall = (name: string, args: object) => ({ name, arguments: args });

/** The JSON-RPC method of each kind. */
export const MCP_METHOD = { tool: 'tools/call', resource: 'resources/read', prompt: 'prompts/get' } as const;

export const MCP_CASES: McpCase[] = [
  {
    kind: 'tool',
    name: 'get_connector_resources_inlay',
    slots: ['connector'],
    params: (v) => toolCall('get_connector_resources_inlay', { connectorId: v.connector }),
  },
  {
    kind: 'tool',
    name: 'get_action_details_inlay',
    slots: ['connector'],
    params: (v) =>
      toolCall('get_action_details_inlay', { connectorId: v.connector, actionId: 'get_contact' }),
  },
  {
    kind: 'tool',
    name: 'execute_action_inlay',
    slots: ['connector'],
    params: (v) =>
      toolCall('execute_action_inlay', {
        connectorId: v.connector,
        actionId: 'get_contact',
        parameters: { id: '1' },
      }),
  },
  {
    kind: 'tool',
    name: 'execute_action_inlay',
    slots: ['credentialId'],
    params: (v) =>
      toolCall('execute_action_inlay', {
        connectorId: 'discord',
        actionId: 'send_message',
        parameters: {},
        credentialId: v.credentialId,
      }),
  },
  {
    kind: 'tool',
    name: 'create_credential_inlay',
    slots: ['connector'],
    params: (v) =>
      toolCall('create_credential_inlay', {
        connectorId: v.connector,
        authenticationType: 'apiKey',
        fields: { apiKey: 'k' },
      }),
  },
  {
    kind: 'tool',
    name: 'create_credential_inlay',
    slots: ['credentialId'],
    params: (v) =>
      toolCall('create_credential_inlay', {
        connectorId: 'discord',
        authenticationType: 'apiKey',
        fields: { botToken: 'x'.repeat(20) },
        credentialId: v.credentialId,
      }),
  },
  {
    kind: 'tool',
    name: 'create_credential_inlay',
    slots: ['oauthConnector'],
    params: (v) =>
      toolCall('create_credential_inlay', {
        connectorId: v.oauthConnector,
        authenticationType: 'oauth2',
        redirectUri: 'https://host.example/back',
      }),
  },
  {
    kind: 'tool',
    name: 'get_credentials_inlay',
    slots: ['connector'],
    params: (v) => toolCall('get_credentials_inlay', { connectorId: v.connector }),
  },
  {
    kind: 'tool',
    name: 'run_workflow_inlay',
    slots: ['workflowId'],
    params: (v) => toolCall('run_workflow_inlay', { workflowId: v.workflowId, data: {} }),
  },
  {
    kind: 'tool',
    name: 'get_workflow_logs_inlay',
    slots: ['workflowId'],
    params: (v) => toolCall('get_workflow_logs_inlay', { workflowId: v.workflowId }),
  },
  {
    kind: 'tool',
    name: 'proxy_request_inlay',
    slots: ['connector'],
    params: (v) => toolCall('proxy_request_inlay', { connectorId: v.connector, method: 'GET', path: '/me' }),
  },
  {
    kind: 'tool',
    name: 'proxy_request_inlay',
    slots: ['credentialId'],
    params: (v) =>
      toolCall('proxy_request_inlay', {
        connectorId: 'discord',
        method: 'GET',
        path: '/users/@me',
        credentialId: v.credentialId,
      }),
  },
  {
    kind: 'resource',
    name: 'inlay://connectors/{id}',
    slots: ['connector'],
    params: (v) => ({ uri: `inlay://connectors/${v.connector}` }),
  },
  {
    kind: 'resource',
    name: 'inlay://workflows/{workflowId}',
    slots: ['workflowId'],
    params: (v) => ({ uri: `inlay://workflows/${v.workflowId}` }),
  },
  {
    kind: 'resource',
    name: 'inlay://executions/{executionId}',
    slots: ['executionId'],
    params: (v) => ({ uri: `inlay://executions/${v.executionId}` }),
  },
  {
    kind: 'prompt',
    name: 'connect_app',
    slots: ['connector'],
    params: (v) => ({ name: 'connect_app', arguments: { connector: v.connector } }),
  },
  {
    kind: 'prompt',
    name: 'diagnose_execution',
    slots: ['executionId'],
    params: (v) => ({ name: 'diagnose_execution', arguments: { executionId: v.executionId } }),
  },
];

/** MCP tools that list the user's or the catalog's objects, taking no reference (the listing test reads them). */
export const MCP_LISTINGS = ['list_connectors_inlay', 'list_workflows_inlay'];

import { z } from 'zod';
import { dataOf, IsoDateTime, LIMITS, listOf, Uuid } from './common.ts';
import { defineOperations } from './operation.ts';

export const AUTH_TYPES = ['oauth2', 'apiKey', 'basic', 'none'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

export const CONNECTOR_CATEGORIES = [
  'communication',
  'crm',
  'developer',
  'productivity',
  'project-management',
  'marketing',
  'payments',
  'ecommerce',
  'support',
  'data',
  'utility',
] as const;
export type ConnectorCategory = (typeof CONNECTOR_CATEGORIES)[number];

export const CredentialField = z
  .object({
    name: z.string(),
    label: z.string(),
    type: z.enum(['text', 'password', 'url']),
    required: z.boolean(),
    secret: z.boolean(),
    placeholder: z.string().optional(),
    help: z.string().optional(),
  })
  .meta({ id: 'CredentialField' });
export type CredentialField = z.infer<typeof CredentialField>;

/** A connector as a workflow lists it: the seed's Connector, `{connectorName, connectorId, connector, icon}`. */
export const WorkflowConnector = z
  .object({
    connectorName: z.string().meta({ description: 'Display name', example: 'Slack' }),
    connectorId: Uuid.meta({ description: "The connector's stable UUID" }),
    connector: z.string().meta({ description: 'Machine name of the connector', example: 'slack' }),
    icon: z.url().meta({ description: 'Absolute URL of the icon' }),
  })
  .meta({ id: 'WorkflowConnector' });
export type WorkflowConnector = z.infer<typeof WorkflowConnector>;

/** An event in an app that can start a workflow. */
export const ConnectorTrigger = z
  .object({
    id: z.string().meta({ example: 'new_customer' }),
    name: z.string().meta({ example: 'New customer' }),
    description: z.string(),
    kind: z.enum(['poll', 'webhook']).meta({
      description:
        '`poll`: Inlay asks the app every few minutes; `webhook`: the app calls Inlay (subscribed on install)',
    }),
    input: z.record(z.string(), z.unknown()).meta({ description: "JSON Schema of the trigger's settings" }),
  })
  .meta({ id: 'ConnectorTrigger' });
export type ConnectorTrigger = z.infer<typeof ConnectorTrigger>;

/** A connector of the catalog (`GET /connectors`). */
export const Connector = z
  .object({
    id: z.string().meta({ description: 'Stable slug, e.g. `slack`' }),
    connectorId: Uuid,
    name: z.string(),
    description: z.string(),
    category: z.enum(CONNECTOR_CATEGORIES),
    icon: z.url(),
    authType: z.enum(AUTH_TYPES),
    credentialFields: z.array(CredentialField),
    scopes: z.array(z.string()).optional(),
    actions: z.array(z.object({ id: z.string(), name: z.string(), kind: z.enum(['read', 'write']) })),
    sources: z.array(z.string()),
    triggers: z.array(ConnectorTrigger).meta({
      description: 'Additive: events in the app that can start a workflow (`"trigger": {"type": "app"}`)',
    }),
    custom: z.boolean().optional().meta({
      description:
        "Additive: true for the account's own connector (`POST /connectors`), absent for built-ins",
    }),
    version: z.number().int().optional().meta({ description: "Additive: a custom connector's version" }),
    apis: z.array(z.string()).optional().meta({
      description:
        "Additive: the names of the connector's other APIs besides its base URL, for the proxy's `?api=` (Google Sheets: `drive`); absent when it has none",
    }),
  })
  .meta({ id: 'Connector' });
export type Connector = z.infer<typeof Connector>;

export const ConnectorAction = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    kind: z.enum(['read', 'write']),
    inputSchema: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'ConnectorAction' });
export type ConnectorAction = z.infer<typeof ConnectorAction>;

export const ConnectorsQuery = z.object({ category: z.enum(CONNECTOR_CATEGORIES).optional() });

export const OptionItem = z.object({ value: z.string(), label: z.string() }).meta({ id: 'OptionItem' });
export type OptionItem = z.infer<typeof OptionItem>;

export const OptionsQuery = z.object({
  credentialId: Uuid.optional(),
  userId: z.string().max(LIMITS.id).optional(),
  search: z.string().max(LIMITS.name).optional(),
});

export const OAuthAppBody = z
  .object({
    clientId: z.string().trim().min(1).max(LIMITS.text),
    clientSecret: z.string().min(1).max(LIMITS.text),
    scopes: z.array(z.string().min(1).max(LIMITS.name)).max(LIMITS.array).optional(),
  })
  .strict()
  .meta({ id: 'OAuthAppBody' });
export type OAuthAppBody = z.infer<typeof OAuthAppBody>;

export const OAuthApp = z
  .object({
    connector: z.string(),
    clientId: z.string(),
    scopes: z.array(z.string()),
    redirectUri: z.url(),
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'OAuthApp' });
export type OAuthApp = z.infer<typeof OAuthApp>;

/** The connector operations of the REST API, keyed by operationId. */
export const connectorOperations = defineOperations({
  listConnectors: {
    method: 'get',
    path: '/connectors',
    summary: 'The connector catalog',
    tag: 'Connectors',
    auth: 'user',
    query: ConnectorsQuery,
    ok: listOf(Connector),
    notFound: false,
  },
  listConnectorActions: {
    method: 'get',
    path: '/connectors/{connector}/actions',
    summary: "A connector's actions",
    tag: 'Connectors',
    auth: 'user',
    params: z.object({ connector: z.string() }),
    ok: listOf(ConnectorAction),
  },
  getConnectorIcon: {
    method: 'get',
    path: '/connectors/{connector}/icon.svg',
    summary: 'Connector icon',
    tag: 'Connectors',
    auth: 'none',
    params: z.object({ connector: z.string() }),
    query: z.object({
      key: z
        .string()
        .optional()
        .meta({ description: "A custom connector's icon key, as its `icon` URL has it" }),
    }),
    ok: z.string(),
    content: 'image/svg+xml',
  },
  getConnectorOptions: {
    method: 'get',
    path: '/connectors/{connector}/options/{source}',
    summary: 'Dynamic options from the provider',
    tag: 'Connectors',
    auth: 'user',
    params: z.object({ connector: z.string(), source: z.string() }),
    query: OptionsQuery,
    ok: listOf(OptionItem),
    problems: {
      '422':
        'The provider rejected the credential, the credential needs reconnecting (`code: credential_needs_reconnect`), or the egress policy refused the host its settings name (`code: egress_denied`)',
      '502': 'The provider could not be reached or failed',
    },
  },
  getOAuthApp: {
    method: 'get',
    path: '/connectors/{connector}/oauth-app',
    summary:
      "The account's OAuth app for a connector (never its secret); `data` is null while none is registered",
    tag: 'Connectors',
    auth: 'key',
    params: z.object({ connector: z.string() }),
    ok: dataOf(OAuthApp.nullable()),
  },
  putOAuthApp: {
    method: 'put',
    path: '/connectors/{connector}/oauth-app',
    summary: "Register the account's OAuth app",
    tag: 'Connectors',
    auth: 'key',
    params: z.object({ connector: z.string() }),
    body: OAuthAppBody,
    ok: dataOf(OAuthApp),
    problems: { '422': 'The connector does not use OAuth' },
  },
});

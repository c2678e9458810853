import { z } from 'zod';
import {
  dataOf,
  IsoDateTime,
  intQuery,
  LIMITS,
  listOf,
  MessageResponse,
  Name,
  Text,
  UserRef,
  Uuid,
} from './common.ts';
import { WorkflowConnector } from './connectors.ts';
import { ConfigField, TRIGGER_TYPES, WorkflowDefinition } from './definition.ts';
import { defineOperations, idParams, problem, UuidParam, userQuery } from './operation.ts';

/** What `attention.code` can say, most urgent first. */
export const ATTENTION_CODES = ['needs_credential', 'needs_reconnect', 'failing'] as const;

/**
 * What a user's workflow needs from them: an account chosen for an app, a credential to reconnect, or a look at
 * why its runs fail.
 */
export const WorkflowAttention = z
  .object({
    code: z.enum(ATTENTION_CODES).meta({
      description:
        '`needs_credential`: no account of `connector` is chosen (its credential was deleted); `needs_reconnect`: the chosen one is refused by the provider; `failing`: the last 3 runs failed for another reason',
    }),
    connector: z.string().optional().meta({
      description:
        'Additive. With `needs_credential` and `needs_reconnect`: the app (connector machine name)',
    }),
    credentialId: Uuid.optional().meta({
      description: 'With `needs_reconnect`: the credential to reconnect',
    }),
    since: IsoDateTime.meta({
      description:
        'When the credential began needing reconnection or the installation lost it, or the first of the failed runs started',
    }),
    message: z.string().meta({ description: 'A sentence for a person: what happened and what to do' }),
    detail: z.string().optional().meta({
      description:
        "Additive. The provider's or the run's own words (an OAuth error code, an HTTP error), for details",
    }),
  })
  .meta({ id: 'WorkflowAttention' });
export type WorkflowAttention = z.infer<typeof WorkflowAttention>;

export const Workflow = z
  .object({
    workflowId: Uuid,
    name: z.string(),
    description: z.string().nullable(),
    integrationId: Uuid,
    integrationName: z.string(),
    version: z.number().int().min(1),
    installed: z.boolean(),
    active: z.boolean(),
    connectors: z.array(WorkflowConnector),
    trigger: z.object({
      type: z.enum(TRIGGER_TYPES),
      event: z.string().optional(),
      connector: z
        .string()
        .optional()
        .meta({ description: 'Additive: with `app`, the connector whose trigger starts it' }),
      trigger: z
        .string()
        .optional()
        .meta({ description: "Additive: with `app`, the connector's trigger id" }),
    }),
    config: z.array(ConfigField),
    installationId: Uuid.nullable().meta({
      description: "Additive: the user's installation holding this workflow",
    }),
    installedVersion: z.number().int().nullable(),
    attention: WorkflowAttention.nullable().optional().meta({
      description:
        'Additive, for a user: `needs_credential` when an app the workflow calls has no account chosen, `needs_reconnect` when a credential of the installation needs reconnecting, `failing` when the last 3 runs failed for another reason, else null',
    }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'Workflow' });
export type Workflow = z.infer<typeof Workflow>;

export const WorkflowsQuery = z.object({
  userId: UserRef.optional().meta({
    description: 'User id or username; required with an API key, implied by a user JWT',
  }),
  integrationId: Uuid.optional(),
});
/** `GET /account/workflows`: every workflow of the account, or one integration's. */
export const AccountWorkflowsQuery = z.object({ integrationId: Uuid.optional() });

export const WorkflowQuery = z.object({ userId: UserRef.optional() });

export const CreateWorkflowBody = z
  .object({ integrationId: Uuid, name: Name, description: Text.optional(), definition: WorkflowDefinition })
  .strict()
  .meta({ id: 'CreateWorkflowBody' });
export type CreateWorkflowBody = z.input<typeof CreateWorkflowBody>;

export const UpdateWorkflowBody = z
  .object({ definition: WorkflowDefinition, name: Name.optional(), description: Text.optional() })
  .strict()
  .meta({ id: 'UpdateWorkflowBody' });
export type UpdateWorkflowBody = z.input<typeof UpdateWorkflowBody>;

export const WorkflowVersionResponse = z
  .object({ workflowId: Uuid, version: z.number().int() })
  .meta({ id: 'WorkflowVersionResponse' });
export type WorkflowVersionResponse = z.infer<typeof WorkflowVersionResponse>;

/** `GET /workflows/{workflowId}/definition?version=`: an earlier version; the current one without it. */
export const WorkflowDefinitionQuery = z.object({
  version: intQuery('version', 1, 1_000_000_000, 1)
    .optional()
    .meta({ description: 'A published version (1 is the first); the current version when left out' }),
});

export const WorkflowDefinitionResponse = z
  .object({ workflowId: Uuid, version: z.number().int(), definition: WorkflowDefinition })
  .meta({ id: 'WorkflowDefinitionResponse' });

export const ToggleWorkflowBody = z
  .object({ userId: UserRef.optional(), workflowId: Uuid })
  .strict()
  .meta({ id: 'ToggleWorkflowBody' });
export type ToggleWorkflowBody = z.infer<typeof ToggleWorkflowBody>;

export const Integration = z
  .object({
    integrationId: Uuid,
    name: z.string(),
    description: z.string().nullable(),
    connector: z.string().nullable(),
    createdAt: IsoDateTime,
  })
  .meta({ id: 'Integration' });
export type Integration = z.infer<typeof Integration>;

export const CreateIntegrationBody = z
  .object({
    name: Name,
    description: Text.optional(),
    connector: z.string().min(1).max(64).optional(),
  })
  .strict()
  .meta({ id: 'CreateIntegrationBody' });
export type CreateIntegrationBody = z.infer<typeof CreateIntegrationBody>;

export const CreateIntegrationResponse = z.object({ integrationId: Uuid });

/** `PATCH /integrations/{id}`: the fields given change; `null` clears a description or connector. */
export const UpdateIntegrationBody = z
  .object({
    name: Name.optional(),
    description: Text.nullable().optional(),
    connector: z.string().min(1).max(64).nullable().optional(),
  })
  .strict()
  .meta({ id: 'UpdateIntegrationBody' });
export type UpdateIntegrationBody = z.infer<typeof UpdateIntegrationBody>;

export const RunWorkflowBody = z
  .object({
    workflowId: Uuid,
    userId: UserRef.optional(),
    data: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
  .meta({ id: 'RunWorkflowBody' });
export type RunWorkflowBody = z.input<typeof RunWorkflowBody>;

export const RunEventBody = z
  .object({
    event: z.string().min(1).max(LIMITS.name),
    userId: UserRef.optional(),
    data: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
  .meta({ id: 'RunEventBody' });
export type RunEventBody = z.input<typeof RunEventBody>;

export const RunResponse = z
  .object({ message: z.literal('success'), executionIds: z.array(Uuid) })
  .meta({ id: 'RunResponse' });
export type RunResponse = z.infer<typeof RunResponse>;

export const RerunResponse = z.object({ executionId: Uuid }).meta({ id: 'RerunResponse' });
export type RerunResponse = z.infer<typeof RerunResponse>;

const DEFINITION_422 =
  'The definition names what cannot run: an unknown connector, action or source, a bad template or cron, or an http header the transport owns (`host`, `transfer-encoding`, `proxy-*`, ...)';

/** The workflow operations of the REST API, keyed by operationId. */
export const workflowOperations = defineOperations({
  listIntegrations: {
    method: 'get',
    path: '/integrations',
    summary: 'List integrations',
    tag: 'Authoring',
    auth: 'user',
    ok: listOf(Integration),
    notFound: false,
  },
  createIntegration: {
    method: 'post',
    path: '/integrations',
    summary: 'Create an integration',
    tag: 'Authoring',
    auth: 'key',
    body: CreateIntegrationBody,
    ok: CreateIntegrationResponse,
    status: '201',
    notFound: false,
    problems: { '422': 'No connector has the slug `connector` names' },
  },
  updateIntegration: {
    method: 'patch',
    path: '/integrations/{integrationId}',
    summary: 'Rename or edit an integration',
    tag: 'Authoring',
    auth: 'key',
    params: idParams('integrationId'),
    body: UpdateIntegrationBody,
    ok: dataOf(Integration),
    problems: { '422': 'No connector has the slug `connector` names' },
  },
  deleteIntegration: {
    method: 'delete',
    path: '/integrations/{integrationId}',
    summary: 'Delete an integration that has no workflows',
    tag: 'Authoring',
    auth: 'key',
    params: idParams('integrationId'),
    ok: MessageResponse,
    problems: { '409': 'The integration still has workflows: `workflowCount` says how many' },
  },
  listAccountWorkflows: {
    method: 'get',
    path: '/account/workflows',
    summary:
      "The account's workflows as authored, oldest first (no user's state: installed and active are false)",
    tag: 'Authoring',
    auth: 'key',
    query: AccountWorkflowsQuery,
    ok: listOf(Workflow),
    notFound: false,
  },
  listWorkflows: {
    method: 'get',
    path: '/workflows',
    summary: 'List workflows for a user',
    tag: 'Workflows',
    auth: 'user',
    query: WorkflowsQuery,
    ok: listOf(Workflow),
  },
  createWorkflow: {
    method: 'post',
    path: '/workflows',
    summary: 'Create a workflow',
    tag: 'Authoring',
    auth: 'key',
    body: CreateWorkflowBody,
    ok: WorkflowVersionResponse,
    status: '201',
    notFound: false,
    problems: { '422': `No such integration in the account, or: ${DEFINITION_422}` },
  },
  getWorkflow: {
    method: 'get',
    path: '/workflows/{workflowId}',
    summary: 'Get a workflow',
    tag: 'Workflows',
    auth: 'user',
    params: idParams('workflowId'),
    query: WorkflowQuery,
    ok: dataOf(Workflow),
  },
  updateWorkflow: {
    method: 'put',
    path: '/workflows/{workflowId}',
    summary: 'Publish a new version',
    tag: 'Authoring',
    auth: 'key',
    params: idParams('workflowId'),
    body: UpdateWorkflowBody,
    ok: WorkflowVersionResponse,
    problems: { '422': DEFINITION_422 },
  },
  deleteWorkflow: {
    method: 'delete',
    path: '/workflows/{workflowId}',
    summary: 'Delete a workflow that no user has installed, with its versions (its runs stay readable)',
    tag: 'Authoring',
    auth: 'key',
    params: idParams('workflowId'),
    ok: null,
    status: '204',
    problems: { '409': 'Users still have the workflow installed: `installationCount` says how many' },
  },
  getWorkflowDefinition: {
    method: 'get',
    path: '/workflows/{workflowId}/definition',
    summary: 'Get the current definition, or an earlier version',
    tag: 'Authoring',
    auth: 'key',
    params: idParams('workflowId'),
    query: WorkflowDefinitionQuery,
    ok: WorkflowDefinitionResponse,
  },
  activateWorkflow: {
    method: 'put',
    path: '/workflows/activate',
    summary: "Activate a user's workflow",
    tag: 'Workflows',
    auth: 'user',
    body: ToggleWorkflowBody,
    ok: MessageResponse,
  },
  deactivateWorkflow: {
    method: 'put',
    path: '/workflows/deactivate',
    summary: "Deactivate a user's workflow",
    tag: 'Workflows',
    auth: 'user',
    body: ToggleWorkflowBody,
    ok: MessageResponse,
  },
  rerunExecution: {
    method: 'post',
    path: '/workflows/{workflowId}/rerun/{executionId}',
    summary: 'Re-run an execution',
    tag: 'Workflows',
    auth: 'user',
    params: z.object({ workflowId: UuidParam, executionId: UuidParam }),
    query: userQuery,
    ok: RerunResponse,
    problems: { '409': 'The workflow is deactivated for the user, or its installation is disabled' },
  },
  runWorkflow: {
    method: 'post',
    path: '/run/workflow',
    summary: 'Run a workflow',
    tag: 'Runs',
    auth: 'user',
    body: RunWorkflowBody,
    ok: RunResponse,
    problems: { '409': 'The workflow is deactivated for the user, or its installation is disabled' },
  },
  runEvent: {
    method: 'post',
    path: '/run/event',
    summary: 'Send an event',
    tag: 'Runs',
    auth: 'user',
    body: RunEventBody,
    ok: RunResponse,
  },
  runWebhook: {
    method: 'post',
    path: '/hooks/{installationId}/{secret}',
    summary: "Trigger an installation's webhook workflows (the secret in the URL is the credential)",
    tag: 'Runs',
    auth: 'none',
    params: z.object({ installationId: z.string(), secret: z.string() }),
    jsonBody: true,
    // Counted per installation, after the secret check.
    limited: true,
    body: z.record(z.string(), z.unknown()),
    ok: RunResponse,
  },
  receiveAppTrigger: {
    method: 'post',
    path: '/hooks/app/{installationId}/{workflowId}/{secret}',
    summary:
      "Where an app delivers a webhook trigger's events (subscribed on install; the secret in the URL picks the subscription, the app's signature must verify)",
    tag: 'Runs',
    auth: 'none',
    params: z.object({ installationId: z.string(), workflowId: z.string(), secret: z.string() }),
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
});

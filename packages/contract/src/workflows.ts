import { z } from 'zod';
import { IsoDateTime, intQuery, LIMITS, Name, Text, UserRef, Uuid } from './common.ts';
import { WorkflowConnector } from './connectors.ts';
import { ConfigField, TRIGGER_TYPES, WorkflowDefinition } from './definition.ts';

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

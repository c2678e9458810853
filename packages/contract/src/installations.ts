import { z } from 'zod';
import { dataOf, IsoDateTime, LIMITS, listOf, MessageResponse, UserRef, Uuid } from './common.ts';
import { FIELD_TYPES } from './definition.ts';
import { defineOperations, idParams } from './operation.ts';
import { WorkflowAttention } from './workflows.ts';

export const FieldValue = z.union([
  z.string().max(LIMITS.fieldValue),
  z.number(),
  z.boolean(),
  z.array(z.string().max(LIMITS.name)).max(LIMITS.array),
  z.null(),
]);
export type FieldValue = z.infer<typeof FieldValue>;

export const Field = z
  .object({
    name: z.string(),
    displayName: z.string(),
    type: z.enum(FIELD_TYPES),
    required: z.boolean(),
    value: FieldValue.optional(),
  })
  .meta({ id: 'Field' });
export type Field = z.infer<typeof Field>;

export const FormData = z
  .object({
    workflowId: Uuid,
    app: z.string().meta({ description: 'Machine name of the connector the block configures' }),
    blockId: Uuid.meta({ description: 'The step of the workflow definition these fields configure' }),
    fields: z.array(Field),
  })
  .meta({ id: 'FormData' });
export type FormData = z.infer<typeof FormData>;

export const Installation = z
  .object({
    installationId: Uuid,
    integrationId: Uuid,
    userId: Uuid,
    formData: z.array(FormData),
    credentialIds: z.record(z.string(), Uuid),
    workflowIds: z.array(Uuid),
    installedAt: IsoDateTime,
    enabled: z.boolean(),
    updatedAt: IsoDateTime.meta({ description: 'Additive' }),
    webhookUrl: z
      .url()
      .nullable()
      .meta({ description: 'Additive: secret URL that triggers the webhook workflows of this installation' }),
    attention: WorkflowAttention.nullable().optional().meta({
      description:
        'Additive: `needs_credential` when an app its workflows call has no account chosen, `needs_reconnect` when a chosen credential is refused by its provider, else null. The same value as the `attention` of its workflows',
    }),
  })
  .meta({ id: 'Installation' });
export type Installation = z.infer<typeof Installation>;

export const InstallValue = z
  .object({
    workflowId: Uuid,
    blockId: z.string().min(1).max(LIMITS.id),
    fields: z
      .array(z.object({ name: z.string().min(1).max(64), value: FieldValue }).strict())
      .max(LIMITS.array),
  })
  .strict();
export type InstallValue = z.infer<typeof InstallValue>;

export const CredentialIds = z.record(z.string().min(1).max(64), Uuid);

export const CreateInstallationBody = z
  .object({
    userId: UserRef.optional(),
    workflowIds: z.array(Uuid).min(1).max(LIMITS.array),
    credentialIds: CredentialIds.default({}),
    values: z.array(InstallValue).max(LIMITS.array).default([]),
  })
  .strict()
  .meta({ id: 'CreateInstallationBody' });
export type CreateInstallationBody = z.input<typeof CreateInstallationBody>;

export const UpdateInstallationBody = z
  .object({
    userId: UserRef.optional(),
    enabled: z.boolean().optional(),
    values: z.array(InstallValue).max(LIMITS.array).optional(),
    credentialIds: CredentialIds.optional(),
  })
  .strict()
  .meta({ id: 'UpdateInstallationBody' });
export type UpdateInstallationBody = z.input<typeof UpdateInstallationBody>;

export const InstallationsQuery = z.object({ userId: UserRef.optional() });
export const ListInstallationsQuery = InstallationsQuery.extend({
  attention: z.enum(['true', 'false']).optional().meta({
    description:
      'Additive. `true`: only installations whose `attention` is non-null (an app without an account, a credential to reconnect); default: all',
  }),
});
export const DeleteInstallationQuery = z.object({
  userId: UserRef.optional(),
  deleteCredentials: z.enum(['true', 'false']).optional(),
});

/** The installation operations of the REST API, keyed by operationId. */
export const installationOperations = defineOperations({
  listInstallations: {
    method: 'get',
    path: '/installations',
    summary: 'List installations',
    tag: 'Installations',
    auth: 'user',
    query: ListInstallationsQuery,
    ok: listOf(Installation),
  },
  createInstallation: {
    method: 'post',
    path: '/installations',
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
  getInstallation: {
    method: 'get',
    path: '/installations/{installationId}',
    summary: 'Get an installation',
    tag: 'Installations',
    auth: 'user',
    params: idParams('installationId'),
    query: InstallationsQuery,
    ok: dataOf(Installation),
  },
  updateInstallation: {
    method: 'patch',
    path: '/installations/{installationId}',
    summary: 'Edit an installation',
    tag: 'Installations',
    auth: 'user',
    params: idParams('installationId'),
    body: UpdateInstallationBody,
    ok: dataOf(Installation),
    problems: {
      '422':
        'The values or credentials cannot be installed: a missing required field or credential, a value of the wrong type, a credential of another connector',
    },
  },
  deleteInstallation: {
    method: 'delete',
    path: '/installations/{installationId}',
    summary: 'Uninstall',
    tag: 'Installations',
    auth: 'user',
    params: idParams('installationId'),
    query: DeleteInstallationQuery,
    ok: MessageResponse,
  },
});

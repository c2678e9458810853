import { z } from 'zod';
import { IsoDateTime, intQuery, LIMITS, UserRef, Uuid } from './common.ts';
import { AUTH_TYPES } from './connectors.ts';

/**
 * `needs_reconnect`: the provider refuses the credential (a revoked token, a refresh that failed with
 * `invalid_grant`, a changed API key); reconnecting it in place keeps its id and its installations.
 */
export const CREDENTIAL_STATUSES = ['pending', 'connected', 'needs_reconnect', 'failed'] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

/** A credential as the API shows it: never the secret. */
export const Credential = z
  .object({
    credentialId: Uuid,
    userId: Uuid,
    connector: z.string(),
    name: z.string(),
    type: z.enum(AUTH_TYPES),
    status: z.enum(CREDENTIAL_STATUSES),
    statusReason: z.string().nullable(),
    statusChangedAt: IsoDateTime.meta({ description: 'Additive. When `status` last changed' }),
    accountLabel: z.string().optional().meta({
      description:
        "Additive. The provider account (Slack workspace, GitHub login, Google email...), read by the connector's test request on connect and reconnect; absent when the provider exposes none",
    }),
    allowedOrigins: z.array(z.string()).optional().meta({
      description:
        'Additive. For a bound credential (`http`): the only origins it is ever sent to, fixed when it was created',
    }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'Credential' });
export type Credential = z.infer<typeof Credential>;

export const CreateCredentialBody = z
  .object({
    userId: UserRef.optional(),
    connector: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(LIMITS.name).optional(),
    data: z
      .record(z.string().max(64), z.string().max(LIMITS.text))
      .refine((d) => Object.keys(d).length <= 20, {
        message: 'at most 20 fields',
      }),
  })
  .strict()
  .meta({ id: 'CreateCredentialBody' });
export type CreateCredentialBody = z.infer<typeof CreateCredentialBody>;

/** An absolute http(s) URL: `javascript:` and other schemes never become a redirect or a postMessage target. */
const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(LIMITS.url);

export const CreateOAuthCredentialBody = z
  .object({
    userId: UserRef.optional(),
    connector: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(LIMITS.name).optional(),
    redirectUri: HttpUrl.optional().meta({
      description:
        'Where the browser lands after consent when not in a popup, with `credentialId`, `status` and `reason` in the query',
    }),
    popup: z.boolean().optional().meta({
      description:
        'Answer the callback with a page that posts the result to its opener and closes itself. Default: true unless `redirectUri` is given',
    }),
    origin: HttpUrl.optional().meta({
      description:
        "Origin the popup posts its result to (window.opener); default: `redirectUri`'s origin, else the request's Origin header",
    }),
    data: z
      .record(z.string().max(64), z.string().max(LIMITS.text))
      .refine((d) => Object.keys(d).length <= 20, { message: 'at most 20 fields' })
      .optional()
      .meta({ description: 'Non-secret connector fields needed before consent, e.g. `{"shop": "acme"}`' }),
    credentialId: Uuid.optional().meta({
      description:
        'Additive. Reconnect this existing credential in place: the same id (and every installation using it) gets the new tokens',
    }),
  })
  .strict()
  .meta({ id: 'CreateOAuthCredentialBody' });
export type CreateOAuthCredentialBody = z.infer<typeof CreateOAuthCredentialBody>;

export const OAuthStartResponse = z
  .object({ credentialId: Uuid, authorizeUrl: z.url() })
  .meta({ id: 'OAuthStartResponse' });
export type OAuthStartResponse = z.infer<typeof OAuthStartResponse>;

export const CredentialsQuery = z.object({
  userId: UserRef.optional(),
  connector: z.string().max(64).optional(),
});

/** `GET /account/credentials`: every user's credentials, most recent status change first. */
export const AccountCredentialsQuery = z.object({
  status: z.enum(CREDENTIAL_STATUSES).optional().meta({ description: 'Only credentials in this state' }),
  connector: z.string().max(64).optional(),
  limit: intQuery('limit', 1, 500, 100),
});
export type AccountCredentialsQuery = z.input<typeof AccountCredentialsQuery>;

export const AccountCredential = Credential.extend({ username: z.string() }).meta({
  id: 'AccountCredential',
});
export type AccountCredential = z.infer<typeof AccountCredential>;

/** What the OAuth callback page posts to its opener and on the BroadcastChannel `inlay:oauth`. */
export const OAuthMessage = z.object({
  type: z.literal('inlay:oauth'),
  credentialId: Uuid,
  status: z.enum(CREDENTIAL_STATUSES),
  reason: z.string().optional().meta({ description: "With `failed`: the provider's own words, for details" }),
  code: z.string().optional().meta({
    description:
      "Additive. With `failed`: the provider's error code (`access_denied`, `invalid_request`...), else `failed`",
  }),
});
export type OAuthMessage = z.infer<typeof OAuthMessage>;

/** `PUT /credentials/{id}`: new secrets for an API-key or basic credential, stored only once they pass the test. */
export const ReplaceCredentialBody = z
  .object({
    userId: UserRef.optional(),
    data: z
      .record(z.string().max(64), z.string().max(LIMITS.text))
      .refine((d) => Object.keys(d).length <= 20, { message: 'at most 20 fields' }),
  })
  .strict()
  .meta({ id: 'ReplaceCredentialBody' });
export type ReplaceCredentialBody = z.infer<typeof ReplaceCredentialBody>;

/** `PATCH /credentials/{id}`: rename. */
export const UpdateCredentialBody = z
  .object({
    userId: UserRef.optional(),
    label: z.string().trim().min(1).max(LIMITS.name),
  })
  .strict()
  .meta({ id: 'UpdateCredentialBody' });
export type UpdateCredentialBody = z.infer<typeof UpdateCredentialBody>;

export const DeleteCredentialQuery = z.object({
  userId: UserRef.optional(),
  detach: z.enum(['true', 'false']).optional().meta({
    description:
      'Default `false`. `true`: delete even when installations use the credential. They lose it: their `attention` reads `needs_credential`, an `installation.needs_credential` event is sent, and their runs fail with `credential_missing` until an account is chosen again',
  }),
});

/** The 409 of `DELETE /credentials/{id}` without `detach`: which installations, and which workflows, use it. */
export const CredentialInUse = z.object({
  installationIds: z.array(Uuid),
  workflows: z
    .array(z.object({ workflowId: Uuid, name: z.string() }))
    .meta({ description: 'Additive. The workflows of those installations, by name' }),
});

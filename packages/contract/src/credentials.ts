import { z } from 'zod';
import { dataOf, IsoDateTime, intQuery, LIMITS, listOf, MessageResponse, UserRef, Uuid } from './common.ts';
import { AUTH_TYPES } from './connectors.ts';
import { defineOperations, idParams, type Operation, userQuery } from './operation.ts';
import { Problem } from './problem.ts';

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

/**
 * An OAuth redirect target (the shared one or a connector's own): exchanges the code, then answers the popup's
 * page or redirects to `redirectUri`. `refused` says which other flows it refuses with rule `callback`.
 */
const oauthCallback = (o: {
  target: string;
  refused: string;
  params?: z.ZodObject;
}): Omit<Operation, 'method' | 'path'> => ({
  summary: `${o.target}: exchanges the code, then answers the popup's page (postMessage + BroadcastChannel) or redirects to \`redirectUri\` with \`credentialId\` and \`status\``,
  tag: 'Credentials',
  auth: 'none',
  ...(o.params ? { params: o.params } : {}),
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

/** The credential operations of the REST API, keyed by operationId. */
export const credentialOperations = defineOperations({
  listAccountCredentials: {
    method: 'get',
    path: '/account/credentials',
    summary:
      "Every user's credentials, most recent status change first; `?status=needs_reconnect` lists the connections to repair",
    tag: 'Credentials',
    auth: 'key',
    query: AccountCredentialsQuery,
    ok: listOf(AccountCredential),
    notFound: false,
  },
  listCredentials: {
    method: 'get',
    path: '/credentials',
    summary: "A user's credentials",
    tag: 'Credentials',
    auth: 'user',
    query: CredentialsQuery,
    ok: listOf(Credential),
  },
  createCredential: {
    method: 'post',
    path: '/credentials',
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
  startOAuth: {
    method: 'post',
    path: '/credentials/oauth',
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
  getCredential: {
    method: 'get',
    path: '/credentials/{credentialId}',
    summary: 'Get a credential',
    tag: 'Credentials',
    auth: 'user',
    params: idParams('credentialId'),
    query: userQuery,
    ok: dataOf(Credential),
  },
  replaceCredential: {
    method: 'put',
    path: '/credentials/{credentialId}',
    summary: 'Replace the secrets of an API-key or basic credential in place, once they pass the test',
    tag: 'Credentials',
    auth: 'user',
    params: idParams('credentialId'),
    body: ReplaceCredentialBody,
    ok: dataOf(Credential),
    problems: {
      '422':
        'The provider rejected the new secrets, the egress policy refused its host, or the credential uses OAuth (reconnect it instead)',
      '502': 'The provider could not be reached to check the secrets',
    },
  },
  renameCredential: {
    method: 'patch',
    path: '/credentials/{credentialId}',
    summary: 'Rename a credential',
    tag: 'Credentials',
    auth: 'user',
    params: idParams('credentialId'),
    body: UpdateCredentialBody,
    ok: dataOf(Credential),
  },
  deleteCredential: {
    method: 'delete',
    path: '/credentials/{credentialId}',
    summary: 'Delete a credential',
    tag: 'Credentials',
    auth: 'user',
    params: idParams('credentialId'),
    query: DeleteCredentialQuery,
    ok: MessageResponse,
    problems: {
      '409':
        'Installations use the credential: `installationIds` and `workflows` name them; delete with `?detach=true` to remove it from them (each then has `attention.code` `needs_credential` and an `installation.needs_credential` event is sent)',
    },
  },
  testCredential: {
    method: 'post',
    path: '/credentials/{credentialId}/test',
    summary:
      'Test a credential now: refreshes an OAuth token when due or refused, records `status` and `accountLabel`',
    tag: 'Credentials',
    auth: 'user',
    params: idParams('credentialId'),
    query: userQuery,
    ok: dataOf(Credential),
    problems: { '502': 'The provider could not be reached; the status is unchanged' },
  },
  oauthStart: {
    method: 'get',
    path: '/oauth/start',
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
  oauthCallback: {
    method: 'get',
    path: '/oauth/callback',
    ...oauthCallback({
      target: 'The one OAuth redirect target of every connector, with `INLAY_OAUTH_SHARED_REDIRECT=true`',
      refused: "a flow whose callback is its connector's own (rule `callback`)",
    }),
  },
  oauthConnectorCallback: {
    method: 'get',
    path: '/oauth/callback/{connector}',
    ...oauthCallback({
      target: "A connector's own OAuth redirect target (the default; see `INLAY_OAUTH_SHARED_REDIRECT`)",
      refused:
        'a flow of another connector (rule `callback`, an authorization server mix-up: its code is not exchanged)',
      params: z.object({ connector: z.string() }),
    }),
  },
});

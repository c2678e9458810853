import { z } from 'zod';
import { dataOf, IsoDateTime, listOf, MessageResponse, Name, Uuid } from './common.ts';
import { defineOperations, idParams, problem } from './operation.ts';

export const ApiKey = z
  .object({
    apiKeyId: Uuid,
    name: z.string().nullable(),
    prefix: z.string().meta({ description: 'The first characters of the key, to recognise it' }),
    mode: z.enum(['live', 'test']),
    createdAt: IsoDateTime,
    lastUsedAt: IsoDateTime.nullable().meta({ description: 'To the minute; null when never used' }),
    revokedAt: IsoDateTime.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const CreateApiKeyBody = z
  .object({ name: Name.optional(), mode: z.enum(['live', 'test']).default('live') })
  .strict()
  .meta({ id: 'CreateApiKeyBody' });
export type CreateApiKeyBody = z.input<typeof CreateApiKeyBody>;

export const CreateApiKeyResponse = z
  .object({
    data: ApiKey,
    key: z.string().meta({ description: 'The key itself: shown once, stored only as a hash' }),
  })
  .meta({ id: 'CreateApiKeyResponse' });
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponse>;

/** `POST /console/session`: trade an API key for a console session cookie. */
export const CreateConsoleSessionBody = z
  .object({ apiKey: z.string().min(1).max(200) })
  .strict()
  .meta({ id: 'CreateConsoleSessionBody' });
export type CreateConsoleSessionBody = z.infer<typeof CreateConsoleSessionBody>;

export const ConsoleSession = z
  .object({
    accountId: Uuid,
    accountName: z.string(),
    csrfToken: z
      .string()
      .meta({ description: 'Send as `x-inlay-csrf` on every write made with the session cookie' }),
    expiresAt: IsoDateTime,
  })
  .meta({ id: 'ConsoleSession' });
export type ConsoleSession = z.infer<typeof ConsoleSession>;

/** The apiKey operations of the REST API, keyed by operationId. */
export const apiKeyOperations = defineOperations({
  listApiKeys: {
    method: 'get',
    path: '/api-keys',
    summary: "The account's API keys (never the keys themselves), newest first",
    tag: 'Account',
    auth: 'key',
    ok: listOf(ApiKey),
    notFound: false,
  },
  createApiKey: {
    method: 'post',
    path: '/api-keys',
    summary: 'Create an API key; the key is in this reply only and stored as a hash',
    tag: 'Account',
    auth: 'key',
    body: CreateApiKeyBody,
    ok: CreateApiKeyResponse,
    status: '201',
    notFound: false,
    problems: { '409': 'The account has INLAY_MAX_API_KEYS active keys already: revoke one first' },
  },
  revokeApiKey: {
    method: 'delete',
    path: '/api-keys/{apiKeyId}',
    summary: 'Revoke an API key (and the console sessions opened with it) at once',
    tag: 'Account',
    auth: 'key',
    params: idParams('apiKeyId'),
    ok: MessageResponse,
    problems: { '409': "The account's last active key: create another one first" },
  },
  createConsoleSession: {
    method: 'post',
    path: '/console/session',
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
  getConsoleSession: {
    method: 'get',
    path: '/console/session',
    summary:
      'The signed-in console session of this browser (from its cookie), with its CSRF token; `data` is null when there is none (signed out, expired or revoked)',
    tag: 'Console',
    auth: 'none',
    ok: dataOf(ConsoleSession.nullable()),
    notFound: false,
    limited: false,
  },
  deleteConsoleSession: {
    method: 'delete',
    path: '/console/session',
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
});

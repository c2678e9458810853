import { z } from 'zod';
import { CursorQuery, IsoDateTime, intQuery, keysetPage, LIMITS, Uuid } from './common.ts';
import { defineOperations } from './operation.ts';

/**
 * What made a provider call: a run's step, the proxy, an app trigger's poll, an option list, a connection test, an
 * OAuth token request (code exchange or refresh), an app trigger's webhook subscription (subscribe or unsubscribe).
 */
export const PROVIDER_CALL_KINDS = [
  'step',
  'proxy',
  'poll',
  'options',
  'test',
  'oauth',
  'subscription',
] as const;
export type ProviderCallKind = (typeof PROVIDER_CALL_KINDS)[number];

/** Most calls one page of `GET /provider-calls` returns. */
export const PROVIDER_CALLS_PAGE_MAX = 200;

const instant = (what: string) =>
  z.iso
    .datetime({ offset: true, error: `${what} must be an ISO 8601 date-time` })
    .optional()
    .meta({ description: `${what} (ISO 8601 date-time)` });

/** `GET /provider-calls`: the account's calls to providers, newest first, by keyset. */
export const ProviderCallsQuery = z
  .object({
    userId: z.string().trim().min(1).max(LIMITS.id).optional().meta({ description: 'User id or username' }),
    credentialId: Uuid.optional().meta({ description: 'The calls made with one connection' }),
    connector: z.string().trim().min(1).max(LIMITS.id).optional(),
    kind: z
      .enum(PROVIDER_CALL_KINDS, { error: `kind must be one of ${PROVIDER_CALL_KINDS.join(', ')}` })
      .optional(),
    failed: z
      .enum(['true', 'false'], { error: 'failed must be true or false' })
      .optional()
      .meta({ description: '`true`: only calls with no answer or an answer of 400 and above' }),
    from: instant('Calls made at or after this instant'),
    to: instant('Calls made before this instant'),
    cursor: CursorQuery,
    limit: intQuery('limit', 1, PROVIDER_CALLS_PAGE_MAX, 50),
  })
  .strict();
export type ProviderCallsQuery = z.input<typeof ProviderCallsQuery>;

/** One call to a provider: who, where and how it went; never its headers or bodies. */
export const ProviderCall = z
  .object({
    providerCallId: Uuid,
    at: IsoDateTime.meta({ description: 'When the call was sent' }),
    kind: z.enum(PROVIDER_CALL_KINDS),
    userId: Uuid.nullable().meta({ description: 'Null for a call made for no user (a test before saving)' }),
    credentialId: Uuid.nullable(),
    connector: z.string(),
    method: z.string(),
    route: z.string().meta({
      description: 'The path with ids replaced by `:id` (numbers, UUIDs, long tokens); never the query',
    }),
    status: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The provider's status; null when no answer came" }),
    durationMs: z.number().int(),
    bytes: z.number().int().meta({ description: 'Size of the answer body' }),
    executionId: Uuid.nullable().meta({ description: 'The run of a step call' }),
  })
  .meta({ id: 'ProviderCall' });
export type ProviderCall = z.infer<typeof ProviderCall>;

export const ProviderCallsPage = keysetPage(ProviderCall, 'ProviderCallsPage');
export type ProviderCallsPage = z.infer<typeof ProviderCallsPage>;

/** The providerCall operations of the REST API, keyed by operationId. */
export const providerCallOperations = defineOperations({
  listProviderCalls: {
    method: 'get',
    path: '/provider-calls',
    summary:
      "The account's calls to providers (steps, proxy calls, polls, option lists, connection tests), newest first; keyset pages. Never headers or bodies",
    tag: 'Executions',
    auth: 'key',
    query: ProviderCallsQuery,
    ok: ProviderCallsPage,
  },
});

import { z } from 'zod';
import { dataOf, LIMITS } from './common.ts';
import { defineOperations } from './operation.ts';

/** At most this many allowed origins per account. */
export const MAX_ALLOWED_ORIGINS = 100;

/** Account-wide settings (`GET|PUT /settings`, API key only). */
export const AccountSettings = z
  .object({
    allowedOrigins: z.array(z.string()).meta({
      description:
        'Origins (`scheme://host[:port]`) the account’s pages live on: OAuth `redirectUri`s, popup origins and MCP redirect URIs must be on one of them (loopback origins are also accepted outside production)',
    }),
    logRetentionDays: z.number().int().meta({
      description:
        "Additive: days this account's runs and their logs are kept before they are deleted: its own setting, else the service's",
    }),
    ownLogRetention: z.boolean().meta({
      description:
        'Additive: whether `logRetentionDays` is the account’s own setting (false: it follows the service’s)',
    }),
    serviceLogRetentionDays: z.number().int().meta({
      description:
        'Additive, read-only: the service-wide retention (`INLAY_LOG_RETENTION_DAYS`): the default, and the most an account may set',
    }),
  })
  .meta({ id: 'AccountSettings' });
export type AccountSettings = z.infer<typeof AccountSettings>;

/** Bounds of `INLAY_LOG_RETENTION_DAYS`, and so of an account's own retention. */
export const LOG_RETENTION_DAYS = { min: 1, max: 3650 } as const;

/** `PUT /settings`: each setting given is replaced; one not given is left as it is. */
export const UpdateAccountSettingsBody = z
  .object({
    allowedOrigins: z.array(z.string().max(LIMITS.url)).max(MAX_ALLOWED_ORIGINS).optional().meta({
      description:
        'Replaces the list. Each entry is an http(s) origin without a path, query or fragment (`https://app.example.com`); entries are normalised and de-duplicated',
    }),
    logRetentionDays: z
      .number()
      .int()
      .min(LOG_RETENTION_DAYS.min)
      .max(LOG_RETENTION_DAYS.max)
      .nullable()
      .optional()
      .meta({
        description:
          "Additive: days this account's runs are kept, at most the service's `serviceLogRetentionDays` (a longer one is a 400); null follows the service's",
      }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.allowedOrigins === undefined && v.logRetentionDays === undefined)
      ctx.addIssue({ code: 'custom', message: 'give allowedOrigins, logRetentionDays or both' });
  })
  .meta({ id: 'UpdateAccountSettingsBody' });
export type UpdateAccountSettingsBody = z.infer<typeof UpdateAccountSettingsBody>;

/** The settings operations of the REST API, keyed by operationId. */
export const settingsOperations = defineOperations({
  getSettings: {
    method: 'get',
    path: '/settings',
    summary: "The account's settings",
    tag: 'Account',
    auth: 'key',
    ok: dataOf(AccountSettings),
    notFound: false,
  },
  putSettings: {
    method: 'put',
    path: '/settings',
    summary:
      "Change the account's settings: each one given (allowed origins, log retention) is replaced, the others are kept",
    tag: 'Account',
    auth: 'key',
    body: UpdateAccountSettingsBody,
    ok: dataOf(AccountSettings),
    notFound: false,
  },
});

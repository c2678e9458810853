import { z } from 'zod';
import { LIMITS } from './common.ts';

/** At most this many allowed origins per account. */
export const MAX_ALLOWED_ORIGINS = 100;

/** Account-wide settings (`GET|PUT /settings`, API key only). */
export const AccountSettings = z
  .object({
    allowedOrigins: z.array(z.string()).meta({
      description:
        'Origins (`scheme://host[:port]`) the account’s pages live on: OAuth `redirectUri`s, popup origins and MCP redirect URIs must be on one of them (loopback origins are also accepted outside production)',
    }),
    logRetentionDays: z.number().int().optional().meta({
      description:
        'Additive, read-only: days a run and its logs are kept before they are deleted; set for the whole service by `INLAY_LOG_RETENTION_DAYS`',
    }),
  })
  .meta({ id: 'AccountSettings' });
export type AccountSettings = z.infer<typeof AccountSettings>;

export const UpdateAccountSettingsBody = z
  .object({
    allowedOrigins: z.array(z.string().max(LIMITS.url)).max(MAX_ALLOWED_ORIGINS).meta({
      description:
        'Replaces the list. Each entry is an http(s) origin without a path, query or fragment (`https://app.example.com`); entries are normalised and de-duplicated',
    }),
  })
  .strict()
  .meta({ id: 'UpdateAccountSettingsBody' });
export type UpdateAccountSettingsBody = z.infer<typeof UpdateAccountSettingsBody>;

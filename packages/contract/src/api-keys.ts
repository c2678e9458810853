import { z } from 'zod';
import { IsoDateTime, Name, Uuid } from './common.ts';

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

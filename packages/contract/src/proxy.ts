import { z } from 'zod';
import { UserRef } from './common.ts';

/** The proxy's own query parameters; every other parameter goes to the provider as written. */
export const ProxyQuery = z
  .object({
    userId: UserRef.optional().meta({ description: 'The user (id or username); required with an API key' }),
    api: z
      .string()
      .optional()
      .meta({ description: "One of the connector's named APIs instead of its base URL (e.g. `drive`)" }),
  })
  .meta({ id: 'ProxyQuery' });
export type ProxyQuery = z.infer<typeof ProxyQuery>;

/** One connector's proxy traffic (`GET /stats/proxy`). */
export const ProxyCount = z
  .object({
    connector: z.string(),
    requests: z.number().int(),
    errors: z.number().int().meta({ description: 'Calls refused or failed in Inlay, or answered with 5xx' }),
    bytes: z.number().int().meta({ description: 'Response bytes streamed back' }),
  })
  .meta({ id: 'ProxyCount' });
export type ProxyCount = z.infer<typeof ProxyCount>;

export const PROXY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ProxyMethod = (typeof PROXY_METHODS)[number];

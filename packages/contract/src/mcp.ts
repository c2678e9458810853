import { z } from 'zod';
import { IsoDateTime, LIMITS, Name, Text, Uuid } from './common.ts';

const SlugList = z.array(z.string().min(1).max(128)).max(LIMITS.array);

export const McpRestrictions = z
  .object({
    connectors: z.object({ allow: SlugList.optional(), block: SlugList.optional() }).strict().optional(),
    actions: z
      .object({
        allow: SlugList.optional().meta({ description: '`connector.action` or tool names' }),
        block: SlugList.optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .meta({ id: 'McpRestrictions' });
export type McpRestrictions = z.infer<typeof McpRestrictions>;

export const CreateMcpServerBody = z
  .object({ name: Name, description: Text.optional(), restrictions: McpRestrictions.optional() })
  .strict()
  .meta({ id: 'CreateMcpServerBody' });
export type CreateMcpServerBody = z.infer<typeof CreateMcpServerBody>;

export const McpServer = z
  .object({
    serverId: Uuid,
    name: z.string(),
    description: z.string().nullable(),
    restrictions: McpRestrictions,
    createdAt: IsoDateTime,
  })
  .meta({ id: 'McpServer' });
export type McpServer = z.infer<typeof McpServer>;

export const CreateMcpServerResponse = z
  .object({
    serverId: Uuid,
    accessToken: z.string().meta({ description: 'Shown once; stored hashed' }),
    url: z.url(),
  })
  .meta({ id: 'CreateMcpServerResponse' });
export type CreateMcpServerResponse = z.infer<typeof CreateMcpServerResponse>;

import { z } from 'zod';
import { IsoDateTime, LIMITS, Name, Text, Uuid } from './common.ts';

const SlugList = z.array(z.string().min(1).max(128)).max(LIMITS.array);

/** An allow list or a block list, never both: which one should win would be a guess. */
const allowOrBlock = (allowDescription: string) =>
  z
    .object({
      allow: SlugList.optional().meta({ description: allowDescription }),
      block: SlugList.optional(),
    })
    .strict()
    .superRefine((v, ctx) => {
      if (v.allow !== undefined && v.block !== undefined)
        ctx.addIssue({ code: 'custom', path: ['block'], message: 'give allow or block, not both' });
    })
    .optional()
    .meta({ description: '`allow` or `block`, not both' });

export const McpRestrictions = z
  .object({
    connectors: allowOrBlock(
      'Connector machine names; the `http` and `transform` built-ins are available only when listed here',
    ),
    actions: allowOrBlock('`connector.action` or tool names'),
  })
  .strict()
  .meta({ id: 'McpRestrictions' });
export type McpRestrictions = z.infer<typeof McpRestrictions>;

export const CreateMcpServerBody = z
  .object({ name: Name, description: Text.optional(), restrictions: McpRestrictions.optional() })
  .strict()
  .meta({ id: 'CreateMcpServerBody' });
export type CreateMcpServerBody = z.infer<typeof CreateMcpServerBody>;

/** `PATCH /mcp-servers/{serverId}`: what is given is replaced (`restrictions` as a whole; `{}` lifts them all). */
export const UpdateMcpServerBody = z
  .object({
    name: Name.optional(),
    description: Text.nullable().optional().meta({ description: 'null removes it' }),
    restrictions: McpRestrictions.optional().meta({
      description: 'Replaces the restrictions as a whole; `{}` lifts them all. Agents see the change at once',
    }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.name === undefined && v.description === undefined && v.restrictions === undefined)
      ctx.addIssue({ code: 'custom', message: 'give name, description or restrictions' });
  })
  .meta({ id: 'UpdateMcpServerBody' });
export type UpdateMcpServerBody = z.infer<typeof UpdateMcpServerBody>;

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

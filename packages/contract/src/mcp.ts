import { z } from 'zod';
import { dataOf, IsoDateTime, LIMITS, listOf, MessageResponse, Name, Text, Uuid } from './common.ts';
import { defineOperations, idParams } from './operation.ts';

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

/** The mcpServer operations of the REST API, keyed by operationId. */
export const mcpServerOperations = defineOperations({
  listMcpServers: {
    method: 'get',
    path: '/mcp-servers',
    summary: 'List MCP servers',
    tag: 'MCP',
    auth: 'key',
    ok: listOf(McpServer),
    notFound: false,
  },
  createMcpServer: {
    method: 'post',
    path: '/mcp-servers',
    summary: 'Create an MCP server',
    tag: 'MCP',
    auth: 'key',
    body: CreateMcpServerBody,
    ok: CreateMcpServerResponse,
    status: '201',
    notFound: false,
    problems: {
      '422':
        'A restriction names a connector the account does not have, an action the connector does not have, or no MCP tool (`field` points at the entry)',
    },
  },
  updateMcpServer: {
    method: 'patch',
    path: '/mcp-servers/{serverId}',
    summary:
      'Rename an MCP server or change its restrictions; the MCP endpoint applies them from the next request, on every node',
    tag: 'MCP',
    auth: 'key',
    params: idParams('serverId'),
    body: UpdateMcpServerBody,
    ok: dataOf(McpServer),
    problems: {
      '422':
        'A restriction names a connector the account does not have, an action the connector does not have, or no MCP tool (`field` points at the entry)',
    },
  },
  deleteMcpServer: {
    method: 'delete',
    path: '/mcp-servers/{serverId}',
    summary: 'Delete an MCP server',
    tag: 'MCP',
    auth: 'key',
    params: idParams('serverId'),
    ok: MessageResponse,
  },
});

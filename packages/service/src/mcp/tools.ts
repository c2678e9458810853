import { actionInputSchema } from '@inlay/connectors';
import { AUTH_TYPES, CONNECTOR_CATEGORIES, CREDENTIAL_STATUSES, LIMITS } from '@inlay/contract';
import { type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { failAbandoned, listCredentials } from '../credentials/credentials.ts';
import { logPage } from '../executions/executions.ts';
import { findWorkflow, listWorkflows } from '../workflows/workflows.ts';
import { page } from './cursor.ts';
import { type McpSession, requireUser, ToolFailure } from './session.ts';

const Cursor = z.string().max(200).optional().describe('Opaque cursor from a previous page (`nextCursor`)');
const Params = z.record(z.string(), z.unknown());

const ok = <T extends Record<string, unknown>>(out: T) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(out) }],
  structuredContent: out,
});

/** A tool failure is a result with `isError` and a readable message; unexpected errors are logged, not shown. */
const failure = (message: string) => ({ content: [{ type: 'text' as const, text: message }], isError: true });
const expected = (err: unknown) =>
  err instanceof ToolFailure || (err as { name?: string })?.name === 'ConnectorError';

function connectorOf(s: McpSession, id: string) {
  const def = s.ctx.connectors.get(id);
  if (!def || !s.restrictions.connector(id))
    throw new ToolFailure(`Unknown connector "${id}". Call list_connectors_inlay to see the available ones.`);
  return def;
}

/** Registers the nine `_inlay` tools, minus those the server's restrictions hide. */
export function registerTools(server: McpServer, s: McpSession): void {
  const registry = new Map<string, { input: z.ZodObject; call: (args: unknown) => Promise<unknown> }>();
  const tool = <I extends z.ZodObject, O extends z.ZodObject>(
    name: string,
    description: string,
    inputSchema: I,
    outputSchema: O,
    run: (args: z.output<I>) => Promise<z.output<O>>,
    annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean } = {},
  ) => {
    if (!s.restrictions.tool(name)) return;
    const call = async (args: unknown) => {
      try {
        return ok(await run(args as z.output<I>));
      } catch (err) {
        if (expected(err)) return failure((err as Error).message);
        s.ctx.logger.error({ err, tool: name }, 'MCP tool failed');
        return failure('The tool failed unexpectedly; the error has been logged.');
      }
    };
    registry.set(name, { input: inputSchema, call });
    server.registerTool(name, { description, inputSchema, outputSchema, annotations }, call as never);
  };

  tool(
    'list_connectors_inlay',
    'Lists the apps this server can reach, with their category and how they authenticate.',
    z.object({ category: z.enum(CONNECTOR_CATEGORIES).optional(), cursor: Cursor }),
    z.object({
      connectors: z.array(
        z.object({ id: z.string(), name: z.string(), category: z.string(), authType: z.enum(AUTH_TYPES) }),
      ),
      nextCursor: z.string().optional(),
    }),
    async ({ category, cursor }) => {
      const all = s.ctx.connectors
        .list()
        .filter((c) => s.restrictions.connector(c.id) && (!category || c.category === category))
        .map((c) => ({ id: c.id, name: c.name, category: c.category, authType: c.auth.type }));
      const p = page(all, cursor);
      return { connectors: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
    },
    { readOnlyHint: true },
  );

  tool(
    'get_connector_resources_inlay',
    "Lists a connector's actions (what an agent can do with it).",
    z.object({ connectorId: z.string().min(1).max(64) }),
    z.object({
      connectorId: z.string(),
      name: z.string(),
      authType: z.enum(AUTH_TYPES),
      actions: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          description: z.string(),
          kind: z.enum(['read', 'write']),
        }),
      ),
    }),
    async ({ connectorId }) => {
      const def = connectorOf(s, connectorId);
      return {
        connectorId: def.id,
        name: def.name,
        authType: def.auth.type,
        actions: def.actions
          .filter((a) => s.restrictions.action(def.id, a.id))
          .map((a) => ({ id: a.id, name: a.name, description: a.description, kind: a.kind })),
      };
    },
    { readOnlyHint: true },
  );

  tool(
    'get_action_details_inlay',
    "Gives an action's input JSON Schema, to build `parameters` for execute_action_inlay.",
    z.object({ connectorId: z.string().min(1).max(64), actionId: z.string().min(1).max(64) }),
    z.object({
      connectorId: z.string(),
      actionId: z.string(),
      name: z.string(),
      description: z.string(),
      kind: z.enum(['read', 'write']),
      inputSchema: z.record(z.string(), z.unknown()),
    }),
    async ({ connectorId, actionId }) => {
      const def = connectorOf(s, connectorId);
      const action = def.actions.find((a) => a.id === actionId);
      if (!action || !s.restrictions.action(def.id, action.id))
        throw new ToolFailure(
          `Connector "${connectorId}" has no action "${actionId}". Call get_connector_resources_inlay to list them.`,
        );
      return {
        connectorId,
        actionId,
        name: action.name,
        description: action.description,
        kind: action.kind,
        inputSchema: actionInputSchema(action),
      };
    },
    { readOnlyHint: true },
  );

  tool(
    'execute_action_inlay',
    "Runs one connector action with the user's credential and records it like a one-step execution.",
    z.object({
      connectorId: z.string().min(1).max(64),
      actionId: z.string().min(1).max(64),
      parameters: Params.default({}),
      credentialId: z
        .uuid()
        .optional()
        .describe('Defaults to x-credential-id, else the user’s only credential for the connector'),
    }),
    z.object({ executionId: z.string(), statusCode: z.number().int().optional(), output: z.unknown() }),
    async ({ connectorId, actionId, parameters, credentialId }) => {
      const def = connectorOf(s, connectorId);
      if (!def.actions.some((a) => a.id === actionId) || !s.restrictions.action(def.id, actionId))
        throw new ToolFailure(`Connector "${connectorId}" has no action "${actionId}".`);
      return s.ports.executeAction(requireUser(s), {
        connectorId,
        actionId,
        parameters,
        credentialId: credentialId ?? s.credentialId,
      });
    },
    { openWorldHint: true },
  );

  tool(
    'create_credential_inlay',
    'Connects an app for the user: returns an OAuth URL to open, or stores and checks an API key or basic credential.',
    z.object({
      connectorId: z.string().min(1).max(64),
      authenticationType: z.enum(['oauth2', 'apiKey', 'basic']),
      redirectUri: z.url().max(LIMITS.url).optional(),
      fields: z.record(z.string().max(64), z.string().max(LIMITS.text)).optional(),
    }),
    z.object({
      credentialId: z.string(),
      status: z.enum(CREDENTIAL_STATUSES),
      authorizeUrl: z.string().optional(),
    }),
    async (args) => {
      const def = connectorOf(s, args.connectorId);
      if (def.auth.type !== args.authenticationType)
        throw new ToolFailure(
          `${def.name} authenticates with ${def.auth.type}, not ${args.authenticationType}.`,
        );
      const result = await s.ports.createCredential(requireUser(s), {
        ...args,
        redirectUri: args.redirectUri ?? s.redirectUri,
      });
      return result as {
        credentialId: string;
        status: (typeof CREDENTIAL_STATUSES)[number];
        authorizeUrl?: string;
      };
    },
  );

  tool(
    'get_credentials_inlay',
    "Lists the user's connected apps (never their secrets).",
    z.object({ connectorId: z.string().max(64).optional(), cursor: Cursor }),
    z.object({
      credentials: z.array(
        z.object({
          credentialId: z.string(),
          connector: z.string(),
          name: z.string(),
          status: z.enum(CREDENTIAL_STATUSES),
          createdAt: z.string(),
        }),
      ),
      nextCursor: z.string().optional(),
    }),
    async ({ connectorId, cursor }) => {
      const u = requireUser(s);
      const owner = { accountId: s.accountId, userId: u.user.id };
      await failAbandoned(s.ctx.db, owner);
      const rows = await listCredentials(s.ctx.db, { ...owner, connector: connectorId });
      const visible = rows
        .filter((r) => s.restrictions.connector(r.connector))
        .map((r) => ({
          credentialId: r.id,
          connector: r.connector,
          name: r.name,
          status: r.status,
          createdAt: r.createdAt.toISOString(),
        }));
      const p = page(visible, cursor);
      return { credentials: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
    },
    { readOnlyHint: true },
  );

  tool(
    'list_workflows_inlay',
    "Lists the account's workflows, with whether the user installed and activated each.",
    z.object({ cursor: Cursor }),
    z.object({
      workflows: z.array(
        z.object({
          workflowId: z.string(),
          name: z.string(),
          description: z.string().nullable(),
          installed: z.boolean(),
          active: z.boolean(),
          trigger: z.object({ type: z.string(), event: z.string().optional() }),
          connectors: z.array(z.string()),
        }),
      ),
      nextCursor: z.string().optional(),
    }),
    async ({ cursor }) => {
      const u = requireUser(s);
      const all = await listWorkflows(s.ctx.db, s.defs, s.accountId, u.user.id);
      const p = page(all, cursor);
      return {
        workflows: p.items.map((w) => ({
          workflowId: w.workflowId,
          name: w.name,
          description: w.description,
          installed: w.installed,
          active: w.active,
          trigger: w.trigger,
          connectors: w.connectors.map((c) => c.name),
        })),
        ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}),
      };
    },
    { readOnlyHint: true },
  );

  tool(
    'run_workflow_inlay',
    "Runs one of the user's installed workflows with `data` as its trigger input.",
    z.object({ workflowId: z.uuid(), data: Params.default({}) }),
    z.object({ executionIds: z.array(z.string()) }),
    async ({ workflowId, data }) => ({
      executionIds: await s.ports.runWorkflow(requireUser(s), workflowId, data),
    }),
    { openWorldHint: true },
  );

  tool(
    'get_workflow_logs_inlay',
    "Reads the user's run history of a workflow, newest first by default.",
    z.object({
      workflowId: z.uuid(),
      page: z.number().int().min(1).max(1_000_000).default(1),
      limit: z.number().int().min(1).max(LIMITS.logPageMax).default(10),
      order: z.enum(['asc', 'desc']).default('desc'),
    }),
    z.object({ logs: z.array(z.record(z.string(), z.unknown())), page: z.number(), limit: z.number() }),
    async ({ workflowId, page: p, limit, order }) => {
      const u = requireUser(s);
      if (!(await findWorkflow(s.ctx.db, s.accountId, workflowId)))
        throw new ToolFailure(`No workflow ${workflowId}.`);
      const logs = await logPage(s.ctx.db, {
        accountId: s.accountId,
        userId: u.user.id,
        workflowId,
        page: p,
        limit,
        order,
      });
      return { logs, page: p, limit };
    },
    { readOnlyHint: true },
  );

  if (registry.size === 0) return;
  // Arguments that fail the schema are a protocol error (-32602), not a tool result: the caller sent a bad request.
  server.server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args } = request.params;
    const t = registry.get(name);
    if (!t) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const parsed = t.input.safeParse(args ?? {});
    if (!parsed.success) {
      const detail = parsed.error.issues
        .map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
        .join('; ');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for ${name}: ${detail}`);
    }
    return (await t.call(parsed.data)) as never;
  });
}

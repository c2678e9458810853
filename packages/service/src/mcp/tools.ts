import { actionInputSchema, toConnectorTrigger } from '@inlay/connectors';
import { AUTH_TYPES, CONNECTOR_CATEGORIES, CREDENTIAL_STATUSES, LIMITS } from '@inlay/contract';
import { z } from 'zod';
import { failAbandoned, listCredentials } from '../credentials/credentials.ts';
import { logPage } from '../executions/executions.ts';
import { findWorkflow, listWorkflows } from '../workflows/workflows.ts';
import { page } from './cursor.ts';
import { ProxyToolInput, ProxyToolOutput, proxyTool } from './proxy-tool.ts';
import { capValue } from './result-cap.ts';
import { type McpSession, requireUser, ToolFailure } from './session.ts';
import type { InlayTool, ToolAnnotations } from './tool-list.ts';

const Cursor = z.string().max(200).optional().describe('Opaque cursor from a previous page (`nextCursor`)');
const Params = z.record(z.string(), z.unknown());
// Every input property has a `type` and a `description`, as the seed's Tool shape says.
const ConnectorSlug = z
  .string()
  .min(1)
  .max(64)
  .describe('Machine name of the connector, e.g. `slack` (from list_connectors_inlay)');
const ActionSlug = z
  .string()
  .min(1)
  .max(64)
  .describe('Id of the action, e.g. `post_message` (from get_connector_resources_inlay)');
const WorkflowId = z.uuid().describe('Id of the workflow (from list_workflows_inlay)');

const Truncated = z
  .boolean()
  .optional()
  .describe(
    'true when the result was cut to the size cap; a cut value is {truncated, marker, originalBytes, preview}',
  );

function connectorOf(s: McpSession, id: string) {
  const def = s.ctx.connectors.get(id);
  if (!def || !s.restrictions.connector(id))
    throw new ToolFailure(`Unknown connector "${id}". Call list_connectors_inlay to see the available ones.`);
  return def;
}

/** The ten `_inlay` tools, in the order `tools/list` gives them. */
export const TOOLS: InlayTool[] = [];

/** Declares a tool once per process: its schemas are built here, not per request. */
function tool<I extends z.ZodObject, O extends z.ZodObject>(
  name: string,
  description: string,
  input: I,
  output: O,
  run: (s: McpSession, args: z.output<I>) => Promise<z.output<O>>,
  annotations: ToolAnnotations = {},
  /** Shrinks a result over the cap (INLAY_MAX_STEP_OUTPUT_BYTES); without it such a result is a tool error. */
  fit?: (out: z.output<O>, maxBytes: number) => z.output<O>,
): void {
  TOOLS.push({ name, description, input, output, annotations, run, fit } as unknown as InlayTool);
}

tool(
  'list_connectors_inlay',
  'Lists the apps this server can reach, with their category and how they authenticate.',
  z.object({
    category: z.enum(CONNECTOR_CATEGORIES).optional().describe('Filter by category'),
    cursor: Cursor,
  }),
  z.object({
    connectors: z.array(
      z.object({ id: z.string(), name: z.string(), category: z.string(), authType: z.enum(AUTH_TYPES) }),
    ),
    nextCursor: z.string().optional(),
  }),
  async (s, { category, cursor }) => {
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
  "Lists a connector's actions (what an agent can do with it) and its triggers (app events a workflow can start from).",
  z.object({ connectorId: ConnectorSlug }),
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
    triggers: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        description: z.string(),
        kind: z.enum(['poll', 'webhook']),
        input: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
  async (s, { connectorId }) => {
    const def = connectorOf(s, connectorId);
    return {
      connectorId: def.id,
      name: def.name,
      authType: def.auth.type,
      actions: def.actions
        .filter((a) => s.restrictions.action(def.id, a.id))
        .map((a) => ({ id: a.id, name: a.name, description: a.description, kind: a.kind })),
      triggers: (def.triggers ?? []).map(toConnectorTrigger),
    };
  },
  { readOnlyHint: true },
);

tool(
  'get_action_details_inlay',
  "Gives an action's input JSON Schema, to build `parameters` for execute_action_inlay.",
  z.object({ connectorId: ConnectorSlug, actionId: ActionSlug }),
  z.object({
    connectorId: z.string(),
    actionId: z.string(),
    name: z.string(),
    description: z.string(),
    kind: z.enum(['read', 'write']),
    inputSchema: z.record(z.string(), z.unknown()),
  }),
  async (s, { connectorId, actionId }) => {
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
    connectorId: ConnectorSlug,
    actionId: ActionSlug,
    parameters: Params.default({}).describe("The action's input, as get_action_details_inlay describes it"),
    credentialId: z
      .uuid()
      .optional()
      .describe(
        'Defaults to x-credential-id, else the user’s only credential for the connector; an http credential is used only when named, and only for its allowedOrigins',
      ),
  }),
  z.object({
    executionId: z.string(),
    statusCode: z.number().int().optional(),
    output: z.unknown(),
    truncated: Truncated,
  }),
  async (s, { connectorId, actionId, parameters, credentialId }) => {
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
  // The output arrives already cut to the cap, the way the execution log cuts it.
  { openWorldHint: true },
);

tool(
  'create_credential_inlay',
  'Connects an app for the user: returns an OAuth URL to open, or stores and checks an API key or basic credential.',
  z.object({
    connectorId: ConnectorSlug,
    authenticationType: z
      .enum(['oauth2', 'apiKey', 'basic'])
      .describe('How the connector authenticates (`authType` from list_connectors_inlay)'),
    redirectUri: z
      .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
      .max(LIMITS.url)
      .optional()
      .describe('OAuth only: where the browser lands after consent (defaults to x-redirect-uri)'),
    fields: z
      .record(z.string().max(64), z.string().max(LIMITS.text))
      .optional()
      .describe('API-key or basic credentials: the connector’s credential fields, by name'),
    credentialId: z
      .uuid()
      .optional()
      .describe(
        'Reconnect this existing credential in place (same id, installations keep it): OAuth returns a new consent URL, API-key or basic fields replace its secrets once they pass the test',
      ),
  }),
  z.object({
    credentialId: z.string(),
    status: z.enum(CREDENTIAL_STATUSES),
    authorizeUrl: z.string().optional(),
  }),
  async (s, args) => {
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
  z.object({
    connectorId: z.string().max(64).optional().describe('Only credentials of this connector (machine name)'),
    cursor: Cursor,
  }),
  z.object({
    credentials: z.array(
      z.object({
        credentialId: z.string(),
        connector: z.string(),
        name: z.string(),
        status: z.enum(CREDENTIAL_STATUSES),
        allowedOrigins: z.array(z.string()).optional(),
        createdAt: z.string(),
      }),
    ),
    nextCursor: z.string().optional(),
  }),
  async (s, { connectorId, cursor }) => {
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
        ...(r.allowedOrigins ? { allowedOrigins: r.allowedOrigins } : {}),
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
        connectors: z
          .array(z.string())
          .describe('Machine names of the apps the workflow requires (for get_connector_resources_inlay)'),
      }),
    ),
    nextCursor: z.string().optional(),
  }),
  async (s, { cursor }) => {
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
        connectors: w.connectors.map((c) => c.connector),
      })),
      ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}),
    };
  },
  { readOnlyHint: true },
);

tool(
  'run_workflow_inlay',
  "Runs one of the user's installed workflows with `data` as its trigger input.",
  z.object({
    workflowId: WorkflowId,
    data: Params.default({}).describe('The trigger input the run starts with'),
  }),
  z.object({ executionIds: z.array(z.string()) }),
  async (s, { workflowId, data }) => ({
    executionIds: await s.ports.runWorkflow(requireUser(s), workflowId, data),
  }),
  { openWorldHint: true },
);

tool(
  'get_workflow_logs_inlay',
  "Reads the user's run history of a workflow, newest first by default.",
  z.object({
    workflowId: WorkflowId,
    page: z.number().int().min(1).max(1_000_000).default(1).describe('Page number, from 1'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.logPageMax)
      .default(10)
      .describe(`Entries per page, 1 to ${LIMITS.logPageMax}`),
    order: z.enum(['asc', 'desc']).default('desc').describe('By start time: `desc` (newest first) or `asc`'),
  }),
  z.object({
    logs: z.array(z.record(z.string(), z.unknown())),
    page: z.number(),
    limit: z.number(),
    truncated: Truncated,
  }),
  async (s, { workflowId, page: p, limit, order }) => {
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
      maxEntryBytes: s.ctx.config.maxLogEntryBytes,
    });
    return { logs, page: p, limit };
  },
  { readOnlyHint: true },
  // Each entry gets an equal share of the cap; one that does not fit is cut like a step output.
  (out, maxBytes) => {
    const share = Math.floor((maxBytes - 1024) / Math.max(1, out.logs.length));
    const logs = out.logs.map((l) => capValue(l, share).value as Record<string, unknown>);
    return { ...out, logs, truncated: true };
  },
);

tool(
  'proxy_request_inlay',
  "Calls any endpoint of a connector's API as the user (the credential is inserted by Inlay): for what no action covers.",
  ProxyToolInput,
  ProxyToolOutput,
  (s, args) => proxyTool(s, args),
  { openWorldHint: true },
  (out, maxBytes) => {
    const { value, truncated } = capValue(out.body, maxBytes - 2048);
    return { ...out, body: value, ...(truncated ? { truncated } : {}) };
  },
);

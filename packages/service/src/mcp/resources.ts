import { connectorUuid, credentialFields } from '@inlay/connectors';
import { type McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import { asc, eq } from 'drizzle-orm';
import { findExecution, logEntriesOf } from '../executions/executions.ts';
import { isUuid } from '../http/validate.ts';
import { workflows } from '../store/schema.ts';
import { findWorkflow } from '../workflows/workflows.ts';
import { page } from './cursor.ts';
import { capValue, INLINE_TEXT_BYTES } from './result-cap.ts';
import type { McpSession } from './session.ts';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

/** Markdown an agent can read to learn what a connector does and how to call it. */
export function connectorMarkdown(s: McpSession, id: string): string | undefined {
  const def = s.ctx.connectors.get(id);
  if (!def || !s.restrictions.connector(id)) return undefined;
  const fields = credentialFields(def);
  const lines = [
    `# ${def.name} (\`${def.id}\`)`,
    '',
    def.description,
    '',
    `- Category: ${def.category}`,
    `- Authentication: ${def.auth.type}${fields.length ? ` (fields: ${fields.map((f) => `\`${f.name}\`${f.required ? '' : ' optional'}`).join(', ')})` : ''}`,
    `- Connector id: \`${connectorUuid(def.id)}\``,
    '',
    '## Actions',
    '',
    ...def.actions
      .filter((a) => s.restrictions.action(def.id, a.id))
      .map((a) => `- \`${a.id}\` (${a.kind}): **${a.name}**. ${a.description}`),
    '',
    'Call `get_action_details_inlay` for an action’s input schema, then `execute_action_inlay`.',
  ];
  return lines.join('\n');
}

// Parsed once: the server is built per request, and a template does not change.
const CONNECTOR = new ResourceTemplate('inlay://connectors/{id}', { list: undefined });
const WORKFLOW = new ResourceTemplate('inlay://workflows/{workflowId}', { list: undefined });
const EXECUTION = new ResourceTemplate('inlay://executions/{executionId}', { list: undefined });

export function registerResources(server: McpServer, s: McpSession): void {
  server.registerResource(
    'connector',
    CONNECTOR,
    { title: 'Connector', description: "A connector's actions, in markdown", mimeType: 'text/markdown' },
    async (uri, vars) => {
      const text = connectorMarkdown(s, one(vars.id));
      if (!text) throw new ResourceNotFoundError(uri.href);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
    },
  );

  server.registerResource(
    'workflow',
    WORKFLOW,
    {
      title: 'Workflow',
      description: 'A workflow definition (trigger, steps, config)',
      mimeType: 'application/json',
    },
    async (uri, vars) => {
      const id = one(vars.workflowId);
      const wf = isUuid(id) ? await findWorkflow(s.ctx.db, s.accountId, id) : undefined;
      const v = wf && (await s.defs.get(wf.id, wf.currentVersion));
      if (!wf || !v) throw new ResourceNotFoundError(uri.href);
      const text = JSON.stringify(
        { workflowId: wf.id, name: wf.name, version: wf.currentVersion, definition: v.definition },
        null,
        2,
      );
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );

  server.registerResource(
    'execution',
    EXECUTION,
    {
      title: 'Execution',
      description: "One of the user's runs, as a log entry",
      mimeType: 'application/json',
    },
    async (uri, vars) => {
      const id = one(vars.executionId);
      const row =
        s.user && isUuid(id) ? await findExecution(s.ctx.db, s.accountId, s.user.id, id) : undefined;
      if (!row) throw new ResourceNotFoundError(uri.href);
      const entry = (await logEntriesOf(s.ctx.db, [row]))[0]!;
      // Each step is capped, but a run of many steps is not: the entry as a whole gets the tools' cap.
      const cut = capValue(entry, s.ctx.config.maxStepOutputBytes);
      const compact = JSON.stringify(cut.value);
      const text = compact.length <= INLINE_TEXT_BYTES ? JSON.stringify(cut.value, null, 2) : compact;
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );

  // The SDK lists everything at once; an account's workflows can be many, so this list pages with cursors.
  server.server.setRequestHandler('resources/list', async (request) => {
    const wfs = await s.ctx.db
      .select({ id: workflows.id, name: workflows.name })
      .from(workflows)
      .where(eq(workflows.accountId, s.accountId))
      .orderBy(asc(workflows.createdAt), asc(workflows.id));
    const all = [
      ...s.ctx.connectors
        .list()
        .filter((c) => s.restrictions.connector(c.id))
        .map((c) => ({ uri: `inlay://connectors/${c.id}`, name: c.name, mimeType: 'text/markdown' })),
      ...wfs.map((w) => ({ uri: `inlay://workflows/${w.id}`, name: w.name, mimeType: 'application/json' })),
    ];
    const p = page(all, request.params?.cursor);
    return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
  });
}

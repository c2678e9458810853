import type { ConnectorDefinition } from '@inlay/connectors';
import { actionSteps, type DeclarativeConnector } from '@inlay/contract';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { isUuid } from '../http/validate.ts';
import { customConnectors, userWorkflows } from '../store/schema.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';

export type CustomConnectorRow = typeof customConnectors.$inferSelect;

export async function findCustom(ctx: AppContext, accountId: string, slug: string) {
  const [row] = await ctx.db
    .select()
    .from(customConnectors)
    .where(and(eq(customConnectors.accountId, accountId), eq(customConnectors.slug, slug)));
  return row;
}

/** The connector behind a custom icon URL: its key and id must both match. */
export async function findCustomIcon(
  ctx: AppContext,
  slug: string,
  key: string,
): Promise<ConnectorDefinition | undefined> {
  if (!isUuid(key)) return undefined;
  const [row] = await ctx.db
    .select()
    .from(customConnectors)
    .where(and(eq(customConnectors.id, key.toLowerCase()), eq(customConnectors.slug, slug)));
  return row && ctx.registry.compile(row);
}

/** What the account's installed workflows use of one connector: actions, option sources and triggers. */
export interface ConnectorUsage {
  installed: boolean;
  actions: Set<string>;
  sources: Set<string>;
  triggers: Set<string>;
}

export async function connectorUsage(
  ctx: AppContext,
  defs: DefinitionCache,
  accountId: string,
  slug: string,
): Promise<ConnectorUsage> {
  const rows = await ctx.db
    .selectDistinct({ workflowId: userWorkflows.workflowId, version: userWorkflows.version })
    .from(userWorkflows)
    .where(eq(userWorkflows.accountId, accountId));
  const usage: ConnectorUsage = {
    installed: false,
    actions: new Set(),
    sources: new Set(),
    triggers: new Set(),
  };
  const compiled = await defs.getMany(rows);
  for (const v of compiled.values()) {
    const d = v.definition;
    const steps = actionSteps(d.steps).filter((s) => s.connector === slug);
    const stepIds = new Set(steps.map((s) => s.id));
    for (const s of steps) usage.actions.add(s.action);
    for (const f of d.config)
      if (stepIds.has(f.stepId) && f.options && 'source' in f.options) usage.sources.add(f.options.source);
    if (d.trigger.type === 'app' && d.trigger.connector === slug) usage.triggers.add(d.trigger.trigger);
    if (steps.length || (d.trigger.type === 'app' && d.trigger.connector === slug)) usage.installed = true;
  }
  return usage;
}

/** What a new version would take away from installed workflows, as field errors of the request body. */
export function droppedInUse(usage: ConnectorUsage, next: DeclarativeConnector): string[] {
  const actions = new Set(next.actions.map((a) => a.id));
  const sources = new Set(Object.keys(next.sources ?? {}));
  return [
    ...[...usage.actions].filter((a) => !actions.has(a)).map((a) => `action "${a}"`),
    ...[...usage.sources].filter((s) => !sources.has(s)).map((s) => `option source "${s}"`),
    ...[...usage.triggers].map((t) => `trigger "${t}"`),
  ];
}

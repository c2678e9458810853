import { type ConnectorRuntime, connectorUuid, iconUrl } from '@inlay/connectors';
import {
  HIDDEN_BUILTIN_CONNECTORS,
  type WorkflowConnector,
  type WorkflowDefinition,
  WorkflowDefinition as WorkflowDefinitionSchema,
} from '@inlay/contract';
import { and, eq, or } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { checkTemplates, TemplateError } from '../engine/templates.ts';
import { cronProblem } from '../engine/triggers.ts';
import { unprocessable } from '../http/problem.ts';
import { workflowVersions } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

/** A workflow version with what is derived from it once. Versions never change, so this caches well. */
export interface CompiledVersion {
  workflowId: string;
  version: number;
  definition: WorkflowDefinition;
  connectors: WorkflowConnector[];
}

/** Every distinct connector the steps use, once, in step order, without the hidden built-ins. */
export function workflowConnectors(
  def: WorkflowDefinition,
  runtime: ConnectorRuntime,
  publicUrl: string,
): WorkflowConnector[] {
  const seen = new Set<string>();
  const out: WorkflowConnector[] = [];
  for (const step of def.steps) {
    if (seen.has(step.connector) || (HIDDEN_BUILTIN_CONNECTORS as readonly string[]).includes(step.connector))
      continue;
    seen.add(step.connector);
    const c = runtime.get(step.connector);
    out.push({
      connectorId: connectorUuid(step.connector),
      name: c?.name ?? step.connector,
      icon: iconUrl(step.connector, publicUrl),
    });
  }
  return out;
}

/**
 * Checks what the schema cannot: that steps name real connectors, actions and option sources, that a
 * schedule's cron and time zone work, and that every `{{ }}` template compiles.
 */
export function checkDefinition(
  def: WorkflowDefinition,
  runtime: ConnectorRuntime,
  field = 'body.definition',
): void {
  if (def.trigger.type === 'schedule') {
    const { cron, timezone } = def.trigger;
    const cronIssue = cronProblem(cron);
    if (cronIssue) throw unprocessable(`${field}.trigger.cron`, 'cron', cronIssue);
    const zoneIssue = timezone === undefined ? undefined : cronProblem(cron, timezone);
    if (zoneIssue) throw unprocessable(`${field}.trigger.timezone`, 'timezone', zoneIssue);
  }
  def.steps.forEach((step, i) => {
    try {
      checkTemplates(step.input, `${field}.steps[${i}].input`);
    } catch (err) {
      if (err instanceof TemplateError) throw unprocessable(err.path, 'template', err.reason);
      throw err;
    }
  });
  def.steps.forEach((step, i) => {
    const c = runtime.get(step.connector);
    if (!c)
      throw unprocessable(`${field}.steps[${i}].connector`, 'exists', `no connector "${step.connector}"`);
    if (!c.actions.some((a) => a.id === step.action))
      throw unprocessable(
        `${field}.steps[${i}].action`,
        'exists',
        `connector "${step.connector}" has no action "${step.action}"`,
      );
  });
  def.config.forEach((f, i) => {
    if (!f.options || !('source' in f.options)) return;
    const step = def.steps.find((s) => s.id === f.stepId)!;
    const c = runtime.get(step.connector)!;
    if (!c.sources?.[f.options.source])
      throw unprocessable(
        `${field}.config[${i}].options.source`,
        'exists',
        `connector "${step.connector}" has no option source "${f.options.source}"`,
      );
  });
}

export function createDefinitionCache(db: Db, runtime: ConnectorRuntime, publicUrl: string) {
  const cache = new LRUCache<string, CompiledVersion>({ max: 5_000 });
  const key = (id: string, v: number) => `${id}:${v}`;

  const compile = (workflowId: string, version: number, raw: unknown): CompiledVersion => {
    const definition = WorkflowDefinitionSchema.parse(raw);
    const compiled = {
      workflowId,
      version,
      definition,
      connectors: workflowConnectors(definition, runtime, publicUrl),
    };
    cache.set(key(workflowId, version), compiled);
    return compiled;
  };

  /** Loads many versions, reading only the ones not cached yet. */
  async function getMany(
    refs: { workflowId: string; version: number }[],
  ): Promise<Map<string, CompiledVersion>> {
    const out = new Map<string, CompiledVersion>();
    const missing: typeof refs = [];
    for (const r of refs) {
      const hit = cache.get(key(r.workflowId, r.version));
      if (hit) out.set(key(r.workflowId, r.version), hit);
      else missing.push(r);
    }
    if (missing.length) {
      const rows = await db
        .select()
        .from(workflowVersions)
        .where(
          or(
            ...missing.map((m) =>
              and(eq(workflowVersions.workflowId, m.workflowId), eq(workflowVersions.version, m.version)),
            ),
          ),
        );
      for (const row of rows)
        out.set(key(row.workflowId, row.version), compile(row.workflowId, row.version, row.definition));
    }
    return out;
  }

  async function get(workflowId: string, version: number): Promise<CompiledVersion | undefined> {
    return (await getMany([{ workflowId, version }])).get(key(workflowId, version));
  }

  return { get, getMany, key };
}

export type DefinitionCache = ReturnType<typeof createDefinitionCache>;

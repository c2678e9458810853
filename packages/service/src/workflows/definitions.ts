import {
  type ConnectorRuntime,
  connectorIconUrl,
  connectorUuid,
  expressionProblem,
  iconUrl,
  requestHeaderProblem,
} from '@inlay/connectors';
import {
  actionSteps,
  HIDDEN_BUILTIN_CONNECTORS,
  type Step,
  type WorkflowConnector,
  type WorkflowDefinition,
  WorkflowDefinition as WorkflowDefinitionSchema,
  walkSteps,
} from '@inlay/contract';
import { and, eq, or } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { ConnectorRegistry } from '../custom-connectors/connector-registry.ts';
import { checkAppTrigger, DEFAULT_POLL_MIN_INTERVAL_MS } from '../engine/app-triggers/app-trigger-check.ts';
import { checkTemplates, TemplateError } from '../engine/templates.ts';
import { cronProblem } from '../engine/triggers.ts';
import { unprocessable } from '../http/problem.ts';
import { workflows, workflowVersions } from '../store/schema.ts';
import type { Db, Tx } from '../store/store.ts';

/** A workflow version with what is derived from it once. Versions never change, so this caches well. */
export interface CompiledVersion {
  workflowId: string;
  version: number;
  definition: WorkflowDefinition;
  /** The definition as it was sent (its keys in the order typed), for reading back; `definition` is what runs. */
  asTyped: unknown;
  connectors: WorkflowConnector[];
}

/**
 * The apps a workflow requires, as the seed's Connector: every distinct connector the steps use, once, in step
 * order, without the built-ins `transform` and `delay` (`http` is an app: it reaches a third party).
 */
export function workflowConnectors(
  def: WorkflowDefinition,
  runtime: ConnectorRuntime,
  publicUrl: string,
): WorkflowConnector[] {
  const seen = new Set<string>();
  const out: WorkflowConnector[] = [];
  // An app trigger's connector comes first: the user connects it even when no step calls it.
  const used = [
    ...(def.trigger.type === 'app' ? [def.trigger.connector] : []),
    ...actionSteps(def.steps).map((s) => s.connector),
  ];
  for (const connector of used) {
    if (seen.has(connector) || (HIDDEN_BUILTIN_CONNECTORS as readonly string[]).includes(connector)) continue;
    seen.add(connector);
    const c = runtime.get(connector);
    out.push({
      connectorName: c?.name ?? connector,
      connectorId: connectorUuid(connector),
      connector,
      icon: c ? connectorIconUrl(c, publicUrl) : iconUrl(connector, publicUrl),
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
  minPollMs = DEFAULT_POLL_MIN_INTERVAL_MS,
): void {
  if (def.trigger.type === 'schedule') {
    const { cron, timezone } = def.trigger;
    const cronIssue = cronProblem(cron);
    if (cronIssue) throw unprocessable(`${field}.trigger.cron`, 'cron', cronIssue);
    const zoneIssue = timezone === undefined ? undefined : cronProblem(cron, timezone);
    if (zoneIssue) throw unprocessable(`${field}.trigger.timezone`, 'timezone', zoneIssue);
  }
  if (def.trigger.type === 'app') checkAppTrigger(def.trigger, runtime, `${field}.trigger`, minPollMs);
  try {
    for (const { step, path } of walkSteps(def.steps)) {
      if (step.type === 'if') checkTemplates(step.condition, `${field}.${path}.condition`);
      else if (step.type === 'forEach') checkTemplates(step.items, `${field}.${path}.items`);
      else checkTemplates(step.input, `${field}.${path}.input`);
    }
    checkTemplates(def.summary, `${field}.summary`);
  } catch (err) {
    if (err instanceof TemplateError) throw unprocessable(err.path, 'template', err.reason);
    throw err;
  }
  const byId = new Map<string, Step>();
  for (const { step, path } of walkSteps(def.steps)) {
    if (step.type === 'if' || step.type === 'forEach') continue;
    byId.set(step.id, step);
    const at = `${field}.${path}`;
    const c = runtime.get(step.connector);
    if (!c) throw unprocessable(`${at}.connector`, 'exists', `no connector "${step.connector}"`);
    if (!c.actions.some((a) => a.id === step.action))
      throw unprocessable(
        `${at}.action`,
        'exists',
        `connector "${step.connector}" has no action "${step.action}"`,
      );
    if (step.connector === 'http') checkHttpHeaders(step.input, `${at}.input.headers`);
    if (step.connector === 'transform') checkExpression(step.input, `${at}.input.expression`);
  }
  def.config.forEach((f, i) => {
    if (!f.options || !('source' in f.options)) return;
    const step = byId.get(f.stepId);
    if (!step)
      throw unprocessable(`${field}.config[${i}].stepId`, 'action', 'an option source needs an action step');
    const c = runtime.get(step.connector)!;
    // An own property: `constructor` names no source, whatever Object.prototype holds.
    if (!c.sources || !Object.hasOwn(c.sources, f.options.source))
      throw unprocessable(
        `${field}.config[${i}].options.source`,
        'exists',
        `connector "${step.connector}" has no option source "${f.options.source}"`,
      );
  });
}

/**
 * A transform's expression is JSONata: one that does not parse would fail every run, so it is refused at
 * publish. (One built by a `{{ }}` template is known only at run time; its templates were checked above.)
 */
function checkExpression(input: unknown, where: string): void {
  const expression = (input as { expression?: unknown } | null)?.expression;
  if (typeof expression !== 'string' || expression.includes('{{')) return;
  const problem = expressionProblem(expression);
  if (problem) throw unprocessable(where, 'jsonata', `invalid JSONata: ${problem}`);
}

/**
 * Header names are never templates, so a header the transport owns (`host`, `transfer-encoding`,
 * `proxy-*`, ...) is refused at publish rather than failing every run; values are checked again at run time.
 */
function checkHttpHeaders(input: unknown, where: string): void {
  const headers = (input as { headers?: unknown } | null)?.headers;
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return;
  for (const [name, value] of Object.entries(headers)) {
    const problem = requestHeaderProblem(name, typeof value === 'string' ? value : '');
    if (problem) throw unprocessable(`${where}.${name}`, 'header', problem);
  }
}

export function createDefinitionCache(db: Db, registry: ConnectorRegistry, publicUrl: string) {
  const cache = new LRUCache<string, CompiledVersion>({ max: 5_000 });
  const key = (id: string, v: number) => `${id}:${v}`;

  const compile = (
    workflowId: string,
    version: number,
    raw: unknown,
    text: string | null,
    runtime: ConnectorRuntime,
  ): CompiledVersion => {
    const definition = WorkflowDefinitionSchema.parse(raw);
    const compiled = {
      workflowId,
      version,
      definition,
      asTyped: text === null ? raw : JSON.parse(text),
      // The account's own connectors are named and drawn as they were when the version was first read.
      connectors: workflowConnectors(definition, runtime, publicUrl),
    };
    cache.set(key(workflowId, version), compiled);
    return compiled;
  };

  /** Loads many versions, reading only the ones not cached yet. */
  async function getMany(
    refs: { workflowId: string; version: number }[],
    through: Db | Tx = db,
  ): Promise<Map<string, CompiledVersion>> {
    const out = new Map<string, CompiledVersion>();
    const missing: typeof refs = [];
    for (const r of refs) {
      const hit = cache.get(key(r.workflowId, r.version));
      if (hit) out.set(key(r.workflowId, r.version), hit);
      else missing.push(r);
    }
    if (missing.length) {
      const rows = await through
        .select({
          workflowId: workflowVersions.workflowId,
          version: workflowVersions.version,
          definition: workflowVersions.definition,
          definitionText: workflowVersions.definitionText,
          accountId: workflows.accountId,
        })
        .from(workflowVersions)
        .innerJoin(workflows, eq(workflows.id, workflowVersions.workflowId))
        .where(
          or(
            ...missing.map((m) =>
              and(eq(workflowVersions.workflowId, m.workflowId), eq(workflowVersions.version, m.version)),
            ),
          ),
        );
      const runtimes = new Map<string, ConnectorRuntime>();
      for (const row of rows) {
        let runtime = runtimes.get(row.accountId);
        if (!runtime) {
          runtime = await registry.forAccount(row.accountId, through);
          runtimes.set(row.accountId, runtime);
        }
        out.set(
          key(row.workflowId, row.version),
          compile(row.workflowId, row.version, row.definition, row.definitionText, runtime),
        );
      }
    }
    return out;
  }

  async function get(workflowId: string, version: number): Promise<CompiledVersion | undefined> {
    return (await getMany([{ workflowId, version }])).get(key(workflowId, version));
  }

  return { get, getMany, key };
}

export type DefinitionCache = ReturnType<typeof createDefinitionCache>;

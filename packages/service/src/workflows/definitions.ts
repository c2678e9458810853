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
  type ProblemFieldError,
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
import { HttpProblem, unprocessable } from '../http/problem.ts';
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
 * schedule's cron and time zone work, and that every `{{ }}` template compiles. Every problem is found, one
 * per field, and refused together in one 422.
 */
export function checkDefinition(
  def: WorkflowDefinition,
  runtime: ConnectorRuntime,
  field = 'body.definition',
  minPollMs = DEFAULT_POLL_MIN_INTERVAL_MS,
): void {
  const found: ProblemFieldError[] = [];
  const check = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      if (err instanceof TemplateError)
        found.push(unprocessable(err.path, 'template', err.reason).errors![0]!);
      else if (err instanceof HttpProblem && err.status === 422 && err.errors) found.push(...err.errors);
      else throw err;
    }
  };
  if (def.trigger.type === 'schedule') {
    const { cron, timezone } = def.trigger;
    const cronIssue = cronProblem(cron);
    if (cronIssue) found.push({ field: `${field}.trigger.cron`, rule: 'cron', message: cronIssue });
    const zoneIssue = timezone === undefined || cronIssue ? undefined : cronProblem(cron, timezone);
    if (zoneIssue) found.push({ field: `${field}.trigger.timezone`, rule: 'timezone', message: zoneIssue });
  }
  const trigger = def.trigger;
  if (trigger.type === 'app') check(() => checkAppTrigger(trigger, runtime, `${field}.trigger`, minPollMs));
  for (const { step, path } of walkSteps(def.steps)) {
    if (step.type === 'if') check(() => checkTemplates(step.condition, `${field}.${path}.condition`));
    else if (step.type === 'forEach') check(() => checkTemplates(step.items, `${field}.${path}.items`));
    else check(() => checkTemplates(step.input, `${field}.${path}.input`));
  }
  check(() => checkTemplates(def.summary, `${field}.summary`));
  const byId = new Map<string, Step>();
  for (const { step, path } of walkSteps(def.steps)) {
    if (step.type === 'if' || step.type === 'forEach') continue;
    byId.set(step.id, step);
    const at = `${field}.${path}`;
    const c = runtime.get(step.connector);
    if (!c) {
      found.push({ field: `${at}.connector`, rule: 'exists', message: `no connector "${step.connector}"` });
      continue;
    }
    if (!c.actions.some((a) => a.id === step.action)) {
      found.push({
        field: `${at}.action`,
        rule: 'exists',
        message: `connector "${step.connector}" has no action "${step.action}"`,
      });
      continue;
    }
    if (step.connector === 'http') check(() => checkHttpHeaders(step.input, `${at}.input.headers`));
    if (step.connector === 'transform') check(() => checkExpression(step.input, `${at}.input.expression`));
  }
  def.config.forEach((f, i) => {
    if (!f.options || !('source' in f.options)) return;
    const step = byId.get(f.stepId);
    if (!step) {
      found.push({
        field: `${field}.config[${i}].stepId`,
        rule: 'action',
        message: 'an option source needs an action step',
      });
      return;
    }
    const c = runtime.get(step.connector);
    // An own property: `constructor` names no source, whatever Object.prototype holds.
    if (c && (!c.sources || !Object.hasOwn(c.sources, f.options.source)))
      found.push({
        field: `${field}.config[${i}].options.source`,
        rule: 'exists',
        message: `connector "${step.connector}" has no option source "${f.options.source}"`,
      });
  });
  if (found.length === 0) return;
  // One line per field: the first problem found at a field stands for it.
  const errors = found.filter((e, i) => found.findIndex((o) => o.field === e.field) === i);
  throw new HttpProblem(422, 'unprocessable', errors.map((e) => `${e.field}: ${e.message}`).join('; '), {
    errors,
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

import type { ConnectorDefinition, ConnectorRuntime } from '@inlay/connectors';
import {
  actionSteps,
  type ConfigField,
  type FieldValue,
  type FormData,
  type InstallValue,
  type OptionItem,
  type ProblemFieldError,
  type Step,
} from '@inlay/contract';
import { loadOptions, needsNoCredential, usableCredential } from '../connectors/options.ts';
import type { AppContext } from '../context.ts';
import type { ResolvedCredential } from '../credentials/credential-service.ts';
import { HttpProblem, unprocessable } from '../http/problem.ts';
import type { CompiledVersion } from '../workflows/definitions.ts';

export interface InstallInput {
  user: { accountId: string; id: string };
  workflows: CompiledVersion[];
  credentialIds: Record<string, string>;
  values: InstallValue[];
}

const failure = (errors: ProblemFieldError[]) =>
  new HttpProblem(422, 'unprocessable', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });

const isEmpty = (v: FieldValue | undefined) =>
  v === undefined ||
  v === null ||
  (typeof v === 'string' && v.trim() === '') ||
  (Array.isArray(v) && v.length === 0);

/** Why a value does not fit its field type, or undefined when it does. */
function typeProblem(type: ConfigField['type'], v: FieldValue): string | undefined {
  switch (type) {
    case 'text':
    case 'textarea':
    case 'select':
      return typeof v === 'string' ? undefined : 'must be a string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : 'must be a number';
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'must be true or false';
    case 'multiselect':
      return Array.isArray(v) ? undefined : 'must be an array of strings';
  }
}

const picked = (v: FieldValue): string[] => (Array.isArray(v) ? v : [String(v)]);

/** Values not in `options`, for a select (one value) or multiselect (several). */
const outside = (v: FieldValue, options: readonly OptionItem[]) => {
  const allowed = new Set(options.map((o) => o.value));
  return picked(v).filter((x) => !allowed.has(x));
};

interface Block {
  workflowId: string;
  step: Step;
  fields: ConfigField[];
  /** Index of the `values` entry that fills this block, if any. */
  index?: number;
}

interface DynamicCheck {
  def: ConnectorDefinition;
  source: string;
  value: FieldValue;
  path: string;
}

/**
 * Checks an install (or an edit of one) against the workflows' definitions, and builds the installation's
 * `formData` in the seed's shape. Checked, in order: a usable credential of this user for every connector
 * the workflows need (built-ins with no or optional auth excepted), values that name real blocks and
 * fields, a value for every required field, the right type per field, and select values among their static
 * options, then among the dynamic options the provider lists with the chosen credential. Every failure is
 * named (e.g. `body.values[0].fields[1].value`, `body.credentialIds.slack`) in one 422.
 */
export async function validateInstall(ctx: AppContext, input: InstallInput): Promise<FormData[]> {
  const errors: ProblemFieldError[] = [];
  const connectors = await ctx.registry.forAccount(input.user.accountId);
  const credentials = await checkCredentials(ctx, connectors, input, errors);

  const blocks = new Map<string, Block>();
  const keyOf = (workflowId: string, blockId: string) => `${workflowId}\u0000${blockId}`;
  for (const wf of input.workflows)
    for (const step of actionSteps(wf.definition.steps)) {
      const fields = wf.definition.config.filter((f) => f.stepId === step.id);
      if (fields.length)
        blocks.set(keyOf(wf.workflowId, step.id), { workflowId: wf.workflowId, step, fields });
    }
  const given = new Map<string, { value: FieldValue; path: string }>();
  const installing = new Set(input.workflows.map((w) => w.workflowId));
  input.values.forEach((entry, i) => {
    const at = `body.values[${i}]`;
    if (!installing.has(entry.workflowId)) {
      errors.push({
        field: `${at}.workflowId`,
        rule: 'exists',
        message: 'is not one of the workflows installed',
      });
      return;
    }
    const block = blocks.get(keyOf(entry.workflowId, entry.blockId));
    if (!block) {
      errors.push({
        field: `${at}.blockId`,
        rule: 'exists',
        message: 'is not a step of this workflow with config fields',
      });
      return;
    }
    if (block.index !== undefined) {
      errors.push({ field: `${at}.blockId`, rule: 'unique', message: `repeats body.values[${block.index}]` });
      return;
    }
    block.index = i;
    entry.fields.forEach((f, j) => {
      const path = `${at}.fields[${j}]`;
      const key = keyOf(entry.workflowId, `${entry.blockId}\u0000${f.name}`);
      if (!block.fields.some((c) => c.name === f.name))
        errors.push({
          field: `${path}.name`,
          rule: 'unknown_field',
          message: 'is not a config field of this step',
        });
      else if (given.has(key))
        errors.push({ field: `${path}.name`, rule: 'unique', message: 'is given twice' });
      else given.set(key, { value: f.value, path: `${path}.value` });
    });
  });

  const formData: FormData[] = [];
  const dynamic: DynamicCheck[] = [];
  for (const block of blocks.values()) {
    const entry: FormData = {
      workflowId: block.workflowId,
      app: block.step.connector,
      blockId: block.step.id,
      fields: [],
    };
    for (const cfg of block.fields) {
      const g = given.get(keyOf(block.workflowId, `${block.step.id}\u0000${cfg.name}`));
      let value: FieldValue = g?.value ?? null;
      if (isEmpty(value) && cfg.default !== undefined && !typeProblem(cfg.type, cfg.default as FieldValue))
        value = cfg.default as FieldValue;
      entry.fields.push({
        name: cfg.name,
        displayName: cfg.displayName,
        type: cfg.type,
        required: cfg.required,
        value,
      });
      if (isEmpty(value)) {
        if (cfg.required)
          errors.push({
            field:
              g?.path ?? (block.index === undefined ? 'body.values' : `body.values[${block.index}].fields`),
            rule: 'required',
            message: `${cfg.displayName} ("${cfg.name}" of block ${block.step.id}, workflow ${block.workflowId}) is required`,
          });
        continue;
      }
      const path = g?.path ?? `body.values`;
      const wrong = typeProblem(cfg.type, value);
      if (wrong) {
        errors.push({
          field: path,
          rule: 'type',
          message: `${wrong} (${cfg.displayName} is a ${cfg.type} field)`,
        });
        continue;
      }
      if (!cfg.options || (cfg.type !== 'select' && cfg.type !== 'multiselect')) continue;
      if ('values' in cfg.options) {
        const bad = outside(value, cfg.options.values);
        if (bad.length)
          errors.push({
            field: path,
            rule: 'enum',
            message: `${bad.map((b) => JSON.stringify(b)).join(', ')} is not one of ${cfg.options.values.map((o) => JSON.stringify(o.value)).join(', ')}`,
          });
      } else {
        const def = connectors.get(block.step.connector);
        if (def) dynamic.push({ def, source: cfg.options.source, value, path });
      }
    }
    formData.push(entry);
  }
  if (errors.length) throw failure(errors);

  await checkDynamicOptions(ctx, input.user, dynamic, credentials, input.credentialIds, errors);
  if (errors.length) throw failure(errors);
  return formData;
}

/** Every connector the workflows call needs a usable credential of this user; unused entries are refused. */
async function checkCredentials(
  ctx: AppContext,
  connectors: ConnectorRuntime,
  input: InstallInput,
  errors: ProblemFieldError[],
): Promise<Map<string, ResolvedCredential | undefined>> {
  const needed = new Map<string, ConnectorDefinition>();
  for (const wf of input.workflows)
    for (const step of actionSteps(wf.definition.steps)) {
      const def = connectors.get(step.connector);
      if (def) needed.set(def.id, def);
    }
  // An app trigger calls its app with the user's credential too.
  for (const wf of input.workflows) {
    const t = wf.definition.trigger;
    const def = t.type === 'app' ? connectors.get(t.connector) : undefined;
    if (def) needed.set(def.id, def);
  }
  for (const connector of Object.keys(input.credentialIds))
    if (!needed.has(connector))
      errors.push({
        field: `body.credentialIds.${connector}`,
        rule: 'unused',
        message: 'no step or trigger of these workflows uses this connector',
      });
  const resolved = new Map<string, ResolvedCredential | undefined>();
  for (const [connector, def] of needed) {
    const field = `body.credentialIds.${connector}`;
    const id = Object.hasOwn(input.credentialIds, connector) ? input.credentialIds[connector] : undefined;
    if (!id) {
      if (!needsNoCredential(def))
        errors.push({
          field,
          rule: 'required',
          message: `a ${def.name} credential of this user is required`,
        });
      continue;
    }
    try {
      resolved.set(
        connector,
        await usableCredential(ctx, input.user, def, id, field, () =>
          unprocessable(field, 'exists', `no ${def.name} credential of this user has this id`),
        ),
      );
    } catch (err) {
      if (!(err instanceof HttpProblem) || !err.errors) throw err;
      errors.push(...err.errors);
    }
  }
  return resolved;
}

/** Loads each (connector, source) list once, with the credential chosen for that connector. */
async function checkDynamicOptions(
  ctx: AppContext,
  user: { accountId: string; id: string },
  checks: DynamicCheck[],
  credentials: Map<string, ResolvedCredential | undefined>,
  credentialIds: Record<string, string>,
  errors: ProblemFieldError[],
) {
  const lists = new Map<string, Promise<OptionItem[]>>();
  for (const c of checks) {
    const key = `${c.def.id}\u0000${c.source}`;
    if (!lists.has(key))
      lists.set(
        key,
        loadOptions(ctx, c.def, c.source, credentials.get(c.def.id), `body.credentialIds.${c.def.id}`, user),
      );
    const bad = outside(c.value, await lists.get(key)!);
    if (bad.length)
      errors.push({
        field: c.path,
        rule: 'enum',
        message: `${bad.map((b) => JSON.stringify(b)).join(', ')} is not among the ${c.source} ${c.def.name} lists for ${Object.hasOwn(credentialIds, c.def.id) ? 'the chosen credential' : 'this user'}`,
      });
  }
}

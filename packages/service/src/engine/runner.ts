import type { StepError } from '@inlay/contract';
import type { AppContext } from '../context.ts';
import { preparedPerDb } from '../store/prepared.ts';
import type { installations, users } from '../store/schema.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import { ACTION_TRIGGER } from './action-run.ts';
import { configValues } from './config-values.ts';
import { RunCredentials } from './run-credentials.ts';
import type { ExecutionRow, NewStepRow, RunStore } from './runs.ts';
import { StepFailure } from './step-failure.ts';
import { stepRecord } from './step-record.ts';
import { runStep, type StepOutcome, stepSettings } from './step-runner.ts';
import { resolveTemplates } from './templates.ts';

export interface RunOutcome {
  error?: StepError;
  /** Steps not recorded yet (the one that ended the run, at least): written with the run's end. */
  unrecorded?: NewStepRow[];
}

type Db = AppContext['db'];

/** Sets an own property, even one named `__proto__` (a step name is the author's to choose). */
const defineOwn = (o: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

/** Built-in connectors that run in process without side effects. */
const LOCAL_CONNECTORS = new Set(['transform']);

/** An execution's installation and (null when removed) user; undefined when the installation is gone. */
export type RunParts = { inst: typeof installations.$inferSelect; user: typeof users.$inferSelect | null };

/**
 * Loads what a run needs besides its own row, by execution id: a worker asks for it while it claims the
 * row, so the two round trips overlap. A prepared statement: it is on every run's path.
 */
export async function loadRunParts(db: Db, executionId: string): Promise<RunParts | undefined> {
  const [r] = await runPartsStatement(db)([executionId]);
  if (!r) return undefined;
  const { uId, uAccountId, uUsername, uFullName, uCreatedAt, uUpdatedAt, ...inst } = r;
  const user = uId
    ? {
        id: uId,
        accountId: uAccountId!,
        username: uUsername!,
        fullName: uFullName,
        createdAt: uCreatedAt!,
        updatedAt: uUpdatedAt!,
      }
    : null;
  return { inst, user };
}

type PartsRow = RunParts['inst'] & {
  uId: string | null;
  uAccountId: string | null;
  uUsername: string | null;
  uFullName: string | null;
  uCreatedAt: Date | null;
  uUpdatedAt: Date | null;
};

const runPartsStatement = preparedPerDb<PartsRow>(
  'inlay_run_parts',
  `select i.id, i.account_id as "accountId", i.user_id as "userId", i.integration_id as "integrationId", i.enabled,
     i.credential_ids as "credentialIds", i.form_data as "formData", i.webhook_secret_sealed as "webhookSecretSealed",
     i.installed_at as "installedAt", i.updated_at as "updatedAt",
     u.id as "uId", u.account_id as "uAccountId", u.username as "uUsername", u.full_name as "uFullName",
     u.created_at as "uCreatedAt", u.updated_at as "uUpdatedAt"
   from executions e
   join installations i on i.id = e.installation_id
   left join users u on u.id = e.user_id and u.account_id = e.account_id
   where e.id = $1::uuid`,
);

export type RunnerContext = Pick<AppContext, 'db' | 'config' | 'connectors' | 'credentials'>;

/**
 * Runs the steps of one claimed execution in order and records them as they end: before the next step that
 * is not a transform, and the rest (the last one at least) with the run's end (`unrecorded`). Templates resolve over
 * `{trigger, config, steps, user, execution}`; `steps` holds earlier outputs by step id (and by name when the
 * step has one). The first failing step ends the run. Every stored input, output and error is scrubbed of
 * the run's credential secrets, and so is what later steps see of earlier outputs.
 * Rejects with the signal's reason when the run is cancelled, or with RunLost when it is no longer ours.
 */
export async function runExecution(
  ctx: RunnerContext,
  defs: DefinitionCache,
  runs: RunStore,
  row: ExecutionRow,
  signal: AbortSignal,
  parts?: Promise<RunParts | undefined>,
): Promise<RunOutcome> {
  const claim = { executionId: row.id, attempt: row.attempts };
  // An action run (MCP) is answered to its caller as it happens: a restart has nobody to answer.
  if (row.triggerType === ACTION_TRIGGER)
    return {
      error: {
        code: 'worker_lost',
        message: 'The node running this action stopped before it finished; actions are not retried',
      },
    };
  // The definition (usually cached) beside the installation and its user (loaded during the claim).
  const [compiled, found] = await Promise.all([
    defs.get(row.workflowId, row.version),
    row.installationId ? (parts ?? loadRunParts(ctx.db, row.id)) : undefined,
  ]);
  if (!compiled)
    return {
      error: { code: 'definition_missing', message: `Workflow version ${row.version} no longer exists` },
    };
  const inst = found?.inst;
  if (!inst)
    return {
      error: { code: 'installation_missing', message: 'The installation of this workflow was removed' },
    };
  const user = found.user;
  if (!user) return { error: { code: 'user_missing', message: 'The user of this execution was removed' } };

  const def = compiled.definition;
  const steps: Record<string, unknown> = {};
  const scope = {
    trigger: row.trigger,
    config: configValues(def, inst.formData, row.workflowId),
    steps,
    user: { userId: user.id, username: user.username, fullName: user.fullName },
    execution: { id: row.id, attempt: row.attempts },
  };
  const creds = new RunCredentials(
    ctx.credentials,
    ctx.connectors,
    { accountId: row.accountId, userId: row.userId },
    inst.credentialIds ?? {},
  );

  // Records wait for the next write: a step of a local, pure connector (a transform) neither takes time nor
  // has effects, so it runs without first recording what came before; any other step first writes them,
  // which also proves the run is still this worker's before anything leaves it.
  const unrecorded: NewStepRow[] = [];
  for (const [position, step] of def.steps.entries()) {
    if (signal.aborted) throw signal.reason;
    if (!LOCAL_CONNECTORS.has(step.connector)) await runs.recordSteps(claim, unrecorded.splice(0));
    const startedAt = new Date();
    let input: unknown = step.input;
    let outcome: StepOutcome;
    try {
      // Templates get the step's time limit too: a runaway `{{ }}` fails the step, not the node.
      input = await resolveTemplates(step.input, scope, 'input', {
        timeoutMs: step.timeoutMs ?? ctx.config.stepTimeoutMs,
        signal,
      });
      outcome = await runStep(ctx.connectors, step, input, {
        credential: await creds.for(step.connector),
        scope,
        signal,
        settings: stepSettings(ctx.config, step, input),
      });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      outcome = { ok: false, failure: StepFailure.from(err), attempts: 1 };
    }
    const {
      row: record,
      output,
      error,
    } = stepRecord({
      execution: row,
      position,
      step,
      input,
      outcome,
      secrets: creds.secrets(),
      maxBytes: ctx.config.maxStepOutputBytes,
      startedAt,
    });
    unrecorded.push(record);
    if (error) {
      const label = step.name ? `"${step.name}"` : `${step.connector}.${step.action}`;
      return {
        error: { ...error, message: `Step ${position + 1} (${label}) failed: ${error.message}` },
        unrecorded,
      };
    }
    defineOwn(steps, step.id, output);
    if (step.name && !Object.hasOwn(steps, step.name)) defineOwn(steps, step.name, output);
  }
  return { unrecorded };
}

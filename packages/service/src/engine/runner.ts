import type { StepError } from '@inlay/contract';
import type { AppContext } from '../context.ts';
import { preparedPerDb } from '../store/prepared.ts';
import type { installations, users } from '../store/schema.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import { ACTION_TRIGGER } from './action-run.ts';
import { configValues } from './config-values.ts';
import { FlowRun } from './flow-run.ts';
import { RunCredentials } from './run-credentials.ts';
import type { ExecutionRow, NewStepRow, RunStore } from './runs.ts';

export interface RunOutcome {
  error?: StepError;
  /** Steps not recorded yet (the one that ended the run, at least): written with the run's end. */
  unrecorded?: NewStepRow[];
}

type Db = AppContext['db'];

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

export type RunnerContext = Pick<
  AppContext,
  'db' | 'config' | 'connectors' | 'credentials' | 'metrics' | 'providerCalls'
>;

/**
 * Runs the steps of one claimed execution (see FlowRun) and records them as they end: a step that is not a
 * transform at once, with the transforms before it, and the rest with the run's end (`unrecorded`). Templates
 * resolve over `{trigger, config, steps, user, execution}` (plus a `forEach`'s item and `index`); `steps` holds
 * earlier outputs by step id (and by name when the step has one). A failing step ends the run unless it says
 * `onError: continue`. Every stored input, output and error is scrubbed of the run's credential secrets, and
 * so is what later steps see of earlier outputs.
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
    user: { userId: user.id, username: user.username, fullName: user.fullName },
    execution: { id: row.id, attempt: row.attempts },
  };
  const creds = new RunCredentials(
    ctx.credentials,
    ctx.connectors,
    { accountId: row.accountId, userId: row.userId },
    inst.credentialIds ?? {},
  );
  // A run started before (taken over from a worker that died or stopped) resumes after what it recorded.
  const recorded = row.attempts > 1 ? await runs.recordedSteps(row.id) : [];
  const flow = new FlowRun(ctx, runs, row, scope, creds, signal, recorded);
  const error = await flow.run(def.steps, steps);
  return error ? { error, unrecorded: flow.unrecorded } : { unrecorded: flow.unrecorded };
}

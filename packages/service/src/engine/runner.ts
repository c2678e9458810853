import type { StepError } from '@inlay/contract';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { installations, users } from '../store/schema.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import { ACTION_TRIGGER } from './action-run.ts';
import { configValues } from './config-values.ts';
import { RunCredentials } from './run-credentials.ts';
import type { ExecutionRow, RunStore } from './runs.ts';
import { StepFailure } from './step-failure.ts';
import { stepRecord } from './step-record.ts';
import { runStep, type StepOutcome, stepTimeout } from './step-runner.ts';
import { resolveTemplates } from './templates.ts';

export interface RunOutcome {
  error?: StepError;
}

export type RunnerContext = Pick<AppContext, 'db' | 'config' | 'connectors' | 'credentials'>;

/**
 * Runs the steps of one claimed execution in order and records each as it ends. Templates resolve over
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
  // The definition (usually cached) and the installation with its user, in one query, side by side.
  const [compiled, [found]] = await Promise.all([
    defs.get(row.workflowId, row.version),
    row.installationId
      ? ctx.db
          .select({ inst: installations, user: users })
          .from(installations)
          .leftJoin(users, and(eq(users.id, row.userId), eq(users.accountId, row.accountId)))
          .where(eq(installations.id, row.installationId))
      : [],
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

  for (const [position, step] of def.steps.entries()) {
    if (signal.aborted) throw signal.reason;
    const startedAt = new Date();
    let input: unknown = step.input;
    let outcome: StepOutcome;
    try {
      input = await resolveTemplates(step.input, scope);
      outcome = await runStep(ctx.connectors, step, input, {
        credential: await creds.for(step.connector),
        scope,
        signal,
        settings: {
          timeoutMs: stepTimeout(step, input, ctx.config.stepTimeoutMs),
          retries: step.retries ?? ctx.config.stepRetries,
          backoff: { baseMs: ctx.config.retryBaseMs, maxMs: ctx.config.retryMaxMs },
        },
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
    await runs.recordStep(claim, record);
    if (error) {
      const label = step.name ? `"${step.name}"` : `${step.connector}.${step.action}`;
      return { error: { ...error, message: `Step ${position + 1} (${label}) failed: ${error.message}` } };
    }
    steps[step.id] = output;
    if (step.name && !(step.name in steps)) steps[step.name] = output;
  }
  return {};
}

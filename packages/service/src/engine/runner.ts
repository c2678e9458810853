import { randomUUID } from 'node:crypto';
import { connectorUuid, redact } from '@inlay/connectors';
import type { StepError } from '@inlay/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { installations } from '../store/schema.ts';
import { findUser } from '../users/users.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import { configValues } from './config-values.ts';
import { RunCredentials } from './run-credentials.ts';
import type { ExecutionRow, RunStore } from './runs.ts';
import { StepFailure } from './step-failure.ts';
import { runStep, type StepOutcome, stepTimeout } from './step-runner.ts';
import { storable } from './storable.ts';
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
  const compiled = await defs.get(row.workflowId, row.version);
  if (!compiled)
    return {
      error: { code: 'definition_missing', message: `Workflow version ${row.version} no longer exists` },
    };
  const [inst] = row.installationId
    ? await ctx.db.select().from(installations).where(eq(installations.id, row.installationId))
    : [];
  if (!inst)
    return {
      error: { code: 'installation_missing', message: 'The installation of this workflow was removed' },
    };
  const user = await findUser(ctx.db, row.accountId, row.userId);
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
  const max = ctx.config.maxStepOutputBytes;

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
    const secrets = creds.secrets();
    const storedInput = storable(input, secrets, max);
    let output: unknown;
    let item: { json: unknown; statusCode?: number; truncated: boolean } | undefined;
    let error: StepError | undefined;
    if (outcome.ok) {
      output = redact(outcome.output ?? null, secrets);
      const s = storable(output, [], max);
      item = { json: s.json, statusCode: outcome.statusCode, truncated: s.truncated };
    } else {
      const { statusCode, body } = outcome.failure.opts;
      error = redact(outcome.failure.toStepError(), secrets);
      // The provider's error response is part of the log: it usually says what was wrong.
      if (statusCode !== undefined || body !== undefined) {
        const s = storable(body ?? null, secrets, max);
        item = { json: s.json, statusCode, truncated: s.truncated };
      }
    }
    await runs.recordStep(claim, {
      executionId: row.id,
      position,
      userId: row.userId,
      stepId: step.id,
      connector: step.connector,
      connectorId: connectorUuid(step.connector),
      action: step.action,
      status: outcome.ok ? 'succeeded' : 'failed',
      input: storedInput.json,
      data: item
        ? [
            [
              {
                id: randomUUID(),
                json: item.json,
                ...(item.statusCode !== undefined ? { statusCode: item.statusCode } : {}),
              },
            ],
          ]
        : [[]],
      error: error ?? null,
      attempts: outcome.attempts,
      truncated: Boolean(item?.truncated || storedInput.truncated),
      startedAt,
      stoppedAt: new Date(),
    });
    if (error) {
      const label = step.name ? `"${step.name}"` : `${step.connector}.${step.action}`;
      return { error: { ...error, message: `Step ${position + 1} (${label}) failed: ${error.message}` } };
    }
    steps[step.id] = output;
    if (step.name && !(step.name in steps)) steps[step.name] = output;
  }
  return {};
}

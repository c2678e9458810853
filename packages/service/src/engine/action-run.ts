import type { StepError } from '@inlay/contract';
import { listCredentials } from '../credentials/credentials.ts';
import { RunCredentials } from './run-credentials.ts';
import type { RunnerContext } from './runner-context.ts';
import type { ExecutionRow, NewRun, RunStore } from './runs.ts';
import { StepFailure } from './step-failure.ts';
import { stepRecord } from './step-record.ts';
import { runStep, type StepOutcome, stepSettings } from './step-runner.ts';

/** `triggerType` of a one-step execution started by `execute_action_inlay`. */
export const ACTION_TRIGGER = 'action';
/** An action run belongs to no workflow: it is filed under the nil UUID, version 0. */
export const ACTION_WORKFLOW_ID = '00000000-0000-0000-0000-000000000000';

export interface ActionRequest {
  accountId: string;
  userId: string;
  connector: string;
  action: string;
  parameters: Record<string, unknown>;
  /**
   * The credential to use; else the user's only connected credential for the connector, except for a
   * connector whose credentials are bound to origins (`http`): those are used only when named.
   */
  credentialId?: string;
}

export interface ActionOutcome {
  error?: StepError;
  output?: unknown;
  statusCode?: number;
}

/** The execution row of an action run; the parameters are logged as the step's input, not the trigger. */
export const actionRun = (req: ActionRequest): NewRun => ({
  accountId: req.accountId,
  userId: req.userId,
  workflowId: ACTION_WORKFLOW_ID,
  installationId: null,
  version: 0,
  trigger: { connector: req.connector, action: req.action },
  triggerType: ACTION_TRIGGER,
});

/**
 * The credential an action run uses: the one named, else the user's only connected one for the connector.
 * A bound credential (the `http` built-in's) is never picked for the caller: the URL is the caller's to
 * choose, so the caller must also choose, by id, the secret that goes with it.
 */
async function chooseCredential(ctx: RunnerContext, req: ActionRequest): Promise<Record<string, string>> {
  if (req.credentialId) return { [req.connector]: req.credentialId };
  const def = ctx.connectors.get(req.connector);
  if (!def || def.auth.type === 'none') return {};
  if (def.auth.type === 'apiKey' && def.auth.originsField) return {};
  const mine = (
    await listCredentials(ctx.db, { accountId: req.accountId, userId: req.userId, connector: req.connector })
  ).filter((c) => c.status === 'connected');
  if (mine.length > 1)
    throw new StepFailure(
      'credential_ambiguous',
      `The user has ${mine.length} ${def.name} credentials: name one with credentialId`,
    );
  return mine[0] ? { [req.connector]: mine[0].id } : {};
}

/**
 * Runs one connector action as the only step of an already-claimed execution, with the engine's timeout
 * and retry policy, and records the step like a workflow step (scrubbed of the credential's secrets).
 */
export async function runAction(
  ctx: RunnerContext,
  runs: RunStore,
  row: ExecutionRow,
  req: ActionRequest,
  signal: AbortSignal,
): Promise<ActionOutcome> {
  const claim = { executionId: row.id, attempt: row.attempts };
  const startedAt = new Date();
  const step = { id: 'action', connector: req.connector, action: req.action, input: req.parameters };
  let creds: RunCredentials | undefined;
  let outcome: StepOutcome;
  try {
    creds = new RunCredentials(
      ctx.credentials,
      ctx.connectors,
      { accountId: req.accountId, userId: req.userId },
      await chooseCredential(ctx, req),
    );
    const credential = await creds.for(req.connector);
    outcome = await runStep(ctx.connectors, step, req.parameters, {
      credential,
      scope: { trigger: req.parameters },
      signal,
      tenant: req.accountId,
      settings: stepSettings(ctx.config, step, req.parameters),
      onCall: ctx.providerCalls.listener({
        accountId: req.accountId,
        userId: req.userId,
        credentialId: credential?.credentialId ?? null,
        connector: req.connector,
        kind: 'step',
        executionId: row.id,
      }),
    });
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    outcome = { ok: false, failure: StepFailure.from(err), attempts: 1 };
  }
  ctx.metrics?.step(step.connector, step.action, outcome.ok, Date.now() - startedAt.getTime());
  const {
    row: record,
    output,
    statusCode,
    error,
  } = stepRecord({
    execution: row,
    position: 0,
    step,
    input: req.parameters,
    outcome,
    secrets: creds?.secrets() ?? [],
    maxBytes: ctx.config.maxStepOutputBytes,
    startedAt,
  });
  await runs.recordStep(claim, record);
  return error ? { error } : { output, statusCode };
}

import { randomUUID } from 'node:crypto';
import { connectorUuid, redact } from '@inlay/connectors';
import type { StepError } from '@inlay/contract';
import type { ExecutionRow, NewStepRow } from './runs.ts';
import type { StepOutcome } from './step-runner.ts';
import { storable } from './storable.ts';

/** What a step row stores, and what later steps and callers see of it. */
export interface StepRecord {
  row: NewStepRow;
  /** The output, scrubbed of secrets (undefined when the step failed). */
  output?: unknown;
  statusCode?: number;
  error?: StepError;
  /** Bytes of JSON the row stores for the input and the output: what counts against the run's budget. */
  bytes: number;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A step's output as the seed's output items, whose `json` is an object or null: an array is one item per
 * element, and a value that is not an object is held as `{"value": …}`.
 */
export function outputItems(json: unknown, statusCode?: number) {
  const values = Array.isArray(json) ? json : [json];
  return values.map((v) => ({
    id: randomUUID(),
    json: v === null || isObject(v) ? v : { value: v },
    ...(statusCode !== undefined ? { statusCode } : {}),
  }));
}

/**
 * Builds the log row of one ended step in the seed's shape: `data: [[{id, json, statusCode?}, …]]` and the
 * resolved input, both scrubbed of `secrets` and cut to `maxBytes` with a marker. A failed step keeps the
 * provider's error response as its item: it usually says what was wrong.
 */
export function stepRecord(p: {
  execution: Pick<ExecutionRow, 'id' | 'userId'>;
  position: number;
  step: { id: string; name?: string; connector: string; action: string };
  input: unknown;
  outcome: StepOutcome;
  secrets: readonly string[];
  maxBytes: number;
  startedAt: Date;
  /** Where the occurrence sits: its key, its `forEach` iteration, its parent step, an `if`'s branch. */
  at?: Pick<NewStepRow, 'stepKey' | 'iteration' | 'parentStepId' | 'branch'>;
}): StepRecord {
  const { outcome, secrets, maxBytes } = p;
  const storedInput = storable(p.input, secrets, maxBytes);
  let output: unknown;
  let item: { json: unknown; statusCode?: number; truncated: boolean; bytes: number } | undefined;
  let error: StepError | undefined;
  let kept: unknown = null;
  if (outcome.ok) {
    output = redact(outcome.output ?? null, secrets);
    const s = storable(output, [], maxBytes);
    item = { json: s.json, statusCode: outcome.statusCode, truncated: s.truncated, bytes: s.bytes };
    // `data` gives back an object output exactly; any other output is kept as is for a resumed run.
    if (s.truncated || !isObject(s.json)) kept = s.json;
  } else {
    const { statusCode, body } = outcome.failure.opts;
    error = redact(outcome.failure.toStepError(), secrets);
    if (statusCode !== undefined || body !== undefined) {
      const s = storable(body ?? null, secrets, maxBytes);
      item = { json: s.json, statusCode, truncated: s.truncated, bytes: s.bytes };
    }
  }
  const row: NewStepRow = {
    executionId: p.execution.id,
    position: p.position,
    userId: p.execution.userId,
    stepId: p.step.id,
    name: p.step.name ?? null,
    connector: p.step.connector,
    connectorId: connectorUuid(p.step.connector),
    action: p.step.action,
    status: outcome.ok ? 'succeeded' : 'failed',
    input: storedInput.json,
    data: item ? [outputItems(item.json, item.statusCode)] : [[]],
    error: error ?? null,
    attempts: outcome.attempts,
    truncated: Boolean(item?.truncated || storedInput.truncated),
    startedAt: p.startedAt,
    stoppedAt: new Date(),
    ...p.at,
    output: kept,
  };
  const bytes = storedInput.bytes + (item?.bytes ?? 0);
  return outcome.ok ? { row, output, statusCode: outcome.statusCode, bytes } : { row, error, bytes };
}

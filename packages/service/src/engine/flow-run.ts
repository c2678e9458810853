import type { AnyStep, ForEachStep, IfStep, Step, StepError } from '@inlay/contract';
import { stepSpan } from '../tracing/step-span.ts';
import { tracing } from '../tracing/tracing.ts';
import { RunBudgetExceeded } from './run-budget.ts';
import type { RunCredentials } from './run-credentials.ts';
import type { RunnerContext } from './runner-context.ts';
import type { Claim, ExecutionRow, NewStepRow, RecordedStep, RunStore } from './runs.ts';
import { StepFailure } from './step-failure.ts';
import { stepRecord } from './step-record.ts';
import { runStep, type StepOutcome, stepSettings } from './step-runner.ts';
import { resolveTemplates } from './templates.ts';

/** Sets an own property, even one named `__proto__` (a step name is the author's to choose). */
const defineOwn = (o: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

/** Built-in connectors that run in process without side effects. */
const LOCAL_CONNECTORS = new Set(['transform']);

/** Where a list of steps runs: the outputs it sees, loop variables, and its place in enclosing loops. */
interface Frame {
  steps: Record<string, unknown>;
  vars: Record<string, unknown>;
  /** Iteration indexes of the enclosing `forEach` steps, outermost first. */
  path: number[];
  parentStepId?: string;
}

/** How a step ended for what encloses it: `last` is what an iteration's output takes from it. */
type Ended = { ok: true; last: unknown } | { ok: false; error: StepError };

/** An occurrence's key: the step id, plus its iteration path inside `forEach` steps. */
const occurrence = (stepId: string, path: number[]) => (path.length ? `${stepId}:${path.join('.')}` : stepId);

/** The most step rows one write carries. */
const BATCH = 100;

const truthy = (v: unknown) => Boolean(v) && !(Array.isArray(v) && v.length === 0);

/** What later steps saw of a recorded step's output: kept as is, or the object its one item holds. */
function recordedOutput(r: RecordedStep): unknown {
  if (r.output !== null) return r.output;
  return (r.data as { json: unknown }[][])[0]?.[0]?.json ?? null;
}

/**
 * Runs a definition's steps for one claimed execution: actions, `if` and `forEach` to any depth, `onError`.
 * Each ended step occurrence becomes one step row; a step that reaches outside (anything but a transform) is
 * recorded as soon as it ends, with the local steps before it, so a run taken over by another worker resumes
 * after it (`recorded`) and only the step in flight can run twice. Rows that end the run are left in
 * `unrecorded`, for the run's end to write.
 */
export class FlowRun {
  readonly unrecorded: NewStepRow[] = [];
  #position = 0;
  /** Occurrences started, recorded ones included: counted before a step runs, so concurrent lanes cannot overshoot. */
  #started = 0;
  /** Bytes of step data this attempt stored. */
  #bytes = 0;
  readonly #done = new Map<string, RecordedStep>();
  readonly #claim: Claim;

  constructor(
    private readonly ctx: RunnerContext,
    private readonly runs: RunStore,
    private readonly row: ExecutionRow,
    private readonly base: Record<string, unknown> & { execution: Record<string, unknown> },
    private readonly creds: RunCredentials,
    private readonly signal: AbortSignal,
    recorded: RecordedStep[] = [],
  ) {
    this.#claim = { executionId: row.id, attempt: row.attempts };
    for (const r of recorded) {
      this.#done.set(r.stepKey ?? r.stepId, r);
      this.#position = Math.max(this.#position, r.position + 1);
    }
    this.#started = this.#done.size;
  }

  /** Runs the top-level steps; resolves with the error that ended the run, if one did. */
  async run(steps: AnyStep[], outputs: Record<string, unknown>): Promise<StepError | undefined> {
    try {
      const ended = await this.#list(steps, { steps: outputs, vars: {}, path: [] });
      return ended.ok ? undefined : ended.error;
    } catch (err) {
      if (err instanceof RunBudgetExceeded) return err.stepError;
      throw err;
    }
  }

  /** Counts an occurrence about to run against INLAY_MAX_STEPS_PER_RUN; a recorded one was counted already. */
  #admit(step: AnyStep, frame: Frame): void {
    if (this.#done.has(occurrence(step.id, frame.path))) return;
    const max = this.ctx.config.maxStepsPerRun;
    if (this.#started >= max) throw RunBudgetExceeded.steps(max);
    this.#started++;
  }

  /** Counts a row's stored bytes against INLAY_MAX_RUN_OUTPUT_MB; the row that crosses it is kept for the log. */
  #charge(record: { row: NewStepRow; bytes: number }): void {
    this.#bytes += record.bytes;
    const max = this.ctx.config.maxRunOutputBytes;
    if (this.#bytes <= max) return;
    this.unrecorded.push(record.row);
    throw RunBudgetExceeded.bytes(max);
  }

  async #list(steps: AnyStep[], frame: Frame): Promise<Ended> {
    let last: unknown = null;
    for (const step of steps) {
      if (this.signal.aborted) throw this.signal.reason;
      this.#admit(step, frame);
      const ended =
        step.type === 'if'
          ? await this.#if(step, frame)
          : step.type === 'forEach'
            ? await this.#forEach(step, frame)
            : await this.#action(step, frame);
      if (!ended.ok) return ended;
      last = ended.last;
    }
    return { ok: true, last };
  }

  #scope(frame: Frame, key: string) {
    return {
      ...this.base,
      ...frame.vars,
      steps: frame.steps,
      execution: { ...this.base.execution, stepKey: `${this.row.id}:${key}` },
    };
  }

  #at(frame: Frame, key: string, branch?: 'then' | 'else') {
    return {
      stepKey: key,
      iteration: frame.path.length ? frame.path[frame.path.length - 1]! : null,
      parentStepId: frame.parentStepId ?? null,
      branch: branch ?? null,
    };
  }

  /** Makes an ended occurrence visible to later steps; with `onError: continue` a failure is too. */
  #settle(
    step: AnyStep,
    frame: Frame,
    record: { output?: unknown; error?: StepError },
    label: string,
  ): Ended {
    if (record.error) {
      if (step.onError !== 'continue')
        return { ok: false, error: { ...record.error, message: `${label} failed: ${record.error.message}` } };
      const seen = { error: record.error };
      this.#expose(step, frame, seen);
      return { ok: true, last: seen };
    }
    this.#expose(step, frame, record.output);
    return { ok: true, last: record.output };
  }

  #expose(step: AnyStep, frame: Frame, value: unknown) {
    defineOwn(frame.steps, step.id, value);
    if (step.name && !Object.hasOwn(frame.steps, step.name)) defineOwn(frame.steps, step.name, value);
  }

  /** A recorded occurrence (a resumed run): what it left, without running it again. */
  #replay(step: AnyStep, frame: Frame, r: RecordedStep): Ended {
    const error =
      r.status === 'failed' ? ((r.error as StepError | null) ?? { message: 'failed' }) : undefined;
    return this.#settle(
      step,
      frame,
      error ? { error } : { output: recordedOutput(r) },
      `Step ${r.position + 1}`,
    );
  }

  #label(step: AnyStep, frame: Frame, position: number) {
    const what =
      step.name !== undefined
        ? `"${step.name}"`
        : step.type === 'if' || step.type === 'forEach'
          ? step.type
          : `${step.connector}.${step.action}`;
    const where = frame.path.length ? `, iteration ${frame.path.join('.')}` : '';
    return `Step ${position + 1} (${what}${where})`;
  }

  /**
   * Keeps a row: written now (with the local rows before it) when `now`, else with the next write. A long
   * loop of local steps is written every BATCH rows: one statement of thousands of rows is too large.
   */
  async #keep(row: NewStepRow, now: boolean): Promise<void> {
    this.unrecorded.push(row);
    if (now || this.unrecorded.length >= BATCH)
      await this.runs.recordSteps(this.#claim, this.unrecorded.splice(0));
  }

  #record(
    step: { id: string; name?: string; connector: string; action: string },
    frame: Frame,
    key: string,
    input: unknown,
    outcome: StepOutcome,
    startedAt: Date,
    position: number,
    branch?: 'then' | 'else',
  ) {
    return stepRecord({
      execution: this.row,
      position,
      step,
      input,
      outcome,
      secrets: this.creds.secrets(),
      maxBytes: this.ctx.config.maxStepOutputBytes,
      startedAt,
      at: this.#at(frame, key, branch),
    });
  }

  /** Evaluates a control step's template within the step's time limit; failures become step outcomes. */
  async #evaluate(template: string, scope: unknown, where: string): Promise<StepOutcome> {
    try {
      const output = await resolveTemplates(template, scope, where, {
        timeoutMs: this.ctx.config.stepTimeoutMs,
        signal: this.signal,
        tenant: this.row.accountId,
      });
      return { ok: true, output, attempts: 1 };
    } catch (err) {
      if (this.signal.aborted) throw this.signal.reason;
      return { ok: false, failure: StepFailure.from(err), attempts: 1 };
    }
  }

  async #action(step: Step, frame: Frame): Promise<Ended> {
    const key = occurrence(step.id, frame.path);
    const done = this.#done.get(key);
    if (done) return this.#replay(step, frame, done);
    const local = LOCAL_CONNECTORS.has(step.connector);
    // Before anything leaves the node, the local rows before it are written: the write also proves the run
    // is still this worker's, and shows progress while a long step runs.
    if (!local && this.unrecorded.length) await this.runs.recordSteps(this.#claim, this.unrecorded.splice(0));
    const scope = this.#scope(frame, key);
    const startedAt = new Date();
    let input: unknown = step.input;
    let outcome: StepOutcome;
    try {
      // Templates get the step's time limit too: a runaway `{{ }}` fails the step, not the node.
      input = await resolveTemplates(step.input, scope, 'input', {
        timeoutMs: step.timeoutMs ?? this.ctx.config.stepTimeoutMs,
        signal: this.signal,
        tenant: this.row.accountId,
      });
      const credential = await this.creds.for(step.connector);
      const run = () =>
        runStep(this.ctx.connectors, step, input, {
          credential,
          scope,
          signal: this.signal,
          tenant: this.row.accountId,
          settings: stepSettings(this.ctx.config, step, input),
          onCall: this.ctx.providerCalls.listener({
            accountId: this.row.accountId,
            userId: this.row.userId,
            credentialId: credential?.credentialId ?? null,
            connector: step.connector,
            kind: 'step',
            executionId: this.row.id,
          }),
        });
      outcome = tracing ? await stepSpan(step, key, run) : await run();
    } catch (err) {
      if (this.signal.aborted) throw this.signal.reason;
      outcome = { ok: false, failure: StepFailure.from(err), attempts: 1 };
    }
    this.ctx.metrics?.step(step.connector, step.action, outcome.ok, Date.now() - startedAt.getTime());
    const position = this.#position++;
    const record = this.#record(step, frame, key, input, outcome, startedAt, position);
    this.#charge(record);
    const ended = this.#settle(step, frame, record, this.#label(step, frame, position));
    // A failure that ends the run is written with the run's end; anything else that left the node now.
    if (ended.ok) await this.#keep(record.row, !local);
    else this.unrecorded.push(record.row);
    return ended;
  }

  async #if(step: IfStep, frame: Frame): Promise<Ended> {
    const key = occurrence(step.id, frame.path);
    let branch: 'then' | 'else';
    const done = this.#done.get(key);
    if (done) {
      const replayed = this.#replay(step, frame, done);
      if (!replayed.ok || done.status === 'failed' || !done.branch) return replayed;
      branch = done.branch;
    } else {
      const startedAt = new Date();
      const outcome = await this.#evaluate(step.condition, this.#scope(frame, key), 'condition');
      branch = outcome.ok && truthy(outcome.output) ? 'then' : 'else';
      const position = this.#position++;
      const record = this.#record(
        { ...step, connector: 'if', action: 'if' },
        frame,
        key,
        { condition: outcome.ok ? (outcome.output ?? null) : null },
        outcome.ok ? { ok: true, output: { branch }, attempts: 1 } : outcome,
        startedAt,
        position,
        outcome.ok ? branch : undefined,
      );
      this.#charge(record);
      const ended = this.#settle(step, frame, record, this.#label(step, frame, position));
      if (!ended.ok || !outcome.ok) {
        if (ended.ok) await this.#keep(record.row, false);
        else this.unrecorded.push(record.row);
        return ended;
      }
      await this.#keep(record.row, false);
    }
    const inner: Frame = { ...frame, parentStepId: step.id };
    const taken = await this.#list(branch === 'then' ? step.then : step.else, inner);
    if (!taken.ok) return taken;
    return { ok: true, last: (branch === 'then' ? step.then : step.else).length ? taken.last : { branch } };
  }

  async #forEach(step: ForEachStep, frame: Frame): Promise<Ended> {
    const key = occurrence(step.id, frame.path);
    const done = this.#done.get(key);
    if (done) return this.#replay(step, frame, done);
    const startedAt = new Date();
    const position = this.#position++;
    const label = this.#label(step, frame, position);
    const evaluated = await this.#evaluate(step.items, this.#scope(frame, key), 'items');
    let outcome: StepOutcome = evaluated;
    let items: unknown[] = [];
    if (evaluated.ok) {
      // JSONata gives a one-item sequence as the item itself, and an empty one as nothing.
      const v = evaluated.output;
      items = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
      const max = this.ctx.config.maxIterations;
      if (items.length > max)
        outcome = {
          ok: false,
          failure: new StepFailure(
            'too_many_items',
            `forEach got ${items.length} items; the most is ${max} (INLAY_MAX_ITERATIONS)`,
          ),
          attempts: 1,
        };
    }
    if (outcome.ok) {
      const outputs: unknown[] = new Array(items.length).fill(null);
      let failed: StepError | undefined;
      let next = 0;
      const worker = async () => {
        while (!failed && next < items.length) {
          const index = next++;
          const ended = await this.#list(step.steps, {
            steps: { ...frame.steps },
            vars: { ...frame.vars, [step.as]: items[index], index },
            path: [...frame.path, index],
            parentStepId: step.id,
          });
          if (ended.ok) outputs[index] = ended.last;
          else failed ??= ended.error;
        }
      };
      const lanes = Math.min(step.concurrency, items.length);
      // A lane that throws (the run was cancelled or lost) ends the step once the other lanes stop.
      const settled = await Promise.allSettled(Array.from({ length: lanes }, worker));
      const thrown = settled.find((s) => s.status === 'rejected');
      if (thrown) throw (thrown as PromiseRejectedResult).reason;
      if (failed)
        outcome = {
          ok: false,
          failure: new StepFailure(failed.code ?? 'step_error', failed.message),
          attempts: 1,
        };
      else outcome = { ok: true, output: outputs, attempts: 1 };
    }
    const record = this.#record(
      { ...step, connector: 'forEach', action: 'forEach' },
      frame,
      key,
      { items: evaluated.ok ? items : null, concurrency: step.concurrency },
      outcome,
      startedAt,
      position,
    );
    this.#charge(record);
    // An iteration's error already names its step: the forEach passes it on as it is.
    const ended = this.#settle(step, frame, record, label);
    if (!ended.ok) {
      this.unrecorded.push(record.row);
      return evaluated.ok && items.length <= this.ctx.config.maxIterations
        ? { ok: false, error: record.error! }
        : ended;
    }
    await this.#keep(record.row, false);
    return ended;
  }
}

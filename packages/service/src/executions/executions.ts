import type { ExecutionStatus, LogEntry, Result, RunTrigger, StepError } from '@inlay/contract';
import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { executionSteps, executions } from '../store/schema.ts';
import type { Db, Tx } from '../store/store.ts';
import { NIL_UUID, stepBytes, stepDataBytes } from './step-log-sql.ts';

export type ExecutionRow = typeof executions.$inferSelect;
export type StepRow = typeof executionSteps.$inferSelect;

export interface LogPage {
  accountId: string;
  userId: string;
  workflowId: string;
  page: number;
  limit: number;
  order: 'asc' | 'desc';
  /** Only runs in one of these states; every run when left out. */
  status?: ExecutionStatus[];
  /** A run's share of the page in bytes: its steps past it are cut (`INLAY_MAX_LOG_ENTRY_BYTES`). */
  maxEntryBytes: number;
}

type Iso<T> = {
  [K in keyof T]: T[K] extends Date ? Date | string : T[K] extends Date | null ? Date | string | null : T[K];
};
/** Timestamps may come as Dates or as ISO strings already formatted by the database. */
type EntryExecution = Iso<
  Pick<
    ExecutionRow,
    | 'id'
    | 'startedAt'
    | 'stoppedAt'
    | 'finished'
    | 'status'
    | 'error'
    | 'rerunOf'
    | 'workflowId'
    | 'version'
    | 'trigger'
    | 'triggerType'
    | 'event'
    | 'summary'
  >
>;
type EntryStep = Iso<
  Pick<
    StepRow,
    | 'startedAt'
    | 'stoppedAt'
    | 'connectorId'
    | 'data'
    | 'stepId'
    | 'name'
    | 'connector'
    | 'action'
    | 'status'
    | 'attempts'
    | 'error'
    | 'truncated'
    | 'input'
    | 'iteration'
    | 'stepKey'
    | 'parentStepId'
    | 'branch'
  >
>;

const iso = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString());

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
/** The seed types an input's `data` and an item's `json` as objects: anything else is held as `{value}`. */
const asObject = (v: unknown): Record<string, unknown> =>
  isObject(v) ? v : v === null || v === undefined ? {} : { value: v };

/** Items as the seed types them; rows written before items were normalised may hold any JSON in `json`. */
function seedItems(data: unknown): Result['data'] {
  const runs = data as { id: string; json: unknown; statusCode?: number }[][];
  if (runs.every((items) => items.every((i) => i.json === null || isObject(i.json))))
    return runs as Result['data'];
  return runs.map((items) =>
    items.map((i) => (i.json === null || isObject(i.json) ? i : { ...i, json: { value: i.json } })),
  ) as Result['data'];
}

/**
 * `iterationPath` of a step inside a `forEach`: the occurrence's key is `<stepId>:<path>` (`2.0` in a nested
 * loop; step ids are UUIDs), so the path is read from it rather than stored twice.
 */
function iterationPathOf(s: Pick<EntryStep, 'iteration' | 'stepKey'>): { iterationPath?: number[] } {
  const at = s.stepKey?.indexOf(':') ?? -1;
  if (s.iteration === null || s.iteration === undefined || at < 0) return {};
  return {
    iterationPath: s
      .stepKey!.slice(at + 1)
      .split('.')
      .map(Number),
  };
}

/** Where a step cut from a page can be read whole: the marker `CUT_RESULT` writes in SQL. */
export const cutMarker = (workflowId: string, executionId: string, maxEntryBytes: number) =>
  `[cut from this page: the run's steps pass ${maxEntryBytes} bytes; GET /workflows/${workflowId}/logs/${executionId} returns the run whole]`;

/** A step as `stepsOf` reads it for a page: with what it counts toward its run's share (`stepBytes`). */
type MeasuredStep = EntryStep & { bytes?: number; dataBytes?: number };

/**
 * The steps of a run as a page shows them: whole while their running total of `bytes` stays within
 * `maxEntryBytes`, then each cut to a marker, as `log-page.ts` composes them in SQL.
 */
function cutForPage(e: EntryExecution, steps: MeasuredStep[], maxEntryBytes: number): EntryStep[] {
  let upto = 0;
  return steps.map((s) => {
    upto += s.bytes ?? 0;
    if (upto <= maxEntryBytes) return s;
    const marker = cutMarker(e.workflowId, e.id, maxEntryBytes);
    const first = (s.data as { id?: string }[][])[0]?.[0]?.id;
    return {
      ...s,
      data: [[{ id: first ?? NIL_UUID, json: { truncated: true, marker, originalBytes: s.dataBytes } }]],
      input: { truncated: true, marker },
      truncated: true,
    };
  });
}

/**
 * `reruns`: the ids of the executions that re-ran this one, oldest first. With `maxEntryBytes`, the entry as a
 * page shows it (steps measured by `stepsOf(…, {measured: true})`); without, whole.
 */
export function toLogEntry(
  e: EntryExecution,
  all: MeasuredStep[],
  reruns: string[] = [],
  maxEntryBytes?: number,
): LogEntry {
  const steps = maxEntryBytes === undefined ? all : cutForPage(e, all, maxEntryBytes);
  const results: Result[] = steps.map((s) => ({
    startedAt: iso(s.startedAt),
    // The seed types `stoppedAt` as a string: absent until the step stops, never null.
    ...(s.stoppedAt === null ? {} : { stoppedAt: iso(s.stoppedAt) }),
    connectorId: s.connectorId,
    data: seedItems(s.data),
    stepId: s.stepId,
    ...(s.name ? { name: s.name } : {}),
    connector: s.connector,
    action: s.action,
    status: s.status,
    attempts: s.attempts,
    ...(s.error ? { error: s.error as StepError } : {}),
    ...(s.truncated ? { truncated: true } : {}),
    ...(s.iteration === null || s.iteration === undefined ? {} : { iteration: s.iteration }),
    ...iterationPathOf(s),
    ...(s.parentStepId ? { parentStepId: s.parentStepId } : {}),
    ...(s.branch ? { branch: s.branch } : {}),
  }));
  return {
    executionId: e.id,
    startedAt: iso(e.startedAt),
    ...(e.stoppedAt === null ? {} : { stoppedAt: iso(e.stoppedAt) }),
    finished: e.finished,
    results,
    inputs: steps.map((s) => ({ connectorId: s.connectorId, data: asObject(s.input) })),
    status: e.status,
    error: (e.error as StepError | null) ?? null,
    rerunOf: e.rerunOf,
    workflowId: e.workflowId,
    version: e.version,
    trigger: {
      type: e.triggerType as RunTrigger['type'],
      ...(e.event ? { event: e.event } : {}),
      data: e.trigger ?? {},
    },
    summary: e.summary ?? null,
    reruns,
  };
}

/** The executions that re-ran each of `ids`, oldest first (served by the partial `rerun_of` index). */
export async function rerunsOf(db: Db, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db
    .select({ id: executions.id, rerunOf: executions.rerunOf })
    .from(executions)
    .where(inArray(executions.rerunOf, ids))
    .orderBy(asc(executions.startedAt), asc(executions.id));
  for (const r of rows) if (r.rerunOf) out.get(r.rerunOf)?.push(r.id);
  return out;
}

/**
 * Log entries of execution rows, with their steps and reruns read in two queries side by side: whole, or as a
 * page shows them when `maxEntryBytes` is given.
 */
export async function logEntriesOf(
  db: Db,
  rows: ExecutionRow[],
  maxEntryBytes?: number,
): Promise<LogEntry[]> {
  const ids = rows.map((r) => r.id);
  const [steps, reruns] = await Promise.all([
    stepsOf(db, ids, { measured: maxEntryBytes !== undefined }),
    rerunsOf(db, ids),
  ]);
  return rows.map((r) => toLogEntry(r, steps.get(r.id) ?? [], reruns.get(r.id) ?? [], maxEntryBytes));
}

const measures = {
  bytes: sql<number>`(${sql.raw(stepBytes('execution_steps'))})::int`,
  dataBytes: sql<number>`(${sql.raw(stepDataBytes('execution_steps'))})::int`,
};

/**
 * Steps of many executions, grouped by execution, in step order; `measured` adds what each counts toward its
 * run's share of a logs page.
 */
export async function stepsOf(
  db: Db,
  ids: string[],
  opts: { measured?: boolean } = {},
): Promise<Map<string, (StepRow & Partial<Record<keyof typeof measures, number>>)[]>> {
  const byExecution = new Map<string, (StepRow & Partial<Record<keyof typeof measures, number>>)[]>(
    ids.map((id) => [id, []]),
  );
  if (ids.length === 0) return byExecution;
  const rows = await db
    .select(
      opts.measured ? { ...getTableColumns(executionSteps), ...measures } : getTableColumns(executionSteps),
    )
    .from(executionSteps)
    .where(inArray(executionSteps.executionId, ids))
    .orderBy(asc(executionSteps.executionId), asc(executionSteps.position));
  for (const s of rows) byExecution.get(s.executionId)?.push(s);
  return byExecution;
}

/** One page of a user's runs of a workflow, by `startedAt` (the logs index serves it at any history size). */
export async function logPage(db: Db, p: LogPage): Promise<LogEntry[]> {
  const dir = p.order === 'asc' ? asc : desc;
  const rows = await db
    .select()
    .from(executions)
    .where(
      and(
        eq(executions.userId, p.userId),
        eq(executions.workflowId, p.workflowId),
        eq(executions.accountId, p.accountId),
        p.status ? inArray(executions.status, p.status) : undefined,
      ),
    )
    .orderBy(dir(executions.startedAt), dir(executions.id))
    .limit(p.limit)
    .offset((p.page - 1) * p.limit);
  return logEntriesOf(db, rows, p.maxEntryBytes);
}

export async function findExecution(db: Db, accountId: string, userId: string, executionId: string) {
  const [row] = await db
    .select()
    .from(executions)
    .where(
      and(eq(executions.id, executionId), eq(executions.userId, userId), eq(executions.accountId, accountId)),
    );
  return row;
}

/** Hard-deletes every execution of a user and every row hanging off them, in one transaction. */
export async function deleteUserExecutions(db: Db, accountId: string, userId: string): Promise<number> {
  return db.transaction(async (tx: Tx) => {
    await tx.delete(executionSteps).where(eq(executionSteps.userId, userId));
    const gone = await tx
      .delete(executions)
      .where(and(eq(executions.userId, userId), eq(executions.accountId, accountId)))
      .returning({ id: executions.id });
    return gone.length;
  });
}

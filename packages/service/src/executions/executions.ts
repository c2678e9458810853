import type { ExecutionStatus, LogEntry, Result, RunTrigger, StepError } from '@inlay/contract';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Request } from 'express';
import { notFound } from '../http/problem.ts';
import { preparedPerStore } from '../store/prepared.ts';
import { executionSteps, executions } from '../store/schema.ts';
import type { Db, Store, Tx } from '../store/store.ts';
import { checkLookedUp, USER_CTE, userLookup } from '../users/resolve-user.ts';

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

/** `reruns`: the ids of the executions that re-ran this one, oldest first. */
export function toLogEntry(e: EntryExecution, steps: EntryStep[], reruns: string[] = []): LogEntry {
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

/** Log entries of execution rows, with their steps and reruns read in two queries side by side. */
export async function logEntriesOf(db: Db, rows: ExecutionRow[]): Promise<LogEntry[]> {
  const ids = rows.map((r) => r.id);
  const [steps, reruns] = await Promise.all([stepsOf(db, ids), rerunsOf(db, ids)]);
  return rows.map((r) => toLogEntry(r, steps.get(r.id) ?? [], reruns.get(r.id) ?? []));
}

/** Steps of many executions, grouped by execution, in step order. */
export async function stepsOf(db: Db, ids: string[]): Promise<Map<string, StepRow[]>> {
  const byExecution = new Map<string, StepRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byExecution;
  const rows = await db
    .select()
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
  return logEntriesOf(db, rows);
}

type PageRow = { userId: string; username: string; workflow: string | null; e_reruns: string[] | null } & {
  [K in keyof EntryExecution as `e_${K}`]: EntryExecution[K] | null;
} & { [K in keyof EntryStep as `s_${K}`]: EntryStep[K] | null } & { s_position: number | null };

// What Date#toISOString makes of a timestamp (milliseconds truncated, as the driver's Date does), formatted by
// the database: parsing 120 timestamps into Dates and back was a tenth of this route's CPU.
const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
// `e` is lateral so the page is an index range scan of (user, workflow, startedAt) at any history size.
const pageSql = (dir: 'asc' | 'desc') => `with ${USER_CTE},
  w as (select id from workflows where id = $4::uuid and account_id = $1)
  select u.id as "userId", u.username, w.id as workflow,
         e.id as "e_id", ${ISO('e.started_at')} as "e_startedAt", ${ISO('e.stopped_at')} as "e_stoppedAt", e.finished as "e_finished",
         e.status as "e_status", e.error as "e_error", e.rerun_of as "e_rerunOf", e.workflow_id as "e_workflowId",
         e.version as "e_version", e.trigger as "e_trigger", e.trigger_type as "e_triggerType", e.event as "e_event",
         e.summary as "e_summary", e.reruns as "e_reruns", s.position as "s_position", ${ISO('s.started_at')} as "s_startedAt",
         ${ISO('s.stopped_at')} as "s_stoppedAt", s.connector_id as "s_connectorId", s.data as "s_data", s.step_id as "s_stepId", s.name as "s_name",
         s.connector as "s_connector", s.action as "s_action", s.status as "s_status", s.attempts as "s_attempts",
         s.error as "s_error", s.truncated as "s_truncated", s.input as "s_input", s.iteration as "s_iteration",
         s.parent_step_id as "s_parentStepId", s.branch as "s_branch"
  from u left join w on true
  left join lateral (
    select e.id, e.started_at, e.stopped_at, e.finished, e.status, e.error, e.rerun_of, e.workflow_id, e.version,
      e.trigger, e.trigger_type, e.event, e.summary,
      array(select r.id from executions r where r.rerun_of = e.id and r.user_id = u.id
            order by r.started_at, r.id)::text[] as reruns
    from executions e
    where e.user_id = u.id and e.workflow_id = w.id and e.account_id = $1
      and ($7::text[] is null or e.status = any($7::text[]))
    order by e.started_at ${dir}, e.id ${dir} limit $5 offset $6) e on true
  left join execution_steps s on s.execution_id = e.id
  order by e.started_at ${dir}, e.id ${dir}, s.position`;
const pageStatements = {
  asc: preparedPerStore<PageRow>('inlay_log_page_asc', pageSql('asc')),
  desc: preparedPerStore<PageRow>('inlay_log_page_desc', pageSql('desc')),
};

/**
 * `logPage` for the user a request names, with the user and the workflow checked in the same round trip:
 * errors as `resolveUser`'s, then a 404 for a workflow outside the account.
 */
export async function logPageOf(
  store: Store,
  req: Request,
  ref: string | undefined,
  p: Pick<LogPage, 'workflowId' | 'page' | 'limit' | 'order' | 'status'>,
): Promise<LogEntry[]> {
  const lookup = userLookup(req, ref);
  const rows = await pageStatements[p.order](store)([
    lookup.accountId,
    lookup.id,
    lookup.username,
    p.workflowId,
    p.limit,
    (p.page - 1) * p.limit,
    p.status ?? null,
  ]);
  checkLookedUp(req, ref, rows[0] && { id: rows[0].userId, username: rows[0].username });
  if (!rows[0]?.workflow) throw notFound('Workflow');
  const out: LogEntry[] = [];
  let current: { e: EntryExecution; steps: EntryStep[]; reruns: string[] } | undefined;
  const flush = () => current && out.push(toLogEntry(current.e, current.steps, current.reruns));
  for (const r of rows) {
    if (r.e_id === null) continue;
    if (current?.e.id !== r.e_id) {
      flush();
      current = {
        e: {
          id: r.e_id,
          startedAt: r.e_startedAt!,
          stoppedAt: r.e_stoppedAt,
          finished: r.e_finished!,
          status: r.e_status!,
          error: r.e_error,
          rerunOf: r.e_rerunOf,
          workflowId: r.e_workflowId!,
          version: r.e_version!,
          trigger: r.e_trigger,
          triggerType: r.e_triggerType!,
          event: r.e_event,
          summary: r.e_summary,
        },
        steps: [],
        reruns: r.e_reruns ?? [],
      };
    }
    if (r.s_position !== null)
      current.steps.push({
        startedAt: r.s_startedAt!,
        stoppedAt: r.s_stoppedAt,
        connectorId: r.s_connectorId!,
        data: r.s_data,
        stepId: r.s_stepId!,
        name: r.s_name,
        connector: r.s_connector!,
        action: r.s_action!,
        status: r.s_status!,
        attempts: r.s_attempts!,
        error: r.s_error,
        truncated: r.s_truncated!,
        input: r.s_input,
        iteration: r.s_iteration,
        parentStepId: r.s_parentStepId,
        branch: r.s_branch,
      });
  }
  flush();
  return out;
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

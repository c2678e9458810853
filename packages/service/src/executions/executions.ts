import type { LogEntry, Result, StepError } from '@inlay/contract';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { executionSteps, executions } from '../store/schema.ts';
import type { Db, Tx } from '../store/store.ts';

export type ExecutionRow = typeof executions.$inferSelect;
export type StepRow = typeof executionSteps.$inferSelect;

export interface LogPage {
  accountId: string;
  userId: string;
  workflowId: string;
  page: number;
  limit: number;
  order: 'asc' | 'desc';
}

export function toLogEntry(e: ExecutionRow, steps: StepRow[]): LogEntry {
  const results: Result[] = steps.map((s) => ({
    startedAt: s.startedAt.toISOString(),
    stoppedAt: s.stoppedAt?.toISOString() ?? null,
    connectorId: s.connectorId,
    data: s.data as Result['data'],
    stepId: s.stepId,
    connector: s.connector,
    action: s.action,
    status: s.status,
    attempts: s.attempts,
    ...(s.error ? { error: s.error as StepError } : {}),
    ...(s.truncated ? { truncated: true } : {}),
  }));
  return {
    executionId: e.id,
    startedAt: e.startedAt.toISOString(),
    stoppedAt: e.stoppedAt?.toISOString() ?? null,
    finished: e.finished,
    results,
    inputs: steps.map((s) => ({ connectorId: s.connectorId, data: s.input ?? {} })),
    status: e.status,
    error: (e.error as StepError | null) ?? null,
    rerunOf: e.rerunOf,
    workflowId: e.workflowId,
    version: e.version,
  };
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
      ),
    )
    .orderBy(dir(executions.startedAt), dir(executions.id))
    .limit(p.limit)
    .offset((p.page - 1) * p.limit);
  const steps = await stepsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toLogEntry(r, steps.get(r.id) ?? []));
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

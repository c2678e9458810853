import type {
  AccountExecution,
  ExecutionStats,
  ExecutionStatus,
  ExecutionSummary,
  StatsBucket,
  StepError,
} from '@inlay/contract';
import { STATS_MAX_BUCKETS } from '@inlay/contract';
import { and, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { invalid } from '../http/problem.ts';
import { isUuid } from '../http/validate.ts';
import { executions, users, workflows } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { logEntriesOf } from './executions.ts';

export interface ExecutionFilter {
  accountId: string;
  status?: ExecutionStatus[];
  workflowId?: string;
  /** User id or username. */
  userId?: string;
  from?: Date;
  to?: Date;
  cursor?: string;
  limit: number;
}

/** A keyset cursor: the last row's `startedAt` and id, opaque to clients. */
export const encodeCursor = (startedAt: Date, id: string) =>
  Buffer.from(`${startedAt.toISOString()}|${id}`).toString('base64url');

function decodeCursor(cursor: string): { startedAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const startedAt = new Date(at ?? '');
  if (!id || !isUuid(id) || Number.isNaN(startedAt.getTime()))
    throw invalid('query.cursor', 'format', "cursor must be a previous page's nextCursor");
  return { startedAt, id };
}

/** The user a filter names, by id or username; undefined when the account has none such. */
async function filterUser(db: Db, accountId: string, ref: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.accountId, accountId),
        isUuid(ref) ? or(eq(users.id, ref), eq(users.username, ref)) : eq(users.username, ref),
      ),
    )
    .limit(1);
  return row?.id;
}

/**
 * One page of the account's runs, newest first. The keyset `(started_at, id) < cursor` is a range of
 * `executions_account_started_idx` (or the status / user index when filtered), so a page costs the same at
 * any history size; offsets would not.
 */
export async function executionsPage(
  db: Db,
  f: ExecutionFilter,
): Promise<{ data: ExecutionSummary[]; nextCursor?: string }> {
  const where: (SQL | undefined)[] = [eq(executions.accountId, f.accountId)];
  if (f.userId !== undefined) {
    const userId = await filterUser(db, f.accountId, f.userId);
    if (!userId) return { data: [] };
    where.push(eq(executions.userId, userId));
  }
  if (f.status) where.push(inArray(executions.status, f.status));
  if (f.workflowId) where.push(eq(executions.workflowId, f.workflowId));
  if (f.from) where.push(gte(executions.startedAt, f.from));
  if (f.to) where.push(lt(executions.startedAt, f.to));
  if (f.cursor) {
    const c = decodeCursor(f.cursor);
    where.push(
      sql`(${executions.startedAt}, ${executions.id}) < (${c.startedAt.toISOString()}::timestamptz, ${c.id}::uuid)`,
    );
  }
  const rows = await db
    .select({
      e: executions,
      username: users.username,
      workflowName: workflows.name,
    })
    .from(executions)
    .innerJoin(users, eq(users.id, executions.userId))
    .leftJoin(workflows, eq(workflows.id, executions.workflowId))
    .where(and(...where))
    .orderBy(desc(executions.startedAt), desc(executions.id))
    .limit(f.limit + 1);
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: page.map(({ e, username, workflowName }) => ({
      executionId: e.id,
      workflowId: e.workflowId,
      workflowName,
      version: e.version,
      userId: e.userId,
      username,
      status: e.status,
      finished: e.finished,
      startedAt: e.startedAt.toISOString(),
      ...(e.stoppedAt
        ? {
            stoppedAt: e.stoppedAt.toISOString(),
            durationMs: e.stoppedAt.getTime() - e.startedAt.getTime(),
          }
        : {}),
      triggerType: e.triggerType as ExecutionSummary['triggerType'],
      ...(e.event ? { event: e.event } : {}),
      summary: e.summary,
      error: (e.error as StepError | null) ?? null,
      rerunOf: e.rerunOf,
    })),
    ...(rows.length > f.limit && last ? { nextCursor: encodeCursor(last.e.startedAt, last.e.id) } : {}),
  };
}

/** One run of any of the account's users; undefined for a missing one or another account's. */
export async function accountExecution(
  db: Db,
  accountId: string,
  executionId: string,
): Promise<AccountExecution | undefined> {
  const [row] = await db
    .select({ e: executions, username: users.username, workflowName: workflows.name })
    .from(executions)
    .innerJoin(users, eq(users.id, executions.userId))
    .leftJoin(workflows, eq(workflows.id, executions.workflowId))
    .where(and(eq(executions.id, executionId), eq(executions.accountId, accountId)));
  if (!row) return undefined;
  const [entry] = await logEntriesOf(db, [row.e]);
  return { ...entry!, userId: row.e.userId, username: row.username, workflowName: row.workflowName };
}

const BUCKET_MS: Record<StatsBucket, number> = { hour: 3_600_000, day: 86_400_000 };
const floorTo = (t: number, bucket: StatsBucket) => Math.floor(t / BUCKET_MS[bucket]) * BUCKET_MS[bucket];

/** The window a stats query covers, aligned to whole buckets (UTC). */
export function statsWindow(bucket: StatsBucket, from?: Date, to?: Date, now = Date.now()) {
  const step = BUCKET_MS[bucket];
  const end = to ? Math.ceil(to.getTime() / step) * step : floorTo(now, bucket) + step;
  const start = from ? floorTo(from.getTime(), bucket) : end - 24 * step;
  if (start >= end) throw invalid('query.from', 'min', 'from must be before to');
  if ((end - start) / step > STATS_MAX_BUCKETS[bucket])
    throw invalid(
      'query.from',
      'max',
      `a window holds at most ${STATS_MAX_BUCKETS[bucket]} ${bucket} buckets; narrow from/to or use a larger bucket`,
    );
  return { start: new Date(start), end: new Date(end) };
}

const zero = () => ({ queued: 0, running: 0, succeeded: 0, failed: 0 });

/**
 * Runs per bucket by status: one `group by` over the range of `executions_account_started_idx`, plus the
 * p95 duration of each workflow's finished runs in the same window.
 */
export async function executionStats(
  db: Db,
  accountId: string,
  bucket: StatsBucket,
  from?: Date,
  to?: Date,
): Promise<ExecutionStats> {
  const { start, end } = statsWindow(bucket, from, to);
  const inWindow = and(
    eq(executions.accountId, accountId),
    gte(executions.startedAt, start),
    lt(executions.startedAt, end),
  );
  // `bucket` is one of two literals checked by the schema, never user text.
  const trunc = sql.raw(`date_trunc('${bucket}', started_at at time zone 'UTC')`);
  const p95 = sql<number>`percentile_cont(0.95) within group (order by extract(epoch from ${executions.stoppedAt} - ${executions.startedAt}) * 1000)`;
  const [counts, slow] = await Promise.all([
    db
      .select({
        at: sql<string>`to_char(${trunc}, 'YYYY-MM-DD"T"HH24:MI:SS')`,
        status: executions.status,
        n: sql<number>`count(*)::int`,
      })
      .from(executions)
      .where(inWindow)
      .groupBy(sql`1`, executions.status),
    db
      .select({
        workflowId: executions.workflowId,
        workflowName: sql<string | null>`max(${workflows.name})`,
        runs: sql<number>`count(*)::int`,
        p95Ms: p95,
      })
      .from(executions)
      .leftJoin(workflows, eq(workflows.id, executions.workflowId))
      .where(
        and(
          inWindow,
          inArray(executions.status, ['succeeded', 'failed']),
          sql`${executions.stoppedAt} is not null`,
        ),
      )
      .groupBy(executions.workflowId)
      .orderBy(sql`4 desc`)
      .limit(5),
  ]);
  const step = BUCKET_MS[bucket];
  const buckets = new Map<number, ReturnType<typeof zero>>();
  for (let t = start.getTime(); t < end.getTime(); t += step) buckets.set(t, zero());
  const totals = zero();
  for (const c of counts) {
    const b = buckets.get(Date.parse(`${c.at}Z`));
    const n = Number(c.n);
    if (b) b[c.status] += n;
    totals[c.status] += n;
  }
  const done = totals.succeeded + totals.failed;
  return {
    bucket,
    from: start.toISOString(),
    to: end.toISOString(),
    buckets: [...buckets].map(([t, c]) => ({ start: new Date(t).toISOString(), ...c })),
    totals,
    errorRate: done === 0 ? null : totals.failed / done,
    slowestWorkflows: slow.map((s) => ({
      workflowId: s.workflowId,
      workflowName: s.workflowName,
      runs: Number(s.runs),
      p95Ms: Math.round(Number(s.p95Ms)),
    })),
  };
}

import { z } from 'zod';
import { CursorQuery, dataOf, IsoDateTime, intQuery, keysetPage, LIMITS, Uuid } from './common.ts';
import { LogEntry, RUN_TRIGGER_TYPES, statusList } from './logs.ts';
import { defineOperations, idParams } from './operation.ts';

/** Most executions one page of `GET /executions` returns. */
export const EXECUTIONS_PAGE_MAX = 100;
/** The widest window `GET /stats/executions` aggregates, per bucket size (in buckets). */
export const STATS_MAX_BUCKETS = { hour: 24 * 31, day: 366 } as const;

const instant = (what: string) =>
  z.iso
    .datetime({ offset: true, error: `${what} must be an ISO 8601 date-time` })
    .optional()
    .meta({ description: `${what} (ISO 8601 date-time)` });

/** `GET /executions`: the account's runs across users, newest first, by keyset. */
export const ExecutionsQuery = z
  .object({
    status: statusList.meta({ description: 'Only runs in these states, e.g. `failed` or `queued,running`' }),
    workflowId: Uuid.optional(),
    userId: z.string().trim().min(1).max(LIMITS.id).optional().meta({ description: 'User id or username' }),
    from: instant('Runs started at or after this instant'),
    to: instant('Runs started before this instant'),
    cursor: CursorQuery,
    limit: intQuery('limit', 1, EXECUTIONS_PAGE_MAX, 25),
  })
  .strict();
export type ExecutionsQuery = z.input<typeof ExecutionsQuery>;

/** What the account-wide views add to a log entry: who ran it, and the workflow's name. */
const ranBy = {
  userId: Uuid,
  username: z.string(),
  workflowName: z.string().nullable().meta({ description: 'Null when the workflow was deleted' }),
};

/** One run in the account-wide list: a log entry's own fields (no step data), with who ran it. */
export const ExecutionSummary = LogEntry.pick({
  executionId: true,
  workflowId: true,
  version: true,
  status: true,
  finished: true,
  startedAt: true,
  stoppedAt: true,
  summary: true,
  error: true,
  rerunOf: true,
})
  .extend({
    ...ranBy,
    durationMs: z.number().int().optional().meta({ description: 'Absent until the execution stops' }),
    triggerType: z.enum(RUN_TRIGGER_TYPES),
    event: z.string().optional(),
  })
  .meta({ id: 'ExecutionSummary' });
export type ExecutionSummary = z.infer<typeof ExecutionSummary>;

export const ExecutionsPage = keysetPage(ExecutionSummary, 'ExecutionsPage');
export type ExecutionsPage = z.infer<typeof ExecutionsPage>;

/** `GET /executions/{executionId}`: a log entry with who ran it. */
export const AccountExecution = LogEntry.extend(ranBy).meta({ id: 'AccountExecution' });
export type AccountExecution = z.infer<typeof AccountExecution>;

export const STATS_BUCKETS = ['hour', 'day'] as const;
export type StatsBucket = (typeof STATS_BUCKETS)[number];

export const ExecutionStatsQuery = z
  .object({
    from: instant('Start of the window; by default 24 buckets before `to`'),
    to: instant('End of the window (exclusive); now by default'),
    bucket: z.enum(STATS_BUCKETS, { error: 'bucket must be "hour" or "day"' }).default('hour'),
  })
  .strict();
export type ExecutionStatsQuery = z.input<typeof ExecutionStatsQuery>;

const StatusCounts = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
});

export const ExecutionStats = z
  .object({
    bucket: z.enum(STATS_BUCKETS),
    from: IsoDateTime,
    to: IsoDateTime,
    buckets: z
      .array(StatusCounts.extend({ start: IsoDateTime }))
      .meta({ description: 'Every bucket of the window, oldest first, empty ones with zeros' }),
    totals: StatusCounts,
    errorRate: z
      .number()
      .nullable()
      .meta({ description: 'failed / (succeeded + failed) over the window; null without finished runs' }),
    slowestWorkflows: z
      .array(
        z.object({
          workflowId: Uuid,
          workflowName: z.string().nullable(),
          runs: z.number().int(),
          p95Ms: z.number().int(),
        }),
      )
      .meta({
        description: 'Up to 5 workflows with the highest p95 duration of finished runs in the window',
      }),
  })
  .meta({ id: 'ExecutionStats' });
export type ExecutionStats = z.infer<typeof ExecutionStats>;

/** The accountExecution operations of the REST API, keyed by operationId. */
export const accountExecutionOperations = defineOperations({
  listExecutions: {
    method: 'get',
    path: '/executions',
    summary:
      "The account's runs across users, newest first; keyset pages (`cursor` is the previous page's `nextCursor`)",
    tag: 'Executions',
    auth: 'key',
    query: ExecutionsQuery,
    ok: ExecutionsPage,
    notFound: false,
  },
  getExecution: {
    method: 'get',
    path: '/executions/{executionId}',
    summary: "One run of any user of the account: trigger data, each step's input, output and error",
    tag: 'Executions',
    auth: 'key',
    params: idParams('executionId'),
    ok: dataOf(AccountExecution),
  },
  executionStats: {
    method: 'get',
    path: '/stats/executions',
    summary: 'Runs per hour or day by status over a window, the error rate and the slowest workflows (p95)',
    tag: 'Executions',
    auth: 'key',
    query: ExecutionStatsQuery,
    ok: dataOf(ExecutionStats),
    notFound: false,
  },
});

import { z } from 'zod';
import { dataOf, IsoDateTime, intQuery, LIMITS, listOf, UserRef, Uuid } from './common.ts';
import { defineOperations, idParams, UuidParam, userQuery } from './operation.ts';

export const EXECUTION_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/**
 * One output item of a step, as the seed logs it: `json` is an object or null. An array output is one item
 * per element; a value that is not an object is held as `{"value": …}`.
 */
export const OutputItem = z
  .object({
    id: Uuid,
    json: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'The JSON output (object or null)' }),
    statusCode: z
      .number()
      .int()
      .optional()
      .meta({ description: "The provider's HTTP status, when there was one" }),
  })
  .meta({ id: 'OutputItem' });
export type OutputItem = z.infer<typeof OutputItem>;

/**
 * Stable codes a failed step may carry (others may appear; a client should treat an unknown code as a
 * generic failure). The expression codes: JSONata that failed (`expression_error`), ran past the step's
 * timeout (`expression_timeout`) or past the expression memory budget (`expression_memory`).
 */
export const STEP_ERROR_CODES = [
  'timeout',
  'invalid_input',
  'invalid_expression',
  'expression_error',
  'expression_timeout',
  'expression_memory',
  'egress_denied',
  'provider_error',
  'response_too_large',
  'too_many_items',
  'step_error',
] as const;
export type StepErrorCode = (typeof STEP_ERROR_CODES)[number];

export const StepError = z
  .object({
    message: z.string(),
    code: z
      .string()
      .optional()
      .meta({ description: `A stable code, e.g. ${STEP_ERROR_CODES.map((c) => `\`${c}\``).join(', ')}` }),
    statusCode: z.number().int().optional(),
  })
  .meta({ id: 'StepError' });
export type StepError = z.infer<typeof StepError>;

export const Result = z
  .object({
    startedAt: IsoDateTime,
    stoppedAt: IsoDateTime.optional().meta({ description: 'Absent until the step stops' }),
    connectorId: Uuid,
    data: z.array(z.array(OutputItem)),
    stepId: z.string().optional().meta({ description: 'Additive: the step of the definition' }),
    name: z
      .string()
      .optional()
      .meta({ description: "Additive: the step's name in the definition, when it has one" }),
    connector: z.string().optional().meta({ description: 'Additive: the connector slug' }),
    action: z.string().optional(),
    status: z.enum(['succeeded', 'failed']).optional(),
    attempts: z.number().int().optional(),
    error: StepError.optional(),
    truncated: z.boolean().optional(),
    iteration: z.number().int().optional().meta({
      description:
        'Additive: for a step inside a `forEach`, the index of its iteration (of the innermost loop)',
    }),
    iterationPath: z.array(z.number().int()).optional().meta({
      description:
        'Additive: for a step inside a `forEach`, the iteration index of every enclosing `forEach`, outermost first (its last entry is `iteration`); tells apart the iterations of a loop nested in another',
    }),
    parentStepId: z.string().optional().meta({
      description: 'Additive: for a nested step, the `if` or `forEach` step that holds it',
    }),
    branch: z
      .enum(['then', 'else'])
      .optional()
      .meta({ description: 'Additive: for an `if` step, the branch it took' }),
  })
  .meta({ id: 'Result' });
export type Result = z.infer<typeof Result>;

export const Input = z
  .object({
    connectorId: Uuid,
    data: z.record(z.string(), z.unknown()).meta({ description: 'The input given to the connector' }),
  })
  .meta({ id: 'Input' });
export type Input = z.infer<typeof Input>;

export const RUN_TRIGGER_TYPES = ['manual', 'event', 'webhook', 'schedule', 'action', 'app'] as const;
export type RunTriggerType = (typeof RUN_TRIGGER_TYPES)[number];

/** What started a run (additive). */
export const RunTrigger = z
  .object({
    type: z
      .enum(RUN_TRIGGER_TYPES)
      .meta({ description: '`action`: one connector action run by an agent (MCP)' }),
    event: z.string().optional().meta({ description: 'The event name, for `event` runs' }),
    data: z.unknown().meta({
      description: 'The data the run started with: `/run/*` data, a webhook body, a schedule tick',
    }),
  })
  .meta({ id: 'RunTrigger' });
export type RunTrigger = z.infer<typeof RunTrigger>;

export const LogEntry = z
  .object({
    executionId: Uuid,
    startedAt: IsoDateTime,
    stoppedAt: IsoDateTime.optional().meta({ description: 'Absent until the execution stops' }),
    finished: z.boolean(),
    results: z.array(Result),
    inputs: z.array(Input),
    status: z.enum(EXECUTION_STATUSES).meta({ description: 'Additive' }),
    error: StepError.nullable().meta({ description: 'Additive: why the run failed' }),
    rerunOf: Uuid.nullable().meta({ description: 'Additive: the execution this one re-ran' }),
    workflowId: Uuid.meta({ description: 'Additive' }),
    version: z.number().int().meta({ description: 'Additive: the workflow version that ran' }),
    trigger: RunTrigger.meta({ description: 'Additive: what started the run' }),
    summary: z.string().nullable().meta({
      description:
        "Additive: the definition's `summary` evaluated over the trigger data; null when it declares none",
    }),
    reruns: z.array(Uuid).meta({ description: 'Additive: executions that re-ran this one, oldest first' }),
  })
  .meta({ id: 'LogEntry' });
export type LogEntry = z.infer<typeof LogEntry>;

/** A `status` query parameter: one state or several separated by commas (`queued,running`). */
export const statusList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return undefined;
    const list = [...new Set(v.split(','))];
    if (!list.every((s) => (EXECUTION_STATUSES as readonly string[]).includes(s))) {
      ctx.addIssue({
        code: 'custom',
        message: `status must be one or more of ${EXECUTION_STATUSES.join(', ')}, separated by commas`,
      });
      return z.NEVER;
    }
    return list as ExecutionStatus[];
  });

export const LogsQuery = z.object({
  userId: UserRef.optional(),
  page: intQuery('page', 1, 1_000_000, 1),
  limit: intQuery('limit', 1, LIMITS.logPageMax, 10),
  order: z.enum(['asc', 'desc'], { error: 'order must be "asc" or "desc"' }).default('desc'),
  status: statusList.meta({
    description: 'Additive: only runs in these states, e.g. `failed` or `queued,running`',
  }),
});
export type LogsQuery = z.input<typeof LogsQuery>;

/** The log operations of the REST API, keyed by operationId. */
export const logOperations = defineOperations({
  getWorkflowLogs: {
    method: 'get',
    path: '/workflows/{workflowId}/logs',
    summary: 'Execution logs of a workflow',
    tag: 'Workflows',
    auth: 'user',
    params: idParams('workflowId'),
    query: LogsQuery,
    ok: listOf(LogEntry),
  },
  getWorkflowLog: {
    method: 'get',
    path: '/workflows/{workflowId}/logs/{executionId}',
    summary: 'One execution log entry',
    tag: 'Workflows',
    auth: 'user',
    params: z.object({ workflowId: UuidParam, executionId: UuidParam }),
    query: userQuery,
    ok: dataOf(LogEntry),
  },
});

import { z } from 'zod';
import { IsoDateTime, LIMITS, UserRef, Uuid } from './common.ts';

export const EXECUTION_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** One output item of a step, as the seed logs it. */
export const OutputItem = z
  .object({ id: Uuid, json: z.unknown(), statusCode: z.number().int().optional() })
  .meta({ id: 'OutputItem' });
export type OutputItem = z.infer<typeof OutputItem>;

export const StepError = z
  .object({ message: z.string(), code: z.string().optional(), statusCode: z.number().int().optional() })
  .meta({ id: 'StepError' });
export type StepError = z.infer<typeof StepError>;

export const Result = z
  .object({
    startedAt: IsoDateTime,
    stoppedAt: IsoDateTime.nullable(),
    connectorId: Uuid,
    data: z.array(z.array(OutputItem)),
    stepId: z.string().optional().meta({ description: 'Additive: the step of the definition' }),
    connector: z.string().optional().meta({ description: 'Additive: the connector slug' }),
    action: z.string().optional(),
    status: z.enum(['succeeded', 'failed']).optional(),
    attempts: z.number().int().optional(),
    error: StepError.optional(),
    truncated: z.boolean().optional(),
  })
  .meta({ id: 'Result' });
export type Result = z.infer<typeof Result>;

export const Input = z.object({ connectorId: Uuid, data: z.unknown() }).meta({ id: 'Input' });
export type Input = z.infer<typeof Input>;

export const LogEntry = z
  .object({
    executionId: Uuid,
    startedAt: IsoDateTime,
    stoppedAt: IsoDateTime.nullable(),
    finished: z.boolean(),
    results: z.array(Result),
    inputs: z.array(Input),
    status: z.enum(EXECUTION_STATUSES).meta({ description: 'Additive' }),
    error: StepError.nullable().meta({ description: 'Additive: why the run failed' }),
    rerunOf: Uuid.nullable().meta({ description: 'Additive: the execution this one re-ran' }),
    workflowId: Uuid.meta({ description: 'Additive' }),
    version: z.number().int().meta({ description: 'Additive: the workflow version that ran' }),
  })
  .meta({ id: 'LogEntry' });
export type LogEntry = z.infer<typeof LogEntry>;

const intParam = (name: string, min: number, max: number, dflt: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return dflt;
      if (!/^\d+$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be an integer between ${min} and ${max}` });
        return z.NEVER;
      }
      const n = Number(v);
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be an integer between ${min} and ${max}` });
        return z.NEVER;
      }
      return n;
    });

export const LogsQuery = z.object({
  userId: UserRef.optional(),
  page: intParam('page', 1, 1_000_000, 1),
  limit: intParam('limit', 1, LIMITS.logPageMax, 10),
  order: z.enum(['asc', 'desc'], { error: 'order must be "asc" or "desc"' }).default('desc'),
});
export type LogsQuery = z.input<typeof LogsQuery>;

import { z } from 'zod';

export const PROBLEM_CODES = [
  'invalid_request',
  'unsupported_version',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'unprocessable',
  'rate_limited',
  'unavailable',
  'upstream_error',
  'egress_denied',
  'credential_needs_reconnect',
  'internal',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export const ProblemFieldError = z
  .object({
    field: z
      .string()
      .meta({ description: 'Dotted path of the offending field, e.g. `body.username` or `query.limit`' }),
    rule: z.string().meta({ description: 'The rule that failed, e.g. `required`, `max`, `enum`' }),
    message: z.string(),
  })
  .meta({ id: 'ProblemFieldError' });
export type ProblemFieldError = z.infer<typeof ProblemFieldError>;

/** RFC 9457 problem details, plus `message` (what Alloy clients read) and a stable `code`. */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    detail: z.string(),
    message: z.string(),
    code: z.enum(PROBLEM_CODES),
    instance: z.string().optional(),
    requestId: z.string().optional(),
    errors: z.array(ProblemFieldError).optional(),
    supportedVersions: z
      .array(z.string())
      .optional()
      .meta({ description: 'With `unsupported_version`: the `x-api-version` values this build serves' }),
    reason: z
      .string()
      .optional()
      .meta({ description: "With a rejected credential: the provider's reason, secrets redacted" }),
    installationIds: z
      .array(z.string())
      .optional()
      .meta({ description: 'With a credential in use (409): the installations that use it' }),
    workflows: z
      .array(z.object({ workflowId: z.string(), name: z.string() }))
      .optional()
      .meta({ description: 'With a credential in use (409): the workflows of those installations, by name' }),
    workflowCount: z
      .number()
      .int()
      .optional()
      .meta({ description: 'With an integration in use (409): how many workflows it still has' }),
    installationCount: z
      .number()
      .int()
      .optional()
      .meta({ description: 'With a workflow still installed (409): how many installations have it' }),
    retryAfter: z
      .number()
      .int()
      .optional()
      .meta({ description: 'With `rate_limited`: seconds until the quota refills' }),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

import type { ProblemFieldError } from '@inlay/contract';
import type { z } from 'zod';
import { HttpProblem } from './problem.ts';

export type Where = 'body' | 'query' | 'path' | 'header';

const RULES: Record<string, string> = {
  invalid_type: 'type',
  too_big: 'max',
  too_small: 'min',
  invalid_format: 'format',
  invalid_value: 'enum',
  unrecognized_keys: 'unknown_field',
  invalid_union: 'type',
  invalid_key: 'key',
  invalid_element: 'element',
  not_multiple_of: 'multiple_of',
  custom: 'custom',
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: any = input;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[k as string];
  }
  return v;
}

const joinPath = (where: Where, path: readonly PropertyKey[]) =>
  [where, ...path.map(String)].join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]');

export function fieldErrors(where: Where, error: z.ZodError, input: unknown): ProblemFieldError[] {
  return error.issues.flatMap((issue): ProblemFieldError[] => {
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((k) => ({
        field: joinPath(where, [...issue.path, k]),
        rule: 'unknown_field',
        message: 'is not a known field',
      }));
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    return [
      {
        field: joinPath(where, issue.path),
        rule: missing ? 'required' : (RULES[issue.code] ?? issue.code),
        message: missing ? 'is required' : issue.message,
      },
    ];
  });
}

/** Parses request input; failure is a 400 problem naming each field and rule. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, where: Where): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const errors = fieldErrors(where, r.error, input);
  const detail = errors.map((e) => `${e.field} ${e.message}`).join('; ');
  throw new HttpProblem(400, 'invalid_request', detail, { errors });
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_RE.test(v);

/** A path id that cannot be a UUID is malformed input, named like any other field. */
export function pathId(value: unknown, name: string): string {
  if (!isUuid(value))
    throw new HttpProblem(400, 'invalid_request', `path.${name} must be a UUID`, {
      errors: [{ field: `path.${name}`, rule: 'format', message: 'must be a UUID' }],
    });
  return value.toLowerCase();
}

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

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  date: 'a date',
  null: 'null',
};
const FORMATS: Record<string, string> = {
  uuid: 'a UUID',
  url: 'a URL',
  email: 'an email address',
  datetime: 'an ISO 8601 date and time',
};
const list = (values: readonly unknown[]) =>
  values.length === 1
    ? JSON.stringify(values[0])
    : `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
const UNITS: Record<string, [string, string]> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  file: ['byte', 'bytes'],
};

/**
 * An issue as a sentence fragment after the field's name ("must be one of "manual", "event""), where zod's own
 * message is its generic English ("Invalid input: expected string, received number"); the contract's own
 * messages ("must be a lower-case slug") are kept.
 */
function readable(issue: z.core.$ZodIssue): string {
  if (!/^(Invalid|Too (small|big)|Unrecognized)/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${ARTICLE[issue.expected] ?? issue.expected}`;
    case 'invalid_union':
      return 'options' in issue && Array.isArray(issue.options)
        ? `must be ${list(issue.options as unknown[])}`
        : 'matches none of the forms it may take';
    case 'invalid_value':
      return `must be ${list(issue.values)}`;
    case 'invalid_format':
      return FORMATS[issue.format]
        ? `must be ${FORMATS[issue.format]}`
        : `must be in the ${issue.format} format`;
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const unit = UNITS[issue.origin];
      const n = Number(bound);
      const what = unit ? ` ${n === 1 ? unit[0] : unit[1]}` : '';
      const inclusive = issue.inclusive !== false;
      if (issue.code === 'too_small')
        return unit
          ? `needs at least ${bound}${what}`
          : `must be ${inclusive ? 'at least' : 'more than'} ${bound}`;
      return unit
        ? `may have at most ${bound}${what}`
        : `must be ${inclusive ? 'at most' : 'less than'} ${bound}`;
    }
    default:
      return issue.message;
  }
}

/** The issues of a failed parse, one per field: a field with several has their messages joined, its first rule kept. */
export function fieldErrors(where: Where, error: z.ZodError, input: unknown): ProblemFieldError[] {
  const byField = new Map<string, ProblemFieldError>();
  for (const e of issueErrors(where, error, input)) {
    const seen = byField.get(e.field);
    if (!seen) byField.set(e.field, e);
    else if (!seen.message.split('; ').includes(e.message)) seen.message = `${seen.message}; ${e.message}`;
  }
  return [...byField.values()];
}

function issueErrors(where: Where, error: z.ZodError, input: unknown): ProblemFieldError[] {
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
        message: missing ? 'is required' : readable(issue),
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

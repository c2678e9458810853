import { asPathSegment } from '../egress/path-segments.ts';
import { ConnectorError } from '../errors.ts';
import { type EvaluateOptions, evaluateExpression } from '../expressions/index.ts';
import { lookupPath } from '../expressions/path-lookup.ts';

const WHOLE = /^\{\{\s*([\s\S]+?)\s*\}\}$/;
const PART = /\{\{\s*([\s\S]+?)\s*\}\}/g;

type Evaluate = (expression: string) => Promise<unknown> | unknown;

/** A plain path over `data`; anything else is refused (sources and tests render synchronously). */
const pathOnly =
  (data: unknown): Evaluate =>
  (expression) => {
    const found = lookupPath(expression, data);
    if (!found)
      throw new ConnectorError(`Template "{{ ${expression} }}" must be a plain path here`, {
        code: 'invalid_definition',
        transient: false,
      });
    return found.value;
  };

const text = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

/** Renders `{{ }}` templates anywhere in a JSON value; a string that is one template keeps the value's type. */
async function render(value: unknown, evaluate: Evaluate): Promise<unknown> {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return evaluate(whole[1]!);
    const parts: string[] = [];
    for (const m of value.matchAll(PART)) parts.push(text(await evaluate(m[1]!)));
    let i = 0;
    return value.replace(PART, () => parts[i++]!);
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => render(v, evaluate)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await render(v, evaluate);
    return out;
  }
  return value;
}

/** Templates as JSONata over `data` (what action requests use). */
export const renderJsonata = (
  value: unknown,
  data: Record<string, unknown>,
  opts: Partial<EvaluateOptions> = {},
) => render(value, (expression) => evaluateExpression(expression, data, opts));

/** Templates as plain paths over `data`, synchronously (option sources and the credential test). */
export function renderPaths(value: unknown, data: Record<string, unknown>): unknown {
  const evaluate = pathOnly(data);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = WHOLE.exec(v);
      if (whole) return evaluate(whole[1]!);
      return v.replace(PART, (_, e: string) => text(evaluate(e)));
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

/** Fills a path template's `{{ }}` parts with `values`, each as exactly one path segment. */
function joinSegments(template: string, values: unknown[]): string {
  let i = 0;
  return template.replace(PART, (part) => {
    const value = text(values[i++]);
    const segment = asPathSegment(value);
    if (segment === undefined)
      throw new ConnectorError(
        `The path's ${part.replace(/\s+/g, ' ')} gave "${value.slice(0, 100)}", which is not one path segment (empty, "." or "..")`,
        { code: 'invalid_input', transient: false },
      );
    return segment;
  });
}

/**
 * Renders a request path: each `{{ }}` value inside literal text becomes one segment (a `/` in it is encoded, so
 * an id such as `a/b` cannot reach another endpoint; `.`, `..` and empty values are refused), as the built-ins'
 * `path` tag does. A path that is a single template is the value as written: its author chose a whole path. The
 * runtime refuses dot segments and other origins in either case.
 */
export async function renderJsonataPath(
  template: unknown,
  data: Record<string, unknown>,
  opts: Partial<EvaluateOptions> = {},
): Promise<unknown> {
  if (typeof template !== 'string' || WHOLE.test(template)) return renderJsonata(template, data, opts);
  const values: unknown[] = [];
  for (const m of template.matchAll(PART)) values.push(await evaluateExpression(m[1]!, data, opts));
  return joinSegments(template, values);
}

/** `renderJsonataPath` with plain paths over `data`, synchronously (option sources and the credential test). */
export function renderPathsPath(template: unknown, data: Record<string, unknown>): unknown {
  if (typeof template !== 'string' || WHOLE.test(template)) return renderPaths(template, data);
  const evaluate = pathOnly(data);
  return joinSegments(
    template,
    [...template.matchAll(PART)].map((m) => evaluate(m[1]!)),
  );
}

import { ConnectorError } from '../errors.ts';
import { evaluateExpression } from '../expressions/index.ts';
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
export const renderJsonata = (value: unknown, data: Record<string, unknown>) =>
  render(value, (expression) => evaluateExpression(expression, data));

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

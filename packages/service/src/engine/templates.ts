import jsonata from 'jsonata';
import { LRUCache } from 'lru-cache';

/** A piece of a template string: literal text or a `{{ expression }}`. */
export type TemplatePart = { text: string } | { expr: string };

/** Why a template could not be compiled or evaluated; `path` names the input field (`input.text`). */
export class TemplateError extends Error {
  override name = 'TemplateError';
  constructor(
    readonly path: string,
    readonly code: 'invalid_expression' | 'expression_error',
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

type Expression = ReturnType<typeof jsonata>;

// Definitions never change once published, so the same expressions come back run after run.
const compiled = new LRUCache<string, Expression>({ max: 5_000 });

/**
 * Splits a string into text and `{{ }}` parts. The closing `}}` is looked for outside string literals and
 * brackets, so object constructors (`{{ {"a": {"b": 1}} }}`) survive. An unclosed `{{` stays literal text.
 */
export function parseTemplate(s: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let pos = 0;
  while (pos < s.length) {
    const open = s.indexOf('{{', pos);
    const close = open < 0 ? -1 : closingBraces(s, open + 2);
    if (open < 0 || close < 0) {
      parts.push({ text: s.slice(pos) });
      break;
    }
    if (open > pos) parts.push({ text: s.slice(pos, open) });
    parts.push({ expr: s.slice(open + 2, close).trim() });
    pos = close + 2;
  }
  return parts;
}

function closingBraces(s: string, from: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (depth === 0 && c === '}' && s[i + 1] === '}') return i;
    else if (c === '{' || c === '[' || c === '(') depth++;
    else if ((c === '}' || c === ']' || c === ')') && depth > 0) depth--;
  }
  return -1;
}

const hasTemplate = (s: string) => s.includes('{{');

function compile(expr: string, path: string): Expression {
  let e = compiled.get(expr);
  if (!e) {
    if (expr === '') throw new TemplateError(path, 'invalid_expression', '{{ }} holds no expression');
    try {
      e = jsonata(expr);
    } catch (err) {
      throw new TemplateError(
        path,
        'invalid_expression',
        `invalid JSONata in {{ ${expr} }}: ${(err as Error).message}`,
      );
    }
    compiled.set(expr, e);
  }
  return e;
}

/** Compiles every `{{ }}` in a step input without running it; throws the first TemplateError. */
export function checkTemplates(value: unknown, path = 'input'): void {
  if (typeof value === 'string') {
    if (!hasTemplate(value)) return;
    for (const p of parseTemplate(value)) if ('expr' in p) compile(p.expr, path);
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) checkTemplates(v, `${path}[${i}]`);
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) checkTemplates(v, `${path}.${k}`);
}

// JSONata marks result arrays with extra properties and may return functions; a JSON round trip keeps data only.
const plain = (v: unknown): unknown =>
  v === undefined ? undefined : JSON.parse(JSON.stringify(v) ?? 'null');

async function evaluate(expr: string, scope: unknown, path: string): Promise<unknown> {
  const e = compile(expr, path);
  try {
    return plain(await e.evaluate(scope));
  } catch (err) {
    throw new TemplateError(path, 'expression_error', `{{ ${expr} }} failed: ${(err as Error).message}`);
  }
}

const asText = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

/**
 * Resolves `{{ }}` templates in a step input over `scope`. A string that is exactly one template keeps the
 * expression's type (a number stays a number, an object an object); mixed strings interpolate text.
 */
export async function resolveTemplates(value: unknown, scope: unknown, path = 'input'): Promise<unknown> {
  if (typeof value === 'string') {
    if (!hasTemplate(value)) return value;
    const parts = parseTemplate(value.trim());
    if (parts.length === 1 && 'expr' in parts[0]!) return evaluate(parts[0].expr, scope, path);
    let out = '';
    for (const p of parseTemplate(value))
      out += 'expr' in p ? asText(await evaluate(p.expr, scope, path)) : p.text;
    return out;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [i, v] of value.entries()) out.push(await resolveTemplates(v, scope, `${path}[${i}]`));
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const resolved = await resolveTemplates(v, scope, `${path}.${k}`);
      if (resolved !== undefined) out[k] = resolved;
    }
    return out;
  }
  return value;
}

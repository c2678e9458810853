import { ConnectorError, evaluateExpression, expressionProblem } from '@inlay/connectors';

/** A piece of a template string: literal text or a `{{ expression }}`. */
export type TemplatePart = { text: string } | { expr: string };

/** Why a template could not be compiled or evaluated; `path` names the input field (`input.text`). */
export class TemplateError extends Error {
  override name = 'TemplateError';
  constructor(
    readonly path: string,
    readonly code: 'invalid_expression' | 'expression_error' | 'expression_timeout' | 'expression_memory',
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/**
 * Splits a string into text and `{{ }}` parts. The closing `}}` is looked for outside string literals and
 * brackets, so object constructors (`{{ {"a": {"b": 1}} }}`) survive. A `{{` with no `}}` after it stays literal text.
 */
export function parseTemplate(s: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let pos = 0;
  while (pos < s.length) {
    const open = s.indexOf('{{', pos);
    // Unbalanced brackets (`{{ foo( }}`) still end at the next `}}`: the expression then fails to compile,
    // rather than the template passing as literal text.
    const close =
      open < 0 ? -1 : closingBraces(s, open + 2) < 0 ? s.indexOf('}}', open + 2) : closingBraces(s, open + 2);
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

function compile(expr: string, path: string): void {
  if (expr === '') throw new TemplateError(path, 'invalid_expression', '{{ }} holds no expression');
  const problem = expressionProblem(expr);
  if (problem)
    throw new TemplateError(path, 'invalid_expression', `invalid JSONata in {{ ${expr} }}: ${problem}`);
}

/** Compiles every `{{ }}` in a step input without running it; throws the first TemplateError. */
export function checkTemplates(value: unknown, path = 'input'): void {
  if (typeof value === 'string') {
    if (!hasTemplate(value)) return;
    for (const p of parseTemplate(value)) {
      if ('expr' in p) compile(p.expr, path);
      // A `{{` left in the text never closed, and a `}}` there never opened: the author meant a template.
      else if (p.text.includes('{{'))
        throw new TemplateError(path, 'invalid_expression', 'a {{ has no }} to close it');
      else if (p.text.includes('}}'))
        throw new TemplateError(path, 'invalid_expression', 'a }} closes no {{');
    }
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) checkTemplates(v, `${path}[${i}]`);
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) checkTemplates(v, `${path}.${k}`);
}

/** How long the templates of one input may take together, and what cancels them. */
export interface TemplateLimits {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The account the templates are evaluated for: the expression pool serves waiting accounts in turn. */
  tenant?: string;
}

interface Budget {
  deadline: number;
  signal?: AbortSignal;
  tenant?: string;
}

const EXPRESSION_CODES = new Set(['expression_error', 'expression_timeout', 'expression_memory']);

async function evaluate(expr: string, scope: unknown, path: string, budget: Budget): Promise<unknown> {
  compile(expr, path);
  try {
    return await evaluateExpression(expr, scope, {
      timeoutMs: Math.max(1, budget.deadline - Date.now()),
      signal: budget.signal,
      tenant: budget.tenant,
    });
  } catch (err) {
    if (err instanceof ConnectorError && EXPRESSION_CODES.has(err.code))
      throw new TemplateError(
        path,
        err.code as TemplateError['code'],
        `{{ ${expr} }} failed: ${err.message}`,
      );
    throw err;
  }
}

const asText = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

/**
 * Resolves `{{ }}` templates in a step input over `scope`. A string that is exactly one template keeps the
 * expression's type (a number stays a number, an object an object); mixed strings interpolate text.
 */
export async function resolveTemplates(
  value: unknown,
  scope: unknown,
  path = 'input',
  limits: TemplateLimits = {},
): Promise<unknown> {
  if (!hasAnyTemplate(value)) return value;
  const budget = {
    deadline: Date.now() + (limits.timeoutMs ?? DEFAULT_TEMPLATE_TIMEOUT_MS),
    signal: limits.signal,
    tenant: limits.tenant,
  };
  return resolve(value, scope, path, budget);
}

/** Without a limit of their own, the templates of one input get this long. */
const DEFAULT_TEMPLATE_TIMEOUT_MS = 30_000;

function hasAnyTemplate(value: unknown): boolean {
  if (typeof value === 'string') return hasTemplate(value);
  if (Array.isArray(value)) return value.some(hasAnyTemplate);
  if (value && typeof value === 'object') return Object.values(value).some(hasAnyTemplate);
  return false;
}

async function resolve(value: unknown, scope: unknown, path: string, budget: Budget): Promise<unknown> {
  if (typeof value === 'string') {
    if (!hasTemplate(value)) return value;
    const parts = parseTemplate(value.trim());
    if (parts.length === 1 && 'expr' in parts[0]!) return evaluate(parts[0].expr, scope, path, budget);
    let out = '';
    for (const p of parseTemplate(value))
      out += 'expr' in p ? asText(await evaluate(p.expr, scope, path, budget)) : p.text;
    return out;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [i, v] of value.entries()) out.push(await resolve(v, scope, `${path}[${i}]`, budget));
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const resolved = await resolve(v, scope, `${path}.${k}`, budget);
      if (resolved !== undefined) out[k] = resolved;
    }
    return out;
  }
  return value;
}

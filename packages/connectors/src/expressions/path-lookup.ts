/** A dotted path of plain names (`trigger.name`, `config.channel`), as JSONata reads it; no keywords. */
const PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*$/;
const KEYWORDS = new Set(['and', 'or', 'in', 'true', 'false', 'null', 'function']);

/**
 * Resolves a path-only expression without JSONata, when the answer is certain: every step is an own
 * property of an object (an array on the way would make JSONata map over it, so that is left to JSONata).
 * Such an expression cannot run away, and most `{{ }}` templates are one. Returns undefined when the
 * expression is not a plain path or the data needs JSONata's rules; `{ value }` otherwise.
 */
export function lookupPath(expression: string, data: unknown): { value: unknown } | undefined {
  if (!PATH.test(expression)) return undefined;
  const names = expression.split('.').map((n) => n.trim());
  if (names.some((n) => KEYWORDS.has(n))) return undefined;
  let at: unknown = data;
  for (const name of names) {
    if (Array.isArray(at)) return undefined;
    if (at === null || typeof at !== 'object') return { value: undefined };
    if (!Object.hasOwn(at, name)) return { value: undefined };
    at = (at as Record<string, unknown>)[name];
  }
  return { value: at };
}

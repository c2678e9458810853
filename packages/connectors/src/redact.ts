export const REDACTED = '[redacted]';

/** Secret strings worth scrubbing: short values would match too much innocent text. */
export const secretValues = (values: Iterable<string | undefined>) =>
  [...new Set([...values].filter((v): v is string => typeof v === 'string' && v.length >= 6))].sort(
    (a, b) => b.length - a.length,
  );

/** Deep-copies `value` with every occurrence of a secret replaced, in keys and strings alike. */
export function redact<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const scrub = (s: string) => {
    let out = s;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(v)) out[scrub(k)] = walk(val);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

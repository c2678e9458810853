import type { CredentialField, ProblemFieldError } from '@inlay/contract';
import { HttpProblem } from '../http/problem.ts';

const isHttpUrl = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

/**
 * Checks credential input against the connector's declared fields: every required one present, no unknown
 * ones, URLs that are http(s). Every failure is named in one 400. Returns the values to store, with
 * non-secret values trimmed (secrets are kept byte for byte).
 */
export function checkCredentialFields(
  declared: readonly CredentialField[],
  data: Record<string, string>,
  where = 'body.data',
): Record<string, string> {
  const errors: ProblemFieldError[] = [];
  const known = new Map(declared.map((f) => [f.name, f]));
  for (const name of Object.keys(data))
    if (!known.has(name))
      errors.push({
        field: `${where}.${name}`,
        rule: 'unknown_field',
        message: 'is not a field of this connector',
      });
  const out: Record<string, string> = {};
  for (const f of declared) {
    const raw = data[f.name];
    const value = raw === undefined ? undefined : f.secret ? raw : raw.trim();
    if (value === undefined || value.trim() === '') {
      if (f.required)
        errors.push({ field: `${where}.${f.name}`, rule: 'required', message: `${f.label} is required` });
      continue;
    }
    if (f.type === 'url' && !isHttpUrl(value))
      errors.push({
        field: `${where}.${f.name}`,
        rule: 'format',
        message: 'must be an absolute http(s) URL',
      });
    out[f.name] = value;
  }
  if (errors.length)
    throw new HttpProblem(400, 'invalid_request', errors.map((e) => `${e.field}: ${e.message}`).join('; '), {
      errors,
    });
  return out;
}

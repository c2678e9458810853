import {
  type ConnectorDefinition,
  type ConnectorRuntime,
  fill,
  parseCredentialOrigins,
  requestHeaderProblem,
} from '@inlay/connectors';
import { invalid } from '../http/problem.ts';

/**
 * Checks what a credential's fields mean on the wire: a header name the credential will set must be one a
 * caller may send (not `host`, `transfer-encoding`, `proxy-*`, ...), and a bound credential's origins must
 * be http(s) origins. Returns the fields with the origins normalised, and the origins themselves; a bad
 * value is a 400 naming its field.
 */
export function checkBoundFields(
  def: ConnectorDefinition,
  fields: Record<string, string>,
  where = 'body.data',
): { fields: Record<string, string>; allowedOrigins?: string[] } {
  const auth = def.auth;
  if (auth.type !== 'apiKey') return { fields };
  if (auth.in === 'header') {
    const name = fill(auth.name, fields);
    const problem = name ? requestHeaderProblem(name, fill(auth.format ?? '', fields)) : undefined;
    if (problem) {
      const source = /\{([A-Za-z0-9_]+)\}/.exec(auth.name)?.[1];
      throw invalid(source ? `${where}.${source}` : where, 'header', `${name} ${problem}`);
    }
  }
  if (!auth.originsField) return { fields };
  const field = auth.originsField;
  let allowedOrigins: string[];
  try {
    allowedOrigins = parseCredentialOrigins(fields[field] ?? '');
  } catch (err) {
    throw invalid(`${where}.${field}`, 'origin', (err as Error).message);
  }
  return { fields: { ...fields, [field]: allowedOrigins.join(',') }, allowedOrigins };
}

/**
 * A credential whose settings fill the connector's base URL (a host, a subdomain) must make a URL that
 * parses, or every request would fail: say so now, naming the field. Where it points is the egress
 * policy's to judge, at each request.
 */
export function checkFilledBaseUrl(
  runtime: ConnectorRuntime,
  def: ConnectorDefinition,
  fields: Record<string, string>,
  where = 'body.data',
): void {
  if (!/\{[A-Za-z0-9_]+\}/.test(def.baseUrl) || runtime.operatorOrigin(def, 'BASE_URL')) return;
  const base = runtime.baseUrl(def, runtime.settings(def, { fields }));
  try {
    new URL(base);
  } catch {
    const names = [...def.baseUrl.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
    throw invalid(
      names.length === 1 ? `${where}.${names[0]}` : where,
      'url',
      `makes the address "${base}", which is not a valid URL`,
    );
  }
}

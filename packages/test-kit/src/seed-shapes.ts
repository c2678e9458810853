/**
 * The seed contract's resources (`../shared/seed/000_4d897d31507f3d6a.txt`), written down field by field from its
 * tables rather than from @inlay/contract, so that a rename on either side shows up as a violation.
 * Additive fields are allowed; a seed field is never `null` unless the seed says so.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// ISO 8601 UTC with milliseconds, as every seed timestamp is sent.
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export type Kind =
  | 'string'
  | 'uuid'
  | 'isoMs'
  | 'boolean'
  | 'integer'
  | 'url'
  | 'jwt'
  | 'object'
  | 'objectOrNull'
  | { array: Kind }
  | { map: Kind }
  | { literal: string }
  | Shape;

/** A field of a seed resource: its kind, and whether the seed lets it be absent. */
export type Field = Kind | { kind: Kind; optional: true };
export type Shape = { fields: Record<string, Field> };

const shape = (fields: Record<string, Field>): Shape => ({ fields });
const optional = (kind: Kind): Field => ({ kind, optional: true });

export const Connector = shape({
  connectorName: 'string',
  connectorId: 'uuid',
  connector: 'string',
  icon: 'url',
});

export const Workflow = shape({
  workflowId: 'string',
  name: 'string',
  createdAt: 'isoMs',
  updatedAt: 'isoMs',
  installed: 'boolean',
  active: 'boolean',
  version: 'integer',
  integrationId: 'string',
  connectors: { array: Connector },
});

export const OutputItem = shape({ id: 'uuid', json: 'objectOrNull', statusCode: optional('integer') });

export const Result = shape({
  startedAt: 'isoMs',
  stoppedAt: optional('isoMs'),
  data: { array: { array: OutputItem } },
  connectorId: 'uuid',
});

export const Input = shape({ connectorId: 'string', data: 'object' });

export const LogEntry = shape({
  executionId: 'string',
  startedAt: 'isoMs',
  // The seed lists it; a run still going has not stopped, so it is absent then (never null).
  stoppedAt: optional('isoMs'),
  finished: 'boolean',
  results: { array: Result },
  inputs: { array: Input },
});

export const Field = shape({ name: 'string', displayName: 'string', type: 'string', required: 'boolean' });

export const FormData = shape({
  workflowId: 'string',
  app: 'string',
  blockId: 'uuid',
  fields: { array: Field },
});

export const Installation = shape({
  installationId: 'string',
  integrationId: 'string',
  userId: 'string',
  formData: { array: FormData },
  credentialIds: { map: 'string' },
  workflowIds: { array: 'string' },
  installedAt: 'isoMs',
  enabled: 'boolean',
});

export const ToolProperty = shape({ type: 'string', description: 'string' });
export const Tool = shape({
  name: 'string',
  description: 'string',
  inputSchema: shape({ type: { literal: 'object' }, properties: { map: ToolProperty } }),
});

export const listOf = (item: Kind) => shape({ data: { array: item } });
export const TokenResponse = shape({ token: 'jwt' });
export const MessageResponse = shape({ message: 'string' });

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every way `value` departs from `kind`, as `path: what` lines; empty when it conforms. */
export function violations(value: unknown, kind: Kind, path = '$'): string[] {
  const bad = (what: string) => [`${path}: ${what}, got ${JSON.stringify(value)?.slice(0, 80)}`];
  if (typeof kind === 'object' && 'fields' in kind) {
    if (!isPlainObject(value)) return bad(`expected an object, found ${describe(value)}`);
    return Object.entries(kind.fields).flatMap(([name, f]) => {
      const opt = typeof f === 'object' && 'optional' in f;
      const k = opt ? (f as { kind: Kind }).kind : (f as Kind);
      if (!(name in value)) return opt ? [] : [`${path}.${name}: missing`];
      if (value[name] === null && k !== 'objectOrNull')
        return [`${path}.${name}: null (the seed types it as ${typeof k === 'string' ? k : 'a value'})`];
      return violations(value[name], k, `${path}.${name}`);
    });
  }
  if (typeof kind === 'object' && 'array' in kind) {
    if (!Array.isArray(value)) return bad(`expected an array, found ${describe(value)}`);
    return value.flatMap((v, i) => violations(v, kind.array, `${path}[${i}]`));
  }
  if (typeof kind === 'object' && 'map' in kind) {
    if (!isPlainObject(value)) return bad(`expected an object, found ${describe(value)}`);
    return Object.entries(value).flatMap(([k, v]) => violations(v, kind.map, `${path}.${k}`));
  }
  if (typeof kind === 'object' && 'literal' in kind)
    return value === kind.literal ? [] : bad(`expected "${kind.literal}"`);
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? [] : bad('expected a string');
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? [] : bad('expected a UUID');
    case 'isoMs':
      return typeof value === 'string' && ISO_MS.test(value) && !Number.isNaN(Date.parse(value))
        ? []
        : bad('expected an ISO 8601 UTC timestamp with milliseconds');
    case 'boolean':
      return typeof value === 'boolean' ? [] : bad('expected a boolean');
    case 'integer':
      return Number.isInteger(value) ? [] : bad('expected an integer');
    case 'url':
      return typeof value === 'string' && URL.canParse(value) && /^https?:/.test(value)
        ? []
        : bad('expected an absolute http(s) URL');
    case 'jwt':
      return typeof value === 'string' && JWT.test(value)
        ? []
        : bad('expected a JWT (three dot-separated parts)');
    case 'object':
      return isPlainObject(value) ? [] : bad('expected an object');
    case 'objectOrNull':
      return value === null || isPlainObject(value) ? [] : bad('expected an object or null');
  }
}

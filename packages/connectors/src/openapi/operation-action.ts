import type { DeclarativeConnector } from '@inlay/contract';
import { requestHeaderProblem } from '../egress/request-headers.ts';
import { schemaState, toJsonSchema } from './json-schema.ts';
import { bodyProperties, flattenable, mergeAllOf, pickMediaType, type Schema } from './request-body.ts';

export type DraftAction = DeclarativeConnector['actions'][number];
type Method = DraftAction['request']['method'];

export interface OperationRef {
  method: Method;
  path: string;
  op: Schema;
  /** Parameters declared on the path item, which the operation's own override by name and place. */
  shared: Schema[];
  /** Swagger 2.0: the document's `consumes`, for operations that do not say. */
  consumes?: string[];
  swagger: boolean;
}

// Set by the credential or the body type: a parameter naming them would fight the connector.
const OWN_HEADERS = new Set(['authorization', 'content-type', 'accept', 'cookie']);
// Parameter facets Swagger 2.0 puts on the parameter itself instead of in a schema.
const FACETS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
];

const MAX_TEMPLATE = 10_000;

/** `input.name` as JSONata, quoted so any parameter name (`X-Request-Id`, `filter[name]`) reads as one. */
const ref = (key: string) => `input.\`${key}\``;

export interface Converted {
  action: Omit<DraftAction, 'id'>;
  warnings: string[];
}

/** One operation as a declarative action (without its id): input schema, request template, and what was dropped. */
export function operationAction({ method, path, op, shared, consumes, swagger }: OperationRef): Converted {
  const warnings: string[] = [];
  const state = schemaState();
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const pathKeys = new Map<string, string>();

  const byPlace = new Map<string, Schema>();
  for (const p of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])])
    if (p && typeof p === 'object' && typeof p.name === 'string') byPlace.set(`${p.in}:${p.name}`, p);
  const params = [...byPlace.values()];

  /** Adds an input property, renamed `<in>_<name>` when the name is taken. */
  const addInput = (name: string, place: string, schema: Schema, isRequired: boolean): string | undefined => {
    if (name.includes('`')) {
      warnings.push(`${place} parameter "${name}" was dropped: its name holds a backtick`);
      return undefined;
    }
    let key = name;
    if (key in properties) key = `${place}_${name}`;
    if (key in properties) {
      warnings.push(`${place} parameter "${name}" was dropped: its name repeats another input`);
      return undefined;
    }
    properties[key] = schema;
    if (isRequired) required.push(key);
    return key;
  };

  const tooLong = (p: Schema) => {
    if (String(p.name).length <= 128) return false;
    warnings.push(
      `${p.in} parameter "${String(p.name).slice(0, 40)}…" was dropped: its name is longer than 128 characters`,
    );
    return true;
  };
  const paramSchema = (p: Schema): Schema => {
    if (p.schema) return toJsonSchema(p.schema, state);
    if (p.content && typeof p.content === 'object') {
      const first = Object.values(p.content)[0] as Schema | undefined;
      return toJsonSchema(first?.schema ?? {}, state);
    }
    const facets = Object.fromEntries(FACETS.filter((k) => k in p).map((k) => [k, p[k]]));
    return toJsonSchema(facets, state);
  };
  const withDescription = (s: Schema, p: Schema) =>
    typeof p.description === 'string' && !s.description
      ? { ...s, description: p.description.slice(0, 2000) }
      : s;

  let formData: Schema[] = [];
  let bodyParam: Schema | undefined;
  for (const p of params) {
    if (p.in === 'body') {
      bodyParam = p;
      continue;
    }
    if (p.in === 'formData') {
      formData.push(p);
      continue;
    }
    if (p.in === 'cookie') {
      warnings.push(`cookie parameter "${p.name}" was dropped: cookies are not sent`);
      continue;
    }
    if ((p.in === 'query' || p.in === 'header') && tooLong(p)) continue;
    if (p.in === 'header') {
      const lower = String(p.name).toLowerCase();
      if (OWN_HEADERS.has(lower) || requestHeaderProblem(p.name, '')) {
        warnings.push(
          `header parameter "${p.name}" was dropped: the connector sets that header itself, or it may not be set`,
        );
        continue;
      }
    }
    const key = addInput(
      p.name,
      p.in,
      withDescription(paramSchema(p), p),
      p.in === 'path' || p.required === true,
    );
    if (!key) continue;
    if (p.in === 'path') pathKeys.set(p.name, key);
    else if (p.in === 'query') query[p.name] = queryTemplate(p, properties[key]!, key, swagger, warnings);
    else if (p.in === 'header') headers[p.name] = `{{ ${ref(key)} }}`;
  }

  // Path: each `{name}` becomes the URL-encoded input; one the parameters forgot is still asked for.
  const pathTemplate = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    let key = pathKeys.get(name);
    if (!key) {
      key = addInput(name, 'path', { type: 'string' }, true);
      if (!key) return `{${name}}`;
      pathKeys.set(name, key);
      warnings.push(`path parameter "${name}" is not declared: it was added as a required string`);
    }
    return `{{ $encodeUrlComponent($string(${ref(key)})) }}`;
  });

  let body: string | undefined;
  let bodyType: 'json' | 'form' | undefined;
  const addBody = (schema: Schema, isRequired: boolean, type: 'json' | 'form') => {
    bodyType = type === 'form' ? 'form' : undefined;
    const merged = mergeAllOf(schema);
    const names = Object.keys(merged.properties ?? {});
    if (flattenable(merged) && names.every((n) => !(n in properties) && !n.includes('`'))) {
      const converted = bodyProperties(merged, state);
      const kept = Object.keys(converted.properties);
      Object.assign(properties, converted.properties);
      if (isRequired) required.push(...converted.required);
      const list = kept.map((n) => JSON.stringify(n)).join(', ');
      // Only the body's own properties go in the body; `$merge` keeps it an object when none is given.
      body = `{{ $merge([{}, $sift(input, function($v, $k) { $k in [${list}] })]) }}`;
      if (body.length <= MAX_TEMPLATE) return;
      // Too many properties to list in one template: the body is one input instead.
      for (const n of kept) delete properties[n];
      required.splice(0, required.length, ...required.filter((n) => !kept.includes(n)));
      body = undefined;
    }
    const key = addInput(
      'body' in properties ? 'requestBody' : 'body',
      'body',
      toJsonSchema(schema, state),
      isRequired,
    );
    if (key) body = `{{ ${ref(key)} }}`;
  };

  if (swagger) {
    const types: string[] = op.consumes ?? consumes ?? [];
    if (bodyParam) {
      const picked = pickMediaType(types.length ? types : ['application/json']);
      if (picked) addBody(bodyParam.schema ?? {}, bodyParam.required === true, picked.bodyType);
      else
        warnings.push(
          `request body (${types.join(', ')}) was dropped: only JSON and URL-encoded bodies are sent`,
        );
    }
    if (formData.length) {
      const multipart =
        formData.some((p) => p.type === 'file') ||
        (types.length > 0 && !types.some((t) => /x-www-form-urlencoded/i.test(t)));
      if (multipart) {
        warnings.push(
          `multipart form body (${formData.map((p) => p.name).join(', ')}) was dropped: only JSON and URL-encoded bodies are sent`,
        );
        formData = [];
      }
      const fields: Schema = { type: 'object', properties: {}, required: [] };
      for (const p of formData) {
        fields.properties[p.name] = withDescription(paramSchema(p), p);
        if (p.required) fields.required.push(p.name);
      }
      if (formData.length) addBody(fields, true, 'form');
    }
  } else if (op.requestBody && typeof op.requestBody === 'object') {
    const content: Record<string, Schema> = op.requestBody.content ?? {};
    const picked = pickMediaType(Object.keys(content));
    if (!picked)
      warnings.push(
        `request body (${Object.keys(content).join(', ') || 'no media type'}) was dropped: only JSON and URL-encoded bodies are sent`,
      );
    else addBody(content[picked.type]?.schema ?? {}, op.requestBody.required === true, picked.bodyType);
  }

  if (state.circular) warnings.push('a schema refers to itself: that part of the input accepts any value');
  if (state.truncated) warnings.push('the input schema is very large: its deepest parts accept any value');
  if (Array.isArray(op.servers) && op.servers.length)
    warnings.push(
      `it names its own server (${op.servers[0]?.url}): the draft calls the connector's base URL`,
    );

  const name = oneLine(op.summary) || oneLine(op.operationId) || `${method} ${path}`;
  return {
    action: {
      name: name.slice(0, 255),
      description: (oneLine(op.description) || oneLine(op.summary) || `${method} ${path}`).slice(0, 2000),
      kind: method === 'GET' ? 'read' : 'write',
      input: { type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}) },
      request: {
        method,
        path: pathTemplate,
        ...(Object.keys(query).length ? { query } : {}),
        ...(Object.keys(headers).length ? { headers } : {}),
        ...(body ? { body } : {}),
        ...(bodyType ? { bodyType } : {}),
      },
    },
    warnings,
  };
}

// Swagger 2.0's `collectionFormat` and OpenAPI 3's `style` with `explode: false`: one value, joined.
const SEPARATORS: Record<string, string> = { csv: ',', ssv: ' ', tsv: '\t', pipes: '|' };
const STYLE_SEPARATORS: Record<string, string> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/** A query parameter's template: arrays repeat the parameter unless the document joins them; objects go as JSON. */
function queryTemplate(p: Schema, s: Schema, key: string, swagger: boolean, warnings: string[]): string {
  if (s.type === 'object' || (!s.type && s.properties)) {
    warnings.push(`query parameter "${p.name}" is an object: it is sent as JSON text`);
    return `{{ $string(${ref(key)}) }}`;
  }
  if (s.type === 'array') {
    const separator = swagger
      ? SEPARATORS[p.collectionFormat ?? 'csv']
      : p.explode === false || p.style === 'spaceDelimited' || p.style === 'pipeDelimited'
        ? STYLE_SEPARATORS[p.style ?? 'form']
        : undefined;
    if (separator) return `{{ $join(${ref(key)}.$string(), ${JSON.stringify(separator)}) }}`;
  }
  return `{{ ${ref(key)} }}`;
}

const oneLine = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '');

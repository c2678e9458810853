/**
 * OpenAPI schemas (2.0 and 3.0 dialects, 3.1's JSON Schema) as the JSON Schema an action's `input` takes:
 * `nullable` becomes a `null` type, boolean `exclusiveMinimum`/`Maximum` become numbers, Swagger's `file`
 * type a string, OpenAPI-only keywords go, and what a draft cannot hold (a circular `$ref`, a tree too big
 * for review) is loosened to "any value" and reported.
 */

/** Keywords that say nothing about which values are valid, or only mean something to OpenAPI. */
const DROP = new Set([
  'discriminator',
  'xml',
  'externalDocs',
  'example',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  'nullable',
  'collectionFormat',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$comment',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);
const SUBSCHEMA = new Set([
  'items',
  'not',
  'additionalProperties',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
]);
const SUBSCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SUBSCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);

const MAX_DEPTH = 12;
const MAX_NODES = 1500;
const MAX_TEXT = 2000;

export interface SchemaLoosening {
  /** A circular reference was replaced by "any value". */
  circular: boolean;
  /** Nesting deeper than MAX_DEPTH, or more than MAX_NODES subschemas, was replaced by "any value". */
  truncated: boolean;
}

const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Converts one schema; `state` is shared across a whole action so its size budget covers all of it. */
export function toJsonSchema(
  schema: unknown,
  state: SchemaLoosening & { nodes: number },
  depth = 0,
): Record<string, unknown> {
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { not: {} };
  if (!isObject(schema)) return {};
  if (typeof schema.$ref === 'string') {
    state.circular = true;
    const name = schema.$ref.split('/').at(-1);
    return { description: `Any value (a ${name} refers to itself; see the provider's documentation)` };
  }
  state.nodes++;
  if (depth > MAX_DEPTH || state.nodes > MAX_NODES) {
    state.truncated = true;
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (DROP.has(k) || k.startsWith('x-')) continue;
    if (SUBSCHEMA.has(k)) out[k] = typeof v === 'boolean' ? v : toJsonSchema(v, state, depth + 1);
    else if (SUBSCHEMA_LISTS.has(k) && Array.isArray(v))
      out[k] = v.map((s) => toJsonSchema(s, state, depth + 1));
    else if (SUBSCHEMA_MAPS.has(k) && isObject(v))
      out[k] = Object.fromEntries(
        Object.entries(v)
          // The server sets read-only properties: a request does not send them.
          .filter(([, s]) => !(k === 'properties' && isObject(s) && s.readOnly === true))
          .map(([n, s]) => [n, toJsonSchema(s, state, depth + 1)]),
      );
    else if (k === 'description' || k === 'title') {
      if (typeof v === 'string') out[k] = v.slice(0, MAX_TEXT);
    } else if (k === 'pattern') {
      // A pattern only helps if this runtime's RegExp reads it the way the provider does.
      if (typeof v === 'string' && compiles(v)) out[k] = v;
    } else if (k === 'required') {
      if (Array.isArray(v) && v.length && v.every((n) => typeof n === 'string')) out[k] = v;
    } else out[k] = v;
  }
  if (out.type === 'file') {
    out.type = 'string';
    out.format = 'binary';
  }
  if (schema.exclusiveMinimum === true && typeof schema.minimum === 'number') {
    out.exclusiveMinimum = schema.minimum;
    delete out.minimum;
  } else if (typeof schema.exclusiveMinimum === 'boolean') delete out.exclusiveMinimum;
  if (schema.exclusiveMaximum === true && typeof schema.maximum === 'number') {
    out.exclusiveMaximum = schema.maximum;
    delete out.maximum;
  } else if (typeof schema.exclusiveMaximum === 'boolean') delete out.exclusiveMaximum;
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  // A read-only property may be `required` in the schema, yet a request never sends it.
  if (Array.isArray(out.required) && isObject(schema.properties)) {
    const props = schema.properties as Record<string, any>;
    out.required = (out.required as string[]).filter(
      (n) => !(isObject(props[n]) && props[n].readOnly === true),
    );
    if (!(out.required as string[]).length) delete out.required;
  }
  return out;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** A fresh budget for one action. */
export const schemaState = () => ({ circular: false, truncated: false, nodes: 0 });

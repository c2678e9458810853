import { type SchemaLoosening, toJsonSchema } from './json-schema.ts';

export type Schema = Record<string, any>;

/** The media type the draft sends, in order of preference; anything else is dropped with a warning. */
export function pickMediaType(types: string[]): { type: string; bodyType: 'json' | 'form' } | undefined {
  const json = types.find((t) => /^application\/(.+\+)?json\b/i.test(t)) ?? types.find((t) => t === '*/*');
  if (json) return { type: json, bodyType: 'json' };
  const form = types.find((t) => /^application\/x-www-form-urlencoded\b/i.test(t));
  return form ? { type: form, bodyType: 'form' } : undefined;
}

/** `allOf` of plain object schemas as one object (how most documents compose bodies), so it can be flattened. */
export function mergeAllOf(schema: Schema): Schema {
  if (!Array.isArray(schema.allOf) || schema.oneOf || schema.anyOf) return schema;
  const parts = schema.allOf.map((p: Schema) => mergeAllOf(p ?? {}));
  if (
    !parts.every(
      (p: Schema) =>
        p &&
        typeof p === 'object' &&
        !p.$ref &&
        !p.oneOf &&
        !p.anyOf &&
        (p.properties || p.type === 'object'),
    )
  )
    return schema;
  const { allOf: _, ...rest } = schema;
  return {
    ...rest,
    type: 'object',
    properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {}), rest.properties ?? {}),
    required: [...new Set([...parts.flatMap((p: Schema) => p.required ?? []), ...(rest.required ?? [])])],
  };
}

/** A body whose properties can stand as the action's own inputs: an object with named properties. */
export const flattenable = (schema: Schema) =>
  !!schema.properties &&
  typeof schema.properties === 'object' &&
  (schema.type === undefined || schema.type === 'object') &&
  !schema.oneOf &&
  !schema.anyOf &&
  !schema.allOf;

/** Converts a body schema's properties for the input (read-only ones drop out in toJsonSchema). */
export function bodyProperties(schema: Schema, state: SchemaLoosening & { nodes: number }) {
  const converted = toJsonSchema(
    { type: 'object', properties: schema.properties, required: schema.required },
    state,
  );
  return {
    properties: (converted.properties ?? {}) as Record<string, Schema>,
    required: (converted.required ?? []) as string[],
  };
}

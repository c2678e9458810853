import { dereference } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';
import { OpenApiImportError } from './import-error.ts';

const MAX_DEPTH = 64;
const FIELD = 'body.document';

/** JSON-pointer-ish location of a node, for messages. */
const where = (path: string[]) => (path.length ? `${FIELD}.${path.join('.')}` : FIELD);

/**
 * Refuses a document that would make the parser reach outside it: a `$ref` to a URL or a file is never
 * followed (the document travels in the request, nothing is fetched). Also bounds nesting, since YAML text
 * is not covered by the JSON body's depth check.
 */
function checkNodes(node: unknown, path: string[]): void {
  if (path.length > MAX_DEPTH)
    throw new OpenApiImportError(where(path), 'max_depth', `must not nest deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) checkNodes(v, [...path, String(i)]);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && !v.startsWith('#'))
      throw new OpenApiImportError(
        where([...path, '$ref']),
        'external_ref',
        `refers outside the document ("${v.slice(0, 200)}"): only local references (#/...) are followed; inline the referenced parts`,
      );
    checkNodes(v, [...path, k]);
  }
}

/** The document as an object: given as one, or as YAML or JSON text (JSON is YAML). */
function toObject(document: unknown): Record<string, unknown> {
  let value = document;
  if (typeof document === 'string') {
    try {
      value = parseYaml(document, { maxAliasCount: 100, uniqueKeys: false });
    } catch (e) {
      throw new OpenApiImportError(
        FIELD,
        'yaml',
        `is not valid YAML or JSON: ${(e as Error).message.split('\n')[0]}`,
      );
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new OpenApiImportError(
      FIELD,
      'type',
      'must be an OpenAPI document: an object, or its YAML or JSON text',
    );
  const doc = value as Record<string, unknown>;
  if (doc.openapi === undefined && doc.swagger === undefined)
    throw new OpenApiImportError(
      `${FIELD}.openapi`,
      'required',
      'is required: the document must declare "openapi": "3.0.x" or "3.1.x", or "swagger": "2.0"',
    );
  if (doc.swagger !== undefined ? doc.swagger !== '2.0' : !/^3\.[01]\.\d+/.test(String(doc.openapi)))
    throw new OpenApiImportError(
      `${FIELD}.${doc.swagger !== undefined ? 'swagger' : 'openapi'}`,
      'version',
      'must be "3.0.x" or "3.1.x" ("openapi"), or "2.0" ("swagger")',
    );
  return doc;
}

// Only the document itself: no file system, no network, whatever a `$ref` says.
const RESOLVE = { external: false, file: false, http: { timeout: 1, redirects: 0 } } as const;

export type ApiDocument = Record<string, any>;

/**
 * Parses and dereferences the document with the parser; nothing outside it is read. Circular references stay
 * local `$ref`s (the converter loosens them). The document is not validated against the OpenAPI schema as a
 * whole: that costs about ten times the dereferencing (the request's CPU time, on the event loop), real
 * documents often break a rule or two anyway, and what matters (each action valid and compiling) the
 * converter checks itself.
 */
export async function readDocument(document: unknown): Promise<ApiDocument> {
  const doc = toObject(document);
  checkNodes(doc, []);
  if (!doc.paths || typeof doc.paths !== 'object' || Array.isArray(doc.paths))
    throw new OpenApiImportError(
      `${FIELD}.paths`,
      'required',
      "is required: an object of the API's operations",
    );
  try {
    return (await dereference(structuredClone(doc) as never, {
      resolve: RESOLVE,
      dereference: { circular: 'ignore' },
      timeoutMs: 10_000,
    })) as ApiDocument;
  } catch (e) {
    throw new OpenApiImportError(
      FIELD,
      'ref',
      `could not be dereferenced: ${(e as Error).message.split('\n')[0]}`,
    );
  }
}

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export type Json = Record<string, any>;

export interface ObservedResponse {
  method: string;
  /** The request path, with or without its query string. */
  path: string;
  status: number;
  contentType: string | null;
  text: string;
}

const DOC_ID = 'https://inlay.test/openapi.json';
const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const mediaType = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
const isJsonMedia = (m: string) => m === 'application/json' || /^application\/[\w.+-]+\+json$/.test(m);

/**
 * Checks responses against an OpenAPI 3.1 document: the operation the method and path name, a declared
 * status, a declared media type, and the body against that media type's schema. Schemas are JSON Schema 2020-12
 * in OpenAPI 3.1, so Ajv's 2020 dialect validates them, with `$ref`s resolved inside the document itself.
 */
export class OpenApiResponseValidator {
  readonly #ajv: Ajv2020;
  readonly #routes: { method: string; template: string; re: RegExp; literal: number; op: Json }[] = [];
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(doc: Json) {
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ ...doc, $id: DOC_ID });
    for (const [template, item] of Object.entries<Json>(doc.paths ?? {})) {
      const segments = template.split('/');
      const re = new RegExp(
        `^${segments
          // The proxy's trailing `{path}` spans segments (`/connectors/{connector}/proxy/{path}`).
          .map((s, i) =>
            s === '{path}' && i === segments.length - 1
              ? '.+'
              : /^\{\w+\}$/.test(s)
                ? '[^/]+'
                : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
          )
          .join('/')}$`,
      );
      const literal = segments.filter((s) => !s.startsWith('{')).length;
      for (const [method, op] of Object.entries<Json>(item))
        if (['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method))
          this.#routes.push({ method, template, re, literal, op });
    }
    // A literal segment wins over a parameter (`/workflows/activate` before `/workflows/{workflowId}`).
    this.#routes.sort((a, b) => b.literal - a.literal);
  }

  /** What is wrong with the response, or an empty list. */
  check(r: ObservedResponse): string[] {
    const method = r.method.toLowerCase();
    const path = r.path.split('?')[0]!;
    const route = this.#routes.find(
      (x) => x.method === (method === 'head' ? 'get' : method) && x.re.test(path),
    );
    const label = `${r.method} ${path} → ${r.status}`;
    if (!route) {
      // No operation: the service must answer its own not-found problem, nothing else.
      if (r.status !== 404) return [`${label}: no operation in openapi.json matches the request`];
      return this.#checkBody(label, '#/components/schemas/Problem', r, 'application/problem+json');
    }
    const where = `${r.method.toUpperCase()} ${route.template} (${route.op.operationId})`;
    const response: Json | undefined = route.op.responses?.[String(r.status)] ?? route.op.responses?.default;
    if (!response) return [`${where}: status ${r.status} is not declared; body: ${r.text.slice(0, 300)}`];
    const content: Json | undefined = response.content;
    const media = mediaType(r.contentType);
    if (!content || Object.keys(content).length === 0) {
      if (r.text !== '' && method !== 'head')
        return [`${where}: ${r.status} declares no body, got ${media}: ${r.text.slice(0, 200)}`];
      return [];
    }
    // `*/*`: the proxy passes the provider's answer through, whatever its type.
    if (!Object.hasOwn(content, media) && Object.hasOwn(content, '*/*')) return [];
    if (!Object.hasOwn(content, media))
      return [
        `${where}: ${r.status} declares ${Object.keys(content).join(', ')}, got "${r.contentType}": ${r.text.slice(0, 200)}`,
      ];
    if (method === 'head') return [];
    const pointer = `#/paths/${escapePointer(route.template)}/${method}/responses/${r.status in (route.op.responses ?? {}) ? r.status : 'default'}/content/${escapePointer(media)}/schema`;
    return this.#checkBody(where, pointer, r, media);
  }

  #checkBody(where: string, pointer: string, r: ObservedResponse, media: string): string[] {
    if (mediaType(r.contentType) !== media)
      return [`${where}: expected ${media}, got "${r.contentType}": ${r.text.slice(0, 200)}`];
    let body: unknown = r.text;
    if (isJsonMedia(media)) {
      try {
        body = JSON.parse(r.text);
      } catch {
        return [`${where}: the ${media} body is not JSON: ${r.text.slice(0, 200)}`];
      }
    }
    let validate = this.#compiled.get(pointer);
    if (!validate) {
      validate = this.#ajv.getSchema(`${DOC_ID}${pointer}`);
      if (!validate) return [`${where}: no schema at ${pointer}`];
      this.#compiled.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${where}: body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }
}

const byDocument = new Map<string, OpenApiResponseValidator>();

/** One validator per distinct document (services differ only in `servers`, which responses never read). */
export function validatorFor(doc: Json): OpenApiResponseValidator {
  const key = JSON.stringify({ ...doc, servers: undefined });
  let v = byDocument.get(key);
  if (!v) {
    v = new OpenApiResponseValidator(doc);
    byDocument.set(key, v);
  }
  return v;
}

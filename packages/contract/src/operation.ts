import { z } from 'zod';
import type { oas31, ZodOpenApiResponseObject } from 'zod-openapi';
import { UserRef } from './common.ts';
import { Problem } from './problem.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** `key`: API key only (a user JWT is a 403); `user`: API key or user JWT; `none`: public. */
export type OperationAuth = 'key' | 'user' | 'none';

/**
 * One operation of the REST API: where it is served, who may call it, what it reads and what it answers. The
 * OpenAPI document, the service's route registration and the client's typed calls all read these entries.
 */
export interface Operation {
  method: HttpMethod;
  /** The OpenAPI path, `{name}` for a parameter. */
  path: string;
  summary: string;
  tag: string;
  auth: OperationAuth;
  /** The path parameters; a `UuidParam` one is a 400 naming it unless it is a UUID. */
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  ok: z.ZodType | null;
  status?: '200' | '201' | '204' | '302';
  content?: string;
  /** What the operation answers besides its own statuses, e.g. a redirect. */
  extra?: { [status: string]: ResponseSpec };
  /** Further problem statuses the operation answers, with what each means. */
  problems?: Partial<Record<'409' | '422' | '502', string>>;
  /** False when nothing the operation names can be missing: it never answers 404. */
  notFound?: false;
  /** False when the operation never reads the database: it never answers 503. */
  db?: false;
  /** The request goes through the JSON body parser, so 413 and 415 apply: authenticated routes by default. */
  jsonBody?: boolean;
  /** A quota applies, so 429 does: authenticated routes by default. */
  limited?: boolean;
  /** The last path parameter takes the rest of the path, `/` included (the document cannot say so). */
  wildcard?: true;
  /** Passes the provider's answer through: any status, any body, besides the problems Inlay answers itself. */
  proxy?: boolean;
}

/** An operation with its operationId. */
export type OperationEntry<Id extends string = string> = Operation & { id: Id };

/** Gives each operation its key as `id` (the operationId), keeping the entries' literal types. */
export function defineOperations<const T extends Record<string, Operation>>(
  ops: T,
): { [K in keyof T & string]: T[K] & { id: K } } {
  return Object.fromEntries(Object.entries(ops).map(([id, op]) => [id, { ...op, id }])) as never;
}

/** A response of the OpenAPI document. */
export type ResponseSpec = ZodOpenApiResponseObject;
/** Response headers of the OpenAPI document. */
export type HeadersSpec = oas31.HeadersObject;

export const problem = (description: string, headers?: HeadersSpec): ResponseSpec => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: Problem } },
});
export const retryAfter = (
  what: string,
): { [name: string]: { description: string; schema: { type: 'integer'; minimum: number } } } => ({
  'retry-after': { description: what, schema: { type: 'integer', minimum: 1 } },
});
/** A path id: any UUID; anything else is a 400 naming the parameter. */
export const UuidParam = z.string().meta({ override: { type: 'string', format: 'uuid' } });
export const idParams = <N extends string>(name: N) =>
  z.object({ [name]: UuidParam } as Record<N, typeof UuidParam>);
export const userPath = z.object({ userId: UserRef });
export const userQuery = z.object({ userId: UserRef.optional() });

/** The names of an OpenAPI path's `{parameters}`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamNames<Rest>
  : never;

/** How a client names an operation: its method and path, `GET /users/{userId}`. */
export type RouteOf<O extends Operation> = `${Uppercase<O['method']>} ${O['path']}`;

/** What a call of the operation sends: path parameters, query and JSON body, as their schemas take them. */
export interface OperationInput<O extends Operation> {
  params: { [K in PathParamNames<O['path']>]: string };
  query: O['query'] extends z.ZodType ? z.input<O['query']> : undefined;
  body: O['body'] extends z.ZodType ? z.input<O['body']> : undefined;
}

/** What the operation answers on success (`undefined` when it has no body). */
export type OperationAnswer<O extends Operation> = O['ok'] extends z.ZodType ? z.output<O['ok']> : undefined;

import { type Operation, type OperationEntry, UuidParam } from '@inlay/contract';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { requireApiKey } from './auth.ts';
import { parse, pathId } from './validate.ts';

/** The names of an OpenAPI path's `{parameters}`. */
type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | ParamNames<Rest>
  : never;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What the route read from the request, as the operation's entry describes it. */
export interface RouteInput<O extends Operation> {
  /** Path parameters; a `UuidParam` one is checked and lowercased. */
  params: { [K in ParamNames<O['path']>]: string };
  query: Parsed<O['query']>;
  body: Parsed<O['body']>;
}

export type RouteHandler<O extends Operation> = (
  req: Request,
  res: Response,
  input: RouteInput<O>,
  next: NextFunction,
) => unknown;

export interface RouteOptions {
  /** Middleware that runs before the checks (its own body parser, its own authentication). */
  before?: RequestHandler[];
  /** Parts of the request the handler reads itself, e.g. where a bad query answers a page rather than a problem. */
  raw?: ('query' | 'body')[];
}

/** The handler's name in Express's stack: the route table finds each route's operation by it. */
export const OPERATION_HANDLER_PREFIX = 'operation ';

/** The Express path of an OpenAPI path: `{name}` is `:name`, the last one `*name` for a wildcard operation. */
export function expressPath(op: Operation): string {
  const path = op.path.replace(/\{(\w+)\}/g, ':$1');
  return op.wildcard ? path.replace(/:(\w+)$/, '*$1') : path;
}

/**
 * Serves an operation of the contract: method and path from its entry, an API key required when its `auth` is
 * `key`, path ids, query and body checked against its schemas (a 400 naming the field and the rule), in that
 * order, before the handler runs. Authentication itself is the app's, in front of the routers.
 */
export function route<O extends OperationEntry>(router: Router, op: O, handler: RouteHandler<O>): void;
export function route<O extends OperationEntry>(
  router: Router,
  op: O,
  options: RouteOptions,
  handler: RouteHandler<O>,
): void;
export function route<O extends OperationEntry>(
  router: Router,
  op: O,
  ...args: [RouteHandler<O>] | [RouteOptions, RouteHandler<O>]
): void {
  const [options, handler] = args.length === 1 ? [{} as RouteOptions, args[0]] : args;
  const uuids = Object.entries(op.params?.shape ?? {})
    .filter(([, schema]) => schema === UuidParam)
    .map(([name]) => name);
  const query = options.raw?.includes('query') ? undefined : op.query;
  const body = options.raw?.includes('body') ? undefined : op.body;
  const serve = (req: Request, res: Response, next: NextFunction): unknown => {
    const params: Record<string, string> = { ...(req.params as Record<string, string>) };
    for (const name of uuids) params[name] = pathId(req.params[name], name);
    const input = {
      params,
      query: query ? parse(query, req.query, 'query') : undefined,
      body: body ? parse(body, req.body, 'body') : undefined,
    } as RouteInput<O>;
    return handler(req, res, input, next);
  };
  Object.defineProperty(serve, 'name', { value: `${OPERATION_HANDLER_PREFIX}${op.id}` });
  const handlers = [
    ...(options.before ?? []),
    ...(op.auth === 'key' ? [requireApiKey] : []),
    serve as RequestHandler,
  ];
  router[op.method](expressPath(op), ...handlers);
}

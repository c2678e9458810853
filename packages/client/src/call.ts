import type { OperationAnswer, OperationAt, OperationInput, Route } from '@inlay/contract';
import type { CallOptions, QueryValue, Request } from './transport.ts';

type Input<R extends Route> = OperationInput<OperationAt<R>>;

/** What `call` sends: the route's path parameters, its query and its body, typed by the contract. */
export type CallInit<R extends Route> = CallOptions &
  (keyof Input<R>['params'] extends never ? { params?: undefined } : { params: Input<R>['params'] }) &
  (Input<R>['query'] extends undefined
    ? { query?: undefined }
    : { query?: { [K in keyof NonNullable<Input<R>['query']>]?: QueryValue | readonly QueryValue[] } }) &
  (Input<R>['body'] extends undefined ? { body?: undefined } : { body: Input<R>['body'] });

/**
 * Calls an operation of the contract by its route, `GET /users/{userId}`: the route must be one the contract
 * holds, and the parameters, query, body and answer are typed by its entry. Only the route's text ships.
 */
export function call<R extends Route>(
  request: Request,
  route: R,
  ...[init]: keyof Input<R>['params'] extends never ? [CallInit<R>?] : [CallInit<R>]
): Promise<OperationAnswer<OperationAt<R>>> {
  const space = route.indexOf(' ');
  const params = (init?.params ?? {}) as Record<string, string>;
  const path = route
    .slice(space + 1)
    .replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  return request(route.slice(0, space), path, {
    ...(init?.query ? { query: init.query } : {}),
    ...(init?.body !== undefined ? { body: init.body } : {}),
    ...(init?.signal ? { signal: init.signal } : {}),
  });
}

import { createInlayHandler, type InlayHandlerOptions } from '@inlay/server';

export type { AllowedOrigins } from '@inlay/server';

/**
 * `inlayRoute`'s options: @inlay/server's, with `userId` (and `autoCreateUsers`, an `allowedOrigins` predicate)
 * given the route's request; read the session from its cookies or headers, or with `cookies()` from
 * `next/headers`. `basePath` is the route's folder (default `/api/inlay`, for `app/api/inlay/[...path]/route.ts`).
 */
export type InlayRouteOptions = InlayHandlerOptions<Request>;

type RouteHandler = (request: Request) => Promise<Response>;

/**
 * Inlay's token-and-proxy endpoint as a Next.js App Router catch-all route:
 *
 * ```ts
 * // app/api/inlay/[...path]/route.ts
 * export const { GET, POST, PUT, PATCH, DELETE } = inlayRoute({ serviceUrl, apiKey, userId });
 * ```
 *
 * Every method is the same web-standard handler (`createInlayHandler`): `GET /api/inlay/token` answers the
 * signed-in user's JWT, icons and the OAuth pages are relayed without a session, everything else is proxied
 * to the Inlay service as that user, CSRF-proof, with bodies streamed both ways.
 */
export function inlayRoute(options: InlayRouteOptions): {
  GET: RouteHandler;
  HEAD: RouteHandler;
  POST: RouteHandler;
  PUT: RouteHandler;
  PATCH: RouteHandler;
  DELETE: RouteHandler;
} {
  const handler = createInlayHandler<Request>(options);
  const route: RouteHandler = (request) => handler(request);
  return { GET: route, HEAD: route, POST: route, PUT: route, PATCH: route, DELETE: route };
}

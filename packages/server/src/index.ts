import { createInlayCore, type InlayOptions } from './core.ts';
import { problem } from './problem.ts';

export type { InlayCall, InlayCore, InlayOptions, Transport } from './core.ts';
export { createInlayCore } from './core.ts';
export type { AllowedOrigins } from './csrf.ts';
export { normaliseOrigin } from './csrf.ts';
export { problem } from './problem.ts';

export interface InlayHandlerOptions<R extends Request = Request> extends InlayOptions<R> {
  /**
   * The path the handler answers below (default `/api/inlay`): `GET {basePath}/token`, and every other path
   * below it proxied. `''` mounts it at the root. A request outside it is answered 404.
   */
  basePath?: string;
}

/** What a runtime that knows more than the `Request` can pass on. */
export interface InlayRequestContext {
  /** The browser's address, sent to the service as `X-Forwarded-For` (Bun's `server.requestIP`, Deno's `info.remoteAddr`). */
  clientIp?: string;
}

export type InlayHandler<R extends Request = Request> = (
  request: R,
  context?: InlayRequestContext,
) => Promise<Response>;

/** `/api/inlay/` -> `/api/inlay`; `/` -> ``. */
export function normaliseBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The path and query of `url` below `base`, or undefined when it lies outside. */
export function pathBelow(url: URL, base: string): string | undefined {
  const { pathname } = url;
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
  return (pathname.slice(base.length) || '/') + url.search;
}

/**
 * Inlay's token-and-proxy endpoint as one web-standard function, `(request) => Promise<Response>`, for any
 * runtime or framework that speaks `Request` and `Response` (Node ≥ 20, Bun, Deno, edge runtimes):
 * `GET {basePath}/token` answers the signed-in user's JWT, connector icons and the OAuth pages are relayed
 * without a session, and every other call is proxied to the Inlay service as that user, CSRF-proof.
 */
export function createInlayHandler<R extends Request = Request>(
  options: InlayHandlerOptions<R>,
): InlayHandler<R> {
  const core = createInlayCore<R>(options);
  const base = normaliseBasePath(options.basePath ?? '/api/inlay');
  return async (request, context) => {
    const path = pathBelow(new URL(request.url), base);
    if (path === undefined)
      return problem(404, 'not_found', 'Not Found', `Inlay answers below ${base || '/'}`);
    return core({ request, hostRequest: request, path, clientIp: context?.clientIp });
  };
}

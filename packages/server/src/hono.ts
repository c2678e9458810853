import type { Context, Env, Handler } from 'hono';
import { createInlayCore, type InlayOptions } from './core.ts';
import { normaliseBasePath, pathBelow } from './index.ts';
import { problem } from './problem.ts';

export interface InlayHonoOptions<E extends Env = Env> extends InlayOptions<Context<E>> {
  /**
   * The path Inlay is mounted at. By default the route's own pattern without its `/*`
   * (`app.all('/api/inlay/*', …)` -> `/api/inlay`).
   */
  basePath?: string;
}

/** The browser's address, where the runtime says (`@hono/node-server` passes the Node request as `env.incoming`). */
function clientIp(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}

/**
 * Inlay's token-and-proxy endpoint as a Hono handler: `app.all('/api/inlay/*', inlayHono(options))`. The
 * callbacks (`userId`, `autoCreateUsers`, an `allowedOrigins` predicate) get Hono's context, so a session
 * middleware's `c.get('user')` is at hand.
 */
export function inlayHono<E extends Env = Env>(options: InlayHonoOptions<E>): Handler<E> {
  const core = createInlayCore<Context<E>>(options);
  const fixed = options.basePath === undefined ? undefined : normaliseBasePath(options.basePath);
  return (c) => {
    const base = fixed ?? normaliseBasePath(c.req.routePath.replace(/\/?\*$/, ''));
    const path = pathBelow(new URL(c.req.url), base);
    if (path === undefined)
      return problem(404, 'not_found', 'Not Found', `Inlay answers below ${base || '/'}`);
    return core({ request: c.req.raw, hostRequest: c, path, clientIp: clientIp(c) });
  };
}

import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/** A first path segment that is only literal text: no parameter, wildcard, group or escape. */
const STATIC_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * Wraps a router mounted without a path so that a request whose first path segment starts none of its routes
 * passes it by (`next()`) instead of walking its layers. The app mounts some 25 feature routers side by side at
 * the root, and every request tried the routes of every router before its own: a CPU profile of `GET /workflows`
 * put ~12% of the service's self time in the router's `next`/`handle`.
 *
 * The first segments are read from the router's stack on the first request (every route is registered by then),
 * again if the stack changed. A router holding anything the first segment cannot rule out (a `router.use`
 * middleware, a route whose path is not a string, or whose first segment is not literal text such as `/:id` or
 * `/*path`) is never passed by. Segments compare as the router matches paths: without case unless the router is
 * case sensitive; a trailing slash or anything after the first segment is left to the router itself.
 */
export function byFirstSegment(router: Router): RequestHandler {
  const sensitive = (router as Router & { caseSensitive?: boolean }).caseSensitive === true;
  let seenLayers = -1;
  /** The routes' first segments; undefined when the router must always be entered. */
  let segments: Set<string> | undefined;
  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    if (seenLayers !== router.stack.length) {
      seenLayers = router.stack.length;
      segments = firstSegments(router, sensitive);
    }
    if (segments) {
      const seg = firstSegment(req);
      if (seg !== undefined && !segments.has(sensitive ? seg : seg.toLowerCase())) return next();
    }
    return router(req, res, next);
  };
  // Tools that list the app's routes walk `handle.stack` (the tests' route table does).
  Object.defineProperty(dispatch, 'stack', { get: () => router.stack });
  return dispatch;
}

/** The first segment of the path the router matches (the same parsed pathname); undefined if there is none. */
function firstSegment(req: Request): string | undefined {
  let path: string;
  try {
    path = req.path;
  } catch {
    return undefined;
  }
  if (typeof path !== 'string' || path[0] !== '/') return undefined;
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** The literal first segments of the router's routes, or undefined if any layer could match another path. */
function firstSegments(router: Router, sensitive: boolean): Set<string> | undefined {
  const out = new Set<string>();
  for (const layer of router.stack) {
    const path: unknown = layer.route?.path;
    if (!layer.route || typeof path !== 'string' || path[0] !== '/') return undefined;
    const end = path.indexOf('/', 1);
    const seg = end === -1 ? path.slice(1) : path.slice(1, end);
    if (!STATIC_SEGMENT.test(seg)) return undefined;
    out.add(sensitive ? seg : seg.toLowerCase());
  }
  return out;
}

import { type AllowedOrigins, createInlayCore, type InlayOptions, problem } from '@inlay/server';
import { nodeRequest, nodeUpstream, sendWebResponse } from '@inlay/server/node';
import express, { type Request, type Router } from 'express';

export type { AllowedOrigins };

/** What `inlay()` takes: @inlay/server's options, with the callbacks given Express's `req`. */
export interface InlayMiddlewareOptions extends InlayOptions<Request> {
  /** Origins besides the host's own that may write; a list, or a predicate over `Origin` and Express's `req`. */
  allowedOrigins?: AllowedOrigins<Request>;
}

/**
 * Express router: `GET /token` for the signed-in user, connector icons and the OAuth pages for anyone (they are
 * public), and every other path proxied to Inlay as that user. A thin adapter over @inlay/server's core: the
 * request as a web `Request` (scheme and host as Express sees them, so `trust proxy` counts), the answer streamed
 * back. A body the host's own parser already read (`express.json()`) is taken from `req.body`.
 */
export function inlay(opts: InlayMiddlewareOptions): Router {
  const core = createInlayCore<Request>(opts, nodeUpstream);
  const router = express.Router();
  router.use((req, res) => {
    const consumed = req.body !== undefined || req.readableEnded;
    let request: globalThis.Request;
    let signal: AbortSignal;
    try {
      ({ request, signal } = nodeRequest(
        req,
        res,
        `${req.protocol}://${req.host ?? 'localhost'}`,
        req.originalUrl,
        consumed,
      ));
    } catch {
      // A method fetch refuses (CONNECT, TRACE) or a header it cannot carry.
      void sendWebResponse(
        problem(400, 'invalid_request', 'Bad Request', 'The request cannot be relayed'),
        res,
      );
      return;
    }
    void core({
      request,
      signal,
      hostRequest: req,
      path: req.url,
      clientIp: req.ip ?? '',
      ...(consumed ? { parsed: { body: req.body } } : {}),
    }).then((response) => sendWebResponse(response, res));
  });
  return router;
}

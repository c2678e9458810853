import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';

/** Seconds a client is told to wait (`Retry-After`) before asking again while a port's handler is not ready. */
export const RETRY_AFTER_S = 1;

/**
 * The answer of a port whose handler is not ready yet: 503 with `Retry-After`. A browser gets a page that
 * reloads itself; anything else a problem+json `unavailable`.
 */
export function answerStarting(name: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    // The body is not read: the request is answered, and the connection closed, so nothing waits on it.
    res.setHeader('retry-after', String(RETRY_AFTER_S));
    res.setHeader('cache-control', 'no-store');
    res.setHeader('connection', 'close');
    const text = `${name} is starting. Try again in a moment.`;
    if (/\btext\/html\b/.test(req.headers.accept ?? '')) {
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${RETRY_AFTER_S}">` +
          `<meta name="viewport" content="width=device-width, initial-scale=1"><title>Starting…</title></head>` +
          `<body><main><h1>Starting…</h1><p>${text} This page reloads by itself.</p></main></body></html>`,
      );
      return;
    }
    res.writeHead(503, { 'content-type': 'application/problem+json' });
    res.end(
      JSON.stringify({
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: text,
        message: text,
        code: 'unavailable',
        retryAfter: RETRY_AFTER_S,
      }),
    );
  };
}

/**
 * A server that answers every request from the moment it listens: 503 with `Retry-After` until `ready()` hands
 * it the real handler. A port bound before its app exists (its address is part of the app's config) never
 * leaves a request hanging.
 */
export function startingServer(name: string): { server: Server; ready(handler: RequestListener): void } {
  let handler: RequestListener = answerStarting(name);
  const server = createServer((req, res) => handler(req, res));
  return {
    server,
    ready(next) {
      handler = next;
    },
  };
}

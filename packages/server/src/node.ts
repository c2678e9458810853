// Helpers for adapters on Node's http server (Express, Fastify): a web `Request` from an `IncomingMessage`, and a
// web `Response` written to a `ServerResponse`, the body streamed with backpressure and a gone client cancelling it.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { hasBody } from './csrf.ts';
import { nodeBodyOf } from './node-upstream.ts';

export { nodeUpstream } from './node-upstream.ts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Node's headers as web `Headers`. */
export function webHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.append(name, value);
  }
  return headers;
}

/**
 * A web `Request` for a Node request, and a signal that aborts when `res` closes before the answer is done (the
 * browser went away): pass it to the core as `signal`. `origin` is the scheme and host the browser addressed (as
 * the framework sees them, behind a trusted proxy too). The body streams from `req` unless `consumed` (a host
 * parser read it).
 */
export function nodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  url: string,
  consumed = false,
): { request: Request; signal: AbortSignal } {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = webHeaders(req.headers);
  const method = req.method ?? 'GET';
  const streamed = !consumed && BODY_METHODS.has(method) && hasBody(headers);
  const request = new Request(`${origin}${url}`, {
    method,
    headers,
    ...(streamed ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
  return { request, signal: controller.signal };
}

/** `nodeRequest` as one self-contained `Request` (its `signal` the browser going away), for a web handler. */
export function webRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  url: string,
  consumed = false,
): Request {
  const { request, signal } = nodeRequest(req, res, origin, url, consumed);
  return new Request(request, { signal });
}

/**
 * Writes a web `Response` to `res`: status, headers (`Set-Cookie` lines kept apart), and the body as it
 * arrives, waiting for `drain`. Either side failing ends both: a client gone cancels the body (and so the
 * upstream call), a broken body destroys the answer.
 */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  if (res.headersSent || res.destroyed) {
    await response.body?.cancel().catch(() => {});
    if (!res.destroyed) res.destroy();
    return;
  }
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('set-cookie', cookies);
  const body = response.body;
  if (!body) {
    res.end();
    return;
  }
  const piped = nodeBodyOf(body);
  if (piped) return pipeNode(piped, res);
  const reader = body.getReader();
  let gone = false;
  let wake: (() => void) | undefined;
  const onClose = () => {
    gone = true;
    wake?.();
    if (!res.writableFinished) reader.cancel().catch(() => {});
  };
  const onDrain = () => wake?.();
  res.on('close', onClose);
  res.on('drain', onDrain);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (gone) return;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          if (gone) resolve();
          else wake = resolve;
        });
        wake = undefined;
        if (gone) return;
      }
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('drain', onDrain);
    res.off('close', onClose);
  }
}

/**
 * An upstream Node answer piped on: either side failing or going away ends both. (Not `stream.pipeline`: it
 * makes and aborts an AbortController per call, a cost every proxied call would pay.)
 */
function pipeNode(msg: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const onClose = () => {
      // The browser went away before the answer was through: so does the call to the service.
      if (!res.writableFinished) msg.destroy();
      resolve();
    };
    const onError = () => res.destroy();
    res.once('close', onClose);
    // A service that goes away mid-answer errors the message ('aborted').
    msg.once('error', onError);
    msg.pipe(res);
  });
}

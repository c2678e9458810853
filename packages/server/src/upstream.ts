import { downstreamResponseHeaders } from './headers.ts';

/** One call to the service: `path` is the path and query below the service's base URL. */
export interface UpstreamRequest {
  method: string;
  path: string;
  headers: Headers;
  /** A rewritten JSON body, or nothing. */
  body?: string;
  /** `Set-Cookie` lines of the answer to pass back (every other one is dropped). */
  keepCookie?: (line: string) => boolean;
  /** The host request's own signal: the browser gone aborts the call, body included. */
  signal?: AbortSignal;
}

/** Sends one call to the service; rejects on a network error, or (named `TimeoutError`) after the time limit. */
export type Upstream = (r: UpstreamRequest) => Promise<Response>;

/** Statuses whose answers carry no body (a `Response` refuses one). */
export const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A reused kept-alive connection the service had just closed: the call never reached it. */
function staleConnection(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } })?.cause;
  return cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET';
}

/**
 * The transport: `fetch` (kept-alive connections in every runtime), bodies streamed back as they arrive.
 * `timeoutMs` bounds the whole exchange, body included; the host request's signal ends it early. A call that
 * hits a kept-alive connection the service had just closed is sent once more (the body is a string, so it can).
 */
export function fetchUpstream(doFetch: typeof fetch, serviceUrl: string, timeoutMs: number): Upstream {
  const base = serviceUrl.replace(/\/+$/, '');
  return async (r) => {
    // One controller, a timer and a listener: AbortSignal.timeout and AbortSignal.any cost far more per call.
    // The timer stays armed until the body is through or it fires (unref'd: it keeps no process alive).
    const controller = new AbortController();
    const signal = controller.signal;
    const timer = setTimeout(
      () => controller.abort(new DOMException(`Inlay did not answer within ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    (timer as { unref?: () => void }).unref?.();
    if (r.signal) {
      if (r.signal.aborted) controller.abort(r.signal.reason);
      else r.signal.addEventListener('abort', () => controller.abort(r.signal!.reason), { once: true });
    }
    const init: RequestInit = {
      method: r.method,
      headers: r.headers,
      body: r.body,
      redirect: 'manual',
      signal,
    };
    let res: Response;
    try {
      try {
        res = await doFetch(`${base}${r.path}`, init);
      } catch (err) {
        if (!staleConnection(err) || signal.aborted) throw signal.aborted ? (signal.reason ?? err) : err;
        res = await doFetch(`${base}${r.path}`, init);
      }
    } catch (err) {
      clearTimeout(timer);
      throw err;
    }
    const headers = downstreamResponseHeaders(res.headers, r.keepCookie);
    if (NULL_BODY.has(res.status) || r.method === 'HEAD') {
      res.body?.cancel().catch(() => {});
      return new Response(null, { status: res.status, headers });
    }
    return new Response(res.body, { status: res.status, headers });
  };
}

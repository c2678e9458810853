import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { downstreamResponseHeaders, type HeaderMap } from './headers.ts';

/** One proxied call: `path` is the path and query below the service's base URL. */
export interface UpstreamRequest {
  method: string;
  path: string;
  headers: HeaderMap;
  /** A rewritten JSON body, the host request itself (streamed as is), or nothing. */
  body?: string | Readable;
  /** `Set-Cookie` lines of the answer to pass back (every other one is dropped). */
  keepCookie?: (line: string) => boolean;
}

export interface UpstreamResponse {
  status: number;
  /** Headers to pass back: hop-by-hop ones and `Set-Cookie` already dropped. */
  headers: [string, string | string[]][];
  body: Readable | null;
  /** Throws the body away (when the answer is not passed on). */
  discard(): void;
}

/** Sends one call to the service; rejects on a network error or, named `TimeoutError`, after the time limit. */
export type Upstream = (r: UpstreamRequest) => Promise<UpstreamResponse>;

class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * The default transport: node:http(s) over kept-alive connections, with bodies piped both ways untouched
 * (no decoding, so `Content-Encoding` passes through). `timeoutMs` bounds the whole
 * exchange, body included. A call without a streamed body that hits a kept-alive connection the service
 * had just closed is sent once more on a fresh one.
 */
export function nodeUpstream(serviceUrl: string, timeoutMs: number): Upstream {
  const base = new URL(serviceUrl);
  const secure = base.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const prefix = base.pathname.replace(/\/+$/, '');
  const port = base.port || undefined;
  // An IPv6 literal comes bracketed from URL; node:http wants it bare.
  const hostname = base.hostname.replace(/^\[(.*)\]$/, '$1');

  const once = (r: UpstreamRequest, retry: boolean): Promise<UpstreamResponse> =>
    new Promise((resolve, reject) => {
      const headers =
        typeof r.body === 'string'
          ? { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) }
          : r.headers;
      const out = send({ agent, hostname, port, method: r.method, path: prefix + r.path, headers });
      const timer = setTimeout(
        () => out.destroy(new TimeoutError(`Inlay did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      out.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (retry && out.reusedSocket && err.code === 'ECONNRESET') resolve(once(r, false));
        else reject(err);
      });
      out.on('response', (res: IncomingMessage) => {
        res.on('close', () => clearTimeout(timer));
        resolve({
          status: res.statusCode ?? 502,
          headers: downstreamResponseHeaders(
            Object.entries(res.headers),
            res.headers.connection,
            false,
            r.keepCookie,
          ),
          body: res,
          discard: () => void res.resume(),
        });
      });
      if (r.body instanceof Readable) r.body.pipe(out);
      else out.end(r.body);
    });

  return (r) => once(r, !(r.body instanceof Readable));
}

/** The transport over a `fetch` (the `fetch` option, for tests). fetch decodes bodies. */
export function fetchUpstream(doFetch: typeof fetch, serviceUrl: string, timeoutMs: number): Upstream {
  const base = serviceUrl.replace(/\/+$/, '');
  return async (r) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(r.headers))
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    const streamed = r.body instanceof Readable;
    const res = await doFetch(`${base}${r.path}`, {
      method: r.method,
      headers,
      body: streamed
        ? (Readable.toWeb(r.body as Readable) as ReadableStream)
        : (r.body as string | undefined),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      ...(streamed ? { duplex: 'half' } : {}),
    } as RequestInit);
    return {
      status: res.status,
      headers: downstreamResponseHeaders(
        res.headers.entries(),
        res.headers.get('connection'),
        true,
        r.keepCookie,
      ),
      body: res.body ? Readable.fromWeb(res.body as WebReadableStream) : null,
      discard: () => void res.body?.cancel().catch(() => {}),
    };
  };
}

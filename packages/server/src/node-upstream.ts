// The transport of the Node adapters: `node:http(s)` with kept-alive connections instead of `fetch`. On Node the
// upstream call is the largest part of what the proxy adds to a call; undici's fetch spends several times what
// a plain request does. The answer is still a web `Response`, so the core treats it like any other, and
// `sendWebResponse` pipes its Node body straight to the browser without going through a web stream.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { downstreamResponseHeaders } from './headers.ts';
import { NULL_BODY, type Upstream } from './upstream.ts';

/** The Node stream behind a `Response` body this transport made: `sendWebResponse` pipes it directly. */
const nodeBodies = new WeakMap<ReadableStream, IncomingMessage>();

/** The upstream answer's Node stream, when `body` is one this transport made and nobody has read it yet. */
export function nodeBodyOf(body: ReadableStream | null): IncomingMessage | undefined {
  if (!body || body.locked) return undefined;
  return nodeBodies.get(body);
}

/**
 * A web stream over `msg` that starts reading only when someone reads it: while `sendWebResponse` pipes `msg`
 * itself, the web side costs nothing.
 */
function lazyWebStream(msg: IncomingMessage): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (Readable.toWeb(msg) as ReadableStream<Uint8Array>).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        if (reader) return reader.cancel(reason);
        msg.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

const timeoutError = (ms: number) => new DOMException(`Inlay did not answer within ${ms} ms`, 'TimeoutError');

/**
 * `fetchUpstream`'s contract over `node:http(s)`: `timeoutMs` bounds the whole exchange, body included; the
 * host request's signal ends it early; a call that hits a kept-alive connection the service had just closed is
 * sent once more. Rejects with the signal's reason (a `TimeoutError` at the limit) or the network error.
 */
export function nodeUpstream(serviceUrl: string, timeoutMs: number): Upstream {
  const base = new URL(serviceUrl.replace(/\/+$/, ''));
  const prefix = base.pathname.replace(/\/+$/, '');
  const secure = base.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });

  return (r) =>
    new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of r.headers) headers[name] = value;
      if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
      let settled = false;
      let current: ReturnType<typeof send> | undefined;
      let answer: IncomingMessage | undefined;
      const stop = (reason: unknown) => {
        const err = reason instanceof Error ? reason : new DOMException('The call was aborted', 'AbortError');
        if (answer) answer.destroy(err);
        current?.destroy(err);
        if (!settled) {
          settled = true;
          reject(err);
        }
      };
      const timer = setTimeout(() => stop(timeoutError(timeoutMs)), timeoutMs);
      timer.unref();
      const onAbort = () => stop(r.signal!.reason);
      const done = () => {
        clearTimeout(timer);
        r.signal?.removeEventListener('abort', onAbort);
      };
      if (r.signal?.aborted) return stop(r.signal.reason);
      r.signal?.addEventListener('abort', onAbort, { once: true });

      const attempt = (retry: boolean) => {
        const req = send({
          agent,
          protocol: base.protocol,
          hostname: base.hostname.replace(/^\[|\]$/g, ''),
          port: base.port,
          method: r.method,
          path: `${prefix}${r.path}`,
          headers,
        });
        current = req;
        req.on('response', (msg) => {
          answer = msg;
          const status = msg.statusCode ?? 502;
          const upstreamHeaders = new Headers();
          for (let i = 0; i < msg.rawHeaders.length; i += 2)
            upstreamHeaders.append(msg.rawHeaders[i]!, msg.rawHeaders[i + 1]!);
          const out = downstreamResponseHeaders(upstreamHeaders, r.keepCookie, false);
          msg.once('close', done);
          settled = true;
          if (NULL_BODY.has(status) || r.method === 'HEAD') {
            msg.resume();
            if (NULL_BODY.has(status)) out.delete('content-length');
            resolve(new Response(null, { status, headers: out }));
            return;
          }
          const body = lazyWebStream(msg);
          nodeBodies.set(body, msg);
          resolve(new Response(body, { status, headers: out }));
        });
        req.on('error', (err: NodeJS.ErrnoException) => {
          if (settled) return;
          // A kept-alive connection the service closed as we reused it: the call never reached the service.
          if (retry && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
            attempt(false);
            return;
          }
          done();
          stop(err);
        });
        req.end(r.body);
      };
      attempt(true);
    });
}

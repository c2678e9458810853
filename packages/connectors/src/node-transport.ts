import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline, type Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { EgressConnectOptions, EgressPolicy } from './egress/egress-policy.ts';

/** One outgoing request, as the runtime has built it. */
export interface TransportRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal: AbortSignal;
  /** The policy every hop passes. */
  egress: EgressPolicy;
  /** An origin the operator configured: hops to it skip the address rules (never the scheme rule). */
  trustedOrigin?: string;
  /** Headers the credential set (X-Api-Key, X-Shopify-Access-Token, ...): dropped when a redirect leaves the origin. */
  credentialHeaders?: readonly string[];
  /** False: answer a redirect as it is instead of following it (`fetch`'s `redirect: 'manual'`). */
  followRedirects?: boolean;
}

/** The answer, its body decoded (decompressed) but not parsed. */
export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Thrown when a response is larger than the caller allows, before it is buffered whole. */
export class ResponseTooLarge extends Error {
  override name = 'ResponseTooLarge';
  constructor(readonly status: number) {
    super('response too large');
  }
}

const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Dropped when a redirect leaves the origin, as fetch does: they were meant for the first host only.
const ORIGIN_BOUND = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Sends a request with `node:http`/`node:https` over kept-alive connections: what `fetch` does for the
 * runtime (redirects, gzip/deflate/br, abort and timeout through the signal), for about a millisecond less per
 * call. Every hop passes the egress policy (which throws EgressDenied). The body is read with a running
 * total and cut off past `maxBytes`.
 */
export async function nodeTransport(req: TransportRequest, maxBytes: number): Promise<TransportResponse> {
  const res = await openResponse(req);
  const flat = flatHeaders(res);
  return { status: res.statusCode ?? 0, headers: flat, text: await readText(res, maxBytes) };
}

/** The answer with its body still unread, decoded (decompressed) as it streams. */
export interface StreamedResponse {
  status: number;
  /** As sent, less `content-encoding` and `content-length` when the body is decoded here. */
  headers: Record<string, string>;
  body: Readable;
}

/**
 * Like `nodeTransport`, but hands the body back as a stream (the proxy pipes it on): the caller reads it,
 * or destroys it. A body past `maxBytes` ends the stream with ResponseTooLarge.
 */
export async function nodeTransportStream(
  req: TransportRequest,
  maxBytes: number,
): Promise<StreamedResponse> {
  const res = await openResponse(req);
  const status = res.statusCode ?? 0;
  const headers = flatHeaders(res);
  if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
    res.destroy();
    throw new ResponseTooLarge(status);
  }
  const decode = decoder(res.headers['content-encoding']);
  if (decode) {
    delete headers['content-encoding'];
    delete headers['content-length'];
  }
  let size = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new ResponseTooLarge(status));
      done(null, chunk);
    },
  });
  const body = decode ? pipeline(res, decode, capped, () => {}) : pipeline(res, capped, () => {});
  return { status, headers, body };
}

function flatHeaders(res: IncomingMessage): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = [v].flat().join(', ');
  return flat;
}

/** Sends the request and follows redirects (each hop through the egress policy); the body is left unread. */
async function openResponse(req: TransportRequest): Promise<IncomingMessage> {
  let { url, method, body } = req;
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...req.headers };
  for (let hop = 0; ; hop++) {
    const connect = req.egress.connectOptions(url, { trusted: url.origin === req.trustedOrigin });
    const res = await send(url, method, headers, body, req.signal, connect);
    const location = res.headers.location;
    if (!REDIRECTS.has(res.statusCode ?? 0) || !location || req.followRedirects === false) return res;
    res.resume();
    if (hop === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    const status = res.statusCode!;
    if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      delete headers['content-type'];
    }
    if (next.origin !== url.origin)
      for (const h of [...ORIGIN_BOUND, ...(req.credentialHeaders ?? [])]) delete headers[h.toLowerCase()];
    url = next;
  }
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  signal: AbortSignal,
  connect: EgressConnectOptions,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const out = lib.request(url, {
      method,
      headers:
        body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      ...connect,
      signal,
    });
    out.on('response', resolve);
    out.on('error', reject);
    out.end(body);
  });
}

function decoder(
  encoding: string | undefined,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

async function readText(res: IncomingMessage, maxBytes: number): Promise<string> {
  const status = res.statusCode ?? 0;
  if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
    res.destroy();
    throw new ResponseTooLarge(status);
  }
  const decode = decoder(res.headers['content-encoding']);
  const source: Readable = decode ? pipeline(res, decode, () => {}) : res;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      res.destroy();
      throw new ResponseTooLarge(status);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

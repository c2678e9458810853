import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { jsonTextTooDeep } from '@inlay/contract';
import { tooDeep } from '../../http/json-body.ts';
import { HttpProblem, invalid } from '../../http/problem.ts';

/** The most bytes a delivery may have, as sent and once inflated. */
export const MAX_DELIVERY_BYTES = 1024 * 1024;

const tooLarge = (what: string) =>
  new HttpProblem(413, 'payload_too_large', `The delivery's body exceeds the 1 MB limit ${what}`, {
    errors: [{ field: 'body', rule: 'max_size', message: 'must be at most 1 MB, as sent and once inflated' }],
  });

/**
 * A delivery's body as the provider sent it: its bytes, not decoded, not inflated, since a signature is over
 * exactly these. Past MAX_DELIVERY_BYTES the reading stops with a 413.
 */
export async function readDeliveryBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_DELIVERY_BYTES) throw tooLarge('as sent');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Inflates a verified delivery's bytes by its `Content-Encoding`, at most to MAX_DELIVERY_BYTES. */
function inflate(bytes: Buffer, encoding: string | undefined): Buffer {
  const how = (encoding ?? 'identity').trim().toLowerCase();
  const opts = { maxOutputLength: MAX_DELIVERY_BYTES };
  try {
    if (how === 'identity' || how === '') return bytes;
    if (how === 'gzip' || how === 'x-gzip') return gunzipSync(bytes, opts);
    if (how === 'deflate') return inflateSync(bytes, opts);
    if (how === 'br') return brotliDecompressSync(bytes, opts);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
      throw tooLarge('once inflated');
    throw invalid('body', 'encoding', `is not valid ${how} data`);
  }
  throw new HttpProblem(415, 'unsupported_media_type', `Unsupported content encoding "${how}"`, {
    errors: [
      { field: 'header.content-encoding', rule: 'enum', message: 'must be identity, gzip, deflate or br' },
    ],
  });
}

/**
 * A verified delivery's body: inflated, then read as JSON (an empty body is `{}`), nested at most as deep as
 * any request body may be.
 */
export function parseDelivery(bytes: Buffer, encoding: string | undefined): unknown {
  const text = inflate(bytes, encoding);
  if (text.length === 0) return {};
  if (jsonTextTooDeep(text)) throw tooDeep();
  try {
    return JSON.parse(text.toString('utf8'));
  } catch {
    throw invalid('body', 'json', 'must be JSON');
  }
}

import type { Response } from 'express';
import type { UpstreamResponse } from './upstream.ts';

/**
 * Sends an upstream answer on: status, headers and the body piped. Either side failing ends both: a client
 * gone stops the upstream read, a broken upstream the answer. (Plain pipe and listeners: stream.pipeline
 * costs an AbortController and a DOMException per call.)
 */
export function relay(answer: UpstreamResponse, res: Response): void {
  res.status(answer.status);
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  if (!answer.body) {
    res.end();
    return;
  }
  const upstreamBody = answer.body;
  upstreamBody.on('error', () => res.destroy());
  upstreamBody.on('close', () => {
    if (!upstreamBody.readableEnded) res.destroy();
  });
  res.on('close', () => {
    if (!res.writableFinished) upstreamBody.destroy();
  });
  upstreamBody.pipe(res);
}

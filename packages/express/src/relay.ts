import { PROXY_WITHHELD_RESPONSE_HEADERS, proxiedContentHeaders } from '@inlay/contract';
import type { Response } from 'express';
import type { UpstreamResponse } from './upstream.ts';

/** A call of the service's connector proxy: its answer is a provider's, not the service's. */
export const isProxyPath = (path: string) => /^\/connectors\/[^/?]+\/proxy(\/|\?|$)/.test(path);

/**
 * A provider's answer relayed on the host's origin keeps the service's guards: the headers that act on the
 * origin are dropped, and `nosniff`, the sandbox and `attachment` set (as the service sets them), so a service
 * that forgot one still cannot run a provider's page as the host.
 */
export function guardProxied(answer: UpstreamResponse): UpstreamResponse {
  const headers = answer.headers.filter(([name]) => !PROXY_WITHHELD_RESPONSE_HEADERS.has(name));
  const type = headers.find(([name]) => name === 'content-type')?.[1];
  const guards = Object.entries(proxiedContentHeaders(Array.isArray(type) ? type[0] : type));
  const guarded = new Set(guards.map(([name]) => name));
  return { ...answer, headers: [...headers.filter(([name]) => !guarded.has(name)), ...guards] };
}

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

import { PROXY_WITHHELD_RESPONSE_HEADERS, proxiedContentHeaders } from '@inlay/contract';

/** A call of the service's connector proxy: its answer is a provider's, not the service's. */
export const isProxyPath = (path: string) => /^\/connectors\/[^/?]+\/proxy(\/|\?|$)/.test(path);

/**
 * A provider's answer relayed on the host's origin keeps the service's guards: the headers that act on the
 * origin are dropped, and `nosniff`, the sandbox and `attachment` set (as the service sets them), so a service
 * that forgot one still cannot run a provider's page as the host.
 */
export function guardProxied(answer: Response): Response {
  const headers = new Headers();
  for (const [name, value] of answer.headers)
    if (!PROXY_WITHHELD_RESPONSE_HEADERS.has(name)) headers.append(name, value);
  for (const [name, value] of Object.entries(proxiedContentHeaders(headers.get('content-type'))))
    headers.set(name, value);
  return new Response(answer.body, { status: answer.status, headers });
}

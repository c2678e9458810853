import { nodeTransport } from '../node-transport.ts';
import type { ProviderCallInfo } from '../runtime.ts';
import type { EgressPolicy } from './egress-policy.ts';

export interface EgressFetchOptions {
  /** An origin the operator configured (an OAuth token URL override): its hops skip the address rules. */
  trustedOrigin?: string;
  /** Largest body read; 10 MB by default. */
  maxBytes?: number;
  /** Told of each request once it is answered or failed, as `CallOptions.onCall` is: never headers or bodies. */
  onCall?: (call: ProviderCallInfo) => void;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for libraries that take one (oauth4webapi's `customFetch`, later ones), carried by the same
 * transport and egress policy as connector requests: every hop checked, `redirect: 'manual'` honoured,
 * bodies decoded and bounded. A refusal rejects with EgressDenied. Text bodies only (JSON, forms).
 */
export function egressFetch(egress: EgressPolicy, opts: EgressFetchOptions = {}): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init: RequestInit = {}) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    const headers: Record<string, string> = {};
    new Headers(init.headers ?? request?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    let body: string | undefined;
    const raw = init.body ?? (request ? await request.text() : undefined);
    if (raw instanceof URLSearchParams) {
      body = raw.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    } else if (typeof raw === 'string') body = raw;
    else if (raw !== undefined && raw !== null)
      throw new TypeError('egressFetch sends string or form bodies only');
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const started = opts.onCall ? performance.now() : 0;
    let res: Awaited<ReturnType<typeof nodeTransport>>;
    try {
      res = await nodeTransport(
        {
          url,
          method,
          headers,
          body,
          signal: init.signal ?? request?.signal ?? new AbortController().signal,
          egress,
          trustedOrigin: opts.trustedOrigin,
          followRedirects: (init.redirect ?? request?.redirect) !== 'manual',
        },
        opts.maxBytes ?? 10 * 1024 * 1024,
      );
    } catch (err) {
      opts.onCall?.({ method, url, ms: performance.now() - started, bytes: 0 });
      throw err;
    }
    opts.onCall?.({
      method,
      url,
      status: res.status,
      ms: performance.now() - started,
      bytes: Buffer.byteLength(res.text),
    });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers))
      if (k !== 'content-encoding' && k !== 'content-length') out.set(k, v);
    return new Response(NULL_BODY.has(res.status) ? null : res.text, { status: res.status, headers: out });
  }) as typeof fetch;
}

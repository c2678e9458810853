import type { Problem } from '@inlay/contract';
import { InlayError } from './error.ts';
import type { TokenManager } from './token.ts';

export const API_VERSION = '2025-09';

/**
 * Sent on every call. @inlay/express refuses writes without it: a custom header makes the browser ask
 * (CORS preflight) before another origin's page can send it, which a form or a simple fetch cannot.
 */
export const CLIENT_HEADER = 'x-inlay-client';

/** On every answer the proxy passes through from the provider (its status), never on Inlay's own. */
export const UPSTREAM_STATUS_HEADER = 'x-inlay-upstream-status';

export type QueryValue = string | number | boolean | null | undefined;

export interface CallOptions {
  signal?: AbortSignal;
}

export interface RequestInit {
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
}

/** What fetch accepts as a body (`BodyInit`, without needing the DOM library). */
export type FetchBody = NonNullable<Parameters<typeof fetch>[1]>['body'];

export interface RawInit {
  query?: object;
  /** Sent as it is, with `headers['content-type']` saying what it is. */
  body?: FetchBody;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Answers the fetch `Response` itself, whatever its status (the proxy streams the provider's answer). */
export type RawRequest = (method: string, path: string, init?: RawInit) => Promise<Response>;

export type Request = (<T>(method: string, path: string, init?: RequestInit) => Promise<T>) & {
  /** The same transport without JSON encoding or decoding. */
  raw?: RawRequest;
};

export interface TransportOptions {
  /** The service (`https://inlay.example.com`) or a host proxy path (`/api/inlay`). */
  baseUrl: string;
  /** A fetch implementation; the global one by default (browsers, Node ≥ 20). */
  fetch?: typeof fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** `x-api-version` to send; `2025-09` by default. */
  apiVersion?: string;
}

export interface Auth {
  get(): Promise<string | undefined>;
  /** Called once after a 401; resolves to the token to retry with, or undefined to give up. */
  refresh?(rejected: string | undefined): Promise<string | undefined>;
}

export const fromTokenManager = (m: TokenManager): Auth => ({ get: m.get, refresh: m.refresh });

/** Encodes a query object, leaving out `undefined` and `null`. */
export function queryString(query: object | undefined): string {
  if (!query) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v != null) p.append(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

export const seg = encodeURIComponent;

/** The one function every route goes through: URL, headers, bearer token, one retry after a 401, problem errors. */
export function createTransport(opts: TransportOptions, auth?: Auth): Request {
  const raw = createRawTransport(opts, auth);
  const request = async <T>(method: string, path: string, init: RequestInit = {}): Promise<T> =>
    read<T>(
      await raw(method, path, {
        query: init.query,
        signal: init.signal,
        ...(init.body === undefined
          ? {}
          : { body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } }),
      }),
    );
  return Object.assign(request, { raw });
}

/** URL, headers, bearer token and one retry after a 401; the response is handed back unread. */
export function createRawTransport(opts: TransportOptions, auth?: Auth): RawRequest {
  const base = opts.baseUrl.replace(/\/+$/, '');
  return async (method, path, init = {}) => {
    const url = base + path + queryString(init.query);
    const send = (token: string | undefined) => {
      const headers: Record<string, string> = {
        accept: 'application/json, application/problem+json',
        'x-api-version': opts.apiVersion ?? API_VERSION,
        [CLIENT_HEADER]: '1',
        ...opts.headers,
        ...init.headers,
      };
      if (token) headers.authorization = `Bearer ${token}`;
      return (opts.fetch ?? fetch)(url, { method, headers, body: init.body, signal: init.signal }).catch(
        (cause: unknown) => {
          if ((cause as Error)?.name === 'AbortError') throw cause;
          throw new InlayError(
            {
              status: 0,
              title: 'Network error',
              detail: `Could not reach ${url}: ${(cause as Error)?.message}`,
            },
            { cause },
          );
        },
      );
    };
    let token = await auth?.get();
    let res = await send(token);
    // A provider's own 401 through the proxy says nothing about Inlay's token.
    if (res.status === 401 && !res.headers.has(UPSTREAM_STATUS_HEADER) && auth?.refresh) {
      token = await auth.refresh(token);
      if (token) res = await send(token);
    }
    return res;
  };
}

/** Reads an answer: JSON parsed, a problem thrown as InlayError. */
export async function read<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = text || undefined;
  if (text && /json/.test(res.headers.get('content-type') ?? '')) {
    try {
      body = JSON.parse(text);
    } catch (cause) {
      throw new InlayError(
        { status: res.status, code: 'invalid_response' as never, detail: 'Malformed JSON' },
        { cause },
      );
    }
  }
  if (!res.ok) {
    const p = (body && typeof body === 'object' ? body : {}) as Partial<Problem>;
    throw new InlayError({
      ...p,
      status: res.status,
      requestId: p.requestId ?? res.headers.get('x-request-id') ?? undefined,
      detail: p.detail ?? p.message ?? (typeof body === 'string' ? body.slice(0, 500) : undefined),
    });
  }
  return body as T;
}

import type { Problem } from '@inlay/contract';
import { InlayError } from './error.ts';
import type { TokenManager } from './token.ts';

export const API_VERSION = '2025-09';

/**
 * Sent on every call. @inlay/express refuses writes without it: a custom header makes the browser ask
 * (CORS preflight) before another origin's page can send it, which a form or a simple fetch cannot.
 */
export const CLIENT_HEADER = 'x-inlay-client';

export type QueryValue = string | number | boolean | null | undefined;

export interface CallOptions {
  signal?: AbortSignal;
}

export interface RequestInit {
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
}

export type Request = <T>(method: string, path: string, init?: RequestInit) => Promise<T>;

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
  const base = opts.baseUrl.replace(/\/+$/, '');
  return async <T>(method: string, path: string, init: RequestInit = {}): Promise<T> => {
    const url = base + path + queryString(init.query);
    const send = (token: string | undefined) => {
      const headers: Record<string, string> = {
        accept: 'application/json, application/problem+json',
        'x-api-version': opts.apiVersion ?? API_VERSION,
        [CLIENT_HEADER]: '1',
        ...opts.headers,
      };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      return (opts.fetch ?? fetch)(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: init.signal,
      }).catch((cause: unknown) => {
        if ((cause as Error)?.name === 'AbortError') throw cause;
        throw new InlayError(
          {
            status: 0,
            title: 'Network error',
            detail: `Could not reach ${url}: ${(cause as Error)?.message}`,
          },
          { cause },
        );
      });
    };
    let token = await auth?.get();
    let res = await send(token);
    if (res.status === 401 && auth?.refresh) {
      token = await auth.refresh(token);
      if (token) res = await send(token);
    }
    return read<T>(res);
  };
}

async function read<T>(res: Response): Promise<T> {
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

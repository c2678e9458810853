import type { ProxyMethod } from '@inlay/contract';
import {
  type FetchBody,
  type RawInit,
  type Request,
  read,
  seg,
  UPSTREAM_STATUS_HEADER,
} from './transport.ts';

export interface ProxyRequestInit {
  /** The connector's machine name, e.g. `github`. */
  connector: string;
  /** The user (id or username); required with an API key, may be left out with a user token. */
  userId?: string;
  method?: ProxyMethod;
  /** Below the connector's base URL, e.g. `/user/repos`. */
  path: string;
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  /**
   * A plain object or array is sent as JSON; a string, bytes, `Blob`, `FormData` or `URLSearchParams` as it
   * is (set `content-type` in `headers` for a string or bytes).
   */
  body?: unknown;
  headers?: Record<string, string>;
  /** Which of the user's credentials to use; by default the only connected one. */
  credentialId?: string;
  /** One of the connector's named APIs instead of its base URL. */
  api?: string;
  signal?: AbortSignal;
}

const isRawBody = (b: unknown): b is NonNullable<FetchBody> =>
  typeof b === 'string' ||
  b instanceof ArrayBuffer ||
  ArrayBuffer.isView(b) ||
  (typeof Blob !== 'undefined' && b instanceof Blob) ||
  (typeof FormData !== 'undefined' && b instanceof FormData) ||
  b instanceof URLSearchParams;

/** `{METHOD} /connectors/{connector}/proxy/{path}`: the provider's answer as a fetch `Response`, unread. */
function proxyRequest(r: Request, init: ProxyRequestInit): Promise<Response> {
  if (!r.raw) throw new Error('This client has no raw transport for the proxy');
  const path = init.path.replace(/^\/+/, '');
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(init.query ?? {}))
    if (v !== undefined) for (const item of [v].flat()) query.append(k, String(item));
  if (init.userId) query.set('userId', init.userId);
  if (init.api) query.set('api', init.api);
  const headers: Record<string, string> = { accept: '*/*', ...init.headers };
  if (init.credentialId) headers['x-inlay-credential-id'] = init.credentialId;
  let body: RawInit['body'];
  if (init.body !== undefined && init.body !== null) {
    if (isRawBody(init.body)) body = init.body as RawInit['body'];
    else {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  const qs = query.toString();
  return r.raw(
    init.method ?? 'GET',
    `/connectors/${seg(init.connector)}/proxy/${path}${qs ? `?${qs}` : ''}`,
    {
      headers,
      body,
      signal: init.signal,
    },
  );
}

/**
 * The provider's answer, whatever its status; Inlay's own refusals (no credential, egress, quota) throw
 * `InlayError` as every other call does.
 */
async function proxied(r: Request, init: ProxyRequestInit): Promise<Response> {
  const res = await proxyRequest(r, init);
  if (!res.headers.has(UPSTREAM_STATUS_HEADER) && !res.ok) await read(res);
  return res;
}

type Shortcut = Omit<ProxyRequestInit, 'connector' | 'path' | 'method'>;

export function proxyRoutes(r: Request) {
  const by =
    (method: ProxyMethod) =>
    (connector: string, path: string, init: Shortcut = {}) =>
      proxied(r, { ...init, connector, path, method });
  return {
    /** Any endpoint of the connector's API as the user; the answer is the provider's `Response`. */
    request: (init: ProxyRequestInit) => proxied(r, init),
    get: by('GET'),
    post: by('POST'),
    put: by('PUT'),
    patch: by('PATCH'),
    delete: by('DELETE'),
  };
}

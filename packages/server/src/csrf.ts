import { CLIENT_HEADER } from '@inlay/client/server';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Origins besides the host's own that may write: a list, or a predicate over the request's `Origin` (given the
 * framework's request: Express's, Hono's context, Fastify's, or the web `Request`).
 */
export type AllowedOrigins<R = Request> = readonly string[] | ((origin: string, req: R) => boolean);

export interface CsrfRefusal {
  status: 403 | 415;
  code: 'forbidden' | 'unsupported_media_type';
  title: string;
  detail: string;
  errors: { field: string; rule: string; message: string }[];
}

/** `https://app.example.com/` -> `https://app.example.com`; throws on anything that is not an http(s) origin. */
export function normaliseOrigin(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`allowedOrigins: ${value} is not an http(s) origin`);
  return url.origin;
}

/** The request says it carries a body (a host body parser may already have spent the stream). */
export function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return (length !== null && length !== '0') || headers.has('transfer-encoding');
}

/** `application/json`, by the header itself (a host parser may have consumed the body). No form sends it. */
function isJson(type: string | null): boolean {
  return type?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * Refuses a write that a page on another origin could have made the browser send: a foreign `Origin`,
 * `Sec-Fetch-Site: cross-site`, no `x-inlay-client` header, or a body that is not `application/json` (a form
 * that the host's own body parser may already have turned into an object). Reads pass: they change nothing,
 * and without CORS their answers stay unreadable to other origins.
 *
 * `hosts` are the names the browser may have addressed this backend by: the `Host` header and the request
 * URL's host (which a framework that trusts its proxy takes from `X-Forwarded-Host`).
 */
export function csrfGuard<R>(
  allowed: AllowedOrigins<R> | undefined,
): (method: string, headers: Headers, hosts: readonly string[], req: R) => CsrfRefusal | undefined {
  const list = Array.isArray(allowed)
    ? new Set((allowed as readonly string[]).map(normaliseOrigin))
    : undefined;
  const fn = typeof allowed === 'function' ? allowed : undefined;
  const listed = (origin: string, req: R) => list?.has(origin) === true || fn?.(origin, req) === true;

  return (method, headers, hosts, req) => {
    if (!UNSAFE.has(method)) return undefined;
    const origin = headers.get('origin');
    const site = headers.get('sec-fetch-site');
    if (origin !== null) {
      let url: URL | undefined;
      try {
        url = origin === 'null' ? undefined : new URL(origin);
      } catch {}
      const explicit = url !== undefined && listed(url.origin, req);
      const sameHost = url !== undefined && hosts.some((h) => h.toLowerCase() === url.host);
      if (!explicit && !sameHost)
        return forbidden(
          'header.origin',
          'allowed_origin',
          `Origin ${origin} may not write through this proxy: only the host's own origin${list?.size || fn ? ' and its allowedOrigins' : ''} may`,
        );
      // A browser calls a same-host page cross-site only behind a name it does not share; a listed origin is deliberate.
      if (site === 'cross-site' && !explicit)
        return forbidden(
          'header.sec-fetch-site',
          'not_cross_site',
          'Cross-site writes are refused; list the origin in allowedOrigins to allow it',
        );
    } else if (site === 'cross-site') {
      return forbidden('header.sec-fetch-site', 'not_cross_site', 'Cross-site writes are refused');
    }
    if (!headers.get(CLIENT_HEADER))
      return forbidden(
        `header.${CLIENT_HEADER}`,
        'required',
        `Writes need the ${CLIENT_HEADER} header, which @inlay/client and the widget send`,
      );
    const type = headers.get('content-type');
    if ((type !== null || hasBody(headers)) && !isJson(type))
      return {
        status: 415,
        code: 'unsupported_media_type',
        title: 'Unsupported Media Type',
        detail: `Writes take an application/json body, not ${type ? type.split(';')[0] : 'one without a Content-Type'}`,
        errors: [{ field: 'header.content-type', rule: 'enum', message: 'must be application/json' }],
      };
    return undefined;
  };
}

function forbidden(field: string, rule: string, detail: string): CsrfRefusal {
  return {
    status: 403,
    code: 'forbidden',
    title: 'Forbidden',
    detail,
    errors: [{ field, rule, message: detail }],
  };
}

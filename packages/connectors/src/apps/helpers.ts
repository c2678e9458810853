import { ConnectorError } from '../errors.ts';
import type { HttpRequestSpec, HttpResponse, QueryValue, ResponseProblem } from '../types.ts';

/**
 * Builds a path with every interpolated value percent-encoded as one segment, so an id such as `a/b` cannot
 * reach another endpoint. `.` and `..` survive encoding and URL parsing would resolve them, so they are refused.
 */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce((out, s, i) => {
    if (i === 0) return s;
    const v = String(values[i - 1]);
    if (v === '' || v === '.' || v === '..')
      throw new ConnectorError(`Invalid path segment "${v}"`, { code: 'invalid_input', transient: false });
    return `${out}${encodeURIComponent(v)}${s}`;
  }, '');
}

/** The same request with more query parameters. */
export const withQuery = (req: HttpRequestSpec, query: Record<string, QueryValue>): HttpRequestSpec => ({
  ...req,
  query: { ...req.query, ...query },
});

/** The same request with more top-level body fields (cursor-in-body APIs such as Notion and HubSpot search). */
export const withBody = (req: HttpRequestSpec, extra: Record<string, unknown>): HttpRequestSpec => ({
  ...req,
  body: { ...(req.body as Record<string, unknown>), ...extra },
});

/** The URL of the `rel="next"` entry of an RFC 8288 `Link` header (GitHub, Shopify REST). */
export function linkNext(res: HttpResponse): URL | undefined {
  for (const part of (res.headers.link ?? '').split(',')) {
    const m = /^\s*<([^>]+)>(.*)$/.exec(part);
    if (!m) continue;
    const rel = m[2]!
      .split(';')
      .map((param) => /^\s*rel\s*=\s*"?([^"]*)"?\s*$/i.exec(param)?.[1])
      .find((r) => r !== undefined);
    if (!rel?.split(/\s+/).includes('next')) continue;
    try {
      return new URL(m[1]!);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The next-page request taken from a provider's absolute `next` URL: only its query is kept and sent to the
 * configured base URL, so credentials never follow a link to a host the connector does not name.
 */
export function nextFromUrl(
  req: HttpRequestSpec,
  next: string | URL | undefined | null,
): HttpRequestSpec | undefined {
  if (!next) return undefined;
  let url: URL;
  try {
    url = new URL(next, 'http://placeholder.invalid');
  } catch {
    return undefined;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  return { ...req, query };
}

/** A GraphQL POST (Linear, Shopify Admin). */
export const graphql = (
  query: string,
  variables: Record<string, unknown> = {},
  path = '/graphql',
): HttpRequestSpec => ({ method: 'POST', path, body: { query, variables } });

interface GraphqlError {
  message?: string;
  extensions?: { code?: string; userPresentableMessage?: string };
}

/**
 * GraphQL reports most failures in an `errors` array, often with HTTP 200. `throttledCode` is the provider's
 * rate-limit code (`THROTTLED`, `RATELIMITED`), which makes the failure transient.
 */
export function graphqlError(res: HttpResponse, throttledCode?: string): ResponseProblem | undefined {
  const errors = (res.body as { errors?: GraphqlError[] } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  // Linear puts the readable reason in `userPresentableMessage`.
  const message =
    joinMessages(errors.map((e) => e.extensions?.userPresentableMessage ?? e.message)) ?? 'GraphQL error';
  return throttledCode && errors.some((e) => e.extensions?.code === throttledCode)
    ? { message, transient: true }
    : message;
}

/** Joins the non-empty strings of a provider's error list. */
export const joinMessages = (messages: unknown[]) =>
  messages.filter((m): m is string => typeof m === 'string' && m.trim() !== '').join('; ') || undefined;

/** Rejects CR and LF, which would let a value start a new header line (email headers). */
export const noNewlines = (v: string) => !/[\r\n]/.test(v);

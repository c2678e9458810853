import type { CredentialField, OptionItem } from '@inlay/contract';
import { z } from 'zod';
import { ConnectorError } from '../errors.ts';
import type { HttpRequestSpec, HttpResponse, OptionSource, QueryValue, ResponseProblem } from '../types.ts';

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

/** The next page of a list that pages with a `Link: <…>; rel="next"` header (GitHub, Freshdesk). */
export const linkHeaderNext = (res: HttpResponse, req: HttpRequestSpec) => nextFromUrl(req, linkNext(res));

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
 * rate-limit code or codes (`THROTTLED`, `RATELIMITED`), which make the failure transient.
 */
export function graphqlError(
  res: HttpResponse,
  throttledCode?: string | readonly string[],
): ResponseProblem | undefined {
  const errors = (res.body as { errors?: GraphqlError[] } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  // Linear puts the readable reason in `userPresentableMessage`.
  const message =
    joinMessages(errors.map((e) => e.extensions?.userPresentableMessage ?? e.message)) ?? 'GraphQL error';
  const throttled = typeof throttledCode === 'string' ? [throttledCode] : (throttledCode ?? []);
  return errors.some((e) => throttled.includes(e.extensions?.code ?? ''))
    ? { message, transient: true }
    : message;
}

/** Joins the non-empty strings of a provider's error list. */
export const joinMessages = (messages: unknown[]) =>
  messages.filter((m): m is string => typeof m === 'string' && m.trim() !== '').join('; ') || undefined;

/** Rejects CR and LF, which would let a value start a new header line (email headers). */
export const noNewlines = (v: string) => !/[\r\n]/.test(v);

/** One level of a `treeSource`: how to list the children of a parent (the root has none). */
export interface TreeLevel {
  request: (parent: any) => HttpRequestSpec;
  items: (body: any) => unknown[];
  /** The next page of this level's list, if it pages. */
  next?: (res: HttpResponse, req: HttpRequestSpec) => HttpRequestSpec | undefined;
  /** Levels listed for each item of this one; a level without children yields the options. */
  children?: TreeLevel[];
}

interface TreeState {
  level: TreeLevel;
  /** The items above this list, root first. */
  parents: unknown[];
  /** Lists still to fetch, shared by every request of one `options()` call. */
  queue: { level: TreeLevel; parents: unknown[] }[];
}
type TreeRequest = HttpRequestSpec & { tree?: TreeState };

const treeRequest = (level: TreeLevel, parents: unknown[], queue: TreeState['queue']): TreeRequest => ({
  ...level.request(parents.at(-1)),
  tree: { level, parents, queue },
});

/**
 * An option source over a hierarchy the API lists one parent at a time (Teams channels per team, ClickUp lists
 * per space): each page is one request, so the runtime's paging, refresh and page cap apply to the whole walk.
 * `option` receives the leaf item and its parents, root first.
 */
export function treeSource(s: {
  description: string;
  root: TreeLevel;
  option: (item: any, parents: any[]) => OptionItem;
  maxPages?: number;
}): OptionSource {
  return {
    description: s.description,
    request: () => treeRequest(s.root, [], []),
    items: (body, req) => {
      const t = (req as TreeRequest).tree!;
      const found = t.level.items(body);
      if (!t.level.children) return found.map((item) => ({ item, parents: t.parents }));
      for (const item of found)
        for (const level of t.level.children) t.queue.push({ level, parents: [...t.parents, item] });
      return [];
    },
    option: (e: { item: unknown; parents: unknown[] }) => s.option(e.item, e.parents),
    paging: {
      maxPages: s.maxPages ?? 60,
      next: (res, req) => {
        const t = (req as TreeRequest).tree!;
        const more = t.level.next?.(res, req);
        if (more) return { ...more, tree: t } as TreeRequest;
        const pending = t.queue.shift();
        return pending && treeRequest(pending.level, pending.parents, t.queue);
      },
    },
  };
}

/** A sender address, bare or with a display name ("Acme <hello@acme.com>"). */
export const emailSender = (description: string) =>
  z.string().min(3).max(320).refine(noNewlines, 'must be one line').describe(description);

/** Addresses and subject of an email, shared by the mail connectors; `max` is the provider's recipient limit. */
export const emailEnvelope = (max: number) => {
  const addresses = z.array(z.email()).max(max);
  return {
    to: addresses.min(1).describe('Recipient addresses'),
    cc: addresses.optional().describe('Copy addresses'),
    bcc: addresses.optional().describe('Blind-copy addresses'),
    replyTo: z.email().optional().describe('Reply-To address'),
    subject: z.string().max(998).refine(noNewlines, 'must be one line').describe('Subject'),
    html: z.boolean().default(false).describe('Send the body as HTML'),
  };
};

/** A required secret credential field (API key, token). */
export const secretField = (
  name: string,
  label: string,
  more: Partial<CredentialField> = {},
): CredentialField => ({ name, label, type: 'password', required: true, secret: true, ...more });

/** A required non-secret credential field: a setting such as a subdomain or region, usable in URLs. */
export const settingField = (
  name: string,
  label: string,
  more: Partial<CredentialField> = {},
): CredentialField => ({ name, label, type: 'text', required: true, secret: false, ...more });

/** A provider's message followed by its per-field details: "Validation Failed. settings.audio: Invalid field." */
export function detailedMessage(
  message: string | undefined,
  details: { field?: string; message?: string }[] = [],
): string | undefined {
  if (!message) return undefined;
  const extra = joinMessages(details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)));
  if (!extra) return message;
  return /[.:!?]$/.test(message) ? `${message} ${extra}` : `${message}: ${extra}`;
}

/**
 * A test answer's account label: the first non-empty string (or number) found at one of the dotted paths,
 * e.g. `bodyLabel('team', 'user')` for Slack's `auth.test`; array indexes are path segments (`0.tenantName`).
 */
export const bodyLabel =
  (...paths: string[]) =>
  (res: HttpResponse): string | undefined => {
    for (const p of paths) {
      let v: unknown = res.body;
      for (const key of p.split('.'))
        v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
      if ((typeof v === 'string' && v.trim()) || typeof v === 'number') return String(v);
    }
    return undefined;
  };

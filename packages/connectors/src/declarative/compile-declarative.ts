import {
  DeclarativeConnector,
  type DeclarativePaging,
  type DeclarativeRequest,
  type DeclarativeTrigger,
} from '@inlay/contract';
import { z } from 'zod';
import { linkHeaderNext } from '../apps/helpers.ts';
import { ConnectorError } from '../errors.ts';
import { type EvaluateOptions, evaluateExpression } from '../expressions/index.ts';
import { lookupPath } from '../expressions/path-lookup.ts';
import { signatureVerifiers } from '../triggers/signatures.ts';
import type {
  ActionDefinition,
  ConnectorDefinition,
  HttpRequestSpec,
  HttpResponse,
  OptionSource,
  Paging,
  QueryValue,
  TriggerDefinition,
} from '../types.ts';
import { renderJsonata, renderJsonataPath, renderPaths, renderPathsPath } from './render-template.ts';

const at = (path: string, data: unknown) => lookupPath(path, data)?.value;

/**
 * A rendered path stays under the connector's base URL: an absolute URL (which the runtime would call as
 * written, credential and all) could come from a template over input that a webhook's sender chose.
 */
function relativePath(rendered: unknown): string {
  const path = String(rendered);
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//'))
    throw new ConnectorError(
      `The request path must stay under the connector's base URL, not ${path.slice(0, 100)}`,
      {
        code: 'invalid_input',
        transient: false,
      },
    );
  return path;
}

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/** A rendered request as the runtime takes it: query and header entries that came out empty are left out. */
function toSpec(r: DeclarativeRequest, rendered: Record<string, unknown>): HttpRequestSpec {
  const query: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries((rendered.query as Record<string, unknown>) ?? {}))
    if (given(v)) query[k] = Array.isArray(v) ? v.map(String) : (String(v) as QueryValue);
  // An optional header input that was not given renders as nothing: it is not sent at all.
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries((rendered.headers as Record<string, unknown>) ?? {}))
    if (given(v)) headers[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return {
    method: r.method,
    path: relativePath(rendered.path),
    ...(r.api ? { api: r.api } : {}),
    ...(Object.keys(query).length ? { query } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(rendered.body !== undefined ? { body: rendered.body } : {}),
    ...(r.bodyType ? { bodyType: r.bodyType } : {}),
  };
}

function action(a: DeclarativeConnector['actions'][number]): ActionDefinition {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    kind: a.kind,
    // The declared JSON Schema validates the input (and fills its defaults) as a zod schema would.
    input: z.fromJSONSchema(a.input as Parameters<typeof z.fromJSONSchema>[0]),
    handler: async (input, ctx) => {
      const opts = { signal: ctx.signal, tenant: ctx.tenant };
      const res = await ctx.http(await renderRequest(a.request, { input, settings: ctx.settings }, opts));
      return a.output ? evaluateExpression(a.output, res.body, opts) : res.body;
    },
  };
}

/** Renders a declarative request's templates as JSONata over `data`. */
async function renderRequest(
  r: DeclarativeRequest,
  data: Record<string, unknown>,
  opts: Partial<EvaluateOptions> = {},
): Promise<HttpRequestSpec> {
  const { method: _m, api: _a, bodyType: _b, path, ...templates } = r;
  const rendered = (await renderJsonata(templates, data, opts)) as Record<string, unknown>;
  return toSpec(r, { ...rendered, path: await renderJsonataPath(path, data, opts) });
}

/** A list from JSONata's answer: one match comes back bare, none as undefined. */
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

const listAt = async (expression: string, data: unknown) =>
  asList(await evaluateExpression(expression, data));

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The built-ins' paging kinds, as data: a cursor in the body, the last entry's field, or the `Link` header. */
function paging(p: DeclarativePaging): Paging {
  const next = (res: HttpResponse, req: HttpRequestSpec): HttpRequestSpec | undefined => {
    if (p.link) return linkHeaderNext(res, req);
    if (p.more && at(p.more, res.body) !== true) return undefined;
    let cursor: unknown;
    if (p.next) cursor = at(p.next, res.body);
    else if (p.last) {
      const list = at(p.last.list, res.body);
      cursor = Array.isArray(list) && list.length ? at(p.last.field, list.at(-1)) : undefined;
    }
    if (!present(cursor) || typeof cursor === 'object') return undefined;
    return { ...req, query: { ...req.query, [p.param!]: String(cursor) } };
  };
  return { next, ...(p.maxPages ? { maxPages: p.maxPages } : {}) };
}

function source(s: NonNullable<DeclarativeConnector['sources']>[string]): OptionSource {
  return {
    description: s.description,
    request: (settings, search) => {
      const { method: _m, api: _a, bodyType: _b, path, ...templates } = s.request;
      const data = { settings, search: search ?? '' };
      const rendered = renderPaths(templates, data) as Record<string, unknown>;
      return toSpec(s.request, { ...rendered, path: renderPathsPath(path, data) });
    },
    items: (body) => listAt(s.items, body),
    option: async (item) => ({
      value: String(at(s.value, item) ?? ''),
      label: String((await renderJsonata(s.label, { item })) ?? ''),
    }),
    ...(s.paging ? { paging: paging(s.paging) } : {}),
  };
}

/** One item's id, position and run data, each JSONata over the item. */
function itemReaders(t: DeclarativeTrigger) {
  return {
    itemId: async (item: unknown) => {
      const id = await evaluateExpression(t.itemId, item);
      return typeof id === 'number' ? String(id) : (id as string);
    },
    ...(t.itemPosition
      ? {
          itemPosition: async (item: unknown) => {
            const p = await evaluateExpression(t.itemPosition!, item);
            return typeof p === 'string' || typeof p === 'number' ? p : undefined;
          },
        }
      : {}),
    ...(t.output ? { output: (item: unknown) => evaluateExpression(t.output!, item) } : {}),
  };
}

/** A trigger as data, run by the same trigger runtime as the built-ins' (dedupe, paging, signature checks). */
function trigger(t: DeclarativeTrigger): TriggerDefinition {
  const common = {
    id: t.id,
    name: t.name,
    description: t.description,
    input: z.fromJSONSchema(t.input as Parameters<typeof z.fromJSONSchema>[0]),
    ...itemReaders(t),
  };
  if (t.kind === 'poll')
    return {
      ...common,
      kind: 'poll',
      request: (input, settings, since) =>
        renderRequest(t.request, { input, settings, ...(since !== undefined ? { since } : {}) }),
      items: (body) => listAt(t.items, body),
      ...(t.paging ? { paging: paging(t.paging) } : {}),
      ...(t.order ? { order: t.order } : {}),
    };
  return {
    ...common,
    kind: 'webhook',
    subscribe: (input, hook, settings) => renderRequest(t.subscribe, { input, settings, hook }),
    subscription: (res) => {
      const id = at(t.subscription.id, res.body);
      const secret = t.subscription.secret ? at(t.subscription.secret, res.body) : undefined;
      return {
        id: present(id) && typeof id !== 'object' ? String(id) : '',
        ...(typeof secret === 'string' && secret ? { secret } : {}),
      };
    },
    unsubscribe: (input, subscriptionId, settings) =>
      renderRequest(t.unsubscribe, { input, settings, subscriptionId }),
    verify: signatureVerifiers[t.signature],
    items: (d) => listAt(t.items, { headers: d.headers, body: d.body }),
  };
}

/**
 * Turns a declarative definition (validated with `DeclarativeConnector`) into a connector the runtime runs
 * like a built-in: same auth vocabulary, same egress policy, same refresh, same error mapping.
 */
export function compileDeclarative(d: DeclarativeConnector): ConnectorDefinition {
  const check = d.check;
  const test = d.test;
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    category: d.category,
    icon: d.icon,
    ...(d.color ? { color: d.color } : {}),
    ...(d.docs ? { docs: d.docs } : {}),
    baseUrl: d.baseUrl,
    ...(d.apis ? { apis: d.apis } : {}),
    ...(d.headers ? { headers: d.headers } : {}),
    auth: d.auth,
    ...(test
      ? {
          test: {
            request: (settings) => ({
              method: test.method,
              path: relativePath(renderPathsPath(test.path, { settings })),
            }),
            ...(test.label
              ? {
                  accountLabel: (res: HttpResponse) => {
                    const v = at(test.label!, res.body);
                    return typeof v === 'string' ? v : undefined;
                  },
                }
              : {}),
          },
        }
      : {}),
    ...(check
      ? {
          checkResponse: (res: HttpResponse) => {
            if (!res.body || typeof res.body !== 'object' || at(check.ok, res.body) === true)
              return undefined;
            const reason = String(
              (check.reason && at(check.reason, res.body)) ?? 'the provider reported an error',
            );
            return { message: reason, auth: check.authReasons?.includes(reason) ?? false };
          },
        }
      : {}),
    ...(d.errorMessage
      ? {
          errorMessage: async (res: HttpResponse) => {
            if (!res.body || typeof res.body !== 'object') return undefined;
            const v = await evaluateExpression(d.errorMessage!, res.body).catch(() => undefined);
            return typeof v === 'string' && v !== '' ? v : undefined;
          },
        }
      : {}),
    actions: d.actions.map(action),
    ...(d.sources
      ? { sources: Object.fromEntries(Object.entries(d.sources).map(([k, s]) => [k, source(s)])) }
      : {}),
    ...(d.triggers?.length ? { triggers: d.triggers.map(trigger) } : {}),
  };
}

/** Validates a JSON definition (throws a ZodError naming each field) and compiles it. */
export const parseDeclarative = (value: unknown): ConnectorDefinition =>
  compileDeclarative(DeclarativeConnector.parse(value));

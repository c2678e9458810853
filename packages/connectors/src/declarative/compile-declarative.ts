import { DeclarativeConnector, type DeclarativeRequest } from '@inlay/contract';
import { z } from 'zod';
import { evaluateExpression } from '../expressions/index.ts';
import { lookupPath } from '../expressions/path-lookup.ts';
import type {
  ActionDefinition,
  ConnectorDefinition,
  HttpRequestSpec,
  HttpResponse,
  OptionSource,
  QueryValue,
} from '../types.ts';
import { renderJsonata, renderPaths } from './render-template.ts';

const at = (path: string, data: unknown) => lookupPath(path, data)?.value;

/** A rendered request as the runtime takes it: query entries that came out empty are left out. */
function toSpec(r: DeclarativeRequest, rendered: Record<string, unknown>): HttpRequestSpec {
  const query: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries((rendered.query as Record<string, unknown>) ?? {}))
    if (v !== undefined && v !== null && v !== '')
      query[k] = Array.isArray(v) ? v.map(String) : (String(v) as QueryValue);
  return {
    method: r.method,
    path: String(rendered.path),
    ...(r.api ? { api: r.api } : {}),
    ...(Object.keys(query).length ? { query } : {}),
    ...(rendered.headers ? { headers: rendered.headers as Record<string, string> } : {}),
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
      const { method: _m, api: _a, bodyType: _b, ...templates } = a.request;
      const rendered = (await renderJsonata(templates, { input, settings: ctx.settings })) as Record<
        string,
        unknown
      >;
      const res = await ctx.http(toSpec(a.request, rendered));
      return a.output ? evaluateExpression(a.output, res.body) : res.body;
    },
  };
}

function source(s: NonNullable<DeclarativeConnector['sources']>[string]): OptionSource {
  return {
    description: s.description,
    request: (settings, search) => {
      const { method: _m, api: _a, bodyType: _b, ...templates } = s.request;
      return toSpec(
        s.request,
        renderPaths(templates, { settings, search: search ?? '' }) as Record<string, unknown>,
      );
    },
    items: (body) => {
      const items = at(s.items, body);
      return Array.isArray(items) ? items : [];
    },
    option: (item) => ({
      value: String(at(s.value, item) ?? ''),
      label: String(renderPaths(s.label, { item })),
    }),
    ...(s.paging
      ? {
          paging: {
            next: (res: HttpResponse, req: HttpRequestSpec) => {
              const cursor = at(s.paging!.next, res.body);
              if (cursor === undefined || cursor === null || cursor === '') return undefined;
              return { ...req, query: { ...req.query, [s.paging!.param]: String(cursor) } };
            },
          },
        }
      : {}),
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
              path: String(renderPaths(test.path, { settings })),
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
    actions: d.actions.map(action),
    ...(d.sources
      ? { sources: Object.fromEntries(Object.entries(d.sources).map(([k, s]) => [k, source(s)])) }
      : {}),
  };
}

/** Validates a JSON definition (throws a ZodError naming each field) and compiles it. */
export const parseDeclarative = (value: unknown): ConnectorDefinition =>
  compileDeclarative(DeclarativeConnector.parse(value));

import { AUTH_TYPES, CONNECTOR_CATEGORIES, CredentialField } from '@inlay/contract';
import { z } from 'zod';
import { requestHeaderProblem } from './egress/request-headers.ts';
import type { ConnectorDefinition } from './types.ts';

const fn = z.custom<(...args: any[]) => unknown>((v) => typeof v === 'function', 'must be a function');
const slug = z.string().regex(/^[a-z][a-z0-9_-]*$/, 'must be a lower-case slug');
const url = z
  .string()
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), 'must be an http(s) URL or empty');

const Action = z
  .object({
    id: slug,
    name: z.string().min(1),
    description: z.string().min(1),
    kind: z.enum(['read', 'write']),
    input: z.custom<z.ZodType>((v) => v instanceof z.ZodType, 'must be a zod schema'),
    request: fn.optional(),
    output: fn.optional(),
    handler: fn.optional(),
  })
  .refine((a) => Boolean(a.request) !== Boolean(a.handler), 'needs exactly one of request or handler');

const Auth = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('oauth2'),
    authorizeUrl: url,
    tokenUrl: url,
    scopes: z.array(z.string()),
    pkce: z.boolean(),
    scopeSeparator: z.string().optional(),
    authorizeParams: z.record(z.string(), z.string()).optional(),
    tokenAuth: z.enum(['body', 'basic']).optional(),
    fields: z.array(CredentialField).optional(),
    tokenHeader: z
      .object({ name: z.string().min(1), format: z.string().includes('{accessToken}') })
      .optional(),
  }),
  z.object({
    type: z.literal('apiKey'),
    fields: z.array(CredentialField).min(1),
    in: z.enum(['header', 'query']),
    name: z.string().min(1),
    format: z.string().optional(),
    optional: z.boolean().optional(),
    originsField: z.string().optional(),
  }),
  z.object({
    type: z.literal('basic'),
    fields: z.array(CredentialField).min(1),
    username: z.string(),
    password: z.string(),
  }),
  z.object({ type: z.literal('none') }),
]);

const Source = z.object({
  description: z.string(),
  request: fn,
  items: fn,
  option: fn,
  paging: z.object({ next: fn, maxPages: z.number().int().positive().optional() }).optional(),
});

const triggerCommon = {
  id: slug,
  name: z.string().min(1),
  description: z.string().min(1),
  input: z.custom<z.ZodType>((v) => v instanceof z.ZodType, 'must be a zod schema'),
  itemId: fn,
  itemPosition: fn.optional(),
  output: fn.optional(),
};
const Trigger = z.discriminatedUnion('kind', [
  z.object({
    ...triggerCommon,
    kind: z.literal('poll'),
    request: fn,
    items: fn,
    paging: z.object({ next: fn, maxPages: z.number().int().positive().optional() }).optional(),
    order: z.enum(['newest', 'oldest']).optional(),
  }),
  z.object({
    ...triggerCommon,
    kind: z.literal('webhook'),
    subscribe: fn,
    subscription: fn,
    unsubscribe: fn,
    verify: fn,
    items: fn,
  }),
]);

export const ConnectorDefinitionSchema = z
  .object({
    id: slug,
    name: z.string().min(1),
    description: z.string().min(1),
    category: z.enum(CONNECTOR_CATEGORIES),
    icon: z.string().min(1),
    color: z
      .string()
      .regex(/^[0-9A-Fa-f]{6}$/)
      .optional(),
    docs: z.string().optional(),
    baseUrl: z.string(),
    apis: z.record(slug, url).optional(),
    auth: Auth,
    settings: fn.optional(),
    headers: z.record(z.string(), z.string()).optional(),
    test: z.object({ request: fn }).optional(),
    checkResponse: fn.optional(),
    errorMessage: fn.optional(),
    actions: z.array(Action).min(1),
    sources: z.record(slug, Source).optional(),
    triggers: z.array(Trigger).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.auth.type === 'apiKey' && c.auth.originsField !== undefined) {
      const field = c.auth.fields.find((f) => f.name === (c.auth as { originsField: string }).originsField);
      if (!field || field.secret || !field.required)
        ctx.addIssue({
          code: 'custom',
          path: ['auth', 'originsField'],
          message: 'must name a required, non-secret credential field',
        });
    }
    for (const name of Object.keys(c.headers ?? {}))
      if (requestHeaderProblem(name, c.headers![name]!))
        ctx.addIssue({ code: 'custom', path: ['headers', name], message: 'is a header the transport owns' });
    const ids = new Set<string>();
    c.actions.forEach((a, i) => {
      if (ids.has(a.id))
        ctx.addIssue({ code: 'custom', path: ['actions', i, 'id'], message: `duplicate action id ${a.id}` });
      ids.add(a.id);
    });
    const triggerIds = new Set<string>();
    c.triggers?.forEach((t, i) => {
      if (triggerIds.has(t.id))
        ctx.addIssue({
          code: 'custom',
          path: ['triggers', i, 'id'],
          message: `duplicate trigger id ${t.id}`,
        });
      triggerIds.add(t.id);
    });
  });

/** Validates definitions at load so a broken connector fails fast, naming itself and the field. */
export function validateConnectors(defs: readonly ConnectorDefinition[]): ConnectorDefinition[] {
  const seen = new Set<string>();
  for (const def of defs) {
    const r = ConnectorDefinitionSchema.safeParse(def);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new Error(
        `Connector ${def?.id ?? '?'} is invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
      );
    }
    if (seen.has(def.id)) throw new Error(`Connector id ${def.id} is defined twice`);
    seen.add(def.id);
  }
  return [...defs];
}

export { AUTH_TYPES };

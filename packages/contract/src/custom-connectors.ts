import { z } from 'zod';
import { LIMITS } from './common.ts';
import { CONNECTOR_CATEGORIES, CredentialField } from './connectors.ts';

const Slug = z
  .string()
  .regex(
    /^[a-z][a-z0-9_-]{0,62}$/,
    'must be a slug: lower-case letters, digits, `-` and `_`, starting with a letter',
  );
const Url = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(LIMITS.url);
/** A string that may hold `{{ path }}` templates (see `DeclarativeRequest`). */
const Template = z.string().max(LIMITS.fieldValue);
const Headers = z.record(z.string().max(128), Template);

/**
 * A request as data. Strings may hold `{{ }}` templates: in actions JSONata over `{input, settings}`, in
 * sources and tests a plain path over `{settings, search}`. A string that is one template alone keeps the
 * value's type (`"body": "{{ input }}"` sends the whole input); `{}` placeholders in paths are not used.
 */
export const DeclarativeRequest = z
  .object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: Template.min(1),
    api: z.string().max(64).optional(),
    query: z.record(z.string().max(128), z.unknown()).optional(),
    headers: Headers.optional(),
    body: z.unknown().optional(),
    bodyType: z.enum(['json', 'form']).optional(),
  })
  .meta({ id: 'DeclarativeRequest' });
export type DeclarativeRequest = z.infer<typeof DeclarativeRequest>;

const Fields = z.array(CredentialField).max(20);

export const DeclarativeAuth = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('oauth2'),
      authorizeUrl: Url,
      tokenUrl: Url,
      scopes: z.array(z.string().max(255)).max(100),
      pkce: z.boolean(),
      scopeSeparator: z.string().max(4).optional(),
      authorizeParams: z.record(z.string(), z.string().max(255)).optional(),
      tokenAuth: z.enum(['body', 'basic']).optional(),
      fields: Fields.optional(),
      tokenHeader: z.object({ name: z.string().max(128), format: z.string().max(255) }).optional(),
    }),
    z.object({
      type: z.literal('apiKey'),
      fields: Fields.min(1),
      in: z.enum(['header', 'query']),
      name: z.string().min(1).max(128),
      format: z.string().max(255).optional(),
    }),
    z.object({
      type: z.literal('basic'),
      fields: Fields.min(1),
      username: z.string().max(255),
      password: z.string().max(255),
    }),
    z.object({ type: z.literal('none') }),
  ])
  .meta({ id: 'DeclarativeAuth' });

/** A JSON Schema of type `object`: what an action takes. */
const InputSchema = z
  .record(z.string(), z.unknown())
  .refine((s) => s.type === 'object', 'must be a JSON Schema with "type": "object"');

const Path = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, 'must be a dotted path');

export const DeclarativeAction = z.object({
  id: Slug,
  name: z.string().min(1).max(LIMITS.name),
  description: z.string().max(LIMITS.text),
  kind: z.enum(['read', 'write']),
  input: InputSchema,
  request: DeclarativeRequest,
  /** JSONata over the response body; the body itself when absent. */
  output: z.string().max(LIMITS.fieldValue).optional(),
});

export const DeclarativeSource = z.object({
  description: z.string().max(LIMITS.text),
  request: DeclarativeRequest,
  /** Where the entries are in the response body. */
  items: Path,
  /** The option's value, a path in one entry. */
  value: Path,
  /** The option's label: a template over `{item}`, e.g. `#{{ item.name }}`. */
  label: Template,
  /** Cursor paging: the next cursor's path in the body, and the query parameter it goes back in. */
  paging: z.object({ next: Path, param: z.string().min(1).max(128) }).optional(),
});

/**
 * An account's own connector as data (`POST /connectors`): the built-ins' vocabulary, with requests written
 * as templates instead of code.
 */
export const DeclarativeConnector = z
  .object({
    id: Slug,
    name: z.string().min(1).max(LIMITS.name),
    description: z.string().max(LIMITS.text),
    category: z.enum(CONNECTOR_CATEGORIES),
    /** A simple-icons slug (a monogram is drawn when the set has none). */
    icon: Slug,
    color: z
      .string()
      .regex(/^[0-9A-Fa-f]{6}$/, 'must be six hex digits')
      .optional(),
    docs: Url.optional(),
    baseUrl: Url,
    apis: z.record(z.string().max(64), Url).optional(),
    headers: Headers.optional(),
    auth: DeclarativeAuth,
    test: z
      .object({ method: z.enum(['GET', 'POST']), path: Template.min(1), label: Path.optional() })
      .optional(),
    /** A 2xx that is really an error (Slack's `ok:false`): `ok` names the flag that is false then, `reason` says why. */
    check: z
      .object({
        ok: Path,
        reason: Path.optional(),
        authReasons: z.array(z.string().max(128)).max(50).optional(),
      })
      .optional(),
    actions: z.array(DeclarativeAction).min(1).max(200),
    sources: z.record(Slug, DeclarativeSource).optional(),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    for (const [i, a] of c.actions.entries()) {
      if (seen.has(a.id))
        ctx.addIssue({ code: 'custom', path: ['actions', i, 'id'], message: `duplicates action "${a.id}"` });
      seen.add(a.id);
    }
  })
  .meta({ id: 'DeclarativeConnector' });
export type DeclarativeConnector = z.infer<typeof DeclarativeConnector>;

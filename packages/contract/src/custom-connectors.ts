import { z } from 'zod';
import { dataOf, LIMITS, MessageResponse } from './common.ts';
import { CONNECTOR_CATEGORIES, Connector, CredentialField } from './connectors.ts';
import { defineOperations } from './operation.ts';

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
      issuer: Url.optional().meta({
        description:
          "The authorization server's issuer, compared with the `iss` of an authorization response (RFC 9207); by default the authorize URL's origin",
      }),
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
/** A JSONata expression (a dotted path is one); its syntax is checked when the definition is stored. */
const Expression = z.string().min(1).max(LIMITS.fieldValue);

/**
 * How the next page is asked for, in the built-ins' terms. `param` is the query parameter the cursor goes back
 * in, and the cursor is `next` (its path in the body: Slack's `response_metadata.next_cursor`) or `last` (a
 * field of the last entry of a list: Stripe's `starting_after`). `more` names a flag in the body that must be
 * true for another page (`has_more`). `link: true` follows the RFC 8288 `Link: <…>; rel="next"` header instead
 * (GitHub); only that URL's query is kept, sent to the connector's own base URL.
 */
export const DeclarativePaging = z
  .object({
    param: z.string().min(1).max(128).optional(),
    next: Path.optional(),
    last: z.object({ list: Path, field: Path }).optional(),
    more: Path.optional(),
    link: z.literal(true).optional(),
    maxPages: z.number().int().min(1).max(100).optional(),
  })
  .superRefine((p, ctx) => {
    const cursors = [p.next, p.last, p.link].filter((v) => v !== undefined).length;
    if (cursors !== 1)
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'give exactly one of `next`, `last` or `link`',
      });
    if (!p.link && !p.param)
      ctx.addIssue({ code: 'custom', path: ['param'], message: 'is required with `next` or `last`' });
  })
  .meta({ id: 'DeclarativePaging' });
export type DeclarativePaging = z.infer<typeof DeclarativePaging>;

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
  /** The entries: JSONata over the response body (a path such as `channels`, or a filter `$[active]`). */
  items: Expression,
  /** The option's value, a path in one entry. */
  value: Path,
  /** The option's label: a template of JSONata over `{item}`, e.g. `#{{ item.name }}`. */
  label: Template,
  paging: DeclarativePaging.optional(),
});

/** Names of the signature checks a webhook trigger may use, each the provider's documented scheme. */
export const SIGNATURE_SCHEMES = [
  /** `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body>` with the secret Inlay gave at subscribe. */
  'github',
  /** `Stripe-Signature: t=…,v1=…` over `t.rawBody`, five minutes' tolerance, with the secret Stripe issued. */
  'stripe',
] as const;

const triggerCommon = {
  id: Slug,
  name: z.string().min(1).max(LIMITS.name),
  description: z.string().max(LIMITS.text),
  /** The settings a workflow gives the trigger (a repository, a channel), as JSON Schema. */
  input: InputSchema,
  /** The item's stable id (dedupe): JSONata over one item, e.g. `id` or `$string(id)`. */
  itemId: Expression,
  /**
   * The item's creation time as ISO text (`created_at`, `$fromMillis(created * 1000)`) or a number (a row's
   * position): items older than the high-water mark are never new, and it is `since` of the next poll.
   */
  itemPosition: Expression.optional(),
  /** What a run receives as `trigger`: JSONata over one item; the item itself when absent. */
  output: Expression.optional(),
};

/**
 * A trigger that asks the provider for recent items every few minutes. `request` templates are JSONata over
 * `{input, settings, since}`, where `since` is the high-water mark of earlier polls (absent on the first).
 */
export const DeclarativePollTrigger = z.object({
  ...triggerCommon,
  kind: z.literal('poll'),
  request: DeclarativeRequest,
  /** The items of one page: JSONata over the response body (`data`, `$[$not($exists(pull_request))]`). */
  items: Expression,
  paging: DeclarativePaging.optional(),
  /** How the provider orders the list: newest first (the default: paging stops at a seen item) or oldest first. */
  order: z.enum(['newest', 'oldest']).optional(),
});

/**
 * A trigger the provider pushes: `subscribe` is sent when a workflow is installed (templates over
 * `{input, settings, hook}`, `hook` being `{url, secret}`: the installation's Inlay URL and signing secret),
 * `unsubscribe` when it is removed (templates over `{input, settings, subscriptionId}`).
 */
export const DeclarativeWebhookTrigger = z.object({
  ...triggerCommon,
  kind: z.literal('webhook'),
  subscribe: DeclarativeRequest,
  /** Where the subscribe answer holds the subscription's id, and the signing secret if the provider issues one. */
  subscription: z.object({ id: Path, secret: Path.optional() }),
  unsubscribe: DeclarativeRequest,
  /** How a delivery's signature is checked: one of the named schemes. */
  signature: z.enum(SIGNATURE_SCHEMES),
  /** The new items of a verified delivery: JSONata over `{headers, body}` (header names lower-case). */
  items: Expression,
});

export const DeclarativeTrigger = z
  .discriminatedUnion('kind', [DeclarativePollTrigger, DeclarativeWebhookTrigger])
  .meta({ id: 'DeclarativeTrigger' });
export type DeclarativeTrigger = z.infer<typeof DeclarativeTrigger>;

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
    /**
     * A simple-icons slug (a monogram is drawn when the set has none), or SVG text, which is sanitised when
     * stored (scripts, event handlers and references outside the image are removed).
     */
    icon: z.union([
      Slug,
      z
        .string()
        .max(65_536)
        .regex(/^\s*(<\?xml[^>]*\?>\s*)?<svg[\s>]/, 'must be a simple-icons slug or SVG text (<svg ...>)'),
    ]),
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
    /**
     * The provider's reason in an error answer: JSONata over the response body, e.g. GitHub's
     * `message & ': ' & $join(errors.message, '; ')`. Without it the usual `message`/`error` fields are read.
     */
    errorMessage: Expression.optional(),
    actions: z.array(DeclarativeAction).min(1).max(200),
    sources: z.record(Slug, DeclarativeSource).optional(),
    triggers: z.array(DeclarativeTrigger).max(50).optional(),
  })
  .superRefine((c, ctx) => {
    for (const key of ['actions', 'triggers'] as const) {
      const seen = new Set<string>();
      for (const [i, a] of (c[key] ?? []).entries()) {
        if (seen.has(a.id))
          ctx.addIssue({
            code: 'custom',
            path: [key, i, 'id'],
            message: `duplicates ${key === 'actions' ? 'action' : 'trigger'} "${a.id}"`,
          });
        seen.add(a.id);
      }
    }
  })
  .meta({ id: 'DeclarativeConnector' });
export type DeclarativeConnector = z.infer<typeof DeclarativeConnector>;

/** The customConnector operations of the REST API, keyed by operationId. */
export const customConnectorOperations = defineOperations({
  createConnector: {
    method: 'post',
    path: '/connectors',
    summary: "Create one of the account's own connectors from a declarative definition",
    tag: 'Connectors',
    auth: 'key',
    body: DeclarativeConnector,
    ok: dataOf(Connector),
    status: '201',
    notFound: false,
    problems: {
      '409': 'The account already has a connector with this id, or the id is a built-in connector',
      '422': "The egress policy refuses the definition's `baseUrl` (`code: egress_denied`)",
    },
  },
  updateConnector: {
    method: 'put',
    path: '/connectors/{connector}',
    summary: "Publish a new version of the account's own connector",
    tag: 'Connectors',
    auth: 'key',
    params: z.object({ connector: z.string() }),
    body: DeclarativeConnector,
    ok: dataOf(Connector),
    problems: {
      '409': 'The new version drops an action or trigger that an installed workflow uses',
      '422':
        "The body's `id` is not the connector's, or the egress policy refuses its `baseUrl` (`code: egress_denied`)",
    },
  },
  deleteConnector: {
    method: 'delete',
    path: '/connectors/{connector}',
    summary: "Delete the account's own connector",
    tag: 'Connectors',
    auth: 'key',
    params: z.object({ connector: z.string() }),
    ok: MessageResponse,
    problems: { '409': 'A workflow that uses the connector is installed' },
  },
});

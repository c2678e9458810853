import type { AuthType, ConnectorCategory, CredentialField, OptionItem } from '@inlay/contract';
import type { z } from 'zod';

/** A hook's result, or a promise of it (a declarative connector's JSONata runs asynchronously). */
export type Awaitable<T> = T | Promise<T>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

/** A request a connector wants sent. `path` is joined to the base URL unless it is absolute. */
export interface HttpRequestSpec {
  method: HttpMethod;
  path: string;
  /** Names one of the connector's `apis` instead of its base URL. */
  api?: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** For `form`, an object (nested keys as `a[b]`, arrays as `a[0]`) or `URLSearchParams` for repeated keys. */
  body?: unknown;
  /** How `body` is encoded; `json` by default. */
  bodyType?: 'json' | 'form';
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Secrets and settings of a credential, decrypted: only ever in memory. */
export interface CredentialSecrets {
  /** Values of the connector's credential fields (API key, username, subdomain, ...). */
  fields: Record<string, string>;
  oauth?: {
    accessToken: string;
    refreshToken?: string;
    tokenType?: string;
    /** ISO timestamp */
    expiresAt?: string;
    /** When the token was issued (ISO): with `expiresAt`, its lifetime, which sets how early it is refreshed. */
    obtainedAt?: string;
    scope?: string;
  };
}

export type AuthSpec =
  | {
      type: 'oauth2';
      authorizeUrl: string;
      tokenUrl: string;
      scopes: string[];
      pkce: boolean;
      scopeSeparator?: string;
      /** Extra query parameters of the authorize URL (e.g. `access_type=offline`). */
      authorizeParams?: Record<string, string>;
      /**
       * The issuer an authorization response's `iss` must name (RFC 9207, against mix-up); by default the
       * authorize URL's origin. A response without `iss` is bound by its state alone.
       */
      issuer?: string;
      /** How the client authenticates at the token endpoint. */
      tokenAuth?: 'body' | 'basic';
      /** Non-secret fields the user supplies before consent (e.g. a Shopify shop name). */
      fields?: CredentialField[];
      /** Where the access token goes when not `Authorization: Bearer {accessToken}` (Shopify). */
      tokenHeader?: { name: string; format: string };
    }
  | {
      type: 'apiKey';
      fields: CredentialField[];
      /** Where the key goes. `{field}` placeholders in `format` take credential field values. */
      in: 'header' | 'query';
      name: string;
      format?: string;
      /** When true, a step may run without a credential (the `http` built-in). */
      optional?: boolean;
      /**
       * Names the (non-secret) field that lists the origins the credential may be sent to, for a connector
       * whose requests go wherever the caller says (the `http` built-in). Such a credential is refused for
       * any other origin (`credential_origin_mismatch`) and is never picked for a caller that did not name it.
       */
      originsField?: string;
    }
  | {
      type: 'basic';
      fields: CredentialField[];
      /** Templates for the user and password halves, e.g. `{email}/token` and `{apiToken}`. */
      username: string;
      password: string;
    }
  | { type: 'none' };

export interface ActionContext {
  /** Sends a request with the connector's base URL, headers and the credential applied. */
  http(spec: HttpRequestSpec): Promise<HttpResponse>;
  /** Non-secret credential fields (subdomain, site, ...). */
  settings: Record<string, string>;
  /** Data expressions may read: `{trigger, config, steps, user}` when run by the engine. */
  scope: Record<string, unknown>;
  signal: AbortSignal;
  /** Whose call this is (an account id): the expression pool serves waiting tenants in turn. */
  tenant?: string;
}

export interface ActionDefinition<I = any> {
  id: string;
  name: string;
  description: string;
  kind: 'read' | 'write';
  input: z.ZodType<I>;
  /** Builds the HTTP request from the validated input. */
  request?: (input: I, settings: Record<string, string>) => HttpRequestSpec;
  /** Maps the provider's response to the step output; the response body by default. */
  output?: (res: HttpResponse, input: I) => unknown;
  /** Instead of `request`: code that runs the action (built-ins, multi-call actions). */
  handler?: (input: I, ctx: ActionContext) => Promise<unknown>;
}

export interface Paging {
  /** The request for the next page, or undefined on the last page. */
  next: (res: HttpResponse, req: HttpRequestSpec) => HttpRequestSpec | undefined;
  maxPages?: number;
}

/** A dynamic option list for config fields (Slack channels, Airtable bases, ...). */
export interface OptionSource {
  description: string;
  request: (settings: Record<string, string>, search?: string) => HttpRequestSpec;
  /** The entries of one page; `req` is the request that fetched it (which parent a nested list belongs to). */
  items: (body: unknown, req: HttpRequestSpec) => Awaitable<unknown[]>;
  option: (item: any) => Awaitable<OptionItem>;
  paging?: Paging;
}

/**
 * What `checkResponse` reports: the reason, or the reason and whether a retry may help; `auth: true` says the
 * provider refused the credential itself (Slack's `invalid_auth`, `token_revoked`, `token_expired`).
 */
export type ResponseProblem = string | { message: string; transient?: boolean; auth?: boolean };

export interface ConnectorDefinition {
  id: string;
  name: string;
  description: string;
  category: ConnectorCategory;
  /** simple-icons slug (a monogram is drawn when the set has none), or a custom connector's sanitised SVG. */
  icon: string;
  /**
   * Set on an account's own connector (`POST /connectors`): `key` is unguessable and its icon URL carries it
   * (the public icon route has no account to look the id up in). The operator's per-connector URL overrides
   * never apply to such a connector.
   */
  custom?: { key: string; version: number };
  /** Brand colour for the icon, hex without `#`. */
  color?: string;
  /** Public API documentation the actions follow. */
  docs?: string;
  /** May hold `{setting}` placeholders, filled from the credential's non-secret settings. */
  baseUrl: string;
  /**
   * Other hosts of the same provider by name (Google Drive next to Sheets), picked with `HttpRequestSpec.api`.
   * The base-URL override replaces these too, so one sandbox or test server stands in for the whole provider.
   */
  apis?: Record<string, string>;
  auth: AuthSpec;
  /** Derives extra non-secret settings from the credential fields (e.g. Mailchimp's data centre). */
  settings?: (fields: Record<string, string>) => Record<string, string>;
  /** Headers every request carries (API version pins, Accept, ...). */
  headers?: Record<string, string>;
  /** A cheap read that proves a credential works; `accountLabel` names the provider account it belongs to. */
  test?: {
    request: (settings: Record<string, string>) => HttpRequestSpec;
    /** The workspace, login, portal or email the credential acts as, read from the test's answer. */
    accountLabel?: (res: HttpResponse) => string | undefined;
  };
  /**
   * Marks an answer other than a 401 as a refused credential (a provider that answers 403 for a revoked key).
   * A 401 always is; so is a `checkResponse` problem with `auth: true`.
   */
  authFailure?: (res: HttpResponse) => boolean;
  /**
   * Turns a 2xx that is really an error (Slack's `ok:false`, GraphQL `errors`) into a reason; `transient: true`
   * marks one a retry may cure, such as a GraphQL rate limit answered with HTTP 200 or 400.
   */
  checkResponse?: (res: HttpResponse) => ResponseProblem | undefined;
  /** Pulls the provider's human-readable reason out of an error response. */
  errorMessage?: (res: HttpResponse) => Awaitable<string | undefined>;
  actions: ActionDefinition[];
  sources?: Record<string, OptionSource>;
  /** Events in the app that can start a workflow (`"trigger": {"type": "app", ...}`). */
  triggers?: TriggerDefinition[];
}

/**
 * Where an item stands in the provider's order: an ISO time (compared as text) or a position such as a
 * sheet's row number. Items before the high-water mark are old whatever the seen-set remembers.
 */
export type ItemPosition = string | number;

/** One new item: its stable id, its position, and what the run receives as `trigger`. */
export interface TriggerItem {
  id: string;
  position?: ItemPosition;
  data: unknown;
}

interface TriggerCommon<I> {
  id: string;
  name: string;
  description: string;
  /** Settings the workflow author gives (a repository, a channel); JSON Schema is derived for listings. */
  input: z.ZodType<I>;
  /** The item's stable id (dedupe). */
  itemId: (item: any) => Awaitable<string>;
  /** The item's creation time (ISO) or position; items older than the high-water mark are never new. */
  itemPosition?: (item: any) => Awaitable<ItemPosition | undefined>;
  /** The run's `trigger` from one raw item; the item itself by default. */
  output?: (item: any) => Awaitable<unknown>;
}

/** A trigger that asks the provider for recent items every few minutes and starts a run per new one. */
export interface PollTrigger<I = any> extends TriggerCommon<I> {
  kind: 'poll';
  /**
   * The first page. `since` is the high-water mark of earlier polls (an ISO time or a position) for APIs that
   * can filter by it; the seen-set still decides what is new, so a coarse filter is fine.
   */
  request: (input: I, settings: Record<string, string>, since?: ItemPosition) => Awaitable<HttpRequestSpec>;
  items: (body: unknown, input: I) => Awaitable<unknown[]>;
  paging?: Paging;
  /** How the provider orders the list: newest first (the default: paging stops at a seen item) or oldest first. */
  order?: 'newest' | 'oldest';
}

/** A request arriving at an installation's trigger URL, as the provider sent it. */
export interface TriggerDelivery {
  headers: Record<string, string | undefined>;
  /** The body's bytes as they arrived (still compressed, if they were): what signatures are over. */
  rawBody: string | Uint8Array;
  /** The body parsed (after any decompression); only read once the signature verified. */
  body: unknown;
}

/** A trigger the provider pushes: subscribed on install, unsubscribed on uninstall. */
export interface WebhookTrigger<I = any> extends TriggerCommon<I> {
  kind: 'webhook';
  /** Creates the subscription toward `hook.url`; `hook.secret` is Inlay's signing secret, for providers that take one. */
  subscribe: (
    input: I,
    hook: { url: string; secret: string },
    settings: Record<string, string>,
  ) => Awaitable<HttpRequestSpec>;
  /** The created subscription's id and, for a provider that issues its own signing secret, that secret. */
  subscription: (res: HttpResponse) => { id: string; secret?: string };
  unsubscribe: (
    input: I,
    subscriptionId: string,
    settings: Record<string, string>,
  ) => Awaitable<HttpRequestSpec>;
  /** Whether a delivery carries a valid signature made with `secret`. */
  verify: (delivery: TriggerDelivery, secret: string, now: Date) => boolean;
  /** The new items a verified delivery reports (none for pings and other events). */
  items: (delivery: TriggerDelivery) => Awaitable<unknown[]>;
}

export type TriggerDefinition = PollTrigger | WebhookTrigger;

export type { AuthType };

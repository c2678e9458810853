import type { OptionItem } from '@inlay/contract';
import { parseCredentialOrigins } from './egress/credential-origins.ts';
import { EgressDenied } from './egress/egress-denied.ts';
import { EgressPolicy } from './egress/egress-policy.ts';
import { dotSegmentProblem } from './egress/path-segments.ts';
import { requestHeaderProblem } from './egress/request-headers.ts';
import { ConnectorError, isTransientStatus, parseRetryAfter } from './errors.ts';
import {
  nodeTransport,
  nodeTransportStream,
  ResponseTooLarge,
  type StreamedResponse,
} from './node-transport.ts';
import { envKey, fill } from './template.ts';
import type {
  ActionDefinition,
  ConnectorDefinition,
  CredentialSecrets,
  HttpRequestSpec,
  HttpResponse,
  ResponseProblem,
} from './types.ts';

export interface CallOptions {
  credential?: CredentialSecrets;
  signal?: AbortSignal;
  /** Per-request timeout; 30 s by default. */
  timeoutMs?: number;
  /**
   * Called when the provider refuses an OAuth credential (see `ConnectorDefinition.authFailure`): returns
   * refreshed secrets, and the request is sent once more.
   */
  onUnauthorized?: () => Promise<CredentialSecrets | undefined>;
  /**
   * Called when the credential is still refused (after the refresh and retry, if any) with the provider's
   * reason; answers true when the credential now needs reconnecting, and the call then fails with
   * `credential_needs_reconnect`.
   */
  onAuthRefused?: (reason: string) => Promise<boolean>;
  /** Data `transform` and other handlers may read. */
  scope?: Record<string, unknown>;
  /** Whose call this is (an account id): the expression pool serves waiting tenants in turn. */
  tenant?: string;
  /**
   * Told of each request sent to the provider (a retry after a refresh is another) once it is answered or
   * failed: the method, the URL (query included: the listener keeps what it may), the status, the time and
   * the size of the answer body. Never headers or bodies.
   */
  onCall?: (call: ProviderCallInfo) => void;
}

/** One request to a provider as `CallOptions.onCall` hears of it; `status` is absent when no answer came. */
export interface ProviderCallInfo {
  method: string;
  url: URL;
  status?: number;
  ms: number;
  bytes: number;
}

export interface RuntimeOptions {
  connectors: readonly ConnectorDefinition[];
  env?: Record<string, string | undefined>;
  /**
   * The egress policy every request passes; by default one that opens nothing. There is deliberately no
   * way to hand the runtime another transport (an injected `fetch` would resolve and connect on its own,
   * outside the policy): instrument with `node:diagnostics_channel` (`http.client.request.start`) instead.
   */
  egress?: EgressPolicy;
  userAgent?: string;
}

export interface ActionResult {
  output: unknown;
  statusCode?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_BODY_BYTES = 50 * 1024 * 1024;

/** Runs connector actions, option sources and credential tests over real HTTP. */
export class ConnectorRuntime {
  readonly #byId = new Map<string, ConnectorDefinition>();
  readonly #env: Record<string, string | undefined>;
  readonly #egress: EgressPolicy;
  readonly #userAgent: string;

  constructor(opts: RuntimeOptions) {
    for (const c of opts.connectors) this.#byId.set(c.id, c);
    this.#env = opts.env ?? {};
    this.#egress = opts.egress ?? new EgressPolicy();
    this.#userAgent = opts.userAgent ?? 'Inlay/0.1 (+https://github.com/inlay)';
  }

  /**
   * This runtime with an account's own definitions added next to the ones it has (same egress policy, same
   * agents). A custom definition never replaces one this runtime already has.
   */
  withCustom(custom: readonly ConnectorDefinition[]): ConnectorRuntime {
    const child = new ConnectorRuntime({
      connectors: this.list(),
      env: this.#env,
      egress: this.#egress,
      userAgent: this.#userAgent,
    });
    for (const c of custom) if (!child.#byId.has(c.id)) child.#byId.set(c.id, c);
    return child;
  }

  /** The operator's override of one of a built-in's URLs; none for an account's own connectors. */
  #override(def: ConnectorDefinition, what: 'BASE_URL' | 'AUTHORIZE_URL' | 'TOKEN_URL') {
    return def.custom ? undefined : this.#env[envKey(def.id, what)];
  }

  list(): ConnectorDefinition[] {
    return [...this.#byId.values()];
  }

  get(id: string): ConnectorDefinition | undefined {
    return this.#byId.get(id);
  }

  action(connectorId: string, actionId: string): ActionDefinition | undefined {
    return this.#byId.get(connectorId)?.actions.find((a) => a.id === actionId);
  }

  /** Base URL with deployment overrides and credential settings applied; `api` picks one of `def.apis`. */
  baseUrl(def: ConnectorDefinition, settings: Record<string, string> = {}, api?: string): string {
    const template = api === undefined ? def.baseUrl : def.apis?.[api];
    if (template === undefined)
      throw new ConnectorError(`${def.id} has no API named ${api}`, {
        code: 'invalid_definition',
        transient: false,
      });
    return (this.#override(def, 'BASE_URL') ?? fill(template, settings, true)).replace(/\/+$/, '');
  }

  /**
   * The origin of a URL the operator set for this connector (`INLAY_CONNECTOR_<ID>_BASE_URL`, ...): requests
   * to it are trusted as written, past the egress policy's address rules. Undefined when none is set.
   */
  operatorOrigin(
    def: ConnectorDefinition,
    what: 'BASE_URL' | 'AUTHORIZE_URL' | 'TOKEN_URL',
  ): string | undefined {
    const set = this.#override(def, what);
    if (!set) return undefined;
    try {
      return new URL(set).origin;
    } catch {
      return undefined;
    }
  }

  /** The egress policy this runtime's requests pass (OAuth token calls use it too). */
  get egress(): EgressPolicy {
    return this.#egress;
  }

  /** OAuth endpoints with deployment overrides applied. */
  oauthEndpoints(def: ConnectorDefinition, settings: Record<string, string> = {}) {
    if (def.auth.type !== 'oauth2') return undefined;
    return {
      authorizeUrl: this.#override(def, 'AUTHORIZE_URL') ?? fill(def.auth.authorizeUrl, settings, true),
      tokenUrl: this.#override(def, 'TOKEN_URL') ?? fill(def.auth.tokenUrl, settings, true),
    };
  }

  /** Non-secret settings of a credential: plain fields plus derived ones. */
  settings(def: ConnectorDefinition, credential?: CredentialSecrets): Record<string, string> {
    const fields = credential?.fields ?? {};
    const declared = def.auth.type === 'none' ? [] : (def.auth.fields ?? []);
    const plain = Object.fromEntries(
      declared.filter((f) => !f.secret && fields[f.name] !== undefined).map((f) => [f.name, fields[f.name]!]),
    );
    return { ...plain, ...(def.settings?.(fields) ?? {}) };
  }

  async execute(
    connectorId: string,
    actionId: string,
    input: unknown,
    opts: CallOptions = {},
  ): Promise<ActionResult> {
    const def = this.#require(connectorId);
    const action = def.actions.find((a) => a.id === actionId);
    if (!action)
      throw new ConnectorError(`Unknown action ${connectorId}.${actionId}`, {
        code: 'unknown_action',
        transient: false,
      });
    const parsed = action.input.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'input';
      throw new ConnectorError(`Invalid input for ${connectorId}.${actionId}: ${where}: ${issue?.message}`, {
        code: 'invalid_input',
        transient: false,
      });
    }
    const settings = this.settings(def, opts.credential);
    const signal = opts.signal ?? new AbortController().signal;
    if (action.handler) {
      let statusCode: number | undefined;
      const output = await action.handler(parsed.data, {
        http: async (spec) => {
          const res = await this.request(def, spec, opts);
          statusCode = res.status;
          return res;
        },
        settings,
        scope: opts.scope ?? {},
        signal,
        tenant: opts.tenant,
      });
      return { output, statusCode };
    }
    if (!action.request)
      throw new ConnectorError(`${connectorId}.${actionId} has no request`, {
        code: 'invalid_definition',
        transient: false,
      });
    const res = await this.request(def, action.request(parsed.data, settings), opts);
    return { output: action.output ? action.output(res, parsed.data) : res.body, statusCode: res.status };
  }

  /** Loads a dynamic option list, following pages. */
  async options(
    connectorId: string,
    sourceId: string,
    opts: CallOptions & { search?: string } = {},
  ): Promise<OptionItem[]> {
    const def = this.#require(connectorId);
    const source = def.sources && Object.hasOwn(def.sources, sourceId) ? def.sources[sourceId] : undefined;
    if (!source)
      throw new ConnectorError(`Unknown option source ${connectorId}.${sourceId}`, {
        code: 'unknown_source',
        transient: false,
      });
    const settings = this.settings(def, opts.credential);
    const out: OptionItem[] = [];
    let req: HttpRequestSpec | undefined = source.request(settings, opts.search);
    // A token refreshed after a 401 on one page is the token for the pages after it.
    let call: CallOptions = opts;
    const refresh = opts.onUnauthorized;
    if (refresh)
      call = {
        ...opts,
        onUnauthorized: async () => {
          const fresh = await refresh();
          if (fresh) call = { ...call, credential: fresh };
          return fresh;
        },
      };
    for (let page = 0; req && page < (source.paging?.maxPages ?? 10); page++) {
      const res = await this.request(def, req, call);
      try {
        for (const item of await source.items(res.body, req)) out.push(await source.option(item));
      } catch {
        // An answer of another shape (an HTML error page, a proxy's text) is the provider's failure.
        throw new ConnectorError(`${def.name} answered ${sourceId} in a shape it does not use`, {
          code: 'provider_error',
          transient: false,
          statusCode: res.status,
        });
      }
      req = source.paging?.next(res, req);
    }
    const q = opts.search?.toLowerCase();
    return q
      ? out.filter((o) => o.label.toLowerCase().includes(q) || o.value.toLowerCase().includes(q))
      : out;
  }

  /** Sends the connector's test request; a rejection carries the provider's reason. */
  async test(
    connectorId: string,
    credential: CredentialSecrets,
    opts: Omit<CallOptions, 'credential'> = {},
  ): Promise<TestVerdict> {
    const def = this.#require(connectorId);
    if (!def.test) return { ok: true as const };
    try {
      const res = await this.request(def, def.test.request(this.settings(def, credential)), {
        ...opts,
        credential,
      });
      const label = labelOf(def, res);
      return { ok: true as const, ...(label ? { accountLabel: label } : {}) };
    } catch (err) {
      if (err instanceof ConnectorError)
        return {
          ok: false as const,
          status: err.statusCode,
          code: err.code,
          reason: err.message,
          transient: err.transient,
          authFailure: err.authFailure,
        };
      throw err;
    }
  }

  /** Whether the provider refused the credential itself: a 401, a connector-marked answer, an auth problem. */
  authFailed(def: ConnectorDefinition, res: HttpResponse): boolean {
    if (res.status === 401) return true;
    if (def.authFailure?.(res)) return true;
    const checked = asProblem(def.checkResponse?.(res));
    return checked?.auth === true;
  }

  /** Sends one request with base URL, headers and credential applied, and maps failures to ConnectorError. */
  async request(
    def: ConnectorDefinition,
    spec: HttpRequestSpec,
    opts: CallOptions = {},
  ): Promise<HttpResponse> {
    let res = await this.#send(def, spec, opts.credential, opts);
    const withCredential = opts.credential !== undefined && def.auth.type !== 'none';
    if (withCredential && def.auth.type === 'oauth2' && opts.onUnauthorized && this.authFailed(def, res)) {
      const fresh = await opts.onUnauthorized();
      if (fresh) res = await this.#send(def, spec, fresh, opts);
    }
    const problem = res.status >= 400 ? await this.#problem(def, res) : asProblem(def.checkResponse?.(res));
    if (problem !== undefined) {
      const authFailure = withCredential && this.authFailed(def, res);
      if (authFailure && opts.onAuthRefused && (await opts.onAuthRefused(problem.message)))
        throw new ConnectorError(`${def.name} refused the credential (${problem.message}): reconnect it`, {
          code: 'credential_needs_reconnect',
          transient: false,
          statusCode: res.status,
          body: res.body,
          authFailure,
        });
      throw new ConnectorError(problem.message, {
        code: res.status >= 400 ? 'http_error' : 'provider_error',
        transient: !authFailure && (isTransientStatus(res.status) || problem.transient === true),
        statusCode: res.status,
        retryAfterMs: parseRetryAfter(res.headers['retry-after']),
        body: res.body,
        authFailure,
      });
    }
    return res;
  }

  #require(id: string): ConnectorDefinition {
    const def = this.#byId.get(id);
    if (!def)
      throw new ConnectorError(`Unknown connector ${id}`, { code: 'unknown_connector', transient: false });
    return def;
  }

  async #problem(
    def: ConnectorDefinition,
    res: HttpResponse,
  ): Promise<{ message: string; transient?: boolean }> {
    const checked = asProblem(def.checkResponse?.(res));
    const specific = (await def.errorMessage?.(res)) ?? checked?.message ?? providerMessage(res.body);
    return {
      message: specific ? `${res.status}: ${specific}` : `HTTP ${res.status}`,
      transient: checked?.transient,
    };
  }

  /** The URL and headers of a request, with base URL, connector headers and credential applied. */
  #prepare(
    def: ConnectorDefinition,
    spec: Pick<HttpRequestSpec, 'path' | 'api' | 'query' | 'headers'>,
    credential: CredentialSecrets | undefined,
  ) {
    const settings = this.settings(def, credential);
    const absolute = /^https?:\/\//.test(spec.path);
    // A path below the base URL stays below it: no dot segment, however it is written.
    const dots = absolute ? undefined : dotSegmentProblem(spec.path);
    if (dots)
      throw new ConnectorError(`${def.name}: the path ${dots}`, { code: 'invalid_path', transient: false });
    const base = absolute ? '' : this.baseUrl(def, settings, spec.api);
    let url: URL;
    try {
      url = new URL(absolute ? spec.path : `${base}${spec.path.startsWith('/') ? '' : '/'}${spec.path}`);
    } catch {
      throw new ConnectorError(`${def.name}: "${absolute ? spec.path : base}" is not a valid URL`, {
        code: 'invalid_url',
        transient: false,
      });
    }
    // The operator's own URL (INLAY_CONNECTOR_<ID>_BASE_URL) is trusted as written; nothing else is.
    const trustedOrigin = absolute ? undefined : this.operatorOrigin(def, 'BASE_URL');
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else url.searchParams.set(k, String(v));
    }
    const own = { ...lower(def.headers), ...lower(spec.headers) };
    for (const [name, value] of Object.entries(own)) {
      const problem = requestHeaderProblem(name, value);
      if (problem)
        throw new ConnectorError(`Header ${name} ${problem}`, { code: 'forbidden_header', transient: false });
    }
    const headers: Record<string, string> = {
      'user-agent': this.#userAgent,
      accept: 'application/json',
      ...own,
    };
    const credentialHeaders = applyAuth(def, credential, headers, url);
    return { url, headers, absolute, trustedOrigin, credentialHeaders };
  }

  async #send(
    def: ConnectorDefinition,
    spec: HttpRequestSpec,
    credential: CredentialSecrets | undefined,
    opts: CallOptions,
  ): Promise<HttpResponse> {
    const { url, headers, absolute, trustedOrigin, credentialHeaders } = this.#prepare(def, spec, credential);
    let body: string | undefined;
    if (spec.body !== undefined && spec.method !== 'GET') {
      if (spec.bodyType === 'form') {
        const form =
          spec.body instanceof URLSearchParams ? spec.body : new URLSearchParams(flattenForm(spec.body));
        body = form.toString();
        headers['content-type'] ??= 'application/x-www-form-urlencoded';
      } else {
        body = JSON.stringify(spec.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    // The body is read inside the same guard: a server that sends headers and then stalls times out too.
    const started = opts.onCall ? performance.now() : 0;
    try {
      const res = await nodeTransport(
        {
          url,
          method: spec.method,
          headers,
          body,
          signal,
          egress: this.#egress,
          trustedOrigin,
          credentialHeaders,
        },
        MAX_BODY_BYTES,
      );
      opts.onCall?.({
        method: spec.method,
        url,
        status: res.status,
        ms: performance.now() - started,
        bytes: Buffer.byteLength(res.text),
      });
      return {
        status: res.status,
        headers: res.headers,
        body: parseBody(res.text, res.headers['content-type']),
      };
    } catch (err) {
      opts.onCall?.({ method: spec.method, url, ms: performance.now() - started, bytes: 0 });
      throw this.#transportError(
        err,
        def,
        { url, absolute, trustedOrigin, timeout, maxBytes: MAX_BODY_BYTES },
        opts,
      );
    }
  }

  /**
   * Sends one request and hands back the answer with its body unread (the proxy streams it on). The body is
   * sent as given; a 401 on an OAuth credential is refreshed through `onUnauthorized` and sent once more,
   * and a refusal that remains is reported to `onAuthRefused` (the answer is still returned as it is).
   */
  async stream(
    def: ConnectorDefinition,
    spec: Omit<HttpRequestSpec, 'body' | 'bodyType'> & { body?: Buffer },
    opts: CallOptions & { maxBytes: number },
  ): Promise<StreamedResponse> {
    const once = async (credential: CredentialSecrets | undefined) => {
      const { url, headers, absolute, trustedOrigin, credentialHeaders } = this.#prepare(
        def,
        spec,
        credential,
      );
      const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
      const body = spec.method === 'GET' ? undefined : spec.body;
      try {
        return await nodeTransportStream(
          {
            url,
            method: spec.method,
            headers,
            body,
            signal,
            egress: this.#egress,
            trustedOrigin,
            credentialHeaders,
          },
          opts.maxBytes,
        );
      } catch (err) {
        throw this.#transportError(
          err,
          def,
          { url, absolute, trustedOrigin, timeout, maxBytes: opts.maxBytes },
          opts,
        );
      }
    };
    let res = await once(opts.credential);
    const withCredential = opts.credential !== undefined && def.auth.type !== 'none';
    if (withCredential && res.status === 401 && def.auth.type === 'oauth2' && opts.onUnauthorized) {
      const fresh = await opts.onUnauthorized();
      if (fresh) {
        res.body.destroy();
        res = await once(fresh);
      }
    }
    if (withCredential && res.status === 401 && opts.onAuthRefused) await opts.onAuthRefused('HTTP 401');
    return res;
  }

  #transportError(
    err: unknown,
    def: ConnectorDefinition,
    at: { url: URL; absolute: boolean; trustedOrigin?: string; timeout: AbortSignal; maxBytes: number },
    opts: CallOptions,
  ): ConnectorError {
    if (err instanceof EgressDenied)
      return new ConnectorError(`${err.message}. An operator can open it with INLAY_EGRESS_ALLOW`, {
        code: 'egress_denied',
        transient: false,
      });
    if (err instanceof ResponseTooLarge)
      return new ConnectorError(`Response exceeds the ${at.maxBytes}-byte limit`, {
        code: 'response_too_large',
        transient: false,
        statusCode: err.status,
      });
    if (err instanceof ConnectorError) return err;
    if (opts.signal?.aborted)
      return new ConnectorError('The run was cancelled', { code: 'aborted', transient: false });
    const timedOut = at.timeout.aborted;
    const target = at.absolute ? at.url.host : def.name;
    // Toward a URL a user or agent chose, a closed port, an unreachable host and an unknown name read
    // the same: the reason would turn the step into a port and name scanner.
    const reason = at.trustedOrigin ? `: ${networkReason(err as Error)}` : '';
    return new ConnectorError(
      timedOut
        ? `${target} did not answer within ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`
        : `Could not reach ${target}${reason}`,
      { code: timedOut ? 'timeout' : 'network_error', transient: true },
    );
  }
}

const asProblem = (p: ResponseProblem | undefined) => (typeof p === 'string' ? { message: p } : p);

/** What a credential test found: the account it acts as, or why the provider refused it. */
export type TestVerdict =
  | { ok: true; accountLabel?: string }
  | {
      ok: false;
      status?: number;
      code: string;
      reason: string;
      transient: boolean;
      /** The provider refused the credential itself (not a network or server failure). */
      authFailure: boolean;
    };

/** The account label the connector reads from its test answer; a throwing or empty reader gives none. */
function labelOf(def: ConnectorDefinition, res: HttpResponse): string | undefined {
  try {
    const label = def.test?.accountLabel?.(res);
    return typeof label === 'string' && label.trim() ? label.trim().slice(0, 255) : undefined;
  } catch {
    return undefined;
  }
}

function lower(h?: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Refuses a bound credential (`auth.originsField`) for a URL outside the origins it was created for. */
function checkBinding(def: ConnectorDefinition, cred: CredentialSecrets, url: URL) {
  const field = def.auth.type === 'apiKey' ? def.auth.originsField : undefined;
  if (!field) return;
  let origins: string[];
  try {
    origins = parseCredentialOrigins(cred.fields[field] ?? '');
  } catch {
    throw new ConnectorError(
      `This ${def.name} credential names no origins it may be sent to: create it again with "${field}"`,
      { code: 'credential_origin_mismatch', transient: false },
    );
  }
  if (!origins.includes(url.origin))
    throw new ConnectorError(
      `This ${def.name} credential may only be sent to ${origins.join(', ')}, not to ${url.origin}`,
      { code: 'credential_origin_mismatch', transient: false },
    );
}

/** Adds the credential to the request; returns the headers it set (dropped on a cross-origin redirect). */
function applyAuth(
  def: ConnectorDefinition,
  cred: CredentialSecrets | undefined,
  headers: Record<string, string>,
  url: URL,
): string[] {
  const auth = def.auth;
  if (auth.type === 'none' || !cred) return [];
  checkBinding(def, cred, url);
  const set = (name: string, value: string) => {
    const lower = name.toLowerCase();
    const problem = requestHeaderProblem(lower, value);
    if (problem)
      throw new ConnectorError(`The credential's header ${lower} ${problem}`, {
        code: 'forbidden_header',
        transient: false,
      });
    headers[lower] = value;
    return [lower];
  };
  if (auth.type === 'oauth2') {
    const token = cred.oauth?.accessToken;
    if (!token) return [];
    const { name, format } = auth.tokenHeader ?? { name: 'authorization', format: 'Bearer {accessToken}' };
    return set(name, fill(format, { accessToken: token }));
  }
  if (auth.type === 'apiKey') {
    const value = fill(auth.format ?? `{${auth.fields[0]?.name ?? 'apiKey'}}`, cred.fields);
    const name = fill(auth.name, cred.fields);
    if (!value || !name) return [];
    if (auth.in === 'header') return set(name, value);
    url.searchParams.set(name, value);
    return [];
  }
  const user = fill(auth.username, cred.fields);
  const pass = fill(auth.password, cred.fields);
  return set('authorization', `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`);
}

function flattenForm(body: unknown, prefix = '', out: [string, string][] = []): [string, string][] {
  if (body === undefined || body === null) return out;
  if (typeof body !== 'object') {
    out.push([prefix, String(body)]);
    return out;
  }
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) flattenForm(item, `${key}[${i}]`, out);
    } else flattenForm(v, key, out);
  }
  return out;
}

/** The runtime's transport over an injected `fetch` (tests, or a host that wants its own). */
/** JSON when it says or looks so, else the text; an empty body is null. */
function parseBody(text: string, type = ''): unknown {
  if (text === '') return null;
  if (type.includes('json') || /^[[{"]/.test(text.trimStart())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function networkReason(e: Error): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return (e as { code?: string }).code ?? cause?.code ?? cause?.message ?? e.message;
}

/** The provider's own words, from the error shapes APIs commonly use. */
export function providerMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, any>;
  const candidates = [
    b.error_description,
    typeof b.error === 'object' ? b.error?.message : undefined,
    b.message,
    b.errors?.[0]?.message ?? b.errors?.[0]?.detail,
    b.errorMessages?.[0],
    b.detail,
    typeof b.error === 'string' ? b.error : undefined,
    b.title,
  ];
  const hit = candidates.find((c) => typeof c === 'string' && c.trim() !== '');
  return hit ? String(hit).slice(0, 500) : undefined;
}

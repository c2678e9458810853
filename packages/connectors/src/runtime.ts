import type { OptionItem } from '@inlay/contract';
import { ConnectorError, isTransientStatus, parseRetryAfter } from './errors.ts';
import {
  nodeTransport,
  ResponseTooLarge,
  type TransportRequest,
  type TransportResponse,
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
  /** Called after a 401 on an OAuth credential: returns refreshed secrets, and the request is sent once more. */
  onUnauthorized?: () => Promise<CredentialSecrets | undefined>;
  /** Data `transform` and other handlers may read. */
  scope?: Record<string, unknown>;
}

export interface RuntimeOptions {
  connectors: readonly ConnectorDefinition[];
  env?: Record<string, string | undefined>;
  /** Sends requests through this `fetch` instead of `node:http` (tests, or a host's own instrumented one). */
  fetch?: typeof fetch;
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
  readonly #fetch?: typeof fetch;
  readonly #userAgent: string;

  constructor(opts: RuntimeOptions) {
    for (const c of opts.connectors) this.#byId.set(c.id, c);
    this.#env = opts.env ?? {};
    this.#fetch = opts.fetch;
    this.#userAgent = opts.userAgent ?? 'Inlay/0.1 (+https://github.com/inlay)';
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
    return (this.#env[envKey(def.id, 'BASE_URL')] ?? fill(template, settings, true)).replace(/\/+$/, '');
  }

  /** OAuth endpoints with deployment overrides applied. */
  oauthEndpoints(def: ConnectorDefinition, settings: Record<string, string> = {}) {
    if (def.auth.type !== 'oauth2') return undefined;
    return {
      authorizeUrl: this.#env[envKey(def.id, 'AUTHORIZE_URL')] ?? fill(def.auth.authorizeUrl, settings, true),
      tokenUrl: this.#env[envKey(def.id, 'TOKEN_URL')] ?? fill(def.auth.tokenUrl, settings, true),
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
    const source = def.sources?.[sourceId];
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
      for (const item of source.items(res.body)) out.push(source.option(item));
      req = source.paging?.next(res, req);
    }
    const q = opts.search?.toLowerCase();
    return q
      ? out.filter((o) => o.label.toLowerCase().includes(q) || o.value.toLowerCase().includes(q))
      : out;
  }

  /** Sends the connector's test request; a rejection carries the provider's reason. */
  async test(connectorId: string, credential: CredentialSecrets, opts: Omit<CallOptions, 'credential'> = {}) {
    const def = this.#require(connectorId);
    if (!def.test) return { ok: true as const };
    try {
      await this.request(def, def.test.request(this.settings(def, credential)), { ...opts, credential });
      return { ok: true as const };
    } catch (err) {
      if (err instanceof ConnectorError)
        return { ok: false as const, status: err.statusCode, reason: err.message, transient: err.transient };
      throw err;
    }
  }

  /** Sends one request with base URL, headers and credential applied, and maps failures to ConnectorError. */
  async request(
    def: ConnectorDefinition,
    spec: HttpRequestSpec,
    opts: CallOptions = {},
  ): Promise<HttpResponse> {
    let res = await this.#send(def, spec, opts.credential, opts);
    if (res.status === 401 && def.auth.type === 'oauth2' && opts.onUnauthorized) {
      const fresh = await opts.onUnauthorized();
      if (fresh) res = await this.#send(def, spec, fresh, opts);
    }
    const problem = res.status >= 400 ? this.#problem(def, res) : asProblem(def.checkResponse?.(res));
    if (problem !== undefined) {
      throw new ConnectorError(problem.message, {
        code: res.status >= 400 ? 'http_error' : 'provider_error',
        transient: isTransientStatus(res.status) || problem.transient === true,
        statusCode: res.status,
        retryAfterMs: parseRetryAfter(res.headers['retry-after']),
        body: res.body,
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

  #problem(def: ConnectorDefinition, res: HttpResponse): { message: string; transient?: boolean } {
    const checked = asProblem(def.checkResponse?.(res));
    const specific = def.errorMessage?.(res) ?? checked?.message ?? providerMessage(res.body);
    return {
      message: specific ? `${res.status}: ${specific}` : `HTTP ${res.status}`,
      transient: checked?.transient,
    };
  }

  async #send(
    def: ConnectorDefinition,
    spec: HttpRequestSpec,
    credential: CredentialSecrets | undefined,
    opts: CallOptions,
  ): Promise<HttpResponse> {
    const settings = this.settings(def, credential);
    const url = new URL(
      /^https?:\/\//.test(spec.path)
        ? spec.path
        : `${this.baseUrl(def, settings, spec.api)}${spec.path.startsWith('/') ? '' : '/'}${spec.path}`,
    );
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = {
      'user-agent': this.#userAgent,
      accept: 'application/json',
      ...lower(def.headers),
      ...lower(spec.headers),
    };
    applyAuth(def, credential, headers, url);
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
    try {
      const req = { url, method: spec.method, headers, body, signal };
      const res = this.#fetch
        ? await fetchTransport(this.#fetch, req)
        : await nodeTransport(req, MAX_BODY_BYTES);
      return {
        status: res.status,
        headers: res.headers,
        body: parseBody(res.text, res.headers['content-type']),
      };
    } catch (err) {
      if (err instanceof ResponseTooLarge)
        throw new ConnectorError(`Response exceeds the ${MAX_BODY_BYTES}-byte limit`, {
          code: 'response_too_large',
          transient: false,
          statusCode: err.status,
        });
      if (opts.signal?.aborted)
        throw new ConnectorError('The run was cancelled', { code: 'aborted', transient: false });
      const timedOut = timeout.aborted;
      throw new ConnectorError(
        timedOut
          ? `${def.name} did not answer within ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`
          : `Could not reach ${def.name}: ${networkReason(err as Error)}`,
        { code: timedOut ? 'timeout' : 'network_error', transient: true },
      );
    }
  }
}

const asProblem = (p: ResponseProblem | undefined) => (typeof p === 'string' ? { message: p } : p);

function lower(h?: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

function applyAuth(
  def: ConnectorDefinition,
  cred: CredentialSecrets | undefined,
  headers: Record<string, string>,
  url: URL,
) {
  const auth = def.auth;
  if (auth.type === 'none' || !cred) return;
  if (auth.type === 'oauth2') {
    const token = cred.oauth?.accessToken;
    if (!token) return;
    const { name, format } = auth.tokenHeader ?? { name: 'authorization', format: 'Bearer {accessToken}' };
    headers[name.toLowerCase()] = fill(format, { accessToken: token });
  } else if (auth.type === 'apiKey') {
    const value = fill(auth.format ?? `{${auth.fields[0]?.name ?? 'apiKey'}}`, cred.fields);
    const name = fill(auth.name, cred.fields);
    if (!value || !name) return;
    if (auth.in === 'header') headers[name.toLowerCase()] = value;
    else url.searchParams.set(name, value);
  } else {
    const user = fill(auth.username, cred.fields);
    const pass = fill(auth.password, cred.fields);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  }
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
async function fetchTransport(f: typeof fetch, req: TransportRequest): Promise<TransportResponse> {
  const res = await f(req.url, {
    method: req.method,
    headers: req.headers,
    body: req.body,
    signal: req.signal,
    redirect: 'follow',
  });
  if (Number(res.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
    await res.body?.cancel();
    throw new ResponseTooLarge(res.status);
  }
  // Streamed with a running total, so an oversized body without a length is cut off instead of buffered whole.
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new ResponseTooLarge(res.status);
    chunks.push(chunk);
  }
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    text: new TextDecoder().decode(Buffer.concat(chunks)),
  };
}

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

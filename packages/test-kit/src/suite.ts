import { readFileSync } from 'node:fs';
import {
  type ConnectorDefinition,
  ConnectorError,
  ConnectorRuntime,
  type CredentialSecrets,
  catalog,
  compileDeclarative,
  type HttpMethod,
} from '@inlay/connectors';
import { DeclarativeConnector, type OptionItem } from '@inlay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Recorded, type Reply, startProvider } from './provider.ts';

/** What the provider must have received. Query and body are compared exactly; no `body` means an empty body. */
export interface Expected {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
  /** The undecoded body, for encodings the fixture cannot parse faithfully (repeated form keys). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ActionCase {
  name: string;
  action: string;
  input: unknown;
  reply: Reply;
  request: Expected;
  /** Requests the action sends after the first one (multi-call handlers), in order. */
  followUps?: { request: Expected; reply: Reply }[];
  output: unknown;
}

export interface SourceCase {
  source: string;
  search?: string;
  /** One entry per request the source should send, in order. */
  pages: { request: Expected; reply: Reply }[];
  options: OptionItem[];
}

export interface ErrorCase {
  name: string;
  action: string;
  input: unknown;
  reply: Reply;
  message: string;
  transient?: boolean;
}

export interface ConnectorSuite {
  id: string;
  credential: CredentialSecrets;
  badCredential: CredentialSecrets;
  /** The header that carries the credential and its exact value for `credential`. */
  auth: { header: string; value: string };
  /** Headers every request must carry (API version pins). */
  headers?: Record<string, string>;
  test: {
    request: Expected;
    ok: Reply;
    rejected: Reply;
    reason: string;
    /** The account label the connector reads from `ok`. */
    label?: string;
  };
  actions: ActionCase[];
  sources: SourceCase[];
  errors?: ErrorCase[];
  /** A declarative JSON form of the connector under `test/fixtures/`: every case runs against it too. */
  fixture?: string;
}

/** A declarative JSON fixture, validated and compiled as `POST /connectors` would. */
export const loadFixture = (name: string): ConnectorDefinition =>
  compileDeclarative(
    DeclarativeConnector.parse(
      JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')),
    ),
  );

export function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 ? all : all[0]!;
  }
  return out;
}

/** Secret values of a credential; none may show up in an action's output. */
function secrets(id: string, cred: CredentialSecrets): string[] {
  const def = catalog.find((c) => c.id === id)!;
  const fields = def.auth.type === 'none' ? [] : (def.auth.fields ?? []);
  return [
    ...fields.filter((f) => f.secret).map((f) => cred.fields[f.name]),
    cred.oauth?.accessToken,
    cred.oauth?.refreshToken,
  ].filter((v): v is string => Boolean(v));
}

/**
 * Runs every action, option source and the credential test of one connector through `ConnectorRuntime`
 * against a local provider server reached through the `INLAY_CONNECTOR_<ID>_BASE_URL` override.
 */
export function connectorSuite(suite: ConnectorSuite) {
  if (!suite.fixture) return formSuite(suite, suite.id, catalog);
  formSuite(suite, `${suite.id} (typescript form)`, catalog);
  formSuite(suite, `${suite.id} (json form)`, [loadFixture(suite.fixture)]);
}

function formSuite(suite: ConnectorSuite, title: string, connectors: readonly ConnectorDefinition[]) {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let runtime: ConnectorRuntime;
  let replies: Reply[] = [];
  const envName = `INLAY_CONNECTOR_${suite.id.toUpperCase().replace(/-/g, '_')}_BASE_URL`;

  const expectRequest = (
    req: Recorded | undefined,
    e: Expected,
    auth: string | undefined = suite.auth.value,
  ) => {
    expect(req, `no request for ${e.method} ${e.path}`).toBeDefined();
    expect(`${req!.method} ${req!.path}`).toBe(`${e.method} ${e.path}`);
    expect(queryOf(req!.query)).toEqual(e.query ?? {});
    expect(req!.headers[suite.auth.header.toLowerCase()]).toBe(auth);
    for (const [k, v] of Object.entries({ ...suite.headers, ...e.headers }))
      expect(req!.headers[k.toLowerCase()], k).toBe(v);
    if (e.rawBody !== undefined) expect(req!.rawBody).toBe(e.rawBody);
    else if (e.body === undefined) expect(req!.rawBody).toBe('');
    else expect(req!.body).toEqual(e.body);
  };

  /** Sends `replies` in order and returns what the provider received meanwhile. */
  const exchange = async <T>(queued: Reply[], call: () => Promise<T>) => {
    replies = [...queued];
    const from = provider.requests.length;
    const result = await call();
    return { result, sent: provider.requests.slice(from) };
  };

  describe(title, () => {
    beforeAll(async () => {
      provider = await startProvider({
        '*': () => replies.shift() ?? { status: 500, body: { message: 'unexpected extra request' } },
      });
      runtime = new ConnectorRuntime({ connectors, env: { [envName]: provider.url } });
    });
    afterAll(() => provider.close());

    it('covers every action and option source', () => {
      const def = runtime.get(suite.id)!;
      expect(new Set(suite.actions.map((a) => a.action))).toEqual(new Set(def.actions.map((a) => a.id)));
      expect(new Set(suite.sources.map((s) => s.source))).toEqual(new Set(Object.keys(def.sources ?? {})));
    });

    for (const c of suite.actions) {
      it(`${c.action}: ${c.name}`, async () => {
        const later = c.followUps ?? [];
        const { result, sent } = await exchange([c.reply, ...later.map((t) => t.reply)], () =>
          runtime.execute(suite.id, c.action, c.input, { credential: suite.credential }),
        );
        expect(sent).toHaveLength(1 + later.length);
        expectRequest(sent[0], c.request);
        for (const [i, t] of later.entries()) expectRequest(sent[i + 1], t.request);
        expect(result.output).toEqual(c.output);
        const text = JSON.stringify(result.output) ?? '';
        for (const secret of secrets(suite.id, suite.credential)) expect(text).not.toContain(secret);
      });
    }

    for (const s of suite.sources) {
      const pages = s.pages.length > 1 ? ` across ${s.pages.length} pages` : '';
      it(`source ${s.source}: lists options${pages}`, async () => {
        const { result, sent } = await exchange(
          s.pages.map((p) => p.reply),
          () => runtime.options(suite.id, s.source, { credential: suite.credential, search: s.search }),
        );
        expect(sent).toHaveLength(s.pages.length);
        for (const [i, p] of s.pages.entries()) expectRequest(sent[i], p.request);
        expect(result).toEqual(s.options);
      });
    }

    it('test: accepts a good credential and rejects a bad one with the provider’s reason', async () => {
      provider.routes['*'] = (req) =>
        req.headers[suite.auth.header.toLowerCase()] === suite.auth.value
          ? suite.test.ok
          : suite.test.rejected;
      try {
        const good = await exchange([], () => runtime.test(suite.id, suite.credential));
        expect(good.result).toEqual({
          ok: true,
          ...(suite.test.label ? { accountLabel: suite.test.label } : {}),
        });
        expectRequest(good.sent[0], suite.test.request);
        const bad = await exchange([], () => runtime.test(suite.id, suite.badCredential));
        expect(bad.result).toMatchObject({ ok: false, transient: false });
        expect(bad.result.ok === false && bad.result.reason).toContain(suite.test.reason);
        expect(bad.sent[0]!.headers[suite.auth.header.toLowerCase()]).not.toBe(suite.auth.value);
      } finally {
        provider.routes['*'] = () =>
          replies.shift() ?? { status: 500, body: { message: 'unexpected extra request' } };
      }
    });

    for (const c of suite.errors ?? []) {
      it(`${c.action}: ${c.name}`, async () => {
        const err = await exchange([c.reply], () =>
          runtime
            .execute(suite.id, c.action, c.input, { credential: suite.credential })
            .catch((e: unknown) => e),
        );
        expect(err.result).toBeInstanceOf(ConnectorError);
        expect((err.result as ConnectorError).message).toBe(c.message);
        expect((err.result as ConnectorError).transient).toBe(c.transient ?? false);
      });
    }
  });
}

/** Credential, a revoked one, and the header of an OAuth connector that sends `Authorization: Bearer {token}`. */
export const bearer = (accessToken: string, refreshToken?: string) => ({
  credential: { fields: {}, oauth: { accessToken, ...(refreshToken && { refreshToken }) } },
  badCredential: { fields: {}, oauth: { accessToken: `${accessToken.slice(0, 8)}-revoked` } },
  auth: { header: 'authorization', value: `Bearer ${accessToken}` },
});

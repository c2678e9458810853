import { buildOpenApiDocument } from '@inlay/contract/openapi';
import { describe, expect, it } from 'vitest';
import { createServerClient, createUserClient } from '../../src/index.ts';

/** Calls every method of a client object tree with placeholder arguments, recording `METHOD /path`. */
async function callEverything(client: object, record: string[]) {
  const walk = async (o: any) => {
    for (const [k, v] of Object.entries(o)) {
      if (k === 'request' || k === 'baseUrl' || k === 'clearToken') continue;
      if (typeof v === 'function') await v('id-1', 'id-2', {}).catch(() => {});
      else if (v && typeof v === 'object') await walk(v);
    }
  };
  await walk(client);
  return record;
}

function recordingFetch(record: string[]): typeof fetch {
  return async (url, init) => {
    const u = new URL(String(url));
    record.push(`${init?.method} ${u.pathname}`);
    return new Response(JSON.stringify({ data: [] }), { headers: { 'content-type': 'application/json' } });
  };
}

const toTemplate = (line: string) => line.replace(/id-1/g, '{a}').replace(/id-2/g, '{b}');

const openapiRoutes = () => {
  const doc = buildOpenApiDocument() as unknown as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([m, op]) => ({
      route: `${m.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{x}')}`,
      userLevel: (op.security ?? []).some((s) => Object.hasOwn(s as object, 'userJwt')),
      public: (op.security ?? []).length === 0,
    })),
  );
};

/** A recorded call matches a route when each `{x}` segment is a placeholder or the route's literal. */
const matches = (route: string, called: string[]) =>
  called.some((c) => {
    const [m1, p1] = route.split(' ');
    const [m2, p2] = toTemplate(c).split(' ');
    if (m1 !== m2) return false;
    const a = p1!.split('/');
    const b = p2!.split('/');
    return (
      a.length === b.length &&
      a.every((seg, i) => seg === b[i] || (seg === '{x}' && /^\{[ab]\}$/.test(b[i]!)))
    );
  });

describe('route coverage', () => {
  it('the server client has a method for every operation of the OpenAPI document', async () => {
    const record: string[] = [];
    await callEverything(
      createServerClient({ baseUrl: 'http://svc.test', apiKey: 'k', fetch: recordingFetch(record) }),
      record,
    );
    // Pages for a browser, not something to call: the OAuth callback and start link, the API reference; and the
    // console's cookie sign-in, which only a browser page uses (`consoleSessions`, not the API-key client).
    const pages = new Set([
      'GET /oauth/callback',
      'GET /oauth/callback/{x}',
      'GET /oauth/start',
      'GET /docs',
      'GET /docs/{x}',
      'POST /console/session',
      'GET /console/session',
      'DELETE /console/session',
      // Called by providers (GitHub, Stripe) delivering app-trigger webhooks, never by the host.
      'POST /hooks/app/{x}/{x}/{x}',
      // Scraped by Prometheus with INLAY_METRICS_TOKEN, not the account's API key.
      'GET /metrics',
    ]);
    const missing = openapiRoutes()
      .map((r) => r.route)
      .filter((r) => !pages.has(r) && !matches(r, record));
    expect(missing).toEqual([]);
  });

  it('the user client covers every user-level operation and nothing that needs an API key', async () => {
    const record: string[] = [];
    await callEverything(
      createUserClient({
        baseUrl: 'http://svc.test',
        getToken: () => 'a.b.c',
        fetch: recordingFetch(record),
      }),
      record,
    );
    const routes = openapiRoutes();
    // The provider proxy is on the server client only, to keep the widget (which ships this client) lean.
    const serverOnly = (route: string) => route.includes('/proxy/');
    const missing = routes
      .filter((r) => r.userLevel && !serverOnly(r.route) && !matches(r.route, record))
      .map((r) => r.route);
    expect(missing).toEqual([]);
    const keyOnly = routes
      .filter((r) => !r.userLevel && !r.public && matches(r.route, record))
      .map((r) => r.route);
    expect(keyOnly).toEqual([]);
    expect(record).toContain('GET /connectors/id-1/icon.svg');
  });
});

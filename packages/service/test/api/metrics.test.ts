import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { type ConnectorDefinition, catalog } from '@inlay/connectors';
import { install, publish, startUpstream, type Upstream, waitForRuns } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { createUser } from '@inlay/test-kit/fixtures';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listen } from '../../src/app.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

type Family = ReturnType<typeof parsePrometheusTextFormat>[number];

type Scrape = Family[] & { text: string };

/** Scrapes over HTTP and parses the text with a Prometheus text parser. */
async function scrape(url: string, token?: string): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return Object.assign(parsePrometheusTextFormat(text), { text });
}

/**
 * A histogram's observation count for exactly these labels. The parser keeps a histogram's series only when it
 * has no labels, so the `_count` line is read from the text.
 */
function observed(s: Scrape, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const line = s.text.split('\n').find((l) => l.startsWith(`${name}_count{${want}}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** The value of a counter or gauge series whose labels include `labels` (0 when absent). */
function value(families: Family[], name: string, labels: Record<string, string> = {}): number {
  const f = families.find((x) => x.name === name);
  if (!f) return 0;
  let sum = 0;
  for (const m of f.metrics as { value?: string; count?: string; labels?: Record<string, string> }[]) {
    if (Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)) sum += Number(m.value ?? m.count ?? 0);
  }
  return sum;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

let upstream: Upstream;
let svc: Service;
let apiKey: string;
let alice: string;
const secretUserId = () => alice;

const echoDef = (url: string): ConnectorDefinition => ({
  id: 'echo',
  name: 'Echo',
  description: 'Echoes requests',
  category: 'developer',
  icon: 'echo',
  baseUrl: url,
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    fields: [{ name: 'apiKey', label: 'Key', type: 'password', required: true, secret: true }],
  },
  actions: [
    {
      id: 'noop',
      name: 'Noop',
      description: 'Nothing',
      kind: 'read',
      input: z.object({}),
      request: () => ({ method: 'GET', path: '/' }),
    },
  ],
});

beforeAll(async () => {
  upstream = await startUpstream((req) =>
    req.path.startsWith('/fail') ? { status: 400, body: { error: 'no' } } : { body: { ok: true } },
  );
  svc = await startService({
    connectors: [...catalog, echoDef(upstream.url)],
    env: {
      INLAY_METRICS_TOKEN: TOKEN,
      INLAY_EGRESS_ALLOW: new URL(upstream.url).host,
      INLAY_STEP_RETRIES: '0',
      INLAY_WEBHOOK_POLL_MS: '50',
    },
  });
  ({ apiKey } = await svc.account('metrics'));
  alice = await createUser(svc, apiKey, 'alice');
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await upstream?.close();
});

const httpFlow = (path: string) => ({
  trigger: { type: 'webhook' as const },
  steps: [
    {
      id: randomUUID(),
      connector: 'http',
      action: 'request',
      input: { method: 'GET', url: `${upstream.url}${path}` },
    },
  ],
  config: [],
});

describe('GET /metrics on the main port', () => {
  it('answers 401 without the token or with a wrong one', async () => {
    const none = await svc.call('GET', '/metrics');
    expectProblem(none, 401, 'unauthorized');
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expectProblem(await svc.call('GET', '/metrics', { auth: 'wrong-token-0123456789' }), 401, 'unauthorized');
    // An API key is not the metrics token.
    expectProblem(await svc.call('GET', '/metrics', { auth: apiKey }), 401, 'unauthorized');
  });

  it('serves the contract’s text with the listed families and the process defaults', async () => {
    const r = await svc.call('GET', '/metrics', { auth: TOKEN });
    expect(r.status).toBe(200);
    const names = new Set(parsePrometheusTextFormat(r.text).map((f) => f.name));
    for (const n of [
      'inlay_http_requests_total',
      'inlay_http_request_duration_seconds',
      'inlay_runs_total',
      'inlay_run_duration_seconds',
      'inlay_steps_total',
      'inlay_step_duration_seconds',
      'inlay_queue_depth',
      'inlay_queue_lag_seconds',
      'inlay_proxy_requests_total',
      'inlay_proxy_request_duration_seconds',
      'inlay_credentials',
      'inlay_webhook_deliveries_total',
      'inlay_rate_limited_total',
      'inlay_expression_pool_queue',
      'inlay_process_cpu_seconds_total',
      'inlay_nodejs_eventloop_lag_seconds',
    ])
      expect(names, n).toContain(n);
  });

  it('moves the run, step, request, proxy and delivery counters as they happen', async () => {
    const before = await scrape(svc.url, TOKEN);
    const ep = await svc.call('POST', '/webhook-endpoints', {
      auth: apiKey,
      body: { url: `${upstream.url}/receiver`, events: ['execution.failed'] },
    });
    expect(ep.status, ep.text).toBe(201);
    const ok = await publish(svc, apiKey, httpFlow('/ok'), 'ok');
    const bad = await publish(svc, apiKey, httpFlow('/fail'), 'bad');
    const instOk = await install(svc, apiKey, alice, [ok]);
    const instBad = await install(svc, apiKey, alice, [bad]);
    const ids: string[] = [];
    for (const inst of [instOk, instOk, instBad]) {
      const r = await svc.call('POST', inst.webhookUrl!.slice(svc.url.length), { body: { n: 1 } });
      expect(r.status).toBe(200);
      ids.push(...r.body.executionIds);
    }
    const rows = await waitForRuns(svc, ids);
    expect(rows.filter((r) => r.status === 'failed')).toHaveLength(1);

    const cred = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'echo', data: { apiKey: 'echo-key-123' } },
    });
    expect(cred.status, cred.text).toBe(201);
    const proxied = await svc.call('GET', `/connectors/echo/proxy/items/42?userId=${alice}`, {
      auth: apiKey,
    });
    expect(proxied.status).toBe(200);
    const proxiedFail = await svc.call('GET', `/connectors/echo/proxy/fail/1?userId=${alice}`, {
      auth: apiKey,
    });
    expect(proxiedFail.status).toBe(400);

    const after = await eventually('the failure delivery to count', async () => {
      const m = await scrape(svc.url, TOKEN);
      expect(value(m, 'inlay_webhook_deliveries_total', { status: 'delivered' })).toBeGreaterThan(
        value(before, 'inlay_webhook_deliveries_total', { status: 'delivered' }),
      );
      return m;
    });
    const delta = (name: string, labels: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    expect(delta('inlay_runs_total', { status: 'succeeded', trigger: 'webhook' })).toBe(2);
    expect(delta('inlay_runs_total', { status: 'failed', trigger: 'webhook' })).toBe(1);
    const observations = (name: string, labels: Record<string, string>) =>
      observed(after, name, labels) - observed(before, name, labels);
    expect(observations('inlay_run_duration_seconds', { status: 'failed', trigger: 'webhook' })).toBe(1);
    expect(
      observations('inlay_step_duration_seconds', {
        connector: 'http',
        action: 'request',
        status: 'succeeded',
      }),
    ).toBe(2);
    expect(delta('inlay_steps_total', { connector: 'http', action: 'request', status: 'succeeded' })).toBe(2);
    expect(delta('inlay_steps_total', { connector: 'http', action: 'request', status: 'failed' })).toBe(1);
    expect(delta('inlay_proxy_requests_total', { connector: 'echo', status_class: '2xx' })).toBe(1);
    expect(delta('inlay_proxy_requests_total', { connector: 'echo', status_class: '4xx' })).toBe(1);
    expect(
      observations('inlay_proxy_request_duration_seconds', { connector: 'echo', status_class: '4xx' }),
    ).toBe(1);
    expect(
      delta('inlay_http_requests_total', {
        route: '/hooks/:installationId/:secret',
        method: 'POST',
        status: '200',
      }),
    ).toBe(3);
    expect(value(after, 'inlay_credentials', { status: 'connected' })).toBeGreaterThanOrEqual(1);
    expect(value(after, 'inlay_queue_depth')).toBeGreaterThanOrEqual(0);
  });

  it('keeps labels bounded: route templates only, no ids, paths or secrets', async () => {
    // Many distinct ids and unknown paths must not create series of their own.
    for (let i = 0; i < 20; i++) {
      await svc.call('GET', `/users/${randomUUID()}`, { auth: apiKey });
      await svc.call('GET', `/no-such-route-${i}/x`, { auth: apiKey });
      await svc.call('GET', `/connectors/echo/proxy/items/${i}?userId=${alice}`, { auth: apiKey });
    }
    const text = await (
      await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    const families = parsePrometheusTextFormat(text);
    const values = new Set<string>();
    for (const f of families)
      for (const m of f.metrics as { labels?: Record<string, string> }[])
        for (const v of Object.values(m.labels ?? {})) values.add(v);
    for (const v of values) {
      expect(v).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      expect(v).not.toMatch(/no-such-route/);
      expect(v).not.toMatch(/items\/\d/);
    }
    expect(text).not.toContain(secretUserId());
    expect(text).not.toContain(TOKEN);
    const routes = new Set(
      (
        families.find((f) => f.name === 'inlay_http_requests_total')!.metrics as {
          labels: { route: string };
        }[]
      ).map((m) => m.labels.route),
    );
    expect(routes).toContain('/users/:userId');
    expect(routes).toContain('unmatched');
    expect(routes).toContain('/connectors/:connector/proxy/*path');
    // Every route label is a template the app declares (or `unmatched`), however many requests came.
    for (const route of routes) expect(route === 'unmatched' || route.startsWith('/')).toBe(true);
    expect(routes.size).toBeLessThan(30);
  });
});

describe('INLAY_METRICS_PORT', () => {
  it('serves the metrics on a port of their own without a token; the main port answers 404', async () => {
    const port = await freePort();
    const own = await startService({ env: { INLAY_METRICS_PORT: String(port) } });
    const server = await listen(own.app.metricsApp!, port, '127.0.0.1');
    try {
      const families = await scrape(`http://127.0.0.1:${port}`);
      expect(families.map((f) => f.name)).toContain('inlay_runs_total');
      const { apiKey: key } = await own.account();
      expectProblem(await own.call('GET', '/metrics', { auth: key }), 404, 'not_found');
      expect((await fetch(`http://127.0.0.1:${port}/users`)).status).toBe(404);
    } finally {
      server.close();
      await own.close();
    }
  });

  it('is off by default: no /metrics, no metrics object', async () => {
    const plain = await startService();
    try {
      expect(plain.ctx.metrics).toBeUndefined();
      expect(plain.app.metricsApp).toBeUndefined();
      const { apiKey: key } = await plain.account();
      expectProblem(await plain.call('GET', '/metrics', { auth: key }), 404, 'not_found');
    } finally {
      await plain.close();
    }
  });
});

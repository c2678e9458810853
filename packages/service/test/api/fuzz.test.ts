import { diff, type Snapshot, snapshotter } from '@inlay/test-kit/db-snapshot';
import { insertExecutions, installDirect, seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { rpcMessages } from '@inlay/test-kit/mcp';
import { fillPath, isMcpRoute, type RouteEntry, routeTable } from '@inlay/test-kit/route-table';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { startStubProvider } from '@inlay/test-kit/stub-provider';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Requests per CI run: REST + MCP >= 10 000 on PGlite (FUZZ_SCALE multiplies both for a longer local run). CI's
// PostgreSQL pass sends a quarter of them: every route is still hit many times, and what a store could change
// (a 5xx, a partial write) shows there as well, while the full count would add over three minutes to CI.
const SCALE = Number(process.env.FUZZ_SCALE ?? (onPostgres ? 0.25 : 1));
const REST_RUNS = Math.round(7_400 * SCALE);
const MCP_RUNS = Math.round(2_700 * SCALE);

let svc: Service;
let stub: Awaited<ReturnType<typeof startStubProvider>>;
let a: Awaited<ReturnType<typeof seedAccount>>;
let b: Awaited<ReturnType<typeof seedAccount>>;
let jwt: string;
let ids: Record<string, string[]>;
let mcp: { serverId: string; accessToken: string };
let routes: RouteEntry[];
let snap: Awaited<ReturnType<typeof snapshotter>>;
const stats = {
  snapMs: 0,
  reqMs: 0,
  rest: 0,
  mcp: 0,
  rejected: 0,
  deep: 0,
  deepMcp: 0,
  byStatus: new Map<number, number>(),
};

beforeAll(async () => {
  stub = await startStubProvider();
  svc = await startService({
    env: { ...stub.env, INLAY_STEP_RETRIES: '0', INLAY_STEP_TIMEOUT_MS: '2000' },
  });
  a = await seedAccount(svc, { username: 'alice' });
  b = await seedAccount(svc, { username: 'bob' });
  jwt = await tokenFor(svc, a.apiKey, a.userId);
  const installationId = await installDirect(svc.db, a);
  const executionIds = await insertExecutions(svc.db, a, 3);
  const server = await svc.call('POST', '/mcp-servers', { auth: a.apiKey, body: { name: 'fuzz' } });
  mcp = server.body;
  ids = {
    userId: [a.userId, 'alice', b.userId],
    workflowId: [a.workflowId, b.workflowId],
    integrationId: [a.integrationId],
    installationId: [installationId],
    executionId: executionIds,
    serverId: [mcp.serverId],
    connector: ['slack', 'discord', 'mailchimp', 'transform', 'http', 'nope', ...PROTO_NAMES],
    source: ['channels', 'x', ...PROTO_NAMES],
    credentialId: [],
  };
  routes = routeTable(svc.app).filter((r) => !isMcpRoute(r));
  snap = await snapshotter(svc.db, [a.accountId, b.accountId]);
});

afterAll(async () => {
  const top = [...stats.byStatus].sort((x, y) => x[0] - y[0]).map(([s, n]) => `${s}:${n}`);
  console.log(
    `fuzz: ${stats.rest} REST requests over ${routes?.length} routes, ${stats.mcp} JSON-RPC requests, ` +
      `${stats.rest + stats.mcp} in total (${stats.deep} REST and ${stats.deepMcp} MCP bodies nested past 64 levels); ${stats.rejected} rejected requests checked for partial writes ` +
      `against ${snap?.tables} tables; statuses ${top.join(' ')} (ms in requests ${Math.round(stats.reqMs)}, in snapshots ${Math.round(stats.snapMs)})`,
  );
  await svc?.close();
  await stub?.close();
});

// ---------- generators ----------

/** Names that are properties of every object: a lookup by `obj[name]` without an own-property check finds them. */
const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const protoName = fc.constantFrom(...PROTO_NAMES);

/** JSON text nested `depth` levels (arrays, objects, or both), optionally inside a real-looking body. */
const deepJson = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 65, max: 200 }), fc.integer({ min: 1_000, max: 6_000 })),
    open: fc.constantFrom('[', '{"a":', '[{"b":'),
    wrap: fc.constantFrom('', 'data', 'definition', 'values'),
  })
  .map(({ depth, open, wrap }) => {
    const close = open === '[' ? ']' : open === '{"a":' ? '}' : '}]';
    const levels = open === '[{"b":' ? Math.ceil(depth / 2) : depth;
    const inner = `${open.repeat(levels)}1${close.repeat(levels)}`;
    return wrap ? `{"${wrap}": ${inner}}` : inner;
  });
const DEEP = new WeakSet<object>();
/** Marks a deep body so the property can assert on it; the text itself goes out unchanged. */
const deepBody = deepJson.map((text) => {
  const marked = Object.assign(Object(text) as object, {});
  DEEP.add(marked);
  return marked as unknown as string;
});

const ascii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
const nasty = fc.constantFrom(
  '',
  '0',
  '-1',
  '1e309',
  'null',
  'undefined',
  '%zz',
  '%00',
  '%2e%2e',
  '..%2f..%2fetc',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '{{ 7*7 }}',
  '$where',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'x'.repeat(2_000),
  '🦄',
  '\u0000',
  '00000000-0000-0000-0000-000000000000',
);
const segment = (param: string) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...(ids[param]?.length ? ids[param]! : ['x'])) },
    { weight: 2, arbitrary: fc.uuid().map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
    {
      weight: 2,
      arbitrary: nasty.map((s) => (s.startsWith('%') || s.includes('%2') ? s : encodeURIComponent(s))),
    },
  );

const scalar = fc.oneof(
  fc.constantFrom(...Object.values({ a: 'alice', b: 'x' })),
  fc.integer({ min: -5, max: 100 }).map(String),
  nasty,
  fc.string({ maxLength: 20 }),
);
const queryKeys = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'userId',
      'page',
      'limit',
      'order',
      'category',
      'credentialId',
      'connector',
      'state',
      'code',
      'cursor',
    ),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'a[b]', 'limit[]', 'userId[$ne]') },
);
const queryValue = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 2, arbitrary: fc.constantFrom(...['1', '10', '30', '31', '0', 'asc', 'desc', 'sideways']) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.constantFrom('alice', 'bob'),
      fc.constant(0).map(() => a.userId),
    ),
  },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
);
const query = fc.dictionary(queryKeys, queryValue, { maxKeys: 4 }).map((q) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
  const s = p.toString();
  return s ? `?${s}` : '';
});

const FIELDS = [
  'username',
  'fullName',
  'userId',
  'workflowId',
  'workflowIds',
  'integrationId',
  'name',
  'description',
  'definition',
  'connector',
  'data',
  'enabled',
  'values',
  'credentialIds',
  'event',
  'restrictions',
  'redirectUri',
  'clientId',
  'clientSecret',
  'scopes',
] as const;
/** A definition whose connector, action, option source, config field or trigger is a prototype name. */
const protoDefinition = fc
  .record({
    connector: fc.oneof(protoName, fc.constant('slack')),
    action: fc.oneof(protoName, fc.constant('post_message')),
    source: fc.oneof(protoName, fc.constant('channels')),
    field: fc.oneof(protoName, fc.constant('channel')),
    event: fc.oneof(protoName, fc.constant('deal.created')),
  })
  .map(({ connector, action, source, field, event }) => {
    const stepId = '6b0f5f43-56a4-4d6e-9a5e-1c3f3f0b6a11';
    return {
      trigger: { type: 'event', event },
      steps: [{ id: stepId, connector, action, input: { channel: `{{ config.${field} }}` } }],
      config: [
        { stepId, name: field, displayName: 'F', type: 'select', required: true, options: { source } },
      ],
    };
  });
const validish = (field: string) =>
  fc.oneof(
    protoDefinition,
    fc.record({ [PROTO_NAMES[1]!]: fc.constant('00000000-0000-4000-8000-000000000000') }),
    fc.constantFrom(...(ids[field]?.length ? ids[field]! : ['x'])),
    fc.constantFrom(ids.workflowId!, [a.workflowId], {}, [], {
      slack: '00000000-0000-4000-8000-000000000000',
    }),
    fc.constantFrom({ trigger: { type: 'manual' }, steps: [] }, [
      { workflowId: a.workflowId, blockId: 'x', fields: [] },
    ]),
  );
const bodyObject = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...FIELDS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
        { weight: 1, arbitrary: protoName },
      ),
      fc.oneof(
        { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
        { weight: 1, arbitrary: nasty },
        {
          weight: 2,
          arbitrary: fc
            .constant(null)
            .chain(() => fc.constantFrom(...FIELDS))
            .chain(validish),
        },
      ),
    ),
    { maxLength: 6 },
  )
  .map((entries) => Object.fromEntries(entries));
const body = fc.oneof(
  { weight: 6, arbitrary: bodyObject.map((o) => JSON.stringify(o)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{',
      '[]',
      'null',
      '"x"',
      '{"a":1,}',
      '\u0000',
      '{"__proto__":{"admin":true}}',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  { weight: 1, arbitrary: deepBody },
  {
    // Publish-shaped: a real integration, with prototype names where the definition names things.
    weight: 1,
    arbitrary: protoDefinition.map((definition) =>
      JSON.stringify({ integrationId: a.integrationId, name: 'proto', definition }),
    ),
  },
  { weight: 2, arbitrary: fc.constant(undefined) },
);

const authHeader = fc.oneof(
  { weight: 12, arbitrary: fc.constant('key-a') },
  { weight: 3, arbitrary: fc.constant('jwt-a') },
  { weight: 1, arbitrary: fc.constant('key-b') },
  { weight: 1, arbitrary: fc.constant('none') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Bearer',
      'Basic abc',
      'bearer inlay_live_nope',
      'Bearer a.b.c',
      'Bearer eyJ.eyJ.',
    ),
  },
);
const headerSet = fc.record(
  {
    'x-api-version': fc.oneof(
      { weight: 6, arbitrary: fc.constant('2025-09') },
      { weight: 1, arbitrary: fc.constantFrom('1999-01', '') },
      { weight: 1, arbitrary: ascii.filter((s) => s.trim() === s) },
    ),
    // Mostly well-formed, so most requests get past the framing and into the routes.
    'content-type': fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json') },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'application/json; charset=utf-8',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
        ),
      },
    ),
    accept: fc.constantFrom('*/*', 'application/json', 'text/html', 'application/xml'),
    'content-encoding': fc.oneof(
      { weight: 6, arbitrary: fc.constant('identity') },
      { weight: 1, arbitrary: fc.constantFrom('gzip', 'br', 'x-unknown') },
    ),
    'x-inlay-userid': fc.constantFrom('alice', 'bob', 'x'),
  },
  { requiredKeys: [] },
);

const restRequest = () =>
  fc.integer({ min: 0, max: routes.length - 1 }).chain((i) => {
    const route = routes[i]!;
    return fc.record({
      route: fc.constant(route),
      path: fc.tuple(...route.params.map(segment)).map((vals) => {
        let n = 0;
        return fillPath(route.path, () => vals[n++]!);
      }),
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
      ),
      query,
      headers: headerSet,
      auth: authHeader,
      body,
    });
  });

// ---------- assertions ----------

function checkProblem(status: number, contentType: string | null, text: string, label: string) {
  if (!contentType?.startsWith('application/problem+json'))
    throw new Error(`${label}: ${status} without problem+json (${contentType}): ${text.slice(0, 200)}`);
  const p = JSON.parse(text);
  if (
    p.status !== status ||
    typeof p.code !== 'string' ||
    typeof p.title !== 'string' ||
    typeof p.type !== 'string'
  )
    throw new Error(`${label}: malformed problem ${text.slice(0, 300)}`);
  if (p.message !== p.detail || typeof p.detail !== 'string')
    throw new Error(`${label}: message/detail ${text}`);
  if (/\n\s+at /.test(text)) throw new Error(`${label}: stack trace in ${text}`);
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BROWSER_ROUTES = new Set(['/oauth/callback', '/oauth/callback/:connector', '/oauth/start']);
const writes = /^\/(run\/|workflows\/[^/]+\/rerun\/|hooks\/)/;
/** A run started by a successful request finishes in the background; wait so it is not blamed on the next one. */
async function settle() {
  for (let i = 0; i < 100; i++) {
    const r = (await svc.db.execute(
      sql`select count(*)::int as n from executions where account_id = ${a.accountId} and finished = false`,
    )) as unknown as { rows: { n: number }[] };
    if (!r.rows[0]?.n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('REST fuzzing', () => {
  it(`sends ${REST_RUNS} generated requests across every route: no 5xx, problem+json errors, no partial writes`, {
    timeout: 900_000,
  }, async () => {
    expect(routes.length).toBeGreaterThan(30);
    let before: Snapshot = await snap.take();
    await fc.assert(
      fc.asyncProperty(restRequest(), async (r) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) headers[k] = v;
        if (r.auth === 'key-a') headers.authorization = `Bearer ${a.apiKey}`;
        else if (r.auth === 'jwt-a') headers.authorization = `bearer ${jwt}`;
        else if (r.auth === 'key-b') headers.authorization = `Bearer ${b.apiKey}`;
        else if (r.auth !== 'none') headers.authorization = r.auth;
        const hasBody = r.body !== undefined && !['GET', 'HEAD'].includes(r.method);
        if (!hasBody) delete headers['content-encoding'];
        const deep = typeof r.body === 'object' && DEEP.has(r.body as object);
        const label = `${r.method} ${r.path}${r.query}`;
        const t0 = performance.now();
        const res = await fetch(`${svc.url}${r.path}${r.query}`, {
          method: r.method,
          headers,
          body: hasBody ? String(r.body) : undefined,
        });
        const text = await res.text();
        stats.reqMs += performance.now() - t0;
        stats.rest++;
        stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
        if (res.status >= 500) throw new Error(`${label}: ${res.status} ${text.slice(0, 300)}`);
        // A body nested past the limit never gets through (a CORS preflight answers before any body is read).
        if (deep && hasBody && r.method !== 'OPTIONS' && res.status < 400)
          throw new Error(`${label}: a body nested deeper than 64 levels was accepted with ${res.status}`);
        if (deep && hasBody) stats.deep++;
        // The OAuth callback is a browser page: its errors are HTML pages by design.
        if (res.status >= 400 && r.method !== 'HEAD' && !BROWSER_ROUTES.has(r.route.path))
          checkProblem(res.status, res.headers.get('content-type'), text, label);
        if (res.status < 400 && writes.test(r.path)) await settle();
        // Reads are not snapshotted one by one (half the runtime): a write by a rejected read still shows
        // at the next check, unless a successful request comes straight after it.
        if (!MUTATING.has(r.method) && res.status >= 400) return;
        const t1 = performance.now();
        const after = await snap.take();
        stats.snapMs += performance.now() - t1;
        if (res.status >= 400) {
          stats.rejected++;
          const changed = diff(before, after);
          if (changed.length)
            throw new Error(
              `${label} answered ${res.status} but ${changed.join(', ')} changed since the last check`,
            );
        }
        before = after;
      }),
      {
        numRuns: REST_RUNS,
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
        endOnFailure: true,
      },
    );
  });
});

// ---------- MCP ----------

const TOOLS = [
  'list_connectors_inlay',
  'get_connector_resources_inlay',
  'get_action_details_inlay',
  'execute_action_inlay',
  'create_credential_inlay',
  'get_credentials_inlay',
  'list_workflows_inlay',
  'run_workflow_inlay',
  'get_workflow_logs_inlay',
  'proxy_request_inlay',
  'no_such_tool',
  ...PROTO_NAMES,
];
const METHODS = [
  'initialize',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'ping',
  'notifications/initialized',
  'completion/complete',
  'logging/setLevel',
  'no/such',
  '',
  ...PROTO_NAMES,
];
const rpcId = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 10 }),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant({ a: 1 }),
);
const toolArgs = fc.oneof(
  fc.dictionary(
    fc.constantFrom(
      'category',
      'connector',
      'action',
      'input',
      'workflowId',
      'userId',
      'data',
      'credentialId',
      'limit',
      'page',
      'fields',
      'resource',
    ),
    fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom('slack', 'post_message', 'transform', 'map', ...PROTO_NAMES),
      fc.constant(0).map(() => a.workflowId),
    ),
    { maxKeys: 4 },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const rpcMessage = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0', 2),
    id: rpcId,
    method: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...METHODS) },
      { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    ),
    params: fc.oneof(
      fc.record({ name: fc.constantFrom(...TOOLS), arguments: toolArgs }, { requiredKeys: ['name'] }),
      fc.record({
        uri: fc.constantFrom('inlay://connectors', 'inlay://x', 'file:///etc/passwd'),
        name: fc.string({ maxLength: 10 }),
      }),
      fc.record({
        protocolVersion: fc.constantFrom('2025-11-25', '2025-03-26', '1900-01-01'),
        capabilities: fc.constant({}),
        clientInfo: fc.constant({ name: 'f', version: '1' }),
      }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);
const mcpBody = fc.oneof(
  { weight: 8, arbitrary: rpcMessage.map((m) => JSON.stringify(m)) },
  {
    weight: 1,
    arbitrary: fc.array(rpcMessage, { minLength: 1, maxLength: 3 }).map((m) => JSON.stringify(m)),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom('{', '[]', 'null', '{"jsonrpc":"2.0"}', ''),
      fc.string({ maxLength: 50 }),
    ),
  },
  {
    weight: 1,
    arbitrary: deepJson.map(
      (inner) => `{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": ${inner}}`,
    ),
  },
);
const mcpRequest = fc.record({
  body: mcpBody,
  auth: authHeader,
  protocol: fc.constantFrom('2025-11-25', '2025-06-18', '2026-07-28', undefined, 'x'),
  accept: fc.constantFrom(
    'application/json, text/event-stream',
    'application/json, text/event-stream',
    'application/json',
    '*/*',
  ),
  url: fc.constantFrom('ok', 'ok', 'ok', 'ok', 'wrong-token', 'wrong-server'),
  userHeader: fc.constantFrom('alice', undefined, 'bob', 'x'),
});

function checkRpc(msg: any, label: string) {
  if (msg?.jsonrpc !== '2.0') throw new Error(`${label}: not JSON-RPC 2.0: ${JSON.stringify(msg)}`);
  if ('error' in msg) {
    const e = msg.error;
    if (!e || !Number.isInteger(e.code) || typeof e.message !== 'string')
      throw new Error(`${label}: malformed error ${JSON.stringify(msg)}`);
    if (!('id' in msg)) throw new Error(`${label}: error without id ${JSON.stringify(msg)}`);
  } else if (!('result' in msg) && !('method' in msg)) throw new Error(`${label}: neither result nor error`);
}

describe('MCP fuzzing', () => {
  it(`sends ${MCP_RUNS} generated JSON-RPC messages: no 5xx, well-formed JSON-RPC errors, no partial writes`, {
    timeout: 900_000,
  }, async () => {
    let before = await snap.take();
    await fc.assert(
      fc.asyncProperty(mcpRequest, async (r) => {
        const base = `${svc.url}/mcp/${mcp.serverId}/${mcp.accessToken}`;
        const url =
          r.url === 'ok'
            ? base
            : r.url === 'wrong-token'
              ? base.replace(mcp.accessToken, 'inlay_mcp_nope')
              : base.replace(mcp.serverId, '00000000-0000-4000-8000-000000000000');
        const headers: Record<string, string> = { 'content-type': 'application/json', accept: r.accept };
        if (r.protocol) headers['mcp-protocol-version'] = r.protocol;
        if (r.auth === 'key-a') {
          headers.authorization = `Bearer ${a.apiKey}`;
          if (r.userHeader) headers['x-inlay-userid'] = r.userHeader;
        } else if (r.auth === 'jwt-a') headers.authorization = `Bearer ${jwt}`;
        else if (r.auth === 'key-b') headers.authorization = `Bearer ${b.apiKey}`;
        else if (r.auth !== 'none') headers.authorization = r.auth;
        const res = await fetch(url, { method: 'POST', headers, body: r.body });
        const text = await res.text();
        stats.mcp++;
        const label = `MCP ${r.body.slice(0, 120)}`;
        // Nested past the limit: refused before the SDK, once the URL and the Host are known to be good.
        if (
          r.body.length > 130 &&
          /^\{"jsonrpc": "2.0", "id": 1, "method": "tools\/list", "params": [[{]/.test(r.body)
        ) {
          stats.deepMcp++;
          if (r.url === 'ok' && ![400, 401, 404].includes(res.status))
            throw new Error(`${label}: a body nested deeper than 64 levels answered ${res.status}`);
        }
        if (res.status >= 500) throw new Error(`${label}: ${res.status} ${text.slice(0, 300)}`);
        const type = res.headers.get('content-type');
        if (text && (type?.includes('json') || type?.includes('event-stream'))) {
          let msgs: any[];
          try {
            msgs = rpcMessages(text, type).flat();
          } catch {
            throw new Error(`${label}: unparseable ${res.status} ${text.slice(0, 200)}`);
          }
          for (const m of msgs) checkRpc(m, label);
        } else if (res.status >= 400 && text)
          throw new Error(`${label}: ${res.status} ${type} ${text.slice(0, 200)}`);
        if (/run_workflow_inlay|execute_action_inlay/.test(r.body)) await settle();
        // Only tools/call can write; other methods are covered by the next snapshot.
        if (!r.body.includes('tools/call')) return;
        const after = await snap.take();
        const failed = res.status >= 400 || /"error":\{|"isError":true/.test(text);
        if (failed && !/run_workflow_inlay|create_credential_inlay/.test(r.body)) {
          stats.rejected++;
          const changed = diff(before, after);
          if (changed.length)
            throw new Error(`${label} failed (${res.status}) but changed ${changed.join(', ')}`);
        }
        before = after;
      }),
      { numRuns: MCP_RUNS, endOnFailure: true },
    );
    expect(stats.rest + stats.mcp).toBe(REST_RUNS + MCP_RUNS);
    if (SCALE >= 1) expect(stats.rest + stats.mcp).toBeGreaterThanOrEqual(10_000);
  });
});

import { randomUUID } from 'node:crypto';
import { diff, snapshotter } from '@inlay/test-kit/db-snapshot';
import {
  CASES,
  idLikeParams,
  LISTINGS,
  MCP_CASES,
  MCP_LISTINGS,
  MCP_METHOD,
  NO_OBJECT_ID,
  type Values,
} from '@inlay/test-kit/isolation-cases';
import { rawRpc, rpcMessages } from '@inlay/test-kit/mcp';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { onPostgres, type Reply, type Service, startService } from '@inlay/test-kit/service';
import { startStubProvider } from '@inlay/test-kit/stub-provider';
import { seedTenant, type Tenant } from '@inlay/test-kit/tenant';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../src/store/schema.ts';

/**
 * The account-level attacker: account B, with its API key, its users' JWTs and its MCP server, aims every
 * route of the OpenAPI document at account A's objects. Each request is sent twice, once naming A's object and
 * once naming an object that does not exist; the two replies must be the same (status, problem type, detail
 * with the id blanked, body), and A's rows must not change. The route list comes from the served document, so
 * a new route with no case in `isolation-account-cases.ts` fails here.
 */

let stub: Awaited<ReturnType<typeof startStubProvider>>;
let db: Awaited<ReturnType<typeof privateDatabase>> | undefined;
let svc: Service;
let a: Tenant;
let b: Tenant;
let doc: OpenApiDoc;

interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
}
interface Operation {
  parameters?: { $ref?: string; name?: string; in?: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  security?: Record<string, unknown>[];
  responses?: object;
}

const valuesOf = (t: Tenant): Values => ({
  userId: t.userId,
  userRef: t.username,
  workflowId: t.workflowId,
  integrationId: t.integrationId,
  installationId: t.installationId,
  executionId: t.executionIds[0]!,
  credentialId: t.credentialId,
  connector: t.connector,
  oauthConnector: t.oauthConnector,
  importedConnector: t.importedConnector,
  iconKey: t.iconKey,
  serverId: t.mcp.serverId,
  apiKeyId: t.apiKeyId,
  webhookEndpointId: t.webhookEndpointId,
});

/** Objects nobody has, in the same forms as the real ones. */
const missingValues = (suffix: string): Values => ({
  userId: randomUUID(),
  userRef: `user-nobody${suffix}`,
  workflowId: randomUUID(),
  integrationId: randomUUID(),
  installationId: randomUUID(),
  executionId: randomUUID(),
  credentialId: randomUUID(),
  connector: `crm-nobody${suffix}`,
  oauthConnector: `oauth-nobody${suffix}`,
  importedConnector: `imp-nobody${suffix}`,
  iconKey: randomUUID(),
  serverId: randomUUID(),
  apiKeyId: randomUUID(),
  webhookEndpointId: randomUUID(),
});
const MISSING = missingValues('');
/** Creations (phase 3) name missing objects of their own: the control call creates the one it names. */
const MISSING_CREATED = missingValues('-created');

beforeAll(async () => {
  // Every provider call succeeds, so the owner's credentials stay connected whatever the tests call.
  stub = await startStubProvider(200, { id: 'provider-object', lists: [] });
  // The service runs an engine: on a shared PostgreSQL, a database of its own (see private-database.ts).
  if (onPostgres) db = await privateDatabase('inlay_isolation_account');
  svc = await startService({
    ownStore: true,
    env: {
      ...stub.env,
      ...(db ? { DATABASE_URL: db.url } : {}),
      INLAY_EGRESS_ALLOW: new URL(stub.url).host,
    },
  });
  [a, b] = await Promise.all([seedTenant(svc, 'a', stub.url), seedTenant(svc, 'b', stub.url)]);
  doc = (await svc.call('GET', '/openapi.json')).body;
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await stub?.close();
  await db?.drop();
});

const documentedOps = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op.responses)
      .map(([m, op]) => ({ key: `${m.toUpperCase()} ${path}`, op: op as Operation })),
  );

/** What names A's objects: found in a reply to B, it is a leak. */
const markersOf = (t: Tenant) => [
  t.accountId,
  t.userId,
  t.freshUserId,
  t.username,
  `fresh-${t.label}`,
  t.workflowId,
  t.integrationId,
  t.installationId,
  ...t.executionIds,
  t.credentialId,
  t.customCredentialId,
  t.connector,
  t.oauthConnector,
  t.importedConnector,
  t.iconKey,
  // Secrets: never in a reply to anyone but their holder.
  t.apiKey,
  t.jwt,
  t.mcp.accessToken,
  t.hookSecret,
  t.mcp.serverId,
  `mcp-${t.label}`,
  t.apiKeyId,
  `key-${t.label}`,
  t.webhookEndpointId,
  `hooks-${t.label}`,
  `client-${t.label}`,
];

/** Headers that differ between any two replies (or follow the body, which is compared itself). */
const PER_REPLY_HEADERS = /^(date|x-request-id|etag|content-length|connection|keep-alive|(x-)?ratelimit.*)$/;

/** The reply with the named id blanked out: what may differ between A's object and a missing one is nothing. */
function shape(r: Reply, named: string): string {
  const text = blank(r.text, named)
    // What a creation makes anew (ids, tokens) differs between any two calls.
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/inlay_mcp_[\w-]+/g, '<token>');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  if (body && typeof body === 'object') delete (body as { requestId?: unknown }).requestId;
  const headers = [...r.headers]
    .filter(([k]) => !PER_REPLY_HEADERS.test(k))
    .map(([k, v]) => `${k}: ${blank(v, named)}`)
    .sort();
  return JSON.stringify({ status: r.status, headers, body });
}

/** `text` with every whole occurrence of `value` (not a part of a longer name) replaced by `<id>`. */
function blank(text: string, value: string): string {
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const alts = [...new Set([value, encodeURIComponent(value), value.toLowerCase()])].map(esc).join('|');
  return text.replace(new RegExp(`(?<![\\w-])(?:${alts})(?![\\w-])`, 'g'), '<id>');
}

/** A reply no request may get: a 5xx of Inlay's own (a 502 is the provider's failure, passed on) or one off the document. */
const failed = (r: Reply) => r.status === -1 || (r.status >= 500 && r.status !== 502);

/** Whether `text` names `value` as a whole (not as a part of a longer name). */
const mentions = (text: string, value: string) => blank(text, value) !== text;

/** Runs `fns` at most `n` at a time. */
async function pool<T>(fns: (() => Promise<T>)[], n = 6): Promise<T[]> {
  const out: T[] = new Array(fns.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < fns.length) {
        const i = next++;
        out[i] = await fns[i]!();
      }
    }),
  );
  return out;
}

/** `console`: the account's console session cookie (with its CSRF header), which acts as its API key. */
type Auth = 'key' | 'jwt' | 'console' | 'none';
const authsOf = (op: Operation): Auth[] => {
  const schemes = new Set((op.security ?? []).flatMap((s) => Object.keys(s)));
  if (!schemes.size) return ['none'];
  return [
    ...(schemes.has('apiKey') ? ['key' as const] : []),
    ...(schemes.has('userJwt') ? ['jwt' as const] : []),
  ];
};

describe('account isolation: listings', () => {
  it("B's listings never include A's objects, and A's own listings do (so the check can fail)", async () => {
    const failures: string[] = [];
    const ops = new Map(documentedOps().map((o) => [o.key, o.op]));
    await pool(
      Object.entries(LISTINGS).flatMap(([key, pathOf]) =>
        authsOf(ops.get(key)!).flatMap((auth) =>
          (['a', 'b'] as const).map((who) => async () => {
            const t = who === 'a' ? a : b;
            const other = who === 'a' ? b : a;
            const path = pathOf(t);
            const r = await svc.call(key.split(' ')[0]!, path, { auth: auth === 'jwt' ? t.jwt : t.apiKey });
            if (r.status !== 200)
              return void failures.push(`${key} [${who}, ${auth}]: ${r.status} ${r.text.slice(0, 200)}`);
            const leaked = markersOf(other).filter((m) => mentions(r.text, m));
            if (leaked.length)
              failures.push(`${key} [${who}, ${auth}] ${path} shows ${other.label}'s ${leaked.join(', ')}`);
          }),
        ),
      ),
    );
    expect(failures).toEqual([]);
    // Controls: each tenant's listings name its own objects.
    for (const t of [a, b]) {
      const own = markersOf(t);
      for (const path of [
        '/executions',
        '/account/credentials',
        '/account/workflows',
        '/connectors',
        '/api-keys',
        '/mcp-servers',
        '/webhook-endpoints',
        `/users?search=user-`,
      ]) {
        const r = await svc.call('GET', path, { auth: t.apiKey });
        expect(
          own.some((m) => mentions(r.text, m)),
          `${t.label} ${path}: ${r.text.slice(0, 200)}`,
        ).toBe(true);
      }
    }
  });

  it("B's console session acts as B's key (so the matrix's console cases reach the service)", async () => {
    const r = await svc.call('GET', '/api-keys', { headers: { cookie: b.console.cookie } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((k: { apiKeyId: string }) => k.apiKeyId)).toContain(b.apiKeyId);
  });

  it("B's execution stats count B's runs only", async () => {
    const window = '/stats/executions?from=2025-09-01T00:00:00.000Z&to=2025-09-02T00:00:00.000Z&bucket=day';
    for (const t of [a, b]) {
      const r = await svc.call('GET', window, { auth: t.apiKey });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.totals).toEqual({
        queued: 0,
        running: 0,
        succeeded: t.executionIds.length,
        failed: 0,
      });
    }
  });

  it("B's proxy stats count B's calls only", async () => {
    const stats = async (t: Tenant) => (await svc.call('GET', '/stats/proxy', { auth: t.apiKey })).body.data;
    const before = await stats(b);
    for (let i = 0; i < 2; i++) {
      const r = await svc.call('GET', `/connectors/discord/proxy/users/@me?userId=${a.userId}`, {
        auth: a.apiKey,
        headers: { 'x-inlay-credential-id': a.credentialId },
      });
      expect(r.status, r.text).toBe(200); // the stub provider's answer
    }
    expect(await stats(b)).toEqual(before);
    expect(await stats(a)).toContainEqual(expect.objectContaining({ connector: 'discord' }));
  });

  it("a page cursor of A's listing, replayed by B, pages B's executions only", async () => {
    const first = await svc.call('GET', '/executions?limit=1', { auth: a.apiKey });
    expect(first.body.nextCursor, first.text).toEqual(expect.any(String));
    const r = await svc.call(
      'GET',
      `/executions?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      {
        auth: b.apiKey,
      },
    );
    expect(r.status, r.text).toBeLessThan(500);
    expect(markersOf(a).filter((m) => mentions(r.text, m))).toEqual([]);
  });

  it("B's user search finds B's users only", async () => {
    const r = await svc.call('GET', '/users?search=user-', { auth: b.apiKey });
    expect(r.body.data.map((u: { userId: string }) => u.userId)).toEqual([b.userId]);
    const theirs = await svc.call('GET', `/users?search=${a.username}`, { auth: b.apiKey });
    expect(theirs.body.data).toEqual([]);
  });
});

const rpc = (url: string, headers: Record<string, string>, method: string, params?: object) =>
  rawRpc(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }), {
    'mcp-protocol-version': '2025-11-25',
    ...headers,
  });

/** What one MCP client sends: the server and the headers of each credential kind. */
const clientOf = (t: Tenant): [string, string, Record<string, string>][] => [
  ['key', t.mcp.url, { authorization: `Bearer ${t.apiKey}`, 'x-inlay-userid': t.userId }],
  ['jwt', t.mcp.url, { authorization: `Bearer ${t.jwt}` }],
];
const mcpShape = (r: { status: number; text: string }, named: string) =>
  `${r.status} ${blank(r.text, named).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')}`;

/** Each MCP case as `caller` sends it, naming `owner`'s object and a missing one. */
const mcpPairs = (caller: Tenant, owner: Tenant) =>
  MCP_CASES.flatMap((c) =>
    clientOf(caller).flatMap(([auth, url, headers]) =>
      c.slots.map((slot) => ({
        tag: `${c.kind} ${c.name} [${auth}, ${slot}]`,
        caseTag: `${c.kind} ${c.name}`,
        controlled: !c.uncontrolled,
        slot,
        async send() {
          const v = valuesOf(caller);
          const [attack, control] = await Promise.all([
            rpc(url, headers, MCP_METHOD[c.kind], c.params({ ...v, [slot]: valuesOf(owner)[slot] })),
            rpc(url, headers, MCP_METHOD[c.kind], c.params({ ...v, [slot]: MISSING[slot] })),
          ]);
          return { attack, control };
        },
      })),
    ),
  );

describe('account isolation: MCP', () => {
  it("B's MCP listings (tools, resources) name none of A's objects, and A's name its own", async () => {
    const listings: [string, object?][] = [
      ...MCP_LISTINGS.map((name): [string, object] => ['tools/call', { name, arguments: {} }]),
      ['tools/call', { name: 'get_credentials_inlay', arguments: {} }],
      ['resources/list'],
    ];
    const failures: string[] = [];
    const own = new Set<string>();
    for (const [caller, other] of [
      [b, a],
      [a, b],
    ] as const)
      for (const [auth, url, headers] of clientOf(caller))
        for (const [method, params] of listings) {
          const r = await rpc(url, headers, method, params);
          expect(r.status, r.text).toBe(200);
          const leaked = markersOf(other).filter((m) => mentions(r.text, m));
          if (leaked.length)
            failures.push(`${caller.label} ${auth} ${method} ${JSON.stringify(params)}: ${leaked}`);
          for (const m of markersOf(caller)) if (mentions(r.text, m)) own.add(`${caller.label} ${method}`);
        }
    expect(failures).toEqual([]);
    // Controls: each tenant's listings name some of its own objects.
    expect(['a', 'b'].filter((t) => ![...own].some((x) => x.startsWith(`${t} `)))).toEqual([]);
  });

  it("B's server, key and JWT aimed at A's objects answer what a missing id answers, for every tool, resource and prompt", async () => {
    const [tools, templates, prompts] = await Promise.all(
      (['tools/list', 'resources/templates/list', 'prompts/list'] as const).map(async (m) => {
        const r = await rpc(b.mcp.url, { authorization: `Bearer ${b.jwt}` }, m);
        return rpcMessages(r.text, r.headers.get('content-type'))[0].result;
      }),
    );
    const listed = [
      ...tools.tools.map((t: { name: string }) => `tool ${t.name}`),
      ...templates.resourceTemplates.map((t: { uriTemplate: string }) => `resource ${t.uriTemplate}`),
      ...prompts.prompts.map((p: { name: string }) => `prompt ${p.name}`),
    ];
    expect(listed.length).toBeGreaterThan(10);
    const covered = new Set([
      ...MCP_CASES.map((c) => `${c.kind} ${c.name}`),
      ...MCP_LISTINGS.map((t) => `tool ${t}`),
    ]);
    expect(
      listed.filter((t) => !covered.has(t)),
      'MCP tools, resources and prompts without a case',
    ).toEqual([]);
    const snap = await snapshotter(svc.db, [a.accountId]);
    // The provider-call log is written a moment after each call: what the owner did before is in, and what B's
    // requests did (nothing, if isolation holds) is written before the second look.
    await svc.ctx.providerCalls.flush();
    const before = await snap.take();
    const failures: string[] = [];
    const runs = mcpPairs(b, a).map((p) => async () => {
      const { attack, control } = await p.send();
      const victim = valuesOf(a)[p.slot];
      const leaked = markersOf(a).filter((m) => m !== victim && mentions(attack.text, m));
      if (leaked.length) failures.push(`${p.tag}: names A's ${leaked.join(', ')}`);
      else if (mcpShape(attack, victim) !== mcpShape(control, MISSING[p.slot]))
        failures.push(
          `${p.tag}: A's ${attack.status} ${attack.text.slice(0, 240)}\n    missing ${control.status} ${control.text.slice(0, 240)}`,
        );
    });
    // The user header with a key, and another account's server id in the URL.
    const mcpBase = b.mcp.url.slice(0, b.mcp.url.indexOf(b.mcp.serverId));
    runs.push(async () => {
      const send = (userId: string) =>
        rpc(b.mcp.url, { authorization: `Bearer ${b.apiKey}`, 'x-inlay-userid': userId }, 'tools/list');
      const [attack, control] = await Promise.all([send(a.userId), send(MISSING.userId)]);
      if (mcpShape(attack, a.userId) !== mcpShape(control, MISSING.userId))
        failures.push(
          `x-inlay-userid: A's ${attack.status} ${attack.text} / missing ${control.status} ${control.text}`,
        );
    });
    for (const auth of [b.apiKey, b.jwt])
      runs.push(async () => {
        const send = (serverId: string) =>
          rpc(
            `${mcpBase}${serverId}/${b.mcp.accessToken}`,
            { authorization: `Bearer ${auth}` },
            'tools/list',
          );
        const [attack, control] = await Promise.all([send(a.mcp.serverId), send(MISSING.serverId)]);
        if (mcpShape(attack, a.mcp.serverId) !== mcpShape(control, MISSING.serverId))
          failures.push(
            `A's server id: ${attack.status} ${attack.text} / missing ${control.status} ${control.text}`,
          );
      });
    await pool(runs);
    expect(failures).toEqual([]);
    await svc.ctx.providerCalls.flush();
    expect(diff(before, await snap.take()), "tables of account A changed by B's MCP calls").toEqual([]);
    console.log(
      `account isolation (MCP): ${runs.length} attack/control pairs over ${MCP_CASES.length} cases`,
    );
  });
});

describe('account isolation matrix (generated from the OpenAPI document)', () => {
  it('every documented operation has a case, a listing check or a reason to take no object id', () => {
    const ops = documentedOps();
    const keys = new Set(ops.map((o) => o.key));
    const covered = new Set([
      ...CASES.map((c) => c.op),
      ...Object.keys(LISTINGS),
      ...Object.keys(NO_OBJECT_ID),
    ]);
    expect(ops.length).toBeGreaterThan(60);
    expect(
      [...keys].filter((k) => !covered.has(k)).sort(),
      'operations without a case: add one to CASES (or LISTINGS, or NO_OBJECT_ID with the reason) in test/helpers/isolation-cases.ts',
    ).toEqual([]);
    expect([...covered].filter((k) => !keys.has(k)).sort(), 'cases of operations not served').toEqual([]);
    // Every parameter or body field that names an object is aimed at A's object by some case of its operation.
    const missing: string[] = [];
    for (const { key, op } of ops) {
      // Its reason says what the parameter is instead (the connector of an OAuth callback is no account's object).
      if (key in NO_OBJECT_ID) continue;
      const slots = new Set(CASES.filter((c) => c.op === key).flatMap((c) => c.slots));
      for (const [param, slot] of idLikeParams(doc, op))
        if (!slot || !slots.has(slot)) missing.push(`${key}: ${param}${slot ? ` (${slot})` : ' (no slot)'}`);
    }
    expect(
      missing,
      'object references no case aims at another account: add the slot to a case of the operation (test/helpers/isolation-cases.ts)',
    ).toEqual([]);
  });

  it("B's key, JWTs and anonymous calls aimed at A's objects answer exactly what a missing id answers, and change nothing", async () => {
    const snap = await snapshotter(svc.db, [a.accountId]);
    // The provider-call log is written a moment after each call: what the owner did before is in, and what B's
    // requests did (nothing, if isolation holds) is written before the second look.
    await svc.ctx.providerCalls.flush();
    const before = await snap.take();
    const failures: string[] = [];
    const pairs = pairsOf(b, a);
    for (const phase of [1, 2, 3])
      await pool(
        pairs
          .filter((p) => p.phase === phase)
          .map((p) => async () => {
            const { attack, control } = await p.send();
            const named = p.victim;
            const leaked = markersOf(a).filter((m) => m !== named && mentions(attack.text, m));
            if (failed(attack)) failures.push(`${p.tag}: ${attack.status} ${attack.text.slice(0, 300)}`);
            else if (leaked.length)
              failures.push(
                `${p.tag}: the reply names A's ${leaked.join(', ')}: ${attack.text.slice(0, 300)}`,
              );
            else if (shape(attack, named) !== shape(control, p.missing))
              failures.push(
                `${p.tag}: A's object answers ${attack.status} ${attack.text.slice(0, 240)}\n    a missing one ${control.status} ${control.text.slice(0, 240)}`,
              );
          }),
        // Creations one at a time: each auth's pair names the same new ids, so the first pair creates both
        // (201, 201) and the next finds both taken (409, 409); in parallel an attack and a control of two
        // pairs could interleave (201 beside 409) and fail the comparison for no leak.
        phase === 3 ? 1 : 6,
      );
    await svc.ctx.providerCalls.flush();
    const after = await snap.take();
    expect(failures).toEqual([]);
    expect(diff(before, after), "tables of account A changed by B's requests").toEqual([]);
    expect(pairs.length).toBeGreaterThan(150);
    console.log(
      `account isolation: ${pairs.length} attack/control pairs from ${CASES.length} cases; ${snap.tables} tables of A unchanged`,
    );
  }, 120_000);
});

/**
 * Every request of the matrix as `caller` sends it: for each case, credential and slot, one naming `owner`'s
 * object in that slot and one naming a missing object, the other slots naming the caller's own objects.
 */
function pairsOf(caller: Tenant, owner: Tenant) {
  const ops = new Map(documentedOps().map((o) => [o.key, o.op]));
  const mine = valuesOf(caller);
  const theirs = valuesOf(owner);
  return CASES.flatMap((c) => {
    const op = ops.get(c.op);
    if (!op) return []; // reported by the coverage test
    const method = c.op.split(' ')[0]!;
    const phase = c.phase ?? (method === 'DELETE' ? 2 : 1);
    const own: Values = { ...mine, ...c.base?.(caller) };
    // A user JWT is tried on API-key-only operations too: refused, it must be refused alike for A's object.
    const auths: Auth[] = authsOf(op).includes('none') ? ['none'] : ['key', 'jwt', 'console'];
    return auths.flatMap((auth) =>
      c.slots.map((slot) => {
        const missing = (phase === 3 ? MISSING_CREATED : MISSING)[slot];
        const token =
          auth === 'key'
            ? caller.apiKey
            : auth === 'jwt'
              ? own.userId === caller.freshUserId
                ? caller.freshJwt
                : caller.jwt
              : undefined;
        const call = (v: Values): Promise<Reply> => {
          const req = c.request(v, { caller, slot, stub: stub.url });
          return svc
            .call(method, req.path, {
              auth: token,
              body: req.body,
              headers: {
                ...req.headers,
                ...(auth === 'console'
                  ? { cookie: caller.console.cookie, 'x-inlay-csrf': caller.console.csrfToken }
                  : {}),
              },
            })
            .catch((err: Error) => ({
              status: -1,
              text: err.message,
              headers: new Headers(),
              body: undefined,
            }));
        };
        const caseTag = `${c.op}${c.label ? ` (${c.label})` : ''}`;
        return {
          op: c.op,
          phase,
          slot,
          caseTag,
          controlled: !c.uncontrolled,
          victim: theirs[slot],
          missing,
          tag: `${caseTag} [${auth}, ${slot}]`,
          async send() {
            const [attack, control] = await Promise.all([
              call({ ...own, [slot]: theirs[slot] }),
              call({ ...own, [slot]: missing }),
            ]);
            return { attack, control };
          },
        };
      }),
    );
  });
}

// Last: the owner's own calls start runs whose effects (webhook deliveries) land later, while the matrix watches A's rows.
describe('account isolation: controls (the owner reaches its objects, so the matrix can fail)', () => {
  it('controls: the owner reaches its objects through the same MCP requests', async () => {
    const reached = new Map<string, boolean>();
    await pool(
      mcpPairs(a, a)
        .filter((p) => p.controlled)
        .map((p) => async () => {
          const { attack, control } = await p.send();
          const differs = mcpShape(attack, valuesOf(a)[p.slot]) !== mcpShape(control, MISSING[p.slot]);
          reached.set(p.caseTag, (reached.get(p.caseTag) ?? false) || differs);
        }),
    );
    expect(
      [...reached].filter(([, ok]) => !ok).map(([k]) => k),
      'MCP cases whose owner gets the missing answer',
    ).toEqual([]);
    // A's failed runs above are events of A's: its endpoint gets them, B's endpoint none.
    const deliveries = async (t: Tenant) =>
      JSON.stringify(
        await svc.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, t.webhookEndpointId)),
      );
    const [mine, theirs] = [await deliveries(a), await deliveries(b)];
    expect(markersOf(a).some((m) => mentions(mine, m))).toBe(true);
    const leaked = markersOf(a).filter((m) => mentions(theirs, m));
    expect(leaked, "account A's events delivered to B's endpoint").toEqual([]);
  });

  // The REST controls last: they delete A's objects, its user included.
  it("controls: every case reaches the object with its owner's credentials (so the matrix can fail)", async () => {
    const reached = new Map<string, boolean>();
    const errors: string[] = [];
    const pairs = pairsOf(a, a);
    const check = async (p: (typeof pairs)[number]) => {
      const { attack, control } = await p.send();
      if (failed(attack)) errors.push(`${p.tag}: ${attack.status} ${attack.text.slice(0, 200)}`);
      const differs = shape(attack, p.victim) !== shape(control, p.missing);
      if (p.controlled) reached.set(p.caseTag, (reached.get(p.caseTag) ?? false) || differs);
    };
    for (const phase of [1, 3]) await pool(pairs.filter((p) => p.phase === phase).map((p) => () => check(p)));
    // Deletes last, one at a time, the user's own last: deleting it takes everything of the user along.
    const deletes = pairs.filter((p) => p.phase === 2);
    for (const p of deletes.sort(
      (x, y) => Number(x.op === 'DELETE /users/{userId}') - Number(y.op === 'DELETE /users/{userId}'),
    ))
      await check(p);
    expect(errors).toEqual([]);
    expect(
      [...reached].filter(([, ok]) => !ok).map(([k]) => k),
      'cases whose owner gets the missing answer',
    ).toEqual([]);
  }, 120_000);
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
// @inlay/express is tested here as the host would mount it.
import { inlay } from '@inlay/express';
import { createUser, insertExecutions, installDirect, seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { forgedTokens } from '@inlay/test-kit/forged-tokens';
import { rawRpc, rpcMessages } from '@inlay/test-kit/mcp';
import { apiKeyOnly, fillPath, isMcpRoute, type RouteEntry, routeTable } from '@inlay/test-kit/route-table';
import { type Service, startService } from '@inlay/test-kit/service';
import { startStubProvider } from '@inlay/test-kit/stub-provider';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let svc: Service;
let stub: Awaited<ReturnType<typeof startStubProvider>>;
let a: Awaited<ReturnType<typeof seedAccount>>;
let b: Awaited<ReturnType<typeof seedAccount>>;
let aliceJwt: string;
let malloryJwt: string;
let mallory: string;
let victim: Record<string, string>;
let executionIds: string[];
let userRoutes: RouteEntry[];
let attackers: Record<string, string>;
let mcpServer: { serverId: string; accessToken: string; url: string };
const counts = { rest: 0, mcp: 0, express: 0, controls: 0 };

beforeAll(async () => {
  stub = await startStubProvider();
  // Quotas on: the rate limiter resolves the bearer before `authenticate` does, so both paths are attacked.
  svc = await startService({
    env: { ...stub.env, INLAY_RATE_LIMIT_PER_KEY: '1000000', INLAY_RATE_LIMIT_PER_USER: '1000000' },
  });
  a = await seedAccount(svc, { username: 'alice' });
  b = await seedAccount(svc, { username: 'bob' });
  mallory = await createUser(svc, a.apiKey, 'mallory');
  aliceJwt = await tokenFor(svc, a.apiKey, a.userId);
  malloryJwt = await tokenFor(svc, a.apiKey, mallory);
  const installationId = await installDirect(svc.db, a);
  executionIds = await insertExecutions(svc.db, a, 2);
  const cred = await svc.ctx.credentials.create({
    accountId: a.accountId,
    userId: a.userId,
    connector: 'discord',
    name: 'Alice discord',
    type: 'apiKey',
    secrets: { fields: { botToken: 'alice-bot-token-0123456789' } },
  });
  mcpServer = (await svc.call('POST', '/mcp-servers', { auth: a.apiKey, body: { name: 'iso' } })).body;
  victim = {
    userId: a.userId,
    workflowId: a.workflowId,
    integrationId: a.integrationId,
    installationId,
    executionId: executionIds[0]!,
    credentialId: cred.id,
    connector: 'discord',
    source: 'channels',
  };
  attackers = {
    "another account's API key": `Bearer ${b.apiKey}`,
    "another user's JWT": `Bearer ${malloryJwt}`,
    ...Object.fromEntries(
      Object.entries(await forgedTokens(svc, a, malloryJwt)).map(([k, v]) => [k, `Bearer ${v}`]),
    ),
  };
  // User-level routes: those that need a credential (401 without one) and take a user token.
  // The console's session routes take a cookie, not a bearer (console-api.test.ts covers them).
  const all = routeTable(svc.app).filter(
    (r) => !isMcpRoute(r) && !apiKeyOnly(r) && r.path !== '/console/session',
  );
  userRoutes = [];
  for (const r of all) {
    const probe = await svc.call(
      r.method,
      fillPath(r.path, (p) => victim[p] ?? 'x'),
      { body: ['GET', 'HEAD'].includes(r.method) ? undefined : {} },
    );
    if (probe.status === 401) userRoutes.push(r);
  }
});

afterAll(async () => {
  console.log(
    `isolation matrix: ${counts.rest} REST cases (${userRoutes?.length} user-level routes × ${Object.keys(attackers ?? {}).length} attackers), ` +
      `${counts.mcp} MCP cases, ${counts.express} @inlay/express cases, ${counts.rest + counts.mcp + counts.express} in total; ` +
      `${counts.controls} positive controls reached the victim's data with the victim's own token`,
  );
  await svc?.close();
  await stub?.close();
});

/** Path parameters that name an object of one user (the rest belong to the account or the catalog). */
const USER_OBJECTS = ['userId', 'installationId', 'executionId', 'credentialId'];

/** The body a legitimate caller would send, aimed at the victim's objects. */
function bodyFor(r: RouteEntry): unknown {
  const key = `${r.method} ${r.path}`;
  const bodies: Record<string, unknown> = {
    'POST /installations': {
      userId: a.userId,
      workflowIds: [a.workflowId],
      credentialIds: { slack: victim.credentialId },
      values: [],
    },
    'PATCH /installations/:installationId': { enabled: false },
    'POST /credentials': { userId: a.userId, connector: 'discord', data: { botToken: 'x'.repeat(20) } },
    'POST /credentials/oauth': { userId: a.userId, connector: 'slack' },
    // Well-formed, so only whose credential it is can answer.
    'PUT /credentials/:credentialId': { userId: a.userId, data: { botToken: 'x'.repeat(20) } },
    'PATCH /credentials/:credentialId': { userId: a.userId, label: 'Renamed' },
    'PUT /workflows/activate': { userId: a.userId, workflowId: a.workflowId },
    'PUT /workflows/deactivate': { userId: a.userId, workflowId: a.workflowId },
    'POST /run/workflow': { userId: a.userId, workflowId: a.workflowId, data: {} },
    'POST /run/event': { userId: a.userId, event: 'deal.created', data: {} },
  };
  if (key in bodies) return bodies[key];
  return ['POST', 'PUT', 'PATCH'].includes(r.method) ? { userId: a.userId } : undefined;
}

/**
 * Victim data the attacker never sent: finding one in a reply is a leak. Workflows and integrations belong
 * to the account, so another user of the same account may see those; never the victim's own objects.
 */
function leaked(text: string, sent: string, sameAccount = false): string[] {
  const secrets = [a.userId, ...executionIds, victim.installationId!, victim.credentialId!];
  if (!sameAccount) secrets.push(a.workflowId, a.integrationId);
  return secrets.filter((s) => !sent.includes(s) && text.includes(s));
}

describe('isolation matrix (generated from the route table)', () => {
  it('every user-level route answers 401 or 404 with no data to every foreign or forged credential', async () => {
    expect(userRoutes.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const r of userRoutes) {
      const path = `${fillPath(r.path, (p) => victim[p] ?? 'x')}?userId=${a.userId}`;
      const body = bodyFor(r);
      const sent = `${path} ${JSON.stringify(body ?? '')}`;
      // Routes that name no object of the victim (the connector catalog) may answer the attacker's own view.
      const namesObject = r.params.some((p) => !['connector', 'source'].includes(p)) || body !== undefined;
      const namesUserObject = r.params.some((p) => USER_OBJECTS.includes(p)) || body !== undefined;
      for (const [name, authorization] of Object.entries(attackers)) {
        const res = await svc.call(r.method, path, { body, headers: { authorization } });
        counts.rest++;
        const leak = leaked(res.text, sent, name === "another user's JWT");
        const denied = res.status === 401 || res.status === 404;
        const forged = name !== "another account's API key" && name !== "another user's JWT";
        if (leak.length) failures.push(`${r.method} ${r.path} [${name}] leaked ${leak.join(',')}`);
        else if (forged && res.status !== 401)
          failures.push(`${r.method} ${r.path} [${name}] ${res.status}: ${res.text.slice(0, 120)}`);
        else if (
          !denied &&
          ((name === "another user's JWT" ? namesUserObject : namesObject) || res.status >= 500)
        )
          failures.push(`${r.method} ${r.path} [${name}] ${res.status}: ${res.text.slice(0, 120)}`);
        if (denied && res.text && !res.headers.get('content-type')?.startsWith('application/problem+json'))
          failures.push(`${r.method} ${r.path} [${name}] not problem+json`);
      }
    }
    expect(failures).toEqual([]);
    // Positive controls: the same requests with the victim's own token get past authentication and scoping.
    for (const r of userRoutes) {
      if (r.method === 'DELETE') continue;
      const path = `${fillPath(r.path, (p) => victim[p] ?? 'x')}?userId=${a.userId}`;
      const res = await svc.call(r.method, path, { body: bodyFor(r), auth: aliceJwt });
      // The proxy passes the (stub) provider's own 401 on, marked as the provider's: Inlay let it through.
      const upstream = res.headers.get('x-inlay-upstream-status') !== null;
      expect(res.status === 401 && !upstream, `${r.method} ${r.path}: ${res.text.slice(0, 200)}`).toBe(false);
      if (res.status < 400 || upstream) counts.controls++;
    }
  });
});

describe('isolation matrix: MCP endpoint', () => {
  it('forged and foreign credentials get 401; another user of the account never sees the victim', async () => {
    const call = (authorization: string, body: object, extra: Record<string, string> = {}) =>
      rawRpc(mcpServer.url, JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }), {
        authorization,
        'mcp-protocol-version': '2025-11-25',
        ...extra,
      });
    const probes = [
      { method: 'tools/list' },
      { method: 'tools/call', params: { name: 'get_credentials_inlay', arguments: {} } },
      { method: 'tools/call', params: { name: 'list_workflows_inlay', arguments: {} } },
      {
        method: 'tools/call',
        params: { name: 'get_workflow_logs_inlay', arguments: { workflowId: a.workflowId } },
      },
      { method: 'resources/list' },
    ];
    for (const [name, authorization] of Object.entries(attackers)) {
      for (const probe of probes) {
        // A JWT must not be able to pick its user with x-inlay-userid (API keys only).
        const r = await call(authorization, probe, { 'x-inlay-userid': a.userId });
        counts.mcp++;
        const leak = leaked(r.text, JSON.stringify(probe), name === "another user's JWT");
        expect(leak, `${name} ${probe.method}`).toEqual([]);
        if (name === "another user's JWT") {
          expect(r.status, r.text).toBeLessThan(500);
          continue;
        }
        expect([401, 404], `${name} ${probe.method}: ${r.status} ${r.text}`).toContain(r.status);
        const [msg] = rpcMessages(r.text, r.headers.get('content-type'));
        expect(msg).toMatchObject({
          jsonrpc: '2.0',
          error: { code: expect.any(Number), message: expect.any(String) },
        });
      }
    }
    // The right key with the wrong server URL, and account B's server with account A's key.
    const other = (await svc.call('POST', '/mcp-servers', { auth: b.apiKey, body: { name: 'b' } })).body;
    for (const url of [other.url, mcpServer.url.replace(mcpServer.accessToken, other.accessToken)]) {
      const r = await rawRpc(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
        authorization: `Bearer ${a.apiKey}`,
        'mcp-protocol-version': '2025-11-25',
      });
      counts.mcp++;
      expect([401, 404]).toContain(r.status);
    }
    // Control: alice's own token sees her credential through MCP.
    const mine = await call(`Bearer ${aliceJwt}`, probes[1]!);
    expect(mine.text).toContain(victim.credentialId);
  });
});

describe('isolation matrix: @inlay/express', () => {
  it('a host session sees only its own user, whatever the browser sends', async () => {
    const host = express();
    host.use(
      '/api/inlay',
      inlay({ serviceUrl: svc.url, apiKey: a.apiKey, userId: (req) => req.get('x-host-user') ?? null }),
    );
    const server = createServer(host);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inlay`;
    try {
      const failures: string[] = [];
      for (const r of userRoutes) {
        const path = `${fillPath(r.path, (p) => victim[p] ?? 'x')}?userId=${a.userId}`;
        const body = bodyFor(r);
        const sent = `${path} ${JSON.stringify(body ?? '')}`;
        const cases: [string, Record<string, string>][] = [
          ['no host session', {}],
          ["another host user's session", { 'x-host-user': 'mallory' }],
          [
            "another user's session with the victim's JWT",
            { 'x-host-user': 'mallory', authorization: `Bearer ${aliceJwt}` },
          ],
          [
            "another user's session with account B's key",
            { 'x-host-user': 'mallory', authorization: `Bearer ${b.apiKey}` },
          ],
        ];
        for (const [name, headers] of cases) {
          const res = await fetch(`${base}${path}`, {
            method: r.method,
            // As the widget sends it (x-inlay-client passes the proxy's CSRF guard), so the user check is what answers.
            headers: {
              ...headers,
              'x-inlay-client': '1',
              ...(body ? { 'content-type': 'application/json' } : {}),
            },
            body: body ? JSON.stringify(body) : undefined,
          });
          const text = await res.text();
          counts.express++;
          const leak = leaked(text, sent, name !== 'no host session');
          if (leak.length) failures.push(`${r.method} ${r.path} [${name}] leaked ${leak.join(',')}`);
          else if (name === 'no host session' && res.status !== 401)
            failures.push(`${r.method} ${r.path} [${name}] ${res.status}`);
          else if (res.status !== 401 && res.status !== 404 && r.params.some((p) => USER_OBJECTS.includes(p)))
            failures.push(`${r.method} ${r.path} [${name}] ${res.status}: ${text.slice(0, 120)}`);
        }
      }
      expect(failures).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

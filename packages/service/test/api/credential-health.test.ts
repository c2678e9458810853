import { randomUUID } from 'node:crypto';
import { TestBrowser } from '@inlay/test-kit/browser';
import { install, publish, waitForRuns } from '@inlay/test-kit/engine';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV2 } from '@inlay/test-kit/mcp';
import {
  GOOD_KEY,
  type Provider,
  providerConnectors,
  providerEgress,
  startProvider,
} from '@inlay/test-kit/providers';
import { expectProblem, ISO_MS_RE, type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { credentials, installations } from '../../src/store/schema.ts';

let provider: Provider;
let svc: Service;
let apiKey: string;
let alice: string;
let bob: string;
const HOST = 'http://127.0.0.1:3000';

beforeAll(async () => {
  provider = await startProvider();
  svc = await startService({
    connectors: providerConnectors(provider.url),
    env: { ...providerEgress(provider), INLAY_RETRY_BASE_MS: '5' },
  });
  ({ apiKey } = await svc.account('health'));
  alice = await createUser(svc, apiKey, 'alice');
  bob = await createUser(svc, apiKey, 'bob');
  const app = await svc.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  if (app.status !== 200) throw new Error(app.text);
});
afterAll(async () => {
  await svc?.close();
  await provider?.close();
});

const rowOf = async (id: string) =>
  (await svc.db.select().from(credentials).where(eq(credentials.id, id)))[0]!;
const secretsOf = async (id: string) => svc.ctx.credentials.open(await rowOf(id));
const statusOf = async (id: string, user = alice) =>
  (await svc.call('GET', `/credentials/${id}?userId=${user}`, { auth: apiKey })).body.data;

/** Runs the OAuth flow for `alice` (or reconnects `credentialId`); returns the credential id. */
async function connectAcme(extra: Record<string, unknown> = {}, user = alice): Promise<string> {
  const r = await svc.call('POST', '/credentials/oauth', {
    auth: apiKey,
    body: { userId: user, connector: 'acme', origin: HOST, ...extra },
  });
  if (r.status !== 201) throw new Error(r.text);
  const back = await new TestBrowser().connect(r.body.authorizeUrl);
  expect(back.status).toBe(200);
  return r.body.credentialId;
}

async function keyCredential(user = alice): Promise<string> {
  const r = await svc.call('POST', '/credentials', {
    auth: apiKey,
    body: { userId: user, connector: 'keyco', data: { apiKey: GOOD_KEY } },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.data.credentialId;
}

/** Makes the provider refuse the credential's access token, as a revocation at the provider would. */
async function revokeAccess(id: string, opts: { refreshToo?: boolean } = {}) {
  const s = await secretsOf(id);
  provider.revokeAccess(s.oauth!.accessToken);
  if (opts.refreshToo) provider.revokeRefresh(s.oauth!.refreshToken!);
}

const options = (credentialId: string) =>
  svc.call('GET', `/connectors/acme/options/projects?userId=${alice}&credentialId=${credentialId}`, {
    auth: apiKey,
  });

/** A one-step workflow on `acme`, installed for alice with `credentialId`; returns its run function. */
async function acmeWorkflow(credentialId: string) {
  const workflowId = await publish(
    svc,
    apiKey,
    {
      trigger: { type: 'manual' },
      steps: [{ id: randomUUID(), connector: 'acme', action: 'list_projects', input: {} }],
    },
    `acme-${randomUUID().slice(0, 6)}`,
  );
  const inst = await install(svc, apiKey, alice, [workflowId], { credentialIds: { acme: credentialId } });
  const run = async () => {
    const r = await svc.call('POST', '/run/workflow', {
      auth: apiKey,
      body: { workflowId, userId: alice, data: {} },
    });
    expect(r.status, r.text).toBe(200);
    const [row] = await waitForRuns(svc, r.body.executionIds);
    return row!;
  };
  return { workflowId, installationId: inst.installationId, run };
}

describe('status and account label', () => {
  it('reads the account label on connect (OAuth and API key) and stamps statusChangedAt', async () => {
    const oauth = await statusOf(await connectAcme());
    expect(oauth).toMatchObject({ status: 'connected', accountLabel: 'Acme Workspace', statusReason: null });
    expect(oauth.statusChangedAt).toMatch(ISO_MS_RE);
    const key = await statusOf(await keyCredential());
    expect(key).toMatchObject({ status: 'connected', accountLabel: 'KeyCo Team' });
  });
});

describe('refresh ahead of expiry', () => {
  it('a token that lives 120 s is refreshed in its last quarter, not on every call', async () => {
    provider.expiresIn = 120;
    let id: string;
    try {
      id = await connectAcme();
    } finally {
      provider.expiresIn = 3600;
    }
    const before = provider.refreshGrants();
    for (let i = 0; i < 3; i++) expect((await options(id)).status).toBe(200);
    expect(provider.refreshGrants() - before).toBe(0);
    // The service runs in this process: only its clock moves, to 100 s into the token's 120.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 100_000 });
    try {
      expect((await options(id)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect(provider.refreshGrants() - before).toBe(1);
  });
});

describe('refresh on a refused token, in every path', () => {
  it('options: refreshes once after a 401 and retries', async () => {
    const id = await connectAcme();
    await revokeAccess(id);
    const before = provider.refreshGrants();
    const r = await options(id);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toHaveLength(5);
    expect(provider.refreshGrants() - before).toBe(1);
    expect((await statusOf(id)).status).toBe('connected');
  });

  it('engine: a step refreshes once after a 401 and the run succeeds', async () => {
    const id = await connectAcme();
    const wf = await acmeWorkflow(id);
    await revokeAccess(id);
    const before = provider.refreshGrants();
    const run = await wf.run();
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(provider.refreshGrants() - before).toBe(1);
  });

  it('MCP: execute_action_inlay refreshes once after a 401', async () => {
    const id = await connectAcme();
    await revokeAccess(id);
    const server = (await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'agents' } })).body;
    const client = await connectV2(server.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': alice,
    });
    try {
      const before = provider.refreshGrants();
      const r = (await client.callTool({
        name: 'execute_action_inlay',
        arguments: { connectorId: 'acme', actionId: 'list_projects', parameters: {}, credentialId: id },
      })) as any;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(provider.refreshGrants() - before).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('invalid_grant: the credential needs reconnecting and the run fails with credential_needs_reconnect', async () => {
    const id = await connectAcme();
    const wf = await acmeWorkflow(id);
    await revokeAccess(id, { refreshToo: true });
    const run = await wf.run();
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'credential_needs_reconnect' });
    const s = await statusOf(id);
    expect(s.status).toBe('needs_reconnect');
    expect(s.statusReason).toContain('invalid_grant');
    // The next run is stopped before any request.
    const next = await wf.run();
    expect(next.error).toMatchObject({ code: 'credential_needs_reconnect' });
    expectProblem(
      await options(id),
      422,
      'credential_needs_reconnect',
      'query.credentialId',
      'needs_reconnect',
    );
  });

  it('a token still refused after a successful refresh: needs_reconnect', async () => {
    const id = await connectAcme();
    await revokeAccess(id);
    // Every token the provider issues from now on is refused too (already expired when issued).
    const before = provider.refreshGrants();
    provider.expiresIn = 0;
    try {
      const r = await options(id);
      expectProblem(r, 422, 'credential_needs_reconnect', 'query.credentialId', 'needs_reconnect');
    } finally {
      provider.expiresIn = 3600;
    }
    expect(provider.refreshGrants() - before).toBe(1);
    expect((await statusOf(id)).status).toBe('needs_reconnect');
  });

  it('API key: a refused key needs reconnecting once its test request is refused too', async () => {
    const id = await keyCredential();
    provider.keyRevoked = true;
    try {
      const r = await svc.call('GET', `/connectors/keyco/options/lists?userId=${alice}&credentialId=${id}`, {
        auth: apiKey,
      });
      expectProblem(r, 422, 'credential_needs_reconnect', 'query.credentialId', 'needs_reconnect');
      const s = await statusOf(id);
      expect(s.status).toBe('needs_reconnect');
      expect(s.statusReason).toContain('revoked');
      expect(JSON.stringify(s)).not.toContain(GOOD_KEY);
    } finally {
      provider.keyRevoked = false;
    }
  });
});

describe('POST /credentials/{id}/test', () => {
  it('re-tests: needs_reconnect while refused, connected again once the provider accepts it', async () => {
    const id = await keyCredential();
    provider.keyRevoked = true;
    try {
      const r = await svc.call('POST', `/credentials/${id}/test?userId=${alice}`, { auth: apiKey });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toMatchObject({ credentialId: id, status: 'needs_reconnect' });
    } finally {
      provider.keyRevoked = false;
    }
    const again = await svc.call('POST', `/credentials/${id}/test?userId=${alice}`, { auth: apiKey });
    expect(again.body.data).toMatchObject({
      status: 'connected',
      accountLabel: 'KeyCo Team',
      statusReason: null,
    });
  });

  it('refreshes an OAuth token the provider refuses, and updates the label', async () => {
    const id = await connectAcme();
    await revokeAccess(id);
    provider.workspace = 'Renamed Workspace';
    try {
      const before = provider.refreshGrants();
      const r = await svc.call('POST', `/credentials/${id}/test?userId=${alice}`, { auth: apiKey });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toMatchObject({ status: 'connected', accountLabel: 'Renamed Workspace' });
      expect(provider.refreshGrants() - before).toBe(1);
    } finally {
      provider.workspace = 'Acme Workspace';
    }
  });
});

describe('reconnect in place', () => {
  it('POST /credentials/oauth {credentialId}: same id, new tokens, the installation runs again', async () => {
    const id = await connectAcme();
    const wf = await acmeWorkflow(id);
    await revokeAccess(id, { refreshToo: true });
    expect((await wf.run()).error).toMatchObject({ code: 'credential_needs_reconnect' });
    // The workflow tells its user, in the list and on its own.
    const since = (await statusOf(id)).statusChangedAt;
    const attention = {
      code: 'needs_reconnect',
      connector: 'acme',
      credentialId: id,
      since,
      message:
        'The Acme account of this workflow stopped working, so it cannot run. Reconnect Acme to continue.',
      detail: (await statusOf(id)).statusReason,
    };
    const list = await svc.call('GET', `/workflows?userId=${alice}`, { auth: apiKey });
    expect(list.body.data.find((w: any) => w.workflowId === wf.workflowId).attention).toEqual(attention);
    const jwt = await tokenFor(svc, apiKey, alice);
    const one = await svc.call('GET', `/workflows/${wf.workflowId}`, { auth: jwt });
    expect(one.body.data.attention).toEqual(attention);
    const old = await secretsOf(id);
    // Alice's rows only: on a shared PostgreSQL database other test files add credentials meanwhile.
    const [row] = await svc.db.select().from(credentials).where(eq(credentials.id, id));
    const hers = async () =>
      (await svc.db.select().from(credentials).where(eq(credentials.userId, row!.userId)))
        .map((c) => c.id)
        .sort();
    const before = await hers();
    expect(await connectAcme({ credentialId: id })).toBe(id);
    expect(await hers()).toEqual(before);
    const s = await statusOf(id);
    expect(s).toMatchObject({ status: 'connected', statusReason: null, accountLabel: 'Acme Workspace' });
    expect((await secretsOf(id)).oauth!.accessToken).not.toBe(old.oauth!.accessToken);
    expect((await wf.run()).status).toBe('succeeded');
    const after = await svc.call('GET', `/workflows/${wf.workflowId}?userId=${alice}`, { auth: apiKey });
    expect(after.body.data.attention).toBeNull();
  });

  it('MCP create_credential_inlay {credentialId} reconnects in place', async () => {
    const id = await connectAcme();
    const server = (await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'agents' } })).body;
    const client = await connectV2(server.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': alice,
    });
    try {
      const r = (await client.callTool({
        name: 'create_credential_inlay',
        arguments: { connectorId: 'acme', authenticationType: 'oauth2', credentialId: id },
      })) as any;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(r.structuredContent.credentialId).toBe(id);
      const back = await new TestBrowser().connect(r.structuredContent.authorizeUrl);
      expect(back.status).toBe(200);
      expect((await statusOf(id)).status).toBe('connected');
    } finally {
      await client.close();
    }
  });

  it('refuses a credential of another connector, and another user’s credential is a 404', async () => {
    const key = await keyCredential();
    expectProblem(
      await svc.call('POST', '/credentials/oauth', {
        auth: apiKey,
        body: { userId: alice, connector: 'acme', origin: HOST, credentialId: key },
      }),
      422,
      'unprocessable',
      'body.credentialId',
      'connector',
    );
    const bobs = await connectAcme({}, bob);
    expectProblem(
      await svc.call('POST', '/credentials/oauth', {
        auth: apiKey,
        body: { userId: alice, connector: 'acme', origin: HOST, credentialId: bobs },
      }),
      404,
      'not_found',
    );
  });
});

describe('PUT, PATCH and DELETE /credentials/{id}', () => {
  it('PUT replaces API-key secrets only after they pass the test', async () => {
    const id = await keyCredential();
    const bad = await svc.call('PUT', `/credentials/${id}`, {
      auth: apiKey,
      body: { userId: alice, data: { apiKey: 'key-wrong-000' } },
    });
    expectProblem(bad, 422, 'unprocessable', 'body.data', 'rejected');
    expect((await secretsOf(id)).fields.apiKey).toBe(GOOD_KEY);
    // Mark it broken, then fix it in place.
    await svc.db.update(credentials).set({ status: 'needs_reconnect' }).where(eq(credentials.id, id));
    const ok = await svc.call('PUT', `/credentials/${id}`, {
      auth: apiKey,
      body: { userId: alice, data: { apiKey: GOOD_KEY } },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data).toMatchObject({ credentialId: id, status: 'connected', accountLabel: 'KeyCo Team' });
    expect(ok.text).not.toContain(GOOD_KEY);
    const oauth = await connectAcme();
    expectProblem(
      await svc.call('PUT', `/credentials/${oauth}`, { auth: apiKey, body: { userId: alice, data: {} } }),
      422,
      'unprocessable',
      'path.credentialId',
      'auth_type',
    );
  });

  it('PATCH renames; a blank label is a 400 naming the field', async () => {
    const id = await keyCredential();
    const r = await svc.call('PATCH', `/credentials/${id}`, {
      auth: apiKey,
      body: { userId: alice, label: 'Marketing key' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.name).toBe('Marketing key');
    expectProblem(
      await svc.call('PATCH', `/credentials/${id}`, { auth: apiKey, body: { userId: alice, label: ' ' } }),
      400,
      'invalid_request',
      'body.label',
    );
  });

  it('DELETE names the installations that use it (409) unless ?detach=true', async () => {
    const id = await connectAcme();
    const wf = await acmeWorkflow(id);
    const r = await svc.call('DELETE', `/credentials/${id}?userId=${alice}`, { auth: apiKey });
    expectProblem(r, 409, 'conflict', 'path.credentialId', 'in_use');
    expect(r.body.installationIds).toEqual([wf.installationId]);
    const d = await svc.call('DELETE', `/credentials/${id}?userId=${alice}&detach=true`, { auth: apiKey });
    expect(d.status, d.text).toBe(200);
    expect(await svc.db.select().from(credentials).where(eq(credentials.id, id))).toEqual([]);
    const [inst] = await svc.db.select().from(installations).where(eq(installations.id, wf.installationId));
    expect(inst!.credentialIds).toEqual({});
    // The installation now visibly needs an account, in the workflow and in the installation alike.
    const attention = {
      code: 'needs_credential',
      connector: 'acme',
      since: inst!.updatedAt.toISOString(),
      message:
        'No Acme account is chosen for this workflow, so it cannot run. Open Configure and choose one.',
    };
    const w = await svc.call('GET', `/workflows/${wf.workflowId}?userId=${alice}`, { auth: apiKey });
    expect(w.body.data.attention).toEqual(attention);
    const i = await svc.call('GET', `/installations/${wf.installationId}?userId=${alice}`, { auth: apiKey });
    expect(i.body.data.attention).toEqual(attention);
    const needing = await svc.call('GET', '/installations?attention=true', { auth: apiKey });
    expect(needing.body.data.map((x: any) => x.installationId)).toContain(wf.installationId);
    expect(needing.body.data.every((x: any) => x.attention !== null)).toBe(true);
    // Choosing an account again (values kept) clears it.
    const fresh = await connectAcme();
    const fixed = await svc.call('PATCH', `/installations/${wf.installationId}`, {
      auth: apiKey,
      body: { userId: alice, credentialIds: { acme: fresh } },
    });
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.body.data.attention).toBeNull();
    expect((await wf.run()).status).toBe('succeeded');
  });
});

describe('attention', () => {
  it('failing: the last 3 runs failed for another reason; null again after a success', async () => {
    let fail = true;
    const workflowId = await publish(
      svc,
      apiKey,
      {
        trigger: { type: 'manual' },
        steps: [
          {
            id: randomUUID(),
            connector: 'transform',
            action: 'map',
            input: { expression: 'trigger.fail ? $error("the mapping broke") : {"ok": true}' },
          },
        ],
      },
      'flaky',
    );
    await install(svc, apiKey, alice, [workflowId]);
    const run = async () => {
      const r = await svc.call('POST', '/run/workflow', {
        auth: apiKey,
        body: { workflowId, userId: alice, data: { fail } },
      });
      return (await waitForRuns(svc, r.body.executionIds))[0]!;
    };
    const attention = async () =>
      (await svc.call('GET', `/workflows?userId=${alice}`, { auth: apiKey })).body.data.find(
        (w: any) => w.workflowId === workflowId,
      ).attention;
    const first = await run();
    await run();
    expect(await attention()).toBeNull();
    await run();
    expect(await attention()).toEqual({
      code: 'failing',
      since: first.startedAt.toISOString(),
      message: 'The last 3 runs failed. Open the run history to see why.',
      detail: expect.stringContaining('the mapping broke'),
    });
    fail = false;
    expect((await run()).status).toBe('succeeded');
    expect(await attention()).toBeNull();
  });
});

describe('isolation', () => {
  it('another user’s credential answers 404 on every new route, with a key or the user’s JWT', async () => {
    const bobs = await keyCredential(bob);
    const aliceJwt = await tokenFor(svc, apiKey, alice);
    const calls: [string, string, unknown?][] = [
      ['POST', `/credentials/${bobs}/test`],
      ['PUT', `/credentials/${bobs}`, { data: { apiKey: GOOD_KEY } }],
      ['PATCH', `/credentials/${bobs}`, { label: 'mine now' }],
      ['DELETE', `/credentials/${bobs}?detach=true`],
    ];
    for (const [method, path, body] of calls) {
      expectProblem(await svc.call(method, path, { auth: aliceJwt, body }), 404, 'not_found');
      const withKey = path.includes('?') ? `${path}&userId=${alice}` : `${path}?userId=${alice}`;
      const keyBody = body ? { ...(body as object), userId: alice } : undefined;
      expectProblem(
        await svc.call(method, method === 'POST' || method === 'DELETE' ? withKey : path, {
          auth: apiKey,
          body: keyBody,
        }),
        404,
        'not_found',
      );
    }
    expect((await statusOf(bobs, bob)).name).toBe('KeyCo');
  });
});

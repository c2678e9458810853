import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerClient, InlayError, isInlayError, type ServerClient } from '../../src/index.ts';
import {
  insertExecutions,
  installDirect,
  landed,
  type Service,
  seedAccount,
  sharedService,
} from './helpers.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let api: ServerClient;

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc);
  api = createServerClient({ baseUrl: svc.url, apiKey: s.apiKey });
});
afterAll(() => svc?.close());

describe('createServerClient against the real service', () => {
  it('manages users and mints tokens', async () => {
    const { userId } = await api.users.create({ username: 'carol', fullName: 'Carol C' });
    expect((await api.users.get(userId)).username).toBe('carol');
    expect((await api.users.get('carol')).userId).toBe(userId);
    expect((await api.users.update(userId, { fullName: 'Carol D' })).fullName).toBe('Carol D');
    expect((await api.users.list()).map((u) => u.username).sort()).toEqual(['alice', 'carol']);
    const t = await api.users.token(userId);
    expect(t.token.split('.')).toHaveLength(3);
    expect(Date.parse(t.expiresAt)).toBeGreaterThan(Date.now());
    expect(await api.users.delete(userId)).toEqual({ message: 'Success' });
    await expect(api.users.get(userId)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('authors integrations and workflows, and reads them back', async () => {
    const { integrationId } = await api.integrations.create({ name: 'Ops', connector: 'slack' });
    expect((await api.integrations.list()).map((i) => i.integrationId)).toContain(integrationId);
    const def = (await api.workflows.definition(s.workflowId)).definition;
    const created = await api.workflows.create({ integrationId, name: 'Copy', definition: def });
    expect(created.version).toBe(1);
    expect((await api.workflows.update(created.workflowId, { definition: def })).version).toBe(2);
    const list = await api.workflows.list({ userId: 'alice' });
    expect(list.map((w) => w.workflowId)).toEqual([s.workflowId, created.workflowId]);
    const one = await api.workflows.get(created.workflowId, { userId: s.userId });
    expect(one).toMatchObject({ name: 'Copy', version: 2, installed: false, integrationName: 'Ops' });
    expect((await api.workflows.list({ userId: 'alice', integrationId })).map((w) => w.workflowId)).toEqual([
      created.workflowId,
    ]);
  });

  it('edits an integration, and deletes it only once it has no workflows', async () => {
    const { integrationId } = await api.integrations.create({ name: 'Draft', description: 'first' });
    const edited = await api.integrations.update(integrationId, { name: 'Renamed', connector: 'slack' });
    expect(edited).toMatchObject({
      integrationId,
      name: 'Renamed',
      description: 'first',
      connector: 'slack',
    });
    const busy = await api.integrations.delete(s.integrationId).catch((e: unknown) => e);
    expect(busy).toMatchObject({ status: 409, code: 'conflict' });
    expect(await api.integrations.delete(integrationId)).toEqual({ message: 'Success' });
    expect((await api.integrations.list()).map((i) => i.integrationId)).not.toContain(integrationId);
  });

  it('deletes a workflow nobody has installed, and names the installations of one that is', async () => {
    const def = (await api.workflows.definition(s.workflowId)).definition;
    const { workflowId } = await api.workflows.create({
      integrationId: s.integrationId,
      name: 'Tmp',
      definition: def,
    });
    await installDirect(svc.db, { ...s, workflowId });
    const busy = await api.workflows.delete(workflowId).catch((e: unknown) => e);
    expect(busy).toMatchObject({ status: 409, code: 'conflict', problem: { installationCount: 1 } });
    const { workflowId: unused } = await api.workflows.create({
      integrationId: s.integrationId,
      name: 'Unused',
      definition: def,
    });
    expect(await api.workflows.delete(unused)).toBeUndefined();
    await expect(api.workflows.definition(unused)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('toggles, pages logs and deletes them', async () => {
    await installDirect(svc.db, s);
    const ids = await insertExecutions(svc.db, s, 12);
    await api.workflows.deactivate({ userId: 'alice', workflowId: s.workflowId });
    expect((await api.workflows.get(s.workflowId, { userId: 'alice' })).active).toBe(false);
    await api.workflows.activate({ userId: 'alice', workflowId: s.workflowId });
    expect((await api.workflows.get(s.workflowId, { userId: 'alice' })).active).toBe(true);
    const page2 = await api.workflows.logs(s.workflowId, {
      userId: 'alice',
      page: 2,
      limit: 5,
      order: 'asc',
    });
    expect(page2.map((l) => l.executionId)).toEqual(ids.slice(5, 10));
    expect((await api.workflows.logs(s.workflowId, { userId: 'alice' }))[0]!.executionId).toBe(ids[11]);
    const err = await api.workflows.logs(s.workflowId, { userId: 'alice', limit: 31 }).catch((e) => e);
    expect(err).toBeInstanceOf(InlayError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(err.errors[0].field).toBe('query.limit');
    expect(await api.users.deleteLogs(s.userId)).toEqual({ message: 'Success' });
    expect(await api.workflows.logs(s.workflowId, { userId: 'alice' })).toEqual([]);
  });

  it('reads installations and the connector catalog', async () => {
    const list = await api.installations.list();
    expect(list.length).toBeGreaterThan(0);
    expect((await api.installations.get(list[0]!.installationId)).userId).toBe(s.userId);
    expect((await api.installations.list({ userId: 'alice' })).length).toBe(list.length);
    const connectors = await api.connectors.list();
    expect(connectors.find((c) => c.id === 'slack')).toMatchObject({
      authType: 'oauth2',
      sources: ['channels'],
    });
    expect((await api.connectors.list({ category: 'payments' })).map((c) => c.id)).toContain('stripe');
    expect((await api.connectors.actions('slack')).map((a) => a.id)).toContain('post_message');
  });

  it('serves the meta routes', async () => {
    expect(await api.meta.health()).toEqual({ status: 'ok' });
    expect((await api.meta.ready()).status).toBe('ready');
    expect((await api.meta.jwks()).keys[0]).toMatchObject({ crv: 'Ed25519', alg: 'EdDSA' });
    expect((await api.meta.openapi()).openapi).toBe('3.1.0');
  });

  it('manages MCP servers when the route has landed', async (ctx) => {
    if (!(await landed(svc, s.apiKey, 'GET', '/mcp-servers')))
      ctx.skip('GET /mcp-servers has not landed yet');
    const created = await api.mcpServers.create({ name: 'Agents' });
    expect(created.accessToken).toBeTruthy();
    expect((await api.mcpServers.list()).map((m) => m.serverId)).toContain(created.serverId);
    expect(await api.mcpServers.delete(created.serverId)).toEqual({ message: 'Success' });
  });

  it('registers an OAuth app when the route has landed', async (ctx) => {
    if (!(await landed(svc, s.apiKey, 'PUT', '/connectors/slack/oauth-app')))
      ctx.skip('PUT /connectors/{connector}/oauth-app has not landed yet');
    const app = await api.connectors.putOAuthApp('slack', { clientId: 'cid', clientSecret: 'secret' });
    expect(app).toMatchObject({ connector: 'slack', clientId: 'cid' });
    expect(JSON.stringify(app)).not.toContain('secret"');
  });

  it('reads and replaces the account settings', async () => {
    // With no retention of its own the account follows the service's (INLAY_LOG_RETENTION_DAYS, default 30).
    const settings = {
      allowedOrigins: ['https://app.example.com'],
      logRetentionDays: 30,
      ownLogRetention: false,
      serviceLogRetentionDays: 30,
    };
    expect(await api.settings.put({ allowedOrigins: ['https://App.Example.com'] })).toEqual(settings);
    expect(await api.settings.get()).toEqual(settings);
    // An account's own, shorter retention is kept and read back as its own.
    const own = { ...settings, logRetentionDays: 7, ownLogRetention: true };
    expect(
      await api.settings.put({ allowedOrigins: ['https://app.example.com'], logRetentionDays: 7 }),
    ).toEqual(own);
    expect(await api.settings.get()).toEqual(own);
    const longer = await api.settings
      .put({ allowedOrigins: [], logRetentionDays: 31 })
      .catch((e: unknown) => e);
    expect((longer as InlayError).status).toBe(400);
    expect(await api.settings.get()).toEqual(own);
    const err = await api.settings.put({ allowedOrigins: ['javascript:x'] }).catch((e: unknown) => e);
    expect((err as InlayError).errors[0]?.field).toBe('body.allowedOrigins[0]');
  });

  it('pages the account webhook deliveries, its filters and cursor sent as query parameters', async () => {
    // A new account has none: one empty page, and no cursor to a next one.
    expect(await api.webhookDeliveries.page({ status: 'failing', limit: 1 })).toEqual({ data: [] });
    expect(await api.webhookDeliveries.page({ webhookEndpointId: randomUUID() })).toEqual({ data: [] });
    const err = await api.webhookDeliveries.page({ cursor: 'not-a-cursor' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InlayError);
    expect((err as InlayError).status).toBe(400);
    expect((err as InlayError).errors[0]?.field).toBe('query.cursor');
  });
});

describe('providerCalls', () => {
  it('pages the provider-call log with its filters and cursor as query parameters', async () => {
    const owner = { accountId: s.accountId, userId: s.userId, connector: 'slack', kind: 'proxy' as const };
    for (const status of [200, 503, 201])
      svc.ctx.providerCalls.record(owner, {
        method: 'GET',
        path: '/api/users.list',
        status,
        ms: 12,
        bytes: 40,
      });
    const first = await api.providerCalls.list({ userId: 'alice', limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.data[0]).toMatchObject({
      connector: 'slack',
      kind: 'proxy',
      route: '/api/users.list',
      bytes: 40,
    });
    const rest = await api.providerCalls.list({ cursor: first.nextCursor, limit: 2 });
    expect(rest.data).toHaveLength(1);
    expect(rest.nextCursor).toBeUndefined();
    expect((await api.providerCalls.list({ failed: 'true' })).data.map((c) => c.status)).toEqual([503]);
    const err = await api.providerCalls.list({ kind: 'nope' as 'proxy' }).catch((e: unknown) => e);
    expect((err as InlayError).errors[0]?.field).toBe('query.kind');
  });
});

describe('errors', () => {
  it('surfaces problem+json as InlayError with every problem field', async () => {
    const err = await api.users.create({ username: 'has space' }).catch((e: unknown) => e);
    expect(isInlayError(err)).toBe(true);
    const e = err as InlayError;
    expect(e).toMatchObject({ status: 400, code: 'invalid_request', title: 'Bad Request' });
    expect(e.type).toMatch(/^https:\/\/inlay\.dev\/problems\//);
    expect(e.message).toBe(e.detail);
    expect(e.requestId).toBeTruthy();
    expect(e.problem?.status).toBe(400);
    expect(Object.keys(e.fieldErrors())).toEqual(['body.username']);
  });

  it('answers a missing object with a 404 InlayError', async () => {
    await expect(api.workflows.get(randomUUID(), { userId: 'alice' })).rejects.toMatchObject({
      name: 'InlayError',
      status: 404,
      code: 'not_found',
    });
  });

  it('rejects a bad API key with 401 and no retry loop', async () => {
    const bad = createServerClient({ baseUrl: svc.url, apiKey: 'inlay_test_nope_nope_nope_nope' });
    await expect(bad.users.list()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('reports a network failure as InlayError status 0', async () => {
    const down = createServerClient({ baseUrl: 'http://127.0.0.1:9', apiKey: s.apiKey });
    await expect(down.meta.health()).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('lists the supported versions when asked for an unknown one', async () => {
    const old = createServerClient({ baseUrl: svc.url, apiKey: s.apiKey, apiVersion: '1999-01' });
    const e = (await old.users.list().catch((x: unknown) => x)) as InlayError;
    expect(e.status).toBe(400);
    expect(e.supportedVersions).toEqual(['2025-09']);
  });

  it('triggers an installation’s webhook workflows through its secret URL', async () => {
    const { integrationId } = await api.integrations.create({ name: 'Hooks' });
    const step = randomUUID();
    const { workflowId } = await api.workflows.create({
      integrationId,
      name: 'On webhook',
      definition: {
        trigger: { type: 'webhook' },
        steps: [{ id: step, connector: 'transform', action: 'map', input: { expression: 'trigger.n * 2' } }],
      },
    });
    const inst = await api.installations.create({ userId: 'alice', workflowIds: [workflowId] });
    const [installationId, secret] = new URL(inst.webhookUrl!).pathname.split('/').slice(-2) as [
      string,
      string,
    ];
    const run = await api.runs.webhook(installationId, secret, { n: 21 });
    expect(run.message).toBe('success');
    expect(run.executionIds).toHaveLength(1);
    await expect(api.runs.webhook(installationId, 'wrong-secret', {})).rejects.toMatchObject({ status: 404 });
  });
});

import { install, publish, startUpstream, type Upstream, waitForRuns } from '@inlay/test-kit/engine';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV2 } from '@inlay/test-kit/mcp';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { testResolver } from '@inlay/test-kit/ssrf';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeSvg } from '../../src/custom-connectors/sanitize-svg.ts';
import { credentials, customConnectors, customConnectorVersions } from '../../src/store/schema.ts';

const KEY = 'acme-key-7f3e9a';

/** A declarative connector for a fake CRM at `baseUrl`: an API key in a header, two actions, one source. */
const acme = (baseUrl: string, extra: Record<string, unknown> = {}) => ({
  id: 'acme',
  name: 'Acme CRM',
  description: 'Contacts in Acme',
  category: 'crm',
  icon: 'acme',
  baseUrl,
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'x-acme-key',
    fields: [{ name: 'apiKey', label: 'API key', type: 'password', required: true, secret: true }],
  },
  test: { method: 'GET', path: '/me', label: 'email' },
  actions: [
    {
      id: 'create_contact',
      name: 'Create contact',
      description: 'Creates a contact',
      kind: 'write',
      input: {
        type: 'object',
        properties: { email: { type: 'string' }, list: { type: 'string' } },
        required: ['email'],
      },
      request: {
        method: 'POST',
        path: '/contacts',
        body: { email: '{{ input.email }}', list: '{{ input.list }}' },
      },
      output: 'contact',
    },
    {
      id: 'get_contact',
      name: 'Get contact',
      description: 'Reads a contact',
      kind: 'read',
      input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      request: { method: 'GET', path: '/contacts/{{ input.id }}' },
    },
  ],
  sources: {
    lists: {
      description: 'Mailing lists',
      request: { method: 'GET', path: '/lists' },
      items: 'lists',
      value: 'id',
      label: '{{ item.name }}',
    },
  },
  ...extra,
});

let upstream: Upstream;
let svc: Service;
let apiKey: string;
let otherKey: string;
let alice: string;

beforeAll(async () => {
  upstream = await startUpstream((req) => {
    if (req.headers['x-acme-key'] !== KEY) return { status: 401, body: { message: 'bad key' } };
    if (req.path === '/me') return { body: { email: 'ops@acme.test' } };
    if (req.path === '/lists') return { body: { lists: [{ id: 'l1', name: 'Leads' }] } };
    if (req.path === '/contacts' && req.method === 'POST')
      return { status: 201, body: { contact: { id: 'c1', ...req.body } } };
    if (req.path.startsWith('/contacts/')) return { body: { id: req.path.slice(10), email: 'a@b.test' } };
    return { status: 404, body: { message: 'no route' } };
  });
  svc = await startService({
    env: { INLAY_EGRESS_ALLOW: new URL(upstream.url).host },
    resolve: testResolver(),
  });
  ({ apiKey } = await svc.account('custom'));
  ({ apiKey: otherKey } = await svc.account('other'));
  alice = await createUser(svc, apiKey, 'alice');
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await upstream?.close();
});

const create = (body: unknown, auth = apiKey) => svc.call('POST', '/connectors', { auth, body });

describe('custom connectors: CRUD and validation', () => {
  it('creates, lists only for its account, and publishes versions', async () => {
    const r = await create(acme(upstream.url));
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      id: 'acme',
      name: 'Acme CRM',
      custom: true,
      version: 1,
      authType: 'apiKey',
      actions: [
        { id: 'create_contact', kind: 'write' },
        { id: 'get_contact', kind: 'read' },
      ],
      sources: ['lists'],
    });
    const mine = await svc.call('GET', '/connectors', { auth: apiKey });
    const listed = mine.body.data.find((c: { id: string }) => c.id === 'acme');
    expect(listed).toMatchObject({ custom: true, version: 1 });
    expect(mine.body.data.find((c: { id: string }) => c.id === 'slack').custom).toBeUndefined();
    const theirs = await svc.call('GET', '/connectors', { auth: otherKey });
    expect(theirs.body.data.map((c: { id: string }) => c.id)).not.toContain('acme');

    const icon = await fetch(listed.icon);
    expect(icon.status).toBe(200);
    expect(await icon.text()).toContain('<svg');

    expectProblem(await create(acme(upstream.url)), 409, 'conflict', 'body.id');
    // Another account may use the same id for its own connector.
    expect((await create(acme(upstream.url), otherKey)).status).toBe(201);
    expect((await svc.call('DELETE', '/connectors/acme', { auth: otherKey })).status).toBe(200);
  });

  it('refuses a built-in id, and names the field of an invalid definition', async () => {
    expectProblem(await create({ ...acme(upstream.url), id: 'slack' }), 409, 'conflict', 'body.id');
    const def = acme(upstream.url);
    (def.actions[0]!.request as { method: string }).method = 'FETCH';
    expectProblem(await create(def), 400, 'invalid_request', 'body.actions[0].request.method', 'enum');
    expectProblem(await create({ ...acme(upstream.url), id: 'Bad Id' }), 400, 'invalid_request', 'body.id');
    expectProblem(
      await create({ ...acme(upstream.url), baseUrl: 'ftp://x' }),
      400,
      'invalid_request',
      'body.baseUrl',
    );
    const badOutput = acme(upstream.url, { id: 'acme2' });
    badOutput.actions[0]!.output = '$$$(';
    expectProblem(await create(badOutput), 400, 'invalid_request', 'body.actions[0].output', 'jsonata');
    expectProblem(
      await create({ ...acme(upstream.url), id: 'acme3', icon: '<div>not an image</div>' }),
      400,
      'invalid_request',
      'body.icon',
    );
    // The egress policy: a literal private address is refused before anything is stored.
    expectProblem(
      await create({ ...acme('http://10.0.0.8/api'), id: 'acme4' }),
      422,
      'egress_denied',
      'body.baseUrl',
      'egress',
    );
    expectProblem(
      await svc.call('POST', '/connectors', {
        auth: await tokenFor(svc, apiKey, alice),
        body: acme(upstream.url),
      }),
      403,
      'forbidden',
    );
  });

  it('stores a sanitised SVG icon and serves it', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" onload="alert(1)"><script>alert(1)</script>' +
      '<a href="javascript:alert(2)"><circle r="3"/></a><use href="https://evil.example/x.svg#a"/>' +
      '<rect fill="url(https://evil.example/p)" width="2"/><path d="M0 0h24v24H0z" fill="#f00"/></svg>';
    const r = await create({ ...acme(upstream.url), id: 'pictured', icon: svg });
    expect(r.status).toBe(201);
    const served = await (await fetch(r.body.data.icon)).text();
    expect(served).toContain('<path d="M0 0h24v24H0z" fill="#f00">');
    for (const gone of ['script', 'onload', 'javascript:', 'evil.example', 'alert'])
      expect(served).not.toContain(gone);
    // The icon URL's key stands in for the account: without it (or with another) the icon is not found.
    expect((await fetch(`${svc.url}/connectors/pictured/icon.svg`)).status).toBe(404);
    expect((await fetch(`${svc.url}/connectors/pictured/icon.svg?key=${crypto.randomUUID()}`)).status).toBe(
      404,
    );
    expect((await svc.call('DELETE', '/connectors/pictured', { auth: apiKey })).status).toBe(200);
  });

  it('sanitises SVG: scripts, event handlers, javascript: and outside references go', () => {
    const out = sanitizeSvg(
      '<svg><script>x()</script><g onclick="x()"><use xlink:href="http://a.test/s.svg#i"/><image href="https://a.test/i.png"/></g><style>@import url(http://a.test/c.css)</style><linearGradient id="g"/><rect fill="url(#g)"/></svg>',
    )!;
    expect(out).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const gone of ['script', 'onclick', 'a.test', 'style', 'image']) expect(out).not.toContain(gone);
    expect(out).toContain('fill="url(#g)"');
    expect(sanitizeSvg('<p>text</p>')).toBeUndefined();
  });
});

describe('custom connectors everywhere a built-in works', () => {
  let credentialId: string;
  let workflowId: string;

  it('connects an API-key credential through its test request (account label read from it)', async () => {
    expectProblem(
      await svc.call('POST', '/credentials', {
        auth: apiKey,
        body: { userId: alice, connector: 'acme', data: { apiKey: 'wrong' } },
      }),
      422,
      'unprocessable',
      'body.data',
    );
    const r = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'acme', data: { apiKey: KEY } },
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      connector: 'acme',
      status: 'connected',
      accountLabel: 'ops@acme.test',
    });
    credentialId = r.body.data.credentialId;
    const options = await svc.call(
      'GET',
      `/connectors/acme/options/lists?userId=${alice}&credentialId=${credentialId}`,
      {
        auth: apiKey,
      },
    );
    expect(options.body).toEqual({ data: [{ value: 'l1', label: 'Leads' }] });
  });

  it('publishes, installs and runs a workflow against the fake provider', async () => {
    const stepId = crypto.randomUUID();
    const bad = await svc.call('POST', '/workflows', {
      auth: otherKey,
      body: {
        integrationId: crypto.randomUUID(),
        name: 'x',
        definition: {
          trigger: { type: 'manual' },
          steps: [{ id: stepId, connector: 'acme', action: 'create_contact', input: {} }],
          config: [],
        },
      },
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    workflowId = await publish(svc, apiKey, {
      trigger: { type: 'manual' },
      steps: [
        {
          id: stepId,
          connector: 'acme',
          action: 'create_contact',
          input: { email: '{{ trigger.email }}', list: '{{ config.list }}' },
        },
      ],
      config: [
        {
          stepId,
          name: 'list',
          displayName: 'List',
          type: 'select',
          required: true,
          options: { source: 'lists' },
        },
      ],
    });
    const listed = await svc.call('GET', `/workflows/${workflowId}?userId=${alice}`, { auth: apiKey });
    expect(listed.body.data.connectors[0]).toMatchObject({ connector: 'acme', connectorName: 'Acme CRM' });
    await install(svc, apiKey, alice, [workflowId], {
      credentialIds: { acme: credentialId },
      values: [{ workflowId, blockId: stepId, fields: [{ name: 'list', value: 'l1' }] }],
    });
    const run = await svc.call('POST', '/run/workflow', {
      auth: apiKey,
      body: { workflowId, userId: alice, data: { email: 'new@lead.test' } },
    });
    expect(run.status).toBe(200);
    const [row] = await waitForRuns(svc, run.body.executionIds);
    expect(row!.status).toBe('succeeded');
    const sent = upstream.seen.filter((s) => s.path === '/contacts' && s.method === 'POST').at(-1)!;
    expect(sent.headers['x-acme-key']).toBe(KEY);
    expect(sent.body).toEqual({ email: 'new@lead.test', list: 'l1' });
  });

  it('lists and calls its actions over MCP', async () => {
    const server = (await svc.call('POST', '/mcp-servers', { auth: apiKey, body: { name: 'agents' } })).body;
    const client = await connectV2(server.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': alice,
    });
    try {
      const all = (await client.callTool({ name: 'list_connectors_inlay', arguments: {} })) as any;
      expect(all.structuredContent.connectors.map((c: { id: string }) => c.id)).toContain('acme');
      const res = (await client.callTool({
        name: 'get_connector_resources_inlay',
        arguments: { connectorId: 'acme' },
      })) as any;
      expect(res.isError).toBeFalsy();
      expect(JSON.stringify(res.structuredContent)).toContain('create_contact');
      const call = (await client.callTool({
        name: 'execute_action_inlay',
        arguments: { connectorId: 'acme', actionId: 'get_contact', parameters: { id: 'c42' } },
      })) as any;
      expect(call.isError).toBeFalsy();
      expect(JSON.stringify(call.structuredContent)).toContain('c42');
    } finally {
      await client.close();
    }
    // Another account's server does not see it.
    const theirs = (await svc.call('POST', '/mcp-servers', { auth: otherKey, body: { name: 'agents' } }))
      .body;
    const bob = await createUser(svc, otherKey, 'bob');
    const other = await connectV2(theirs.url, { authorization: `Bearer ${otherKey}`, 'x-inlay-userid': bob });
    try {
      const all = (await other.callTool({ name: 'list_connectors_inlay', arguments: {} })) as any;
      expect(all.structuredContent.connectors.map((c: { id: string }) => c.id)).not.toContain('acme');
      const res = (await other.callTool({
        name: 'get_connector_resources_inlay',
        arguments: { connectorId: 'acme' },
      })) as any;
      expect(res.isError).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('proxies through it with the user’s credential', async () => {
    const r = await svc.call('GET', `/connectors/acme/proxy/contacts/c7?userId=${alice}`, { auth: apiKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: 'c7', email: 'a@b.test' });
    expect(upstream.seen.at(-1)!.headers['x-acme-key']).toBe(KEY);
  });

  it('answers 404 to another account exactly like a missing connector', async () => {
    const bob =
      (await svc.call('GET', '/users/bob', { auth: otherKey })).body.data?.userId ??
      (await createUser(svc, otherKey, 'bob2'));
    const missing = await svc.call('GET', `/connectors/nope/proxy/x?userId=${bob}`, { auth: otherKey });
    const theirs = await svc.call('GET', `/connectors/acme/proxy/x?userId=${bob}`, { auth: otherKey });
    expectProblem(theirs, 404, 'not_found');
    expect(theirs.body.detail).toBe(missing.body.detail);
    for (const [method, path, body] of [
      ['GET', '/connectors/acme/actions', undefined],
      ['PUT', '/connectors/acme', acme(upstream.url)],
      ['DELETE', '/connectors/acme', undefined],
      ['PUT', '/connectors/acme/oauth-app', { clientId: 'x', clientSecret: 'y' }],
    ] as const) {
      const a = await svc.call(method, path, { auth: otherKey, body });
      const b = await svc.call(method, path.replace('acme', 'nope'), {
        auth: otherKey,
        body: body && { ...body, id: 'nope' },
      });
      expectProblem(a, 404, 'not_found');
      expect(a.body.detail).toBe(b.body.detail);
    }
    expectProblem(
      await svc.call('POST', '/credentials', {
        auth: otherKey,
        body: { userId: bob, connector: 'acme', data: { apiKey: KEY } },
      }),
      422,
      'unprocessable',
      'body.connector',
    );
  });

  it('publishes a version that keeps the action ids, refuses one that drops an installed one', async () => {
    const next = acme(upstream.url, { name: 'Acme CRM 2' });
    const dropped = { ...next, actions: next.actions.filter((a) => a.id !== 'create_contact') };
    const refused = await svc.call('PUT', '/connectors/acme', { auth: apiKey, body: dropped });
    expectProblem(refused, 409, 'conflict');
    expect(refused.body.detail).toContain('create_contact');
    expectProblem(
      await svc.call('PUT', '/connectors/acme', { auth: apiKey, body: { ...next, id: 'other' } }),
      422,
      'unprocessable',
      'body.id',
    );
    const kept = await svc.call('PUT', '/connectors/acme', {
      auth: apiKey,
      body: { ...next, actions: next.actions.filter((a) => a.id !== 'get_contact') },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ name: 'Acme CRM 2', version: 2, custom: true });
    const [row] = await svc.db
      .select()
      .from(customConnectors)
      .where(eq(customConnectors.id, kept.body.data.icon.split('key=')[1]));
    expect(row!.version).toBe(2);
    const versions = await svc.db
      .select()
      .from(customConnectorVersions)
      .where(eq(customConnectorVersions.connectorId, row!.id));
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
    // The installed workflow keeps running on the new version.
    const run = await svc.call('POST', '/run/workflow', {
      auth: apiKey,
      body: { workflowId, userId: alice, data: { email: 'v2@lead.test' } },
    });
    const [done] = await waitForRuns(svc, run.body.executionIds);
    expect(done!.status).toBe('succeeded');
  });

  it('asks users to reconnect when a version sends their credentials to another host', async () => {
    const moved = acme(upstream.url.replace('127.0.0.1', 'localhost'));
    const r = await svc.call('PUT', '/connectors/acme', {
      auth: apiKey,
      body: { ...moved, actions: moved.actions.filter((a) => a.id !== 'get_contact') },
    });
    expect(r.status).toBe(200);
    const cred = await svc.call('GET', `/credentials/${credentialId}?userId=${alice}`, { auth: apiKey });
    expect(cred.body.data).toMatchObject({ status: 'needs_reconnect' });
    expect(cred.body.data.statusReason).toContain('another host');
  });

  it('refuses to delete while installed; deletes (with its credentials) once uninstalled', async () => {
    expectProblem(await svc.call('DELETE', '/connectors/acme', { auth: apiKey }), 409, 'conflict');
    const insts = await svc.call('GET', `/installations?userId=${alice}`, { auth: apiKey });
    for (const i of insts.body.data)
      expect(
        (await svc.call('DELETE', `/installations/${i.installationId}?userId=${alice}`, { auth: apiKey }))
          .status,
      ).toBe(200);
    const r = await svc.call('DELETE', '/connectors/acme', { auth: apiKey });
    expect(r.status).toBe(200);
    expect(await svc.db.select().from(credentials).where(eq(credentials.id, credentialId))).toEqual([]);
    const after = await svc.call('GET', '/connectors', { auth: apiKey });
    expect(after.body.data.map((c: { id: string }) => c.id)).not.toContain('acme');
    expectProblem(await svc.call('GET', '/connectors/acme/actions', { auth: apiKey }), 404, 'not_found');
  });
});

import { randomUUID } from 'node:crypto';
import { TestBrowser } from '@inlay/test-kit/browser';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import {
  GOOD_KEY,
  type Provider,
  providerConnectors,
  providerEgress,
  startProvider,
} from '@inlay/test-kit/providers';
import { expectProblem, ISO_MS_RE, type Service, startService, UUID_RE } from '@inlay/test-kit/service';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, installations, userWorkflows } from '../../src/store/schema.ts';

let provider: Provider;
let svc: Service;
let apiKey: string;
let alice: string;
let bob: string;
let integrationId: string;
let workflowId: string;
let otherWorkflowId: string;
const acmeStep = randomUUID();
const keyStep = randomUUID();
/** alice's credentials: acme (OAuth), two keyco; bob's keyco. */
const cred = { acme: '', keyco: '', keyco2: '', bobKeyco: '' };

const definition = {
  trigger: { type: 'event', event: 'deal.created' },
  steps: [
    { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: 'trigger' } },
    { id: acmeStep, connector: 'acme', action: 'list_projects', input: { project: '{{ config.project }}' } },
    { id: keyStep, connector: 'keyco', action: 'list_lists', input: { list: '{{ config.list }}' } },
  ],
  config: [
    {
      stepId: acmeStep,
      name: 'project',
      displayName: 'Project',
      type: 'select',
      required: true,
      options: { source: 'projects' },
    },
    {
      stepId: acmeStep,
      name: 'tags',
      displayName: 'Tags',
      type: 'multiselect',
      options: {
        values: [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
          { value: 'c', label: 'C' },
        ],
      },
    },
    { stepId: acmeStep, name: 'count', displayName: 'Count', type: 'number', required: true },
    { stepId: acmeStep, name: 'notify', displayName: 'Notify', type: 'boolean', default: false },
    { stepId: acmeStep, name: 'label', displayName: 'Label', type: 'text', required: true },
    { stepId: keyStep, name: 'list', displayName: 'List', type: 'select', options: { source: 'lists' } },
  ],
};

/** A valid install request for alice; `patch` edits it. */
const request = (over: Record<string, unknown> = {}) => ({
  userId: 'alice',
  workflowIds: [workflowId],
  credentialIds: { acme: cred.acme, keyco: cred.keyco },
  values: [
    {
      workflowId,
      blockId: acmeStep,
      fields: [
        { name: 'project', value: 'p5' },
        { name: 'tags', value: ['a', 'c'] },
        { name: 'count', value: 3 },
        { name: 'label', value: 'Deals' },
      ],
    },
    { workflowId, blockId: keyStep, fields: [{ name: 'list', value: 'l2' }] },
  ],
  ...over,
});

const withField = (name: string, value: unknown) => {
  const r = request();
  const fields = r.values[0]!.fields.filter((f) => f.name !== name);
  r.values[0]!.fields = value === undefined ? fields : [...fields, { name, value: value as never }];
  return r;
};

const stored = async () => ({
  installations: (
    await svc.db.select({ n: count() }).from(installations).where(eq(installations.userId, alice))
  )[0]!.n,
  workflows: (
    await svc.db.select({ n: count() }).from(userWorkflows).where(eq(userWorkflows.userId, alice))
  )[0]!.n,
});

async function connectAcme(userId: string): Promise<string> {
  const r = await svc.call('POST', '/credentials/oauth', {
    auth: apiKey,
    body: { userId, connector: 'acme', redirectUri: 'http://localhost:3000/done' },
  });
  await new TestBrowser().connect(r.body.authorizeUrl);
  return r.body.credentialId;
}

async function keyco(userId: string, name?: string): Promise<string> {
  const r = await svc.call('POST', '/credentials', {
    auth: apiKey,
    body: { userId, connector: 'keyco', name, data: { apiKey: GOOD_KEY } },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.data.credentialId;
}

beforeAll(async () => {
  provider = await startProvider();
  svc = await startService({ connectors: providerConnectors(provider.url), env: providerEgress(provider) });
  ({ apiKey } = await svc.account());
  alice = await createUser(svc, apiKey, 'alice');
  bob = await createUser(svc, apiKey, 'bob');
  await svc.call('PUT', '/connectors/acme/oauth-app', {
    auth: apiKey,
    body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
  });
  cred.acme = await connectAcme(alice);
  cred.keyco = await keyco(alice, 'Main');
  cred.keyco2 = await keyco(alice, 'Second');
  cred.bobKeyco = await keyco(bob);
  const integration = await svc.call('POST', '/integrations', { auth: apiKey, body: { name: 'Acme sync' } });
  integrationId = integration.body.integrationId;
  const wf = await svc.call('POST', '/workflows', {
    auth: apiKey,
    body: { integrationId, name: 'Sync deals', definition },
  });
  if (wf.status !== 201) throw new Error(wf.text);
  workflowId = wf.body.workflowId;
  const other = await svc.call('POST', '/integrations', { auth: apiKey, body: { name: 'Other' } });
  const wf2 = await svc.call('POST', '/workflows', {
    auth: apiKey,
    body: {
      integrationId: other.body.integrationId,
      name: 'Other',
      definition: {
        trigger: { type: 'manual' },
        steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '1' } }],
        config: [],
      },
    },
  });
  if (wf2.status !== 201) throw new Error(wf2.text);
  otherWorkflowId = wf2.body.workflowId;
});
afterAll(async () => {
  await svc?.close();
  await provider?.close();
});

describe('POST /installations validation: one failing case per rule, nothing stored', () => {
  const cases: [string, () => Record<string, unknown>, number, string, string][] = [
    [
      'a connector without a credential',
      () => request({ credentialIds: { acme: cred.acme } }),
      422,
      'body.credentialIds.keyco',
      'required',
    ],
    [
      'a credential of another user',
      () => request({ credentialIds: { acme: cred.acme, keyco: cred.bobKeyco } }),
      422,
      'body.credentialIds.keyco',
      'exists',
    ],
    [
      'a credential that does not exist',
      () => request({ credentialIds: { acme: cred.acme, keyco: randomUUID() } }),
      422,
      'body.credentialIds.keyco',
      'exists',
    ],
    [
      'a credential of another connector',
      () => request({ credentialIds: { acme: cred.acme, keyco: cred.acme } }),
      422,
      'body.credentialIds.keyco',
      'connector',
    ],
    [
      'a credential for a connector no step uses',
      () => request({ credentialIds: { acme: cred.acme, keyco: cred.keyco, slack: cred.keyco } }),
      422,
      'body.credentialIds.slack',
      'unused',
    ],
    [
      'a required field without a value',
      () => withField('count', undefined),
      422,
      'body.values[0].fields',
      'required',
    ],
    [
      'a blank required text',
      () => withField('label', '  '),
      422,
      'body.values[0].fields[3].value',
      'required',
    ],
    [
      'a number field given a string',
      () => withField('count', 'three'),
      422,
      'body.values[0].fields[3].value',
      'type',
    ],
    [
      'a boolean field given a number',
      () => withField('notify', 1),
      422,
      'body.values[0].fields[4].value',
      'type',
    ],
    [
      'a multiselect given a string',
      () => withField('tags', 'a'),
      422,
      'body.values[0].fields[3].value',
      'type',
    ],
    [
      'a multiselect value outside its options',
      () => withField('tags', ['a', 'z']),
      422,
      'body.values[0].fields[3].value',
      'enum',
    ],
    [
      'a select value outside the dynamic options',
      () => withField('project', 'p99'),
      422,
      'body.values[0].fields[3].value',
      'enum',
    ],
    [
      'a field name the step does not have',
      () => withField('colour', 'red'),
      422,
      'body.values[0].fields[4].name',
      'unknown_field',
    ],
    [
      'a block that is not a step with config',
      () => ({ ...request(), values: [{ workflowId, blockId: randomUUID(), fields: [] }] }),
      422,
      'body.values[0].blockId',
      'exists',
    ],
    [
      'a value for a workflow not being installed',
      () => ({ ...request(), values: [{ workflowId: randomUUID(), blockId: acmeStep, fields: [] }] }),
      422,
      'body.values[0].workflowId',
      'exists',
    ],
    [
      'a workflow that does not exist',
      () => request({ workflowIds: [randomUUID()] }),
      422,
      'body.workflowIds[0]',
      'exists',
    ],
    [
      'workflows of two integrations',
      () => request({ workflowIds: [workflowId, otherWorkflowId] }),
      422,
      'body.workflowIds[1]',
      'same_integration',
    ],
    [
      'a value of no field type at all',
      () => withField('label', { nested: true }),
      400,
      'body.values[0].fields[3].value',
      '',
    ],
    ['no workflows', () => request({ workflowIds: [] }), 400, 'body.workflowIds', ''],
    [
      'a malformed credential id',
      () => request({ credentialIds: { keyco: 'x' } }),
      400,
      'body.credentialIds.keyco',
      '',
    ],
  ];

  for (const [name, body, status, field, rule] of cases)
    it(`${status} for ${name} (${field})`, async () => {
      const before = await stored();
      const r = await svc.call('POST', '/installations', { auth: apiKey, body: body() });
      expectProblem(
        r,
        status,
        status === 400 ? 'invalid_request' : 'unprocessable',
        field,
        rule === '' ? undefined : rule,
      );
      expect(await stored()).toEqual(before);
    });

  it('needs the userId with an API key', async () => {
    const { userId: _, ...body } = request();
    expectProblem(
      await svc.call('POST', '/installations', { auth: apiKey, body }),
      400,
      'invalid_request',
      'body.userId',
      'required',
    );
  });
});

describe('installing, editing and uninstalling', () => {
  let installationId: string;

  it('creates an enabled installation in the seed shape; the workflows become installed and active', async () => {
    const r = await svc.call('POST', '/installations', { auth: apiKey, body: request() });
    expect(r.status, r.text).toBe(201);
    installationId = r.body.data.installationId;
    expect(r.body.data).toEqual({
      installationId: expect.stringMatching(UUID_RE),
      integrationId,
      userId: alice,
      workflowIds: [workflowId],
      credentialIds: { acme: cred.acme, keyco: cred.keyco },
      enabled: true,
      installedAt: expect.stringMatching(ISO_MS_RE),
      updatedAt: expect.stringMatching(ISO_MS_RE),
      webhookUrl: null,
      attention: null,
      formData: [
        {
          workflowId,
          app: 'acme',
          blockId: acmeStep,
          fields: [
            { name: 'project', displayName: 'Project', type: 'select', required: true, value: 'p5' },
            { name: 'tags', displayName: 'Tags', type: 'multiselect', required: false, value: ['a', 'c'] },
            { name: 'count', displayName: 'Count', type: 'number', required: true, value: 3 },
            { name: 'notify', displayName: 'Notify', type: 'boolean', required: false, value: false },
            { name: 'label', displayName: 'Label', type: 'text', required: true, value: 'Deals' },
          ],
        },
        {
          workflowId,
          app: 'keyco',
          blockId: keyStep,
          fields: [{ name: 'list', displayName: 'List', type: 'select', required: false, value: 'l2' }],
        },
      ],
    });
    const wf = await svc.call('GET', `/workflows/${workflowId}?userId=alice`, { auth: apiKey });
    expect(wf.body.data).toMatchObject({ installed: true, active: true });
    expect(await stored()).toEqual({ installations: 1, workflows: 1 });
    // Installing again is a conflict naming the workflow.
    expectProblem(
      await svc.call('POST', '/installations', { auth: apiKey, body: request() }),
      409,
      'conflict',
      'body.workflowIds[0]',
    );
  });

  it('PATCH turns it off and on', async () => {
    const off = await svc.call('PATCH', `/installations/${installationId}`, {
      auth: apiKey,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    expect(off.body.data.enabled).toBe(false);
    const jwt = await tokenFor(svc, apiKey, alice);
    const on = await svc.call('PATCH', `/installations/${installationId}`, {
      auth: jwt,
      body: { enabled: true },
    });
    expect(on.body.data.enabled).toBe(true);
  });

  it('PATCH checks and replaces values, and keeps the old ones when the new ones fail', async () => {
    const bad = await svc.call('PATCH', `/installations/${installationId}`, {
      auth: apiKey,
      body: { values: [{ workflowId, blockId: acmeStep, fields: [{ name: 'count', value: 'x' }] }] },
    });
    expectProblem(bad, 422, 'unprocessable', 'body.values[0].fields[0].value', 'type');
    const unchanged = await svc.call('GET', `/installations/${installationId}`, { auth: apiKey });
    expect(unchanged.body.data.formData[0].fields[2].value).toBe(3);

    const values = request().values;
    values[0]!.fields = values[0]!.fields.map((f) => (f.name === 'count' ? { ...f, value: 7 } : f));
    const ok = await svc.call('PATCH', `/installations/${installationId}`, {
      auth: apiKey,
      body: { values },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.formData[0].fields[2]).toMatchObject({ name: 'count', value: 7 });
    expect(ok.body.data.formData[1].fields[0]).toMatchObject({ name: 'list', value: 'l2' });
  });

  it('PATCH switches to another credential of the user, and refuses another user’s', async () => {
    const bad = await svc.call('PATCH', `/installations/${installationId}`, {
      auth: apiKey,
      body: { credentialIds: { acme: cred.acme, keyco: cred.bobKeyco } },
    });
    expectProblem(bad, 422, 'unprocessable', 'body.credentialIds.keyco', 'exists');
    const ok = await svc.call('PATCH', `/installations/${installationId}`, {
      auth: apiKey,
      body: { credentialIds: { acme: cred.acme, keyco: cred.keyco2 } },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.credentialIds).toEqual({ acme: cred.acme, keyco: cred.keyco2 });
    // Values survive a credential-only edit.
    expect(ok.body.data.formData[0].fields[2].value).toBe(7);
    const [row] = await svc.db.select().from(installations).where(eq(installations.id, installationId));
    expect(row!.credentialIds).toEqual({ acme: cred.acme, keyco: cred.keyco2 });
  });

  it('answers 404 to another user and another account for PATCH, DELETE and GET', async () => {
    const bobJwt = await tokenFor(svc, apiKey, bob);
    const other = await svc.account('other');
    await createUser(svc, other.apiKey, 'alice');
    const attempts = [
      svc.call('PATCH', `/installations/${installationId}`, { auth: bobJwt, body: { enabled: false } }),
      svc.call('PATCH', `/installations/${installationId}`, { auth: other.apiKey, body: { enabled: false } }),
      svc.call('PATCH', `/installations/${installationId}`, {
        auth: apiKey,
        body: { userId: 'bob', enabled: false },
      }),
      svc.call('DELETE', `/installations/${installationId}`, { auth: bobJwt }),
      svc.call('DELETE', `/installations/${installationId}`, { auth: other.apiKey }),
      svc.call('DELETE', `/installations/${installationId}?userId=alice`, { auth: other.apiKey }),
      svc.call('GET', `/installations/${installationId}`, { auth: bobJwt }),
      svc.call('POST', '/installations', { auth: other.apiKey, body: request() }),
    ];
    const replies = await Promise.all(attempts);
    for (const r of replies.slice(0, -1)) expectProblem(r, 404, 'not_found');
    // Another account does not see this account's workflows.
    expectProblem(replies.at(-1)!, 422, 'unprocessable', 'body.workflowIds[0]', 'exists');
    const still = await svc.call('GET', `/installations/${installationId}`, { auth: apiKey });
    expect(still.body.data.enabled).toBe(true);
  });

  it('DELETE uninstalls: the workflows stop listening, the credentials stay', async () => {
    const r = await svc.call('DELETE', `/installations/${installationId}?userId=alice`, { auth: apiKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Success' });
    expect(await stored()).toEqual({ installations: 0, workflows: 0 });
    const wf = await svc.call('GET', `/workflows/${workflowId}?userId=alice`, { auth: apiKey });
    expect(wf.body.data).toMatchObject({ installed: false, active: false });
    const creds = await svc.db.select().from(credentials).where(eq(credentials.userId, alice));
    expect(creds.map((c) => c.id).sort()).toEqual([cred.acme, cred.keyco, cred.keyco2].sort());
    expectProblem(
      await svc.call('GET', `/installations/${installationId}`, { auth: apiKey }),
      404,
      'not_found',
    );
  });

  it('DELETE ?deleteCredentials=true removes the installation’s credentials too', async () => {
    const jwt = await tokenFor(svc, apiKey, alice);
    const { userId: _, ...body } = request();
    const r = await svc.call('POST', '/installations', { auth: jwt, body });
    expect(r.status, r.text).toBe(201);
    // A credential in use cannot be deleted on its own.
    expectProblem(
      await svc.call('DELETE', `/credentials/${cred.keyco}`, { auth: jwt }),
      409,
      'conflict',
      'path.credentialId',
      'in_use',
    );
    const del = await svc.call(
      'DELETE',
      `/installations/${r.body.data.installationId}?deleteCredentials=true`,
      {
        auth: jwt,
      },
    );
    expect(del.status).toBe(200);
    const creds = await svc.db.select().from(credentials).where(eq(credentials.userId, alice));
    expect(creds.map((c) => c.id)).toEqual([cred.keyco2]);
    expect(await stored()).toEqual({ installations: 0, workflows: 0 });
  });
});

describe('GET /connectors/{connector}/options/{source}', () => {
  let acme: string;
  beforeAll(async () => {
    acme = await connectAcme(bob);
  });
  const url = (q: string, connector = 'acme', source = 'projects') =>
    `/connectors/${connector}/options/${source}?${q}`;

  it('lists every page of the provider list with the user’s credential', async () => {
    const before = provider.apiRequests.length;
    const r = await svc.call('GET', url(`userId=bob&credentialId=${acme}`), { auth: apiKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual(provider.projects.map((p) => ({ value: p.id, label: p.name })));
    expect(provider.apiRequests.slice(before).map((a) => a.path)).toEqual([
      '/api/projects',
      '/api/projects?cursor=2',
      '/api/projects?cursor=4',
    ]);
    const jwt = await tokenFor(svc, apiKey, bob);
    const searched = await svc.call('GET', url(`credentialId=${acme}&search=ject 4`), { auth: jwt });
    expect(searched.body.data).toEqual([{ value: 'p4', label: 'Project 4' }]);
    const lists = await svc.call('GET', url(`credentialId=${cred.bobKeyco}`, 'keyco', 'lists'), {
      auth: jwt,
    });
    expect(lists.body.data).toEqual([
      { value: 'l1', label: 'Leads' },
      { value: 'l2', label: 'Customers' },
    ]);
  });

  it('names what is wrong: a missing credential, another user’s, another connector’s, unknown sources', async () => {
    expectProblem(
      await svc.call('GET', url('userId=bob'), { auth: apiKey }),
      400,
      'invalid_request',
      'query.credentialId',
      'required',
    );
    expectProblem(
      await svc.call('GET', url('userId=bob&credentialId=nope'), { auth: apiKey }),
      400,
      'invalid_request',
      'query.credentialId',
    );
    expectProblem(
      await svc.call('GET', url(`credentialId=${acme}`), { auth: apiKey }),
      400,
      'invalid_request',
    );
    const foreign = await svc.call('GET', url(`userId=alice&credentialId=${acme}`), { auth: apiKey });
    const missing = await svc.call('GET', url(`userId=alice&credentialId=${randomUUID()}`), { auth: apiKey });
    expectProblem(foreign, 404, 'not_found');
    expect(foreign.body.message).toBe(missing.body.message);
    const other = await svc.account('other');
    await createUser(svc, other.apiKey, 'bob');
    expectProblem(
      await svc.call('GET', url(`userId=bob&credentialId=${acme}`), { auth: other.apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('GET', url(`userId=bob&credentialId=${cred.bobKeyco}`), { auth: apiKey }),
      422,
      'unprocessable',
      'query.credentialId',
      'connector',
    );
    expectProblem(
      await svc.call('GET', url(`userId=bob&credentialId=${acme}`, 'acme', 'nope'), { auth: apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('GET', url(`userId=bob&credentialId=${acme}`, 'nope'), { auth: apiKey }),
      404,
      'not_found',
    );
  });
});

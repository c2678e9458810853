import { install, publish, startUpstream, type Upstream, waitForRuns } from '@inlay/test-kit/engine';
import { createUser } from '@inlay/test-kit/fixtures';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { testResolver } from '@inlay/test-kit/ssrf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The halves the fake provider accepts: Zendesk's `{email}/token` user and a token holding `:` and non-ASCII. */
const USER = 'ops@desk.test/token';
const PASSWORD = 'tök:3n-9f';
const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`, 'utf8').toString('base64')}`;

/** A declarative help desk whose credential is an email and an API token, sent as HTTP Basic. */
const desk = (baseUrl: string) => ({
  id: 'desk',
  name: 'Desk',
  description: 'Tickets in Desk',
  category: 'support',
  icon: 'desk',
  baseUrl,
  auth: {
    type: 'basic',
    fields: [
      { name: 'email', label: 'Email', type: 'text', required: true, secret: false },
      { name: 'apiToken', label: 'API token', type: 'password', required: true, secret: true },
    ],
    username: '{email}/token',
    password: '{apiToken}',
  },
  test: { method: 'GET', path: '/users/me', label: 'user.email' },
  actions: [
    {
      id: 'create_ticket',
      name: 'Create ticket',
      description: 'Opens a ticket',
      kind: 'write',
      input: { type: 'object', properties: { subject: { type: 'string' } }, required: ['subject'] },
      request: { method: 'POST', path: '/tickets', body: { ticket: { subject: '{{ input.subject }}' } } },
      output: 'ticket',
    },
  ],
});

let upstream: Upstream;
let svc: Service;
let apiKey: string;
let alice: string;

beforeAll(async () => {
  upstream = await startUpstream((req) => {
    if (req.headers.authorization !== expected)
      return { status: 401, body: { error: 'Couldn’t authenticate you' } };
    if (req.path === '/users/me') return { body: { user: { email: 'ops@desk.test' } } };
    if (req.path === '/tickets' && req.method === 'POST')
      return { status: 201, body: { ticket: { id: 77, ...req.body.ticket } } };
    return { status: 404, body: { error: 'no route' } };
  });
  svc = await startService({
    env: { INLAY_EGRESS_ALLOW: new URL(upstream.url).host },
    resolve: testResolver(),
  });
  ({ apiKey } = await svc.account('basic'));
  alice = await createUser(svc, apiKey, 'alice');
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await upstream?.close();
});

describe('a custom connector with basic auth', () => {
  it('connects with username and password, and the provider gets Authorization: Basic of the filled halves', async () => {
    const created = await svc.call('POST', '/connectors', { auth: apiKey, body: desk(upstream.url) });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: 'desk', custom: true, authType: 'basic' });

    // A wrong token: the test request is refused by the provider, so nothing is connected.
    const before = upstream.seen.length;
    expectProblem(
      await svc.call('POST', '/credentials', {
        auth: apiKey,
        body: { userId: alice, connector: 'desk', data: { email: 'ops@desk.test', apiToken: 'wrong' } },
      }),
      422,
      'unprocessable',
      'body.data',
    );
    const refused = upstream.seen.slice(before);
    expect(refused.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /users/me']);
    expect(refused[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from(`${USER}:wrong`).toString('base64')}`,
    );

    const connected = await svc.call('POST', '/credentials', {
      auth: apiKey,
      body: { userId: alice, connector: 'desk', data: { email: 'ops@desk.test', apiToken: PASSWORD } },
    });
    expect(connected.status).toBe(201);
    expect(connected.body.data).toMatchObject({ status: 'connected', accountLabel: 'ops@desk.test' });
    expect(JSON.stringify(connected.body)).not.toContain(PASSWORD);
    const credentialId = connected.body.data.credentialId as string;

    const stepId = crypto.randomUUID();
    const workflowId = await publish(svc, apiKey, {
      trigger: { type: 'manual' },
      steps: [
        {
          id: stepId,
          connector: 'desk',
          action: 'create_ticket',
          input: { subject: '{{ trigger.subject }}' },
        },
      ],
      config: [],
    });
    await install(svc, apiKey, alice, [workflowId], { credentialIds: { desk: credentialId } });
    const run = await svc.call('POST', '/run/workflow', {
      auth: apiKey,
      body: { workflowId, userId: alice, data: { subject: 'Printer on fire' } },
    });
    expect(run.status).toBe(200);
    const [row] = await waitForRuns(svc, run.body.executionIds);
    expect(row!.status).toBe('succeeded');
    const sent = upstream.seen.filter((s) => s.method === 'POST' && s.path === '/tickets');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.authorization).toBe(expected);
    expect(sent[0]!.body).toEqual({ ticket: { subject: 'Printer on fire' } });

    // The proxy applies it the same way.
    const proxied = await svc.call('GET', `/connectors/desk/proxy/users/me?userId=${alice}`, {
      auth: apiKey,
    });
    expect(proxied.status).toBe(200);
    expect(proxied.body).toEqual({ user: { email: 'ops@desk.test' } });
    expect(upstream.seen.at(-1)!.headers.authorization).toBe(expected);
  });
});

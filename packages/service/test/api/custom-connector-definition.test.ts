import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, type Service, sharedService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A minimal declarative connector; `baseUrl` is public so the egress policy lets it be stored. */
const widgets = (extra: Record<string, unknown> = {}) => ({
  id: 'widgets',
  name: 'Widgets',
  description: 'Widgets API',
  category: 'developer',
  icon: 'widgets',
  baseUrl: 'https://api.widgets.example.com',
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'x-key',
    fields: [{ name: 'apiKey', label: 'API key', type: 'password', required: true, secret: true }],
  },
  actions: [
    {
      id: 'list_widgets',
      name: 'List widgets',
      description: 'Lists widgets',
      kind: 'read',
      input: { type: 'object', properties: {} },
      request: { method: 'GET', path: '/widgets' },
    },
  ],
  ...extra,
});

let svc: Service;
let apiKey: string;
let otherKey: string;

beforeAll(async () => {
  svc = await sharedService();
  ({ apiKey } = await svc.account('definition-reader'));
  ({ apiKey: otherKey } = await svc.account('definition-other'));
}, 60_000);

afterAll(async () => {
  await svc?.close();
});

describe('GET /connectors/{connector}/definition', () => {
  it('answers the stored definition, current or an earlier version', async () => {
    expect((await svc.call('POST', '/connectors', { auth: apiKey, body: widgets() })).status).toBe(201);
    const v1 = await svc.call('GET', '/connectors/widgets/definition', { auth: apiKey });
    expect(v1.status).toBe(200);
    expect(v1.body.data).toMatchObject({ id: 'widgets', version: 1, currentVersion: 1 });
    expect(v1.body.data.definition).toEqual(widgets());
    expect(Date.parse(v1.body.data.createdAt)).not.toBeNaN();

    const edited = widgets({ description: 'Widgets, version two' });
    expect((await svc.call('PUT', '/connectors/widgets', { auth: apiKey, body: edited })).status).toBe(200);
    const current = await svc.call('GET', '/connectors/widgets/definition', { auth: apiKey });
    expect(current.body.data).toMatchObject({ version: 2, currentVersion: 2 });
    expect(current.body.data.definition.description).toBe('Widgets, version two');
    const first = await svc.call('GET', '/connectors/widgets/definition?version=1', { auth: apiKey });
    expect(first.body.data).toMatchObject({ version: 1, currentVersion: 2 });
    expect(first.body.data.definition.description).toBe('Widgets API');

    expectProblem(
      await svc.call('GET', '/connectors/widgets/definition?version=3', { auth: apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('GET', '/connectors/widgets/definition?version=two', { auth: apiKey }),
      400,
      'invalid_request',
      'query.version',
    );
  });

  it('answers the icon as stored: sanitised SVG', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><script>alert(1)</script><path d="M0 0h24v24H0z"/></svg>';
    const body = widgets({ id: 'pictured', icon: svg });
    expect((await svc.call('POST', '/connectors', { auth: apiKey, body })).status).toBe(201);
    const r = await svc.call('GET', '/connectors/pictured/definition', { auth: apiKey });
    expect(r.body.data.definition.icon).toContain('<path d="M0 0h24v24H0z"');
    expect(r.body.data.definition.icon).not.toContain('script');
  });

  it("answers 404 for another account's connector exactly like a missing one, and for a built-in", async () => {
    const theirs = await svc.call('GET', '/connectors/widgets/definition', { auth: otherKey });
    const missing = await svc.call('GET', '/connectors/nope/definition', { auth: otherKey });
    expectProblem(theirs, 404, 'not_found');
    expect(theirs.body.detail).toBe(missing.body.detail);
    expectProblem(await svc.call('GET', '/connectors/slack/definition', { auth: apiKey }), 404, 'not_found');
  });

  it('needs the API key: a user token is refused', async () => {
    const alice = await createUser(svc, apiKey, 'def-alice');
    expectProblem(
      await svc.call('GET', '/connectors/widgets/definition', { auth: await tokenFor(svc, apiKey, alice) }),
      403,
      'forbidden',
    );
  });
});

import { randomUUID } from 'node:crypto';
import { connectorUuid } from '@inlay/connectors';
import { createUser, installDirect, seedAccount, slackDefinition, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, ISO_MS_RE, type Service, sharedService, UUID_RE } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowVersions } from '../../src/store/schema.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc);
});
afterAll(() => svc?.close());

describe('GET /workflows', () => {
  it('lists the account’s workflows with every seed field typed', async () => {
    const r = await svc.call('GET', `/workflows?userId=${s.userId}`, { auth: s.apiKey });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    const wf = r.body.data[0];
    expect(wf).toMatchObject({
      workflowId: s.workflowId,
      name: 'Post new deals to Slack',
      integrationId: s.integrationId,
      integrationName: 'Slack alerts',
      version: 1,
      installed: false,
      active: false,
      installationId: null,
      trigger: { type: 'event', event: 'deal.created' },
    });
    expect(wf.workflowId).toMatch(UUID_RE);
    expect(wf.createdAt).toMatch(ISO_MS_RE);
    expect(wf.updatedAt).toMatch(ISO_MS_RE);
    expect(wf.config).toEqual([expect.objectContaining({ name: 'channel', type: 'select', required: true })]);
  });

  it('lists each connector once, without transform and delay, with a stable UUID and an absolute icon URL', async () => {
    const wf = (await svc.call('GET', `/workflows?userId=${s.userId}`, { auth: s.apiKey })).body.data[0];
    expect(wf.connectors).toEqual([
      {
        connectorName: 'Slack',
        connectorId: connectorUuid('slack'),
        connector: 'slack',
        icon: `${svc.url}/connectors/slack/icon.svg`,
      },
      {
        connectorName: 'HTTP',
        connectorId: connectorUuid('http'),
        connector: 'http',
        icon: `${svc.url}/connectors/http/icon.svg`,
      },
    ]);
    expect(connectorUuid('slack')).toMatch(UUID_RE);
    const icon = await fetch(wf.connectors[0].icon);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    expect(await icon.text()).toContain('<svg');
  });

  it('shows installed and active for the given user only', async () => {
    const other = await createUser(svc, s.apiKey, 'installer');
    const installationId = await installDirect(svc.db, { ...s, userId: other });
    const forOther = (await svc.call('GET', `/workflows?userId=installer`, { auth: s.apiKey })).body.data[0];
    expect(forOther).toMatchObject({ installed: true, active: true, installationId, installedVersion: 1 });
    const forAlice = (await svc.call('GET', `/workflows?userId=${s.userId}`, { auth: s.apiKey })).body
      .data[0];
    expect(forAlice).toMatchObject({ installed: false, active: false });
    const deactivate = await svc.call('PUT', '/workflows/deactivate', {
      auth: s.apiKey,
      body: { userId: other, workflowId: s.workflowId },
    });
    expect(deactivate.body).toEqual({ message: 'Success' });
    expect(
      (await svc.call('GET', `/workflows/${s.workflowId}?userId=${other}`, { auth: s.apiKey })).body.data,
    ).toMatchObject({ installed: true, active: false });
    await svc.call('PUT', '/workflows/activate', {
      auth: s.apiKey,
      body: { userId: other, workflowId: s.workflowId },
    });
    expect(
      (await svc.call('GET', `/workflows/${s.workflowId}?userId=${other}`, { auth: s.apiKey })).body.data
        .active,
    ).toBe(true);
  });

  it('activating a workflow the user has not installed is a 404', async () => {
    expectProblem(
      await svc.call('PUT', '/workflows/activate', {
        auth: s.apiKey,
        body: { userId: s.userId, workflowId: s.workflowId },
      }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('PUT', '/workflows/activate', { auth: s.apiKey, body: { userId: s.userId } }),
      400,
      'invalid_request',
      'body.workflowId',
      'required',
    );
  });

  it('requires userId with an API key', async () => {
    expectProblem(
      await svc.call('GET', '/workflows', { auth: s.apiKey }),
      400,
      'invalid_request',
      'query.userId',
      'required',
    );
  });

  it('lists the account’s workflows without a user at /account/workflows, and only the account’s', async () => {
    const r = await svc.call('GET', '/account/workflows', { auth: s.apiKey });
    expect(r.status).toBe(200);
    expect(r.body.data.map((w: { workflowId: string }) => w.workflowId)).toContain(s.workflowId);
    expect(r.body.data.every((w: { installed: boolean }) => !w.installed)).toBe(true);
    const other = await svc.account('Other');
    expect((await svc.call('GET', '/account/workflows', { auth: other.apiKey })).body.data).toEqual([]);
    const jwt = await tokenFor(svc, s.apiKey, s.userId);
    expect((await svc.call('GET', '/account/workflows', { auth: jwt })).status).toBe(403);
    expectProblem(
      await svc.call('GET', '/account/workflows?integrationId=nope', { auth: s.apiKey }),
      400,
      'invalid_request',
      'query.integrationId',
    );
  });

  it('lets a JWT see the list for its own user', async () => {
    const jwt = await tokenFor(svc, s.apiKey, s.userId);
    const r = await svc.call('GET', '/workflows', { auth: jwt });
    expect(r.body.data.map((w: { workflowId: string }) => w.workflowId)).toEqual([s.workflowId]);
  });
});

describe('authoring', () => {
  it('publishes a new version on each PUT and keeps the old ones', async () => {
    const def = slackDefinition();
    const r = await svc.call('PUT', `/workflows/${s.workflowId}`, {
      auth: s.apiKey,
      body: { definition: def, name: 'Renamed' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ workflowId: s.workflowId, version: 2 });
    const r3 = await svc.call('PUT', `/workflows/${s.workflowId}`, {
      auth: s.apiKey,
      body: { definition: def },
    });
    expect(r3.body.version).toBe(3);
    const rows = await svc.db
      .select()
      .from(workflowVersions)
      .where(eq(workflowVersions.workflowId, s.workflowId));
    expect(rows.map((v) => v.version).sort()).toEqual([1, 2, 3]);
    const wf = (await svc.call('GET', `/workflows/${s.workflowId}?userId=${s.userId}`, { auth: s.apiKey }))
      .body.data;
    expect(wf).toMatchObject({ version: 3, name: 'Renamed' });
    const defn = await svc.call('GET', `/workflows/${s.workflowId}/definition`, { auth: s.apiKey });
    expect(defn.body).toMatchObject({
      workflowId: s.workflowId,
      version: 3,
      definition: { trigger: def.trigger },
    });
    // Earlier versions stay readable by number; one past the current is a 404, a bad number a 400.
    const v1 = await svc.call('GET', `/workflows/${s.workflowId}/definition?version=1`, { auth: s.apiKey });
    expect(v1.status).toBe(200);
    expect(v1.body.version).toBe(1);
    expect(v1.body.definition).toEqual(rows.find((v) => v.version === 1)!.definition);
    expectProblem(
      await svc.call('GET', `/workflows/${s.workflowId}/definition?version=4`, { auth: s.apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('GET', `/workflows/${s.workflowId}/definition?version=0`, { auth: s.apiKey }),
      400,
      'invalid_request',
      'query.version',
    );
  });

  it('serves a definition back with its keys in the order they were sent, on create and on publish', async () => {
    // Keys in an order neither the schema nor jsonb (shorter keys first) would keep.
    const id = randomUUID();
    const typed = (expression: string) => ({
      config: [],
      trigger: { type: 'manual' },
      steps: [{ input: { expression }, action: 'map', connector: 'transform', id }],
    });
    const created = await svc.call('POST', '/workflows', {
      auth: s.apiKey,
      body: { integrationId: s.integrationId, name: 'Typed', definition: typed('{"b": 2, "a": 1}') },
    });
    expect(created.status).toBe(201);
    const read = async (version?: number) =>
      (
        await svc.call(
          'GET',
          `/workflows/${created.body.workflowId}/definition${version ? `?version=${version}` : ''}`,
          { auth: s.apiKey },
        )
      ).body.definition;
    const first = typed('{"b": 2, "a": 1}');
    expect(JSON.stringify(await read())).toBe(JSON.stringify(first));
    const second = typed('$');
    const put = await svc.call('PUT', `/workflows/${created.body.workflowId}`, {
      auth: s.apiKey,
      body: { definition: second },
    });
    expect(put.body.version).toBe(2);
    expect(JSON.stringify(await read())).toBe(JSON.stringify(second));
    expect(JSON.stringify(await read(1))).toBe(JSON.stringify(first));
    await svc.call('DELETE', `/workflows/${created.body.workflowId}`, { auth: s.apiKey });
  });

  it('rejects definitions that name unknown connectors, actions or sources with 422', async () => {
    const def = slackDefinition();
    const bad = (mut: (d: any) => void) => {
      const d = structuredClone(def) as any;
      mut(d);
      return svc.call('POST', '/workflows', {
        auth: s.apiKey,
        body: { integrationId: s.integrationId, name: 'x', definition: d },
      });
    };
    expectProblem(
      await bad((d) => (d.steps[1].connector = 'nope')),
      422,
      'unprocessable',
      'body.definition.steps[1].connector',
      'exists',
    );
    expectProblem(
      await bad((d) => (d.steps[1].action = 'nope')),
      422,
      'unprocessable',
      'body.definition.steps[1].action',
      'exists',
    );
    expectProblem(
      await bad((d) => (d.config[0].options.source = 'nope')),
      422,
      'unprocessable',
      'body.definition.config[0].options.source',
      'exists',
    );
  });

  it('refuses every problem of a definition at once, one error per field in words', async () => {
    const def = slackDefinition() as any;
    def.steps[1].connector = 'nope';
    def.steps[3].action = 'nope';
    def.steps[0].input.expression = '{"a": ';
    def.steps[4].input.channel = '{{ config.channel';
    def.steps.push({ ...def.steps[0], id: randomUUID(), input: { expression: '(' } });
    const r = await svc.call('PUT', `/workflows/${s.workflowId}`, {
      auth: s.apiKey,
      body: { definition: def },
    });
    expectProblem(r, 422, 'unprocessable');
    const fields = r.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual([
      'body.definition.steps[4].input.channel',
      'body.definition.steps[0].input.expression',
      'body.definition.steps[1].connector',
      'body.definition.steps[3].action',
      'body.definition.steps[5].input.expression',
    ]);
    for (const e of r.body.errors) expect(e.message).not.toMatch(/^Invalid|\n/);
    expect(r.body.detail.split('; ')).toHaveLength(5);
  });

  it('words a malformed definition’s errors for a reader, one per field', async () => {
    const def = slackDefinition() as any;
    const r = await svc.call('PUT', `/workflows/${s.workflowId}`, {
      auth: s.apiKey,
      body: {
        definition: {
          ...def,
          trigger: { type: 'manul' },
          summary: '',
          steps: [{ ...def.steps[0], id: 'x', input: 5 }],
        },
        name: 7,
      },
    });
    expectProblem(r, 400, 'invalid_request');
    expect(r.body.errors).toEqual([
      {
        field: 'body.definition.trigger.type',
        rule: 'type',
        message: 'must be one of "manual", "event", "webhook", "schedule", "app"',
      },
      { field: 'body.definition.summary', rule: 'min', message: 'needs at least 1 character' },
      { field: 'body.definition.steps[0].id', rule: 'format', message: 'must be a UUID' },
      { field: 'body.definition.steps[0].input', rule: 'type', message: 'must be an object' },
      { field: 'body.name', rule: 'type', message: 'must be a string' },
    ]);
    expect(JSON.stringify(r.body.errors)).not.toMatch(/Invalid|Too small|expected string/);
  });

  it('refuses invalid JSONata with 422 naming the field, on publish and on update, writing nothing', async () => {
    const def = slackDefinition() as any;
    const versions = async () =>
      (await svc.db.select().from(workflowVersions).where(eq(workflowVersions.workflowId, s.workflowId)))
        .length;
    const before = await versions();
    const withExpression = (expression: string) => {
      const d = structuredClone(def);
      d.steps[0].input.expression = expression;
      return d;
    };
    const publish = (definition: unknown) =>
      svc.call('POST', '/workflows', {
        auth: s.apiKey,
        body: { integrationId: s.integrationId, name: 'x', definition },
      });
    expectProblem(
      await publish(withExpression('foo(')),
      422,
      'unprocessable',
      'body.definition.steps[0].input.expression',
      'jsonata',
    );
    expectProblem(
      await svc.call('PUT', `/workflows/${s.workflowId}`, {
        auth: s.apiKey,
        body: { definition: withExpression('$sum(trigger.values') },
      }),
      422,
      'unprocessable',
      'body.definition.steps[0].input.expression',
      'jsonata',
    );
    const template = structuredClone(def);
    template.steps[1].input.text = 'Deal {{ foo( }}';
    expectProblem(
      await publish(template),
      422,
      'unprocessable',
      'body.definition.steps[1].input.text',
      'template',
    );
    // Unbalanced braces: a {{ never closed, or a }} never opened, beside a template.
    for (const [text, reason] of [
      ['{{{', 'a {{ has no }} to close it'],
      ['Deal {{ trigger.name', 'a {{ has no }} to close it'],
      ['{{ trigger.name }} and {{ more', 'a {{ has no }} to close it'],
      ['{{ trigger.name }} }}', 'a }} closes no {{'],
    ]) {
      const unbalanced = structuredClone(def);
      unbalanced.steps[1].input.text = text;
      const r = await publish(unbalanced);
      expectProblem(r, 422, 'unprocessable', 'body.definition.steps[1].input.text', 'template');
      expect(r.body.errors[0].message, text).toBe(reason);
    }
    // Text with no template is text, braces and all; a lone { beside a template is text too.
    for (const text of ['Code: {"a":{"b":1}}', 'Deal {{ trigger.name }} {']) {
      const plain = structuredClone(def);
      plain.steps[1].input.text = text;
      expect((await publish(plain)).status, text).toBe(201);
    }
    // An expression a template builds is known only at run time; its template must still compile.
    expect((await publish(withExpression('{{ trigger.formula }}'))).status).toBe(201);
    expect(await versions()).toBe(before);
  });

  it('looks names up as own properties: prototype names are a 4xx at publish, never a 500 later', async () => {
    const def = slackDefinition();
    const bad = (mut: (d: any) => void) => {
      const d = structuredClone(def) as any;
      mut(d);
      return svc.call('POST', '/workflows', {
        auth: s.apiKey,
        body: { integrationId: s.integrationId, name: 'x', definition: d },
      });
    };
    expectProblem(
      await bad((d) => (d.config[0].options.source = 'constructor')),
      422,
      'unprocessable',
      'body.definition.config[0].options.source',
      'exists',
    );
    expectProblem(
      await bad((d) => (d.steps[1].connector = 'constructor')),
      422,
      'unprocessable',
      'body.definition.steps[1].connector',
      'exists',
    );
    expectProblem(
      await bad((d) => (d.steps[1].action = 'constructor')),
      422,
      'unprocessable',
      'body.definition.steps[1].action',
      'exists',
    );
    expectProblem(
      await bad((d) => (d.steps[1].action = '__proto__')),
      400,
      'invalid_request',
      'body.definition.steps[1].action',
    );
    expectProblem(
      await bad((d) => (d.trigger = { type: 'event', event: '__proto__{}' })),
      400,
      'invalid_request',
      'body.definition.trigger.event',
    );
    // An option source route and an install naming prototype properties answer 4xx too.
    expectProblem(
      await svc.call('GET', '/connectors/slack/options/constructor', { auth: s.apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('GET', '/connectors/__proto__/actions', { auth: s.apiKey }),
      404,
      'not_found',
    );
    const steps = (await svc.call('GET', `/workflows/${s.workflowId}/definition`, { auth: s.apiKey })).body
      .definition.steps;
    const install = await svc.call('POST', '/installations', {
      auth: s.apiKey,
      body: {
        userId: s.userId,
        workflowIds: [s.workflowId],
        credentialIds: { constructor: randomUUID(), __proto__: randomUUID() },
        values: [
          { workflowId: s.workflowId, blockId: steps[1].id, fields: [{ name: 'toString', value: 'x' }] },
        ],
      },
    });
    expect(install.status).toBe(422);
    expect(install.headers.get('content-type')).toContain('application/problem+json');
    const fields = install.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toContain('body.credentialIds.constructor');
    expect(fields).toContain('body.values[0].fields[0].name');
  });

  it('rejects malformed definitions with 400 naming the field', async () => {
    const def = slackDefinition() as any;
    const post = (definition: unknown, extra = {}) =>
      svc.call('POST', '/workflows', {
        auth: s.apiKey,
        body: { integrationId: s.integrationId, name: 'x', definition, ...extra },
      });
    expectProblem(
      await post({ ...def, trigger: { type: 'carrier-pigeon' } }),
      400,
      'invalid_request',
      'body.definition.trigger.type',
    );
    expectProblem(await post({ ...def, steps: [] }), 400, 'invalid_request', 'body.definition.steps', 'min');
    expectProblem(
      await post({ ...def, steps: [{ ...def.steps[0], id: 'x' }] }),
      400,
      'invalid_request',
      'body.definition.steps[0].id',
      'format',
    );
    expectProblem(
      await post({ ...def, config: [{ ...def.config[0], stepId: randomUUID() }] }),
      400,
      'invalid_request',
      'body.definition.config[0].stepId',
    );
    expectProblem(
      await post(def, { integrationId: randomUUID() }),
      422,
      'unprocessable',
      'body.integrationId',
      'exists',
    );
  });

  it('keeps authoring to API keys', async () => {
    const jwt = await tokenFor(svc, s.apiKey, s.userId);
    expectProblem(
      await svc.call('POST', '/integrations', { auth: jwt, body: { name: 'x' } }),
      403,
      'forbidden',
    );
    expectProblem(
      await svc.call('PUT', `/workflows/${s.workflowId}`, {
        auth: jwt,
        body: { definition: slackDefinition() },
      }),
      403,
      'forbidden',
    );
  });
});

describe('isolation', () => {
  it('answers 404 for another account’s workflow, exactly like a missing one', async () => {
    const other = await seedAccount(svc, { username: 'zed' });
    const foreign = await svc.call('GET', `/workflows/${s.workflowId}?userId=${other.userId}`, {
      auth: other.apiKey,
    });
    const missing = await svc.call('GET', `/workflows/${randomUUID()}?userId=${other.userId}`, {
      auth: other.apiKey,
    });
    expectProblem(foreign, 404, 'not_found');
    expect(foreign.body.message).toBe(missing.body.message);
    expectProblem(
      await svc.call('PUT', `/workflows/${s.workflowId}`, {
        auth: other.apiKey,
        body: { definition: slackDefinition() },
      }),
      404,
      'not_found',
    );
    expectProblem(
      await svc.call('GET', `/workflows?userId=${s.userId}`, { auth: other.apiKey }),
      404,
      'not_found',
    );
    const list = await svc.call('GET', `/workflows?userId=${other.userId}`, { auth: other.apiKey });
    expect(list.body.data.map((w: { workflowId: string }) => w.workflowId)).toEqual([other.workflowId]);
  });
});

import { compileDeclarative } from '@inlay/connectors';
import { DeclarativeConnector } from '@inlay/contract';
import { readFixture } from '@inlay/test-kit/fixture-files';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, type Service, sharedService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real documents the converter's own tests import (see that folder's README for their sources).
const fixture = (name: string) => readFixture(`openapi/${name}`);

let svc: Service;
let apiKey: string;
beforeAll(async () => {
  svc = await sharedService();
  ({ apiKey } = await svc.account());
});
afterAll(() => svc?.close());

const post = (body: unknown, auth = apiKey) => svc.call('POST', '/connectors/import', { auth, body });

const petstore = {
  openapi: '3.1.0',
  info: { title: 'Pet store', version: '1' },
  servers: [{ url: 'https://pets.example.com/v1' }],
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  security: [{ bearer: [] }],
  paths: {
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        summary: 'Get a pet',
        parameters: [
          { name: 'petId', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: { 200: { description: 'ok' } },
      },
    },
  },
};

describe('POST /connectors/import', () => {
  it('drafts a connector from a Swagger 2.0 document sent as text, with warnings', async () => {
    const r = await post({ document: fixture('netlify.swagger.json.gz'), id: 'netlify' });
    expect(r.status, r.text).toBe(200);
    const { definition, warnings } = r.body.data;
    expect(definition.actions).toHaveLength(181);
    expect(definition).toMatchObject({
      id: 'netlify',
      name: "Netlify's API documentation",
      baseUrl: 'https://api.netlify.com/api/v1',
    });
    expect(DeclarativeConnector.safeParse(definition).success).toBe(true);
    expect(compileDeclarative(DeclarativeConnector.parse(definition)).actions).toHaveLength(181);
    expect(warnings).toContainEqual({
      operation: 'createSiteBuild',
      message: 'multipart form body (zip) was dropped: only JSON and URL-encoded bodies are sent',
    });
  }, 120_000);

  it('takes an object document, a name and a list of operations', async () => {
    const r = await post({
      document: petstore,
      id: 'pets',
      name: 'Pets',
      category: 'ecommerce',
      operations: ['getPet'],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({
      definition: {
        id: 'pets',
        name: 'Pets',
        description: 'Pet store',
        category: 'ecommerce',
        icon: 'pets',
        baseUrl: 'https://pets.example.com/v1',
        auth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          format: 'Bearer {token}',
          fields: [{ name: 'token', label: 'Token', type: 'password', required: true, secret: true }],
        },
        actions: [
          {
            id: 'get_pet',
            name: 'Get a pet',
            description: 'Get a pet',
            kind: 'read',
            input: { type: 'object', properties: { petId: { type: 'integer' } }, required: ['petId'] },
            request: { method: 'GET', path: '/pets/{{ $encodeUrlComponent($string(input.`petId`)) }}' },
          },
        ],
      },
      warnings: [
        { operation: 'getPet', message: 'cookie parameter "session" was dropped: cookies are not sent' },
      ],
    });
  });

  it('answers 4xx naming the field and the rule', async () => {
    expectProblem(await post({ document: petstore }), 400, 'invalid_request', 'body.id', 'required');
    expectProblem(
      await post({ document: petstore, id: 'Bad Id' }),
      400,
      'invalid_request',
      'body.id',
      'format',
    );
    expectProblem(await post({ document: 42, id: 'x' }), 400, 'invalid_request', 'body.document', 'type');
    expectProblem(
      await post({ document: petstore, id: 'x', extra: 1 }),
      400,
      'invalid_request',
      'body.extra',
      'unknown_field',
    );
    expectProblem(await post({ document: 'a: [', id: 'x' }), 422, 'unprocessable', 'body.document', 'yaml');
    expectProblem(
      await post({ document: { paths: {} }, id: 'x' }),
      422,
      'unprocessable',
      'body.document.openapi',
      'required',
    );
    expectProblem(
      await post({ document: petstore, id: 'x', operations: ['nope'] }),
      422,
      'unprocessable',
      'body.operations[0]',
      'unknown_operation',
    );
    expectProblem(
      await post({ document: { ...petstore, servers: [{ url: '/v1' }] }, id: 'x' }),
      422,
      'unprocessable',
      'body.baseUrl',
      'required',
    );
  });

  it('refuses a $ref to a URL without fetching it', async () => {
    const doc = structuredClone(petstore) as any;
    doc.paths['/pets/{petId}'].get.responses['200'] = { $ref: 'https://attacker.example/r.json' };
    const r = await post({ document: doc, id: 'x' });
    expectProblem(
      r,
      422,
      'unprocessable',
      'body.document.paths./pets/{petId}.get.responses.200.$ref',
      'external_ref',
    );
  });

  it("?create=true creates the draft as one of the account's connectors", async () => {
    const r = await svc.call('POST', '/connectors/import?create=true', {
      auth: apiKey,
      body: { document: petstore, id: 'pets-live' },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data.definition.id).toBe('pets-live');
    expect(r.body.data.connector).toMatchObject({
      id: 'pets-live',
      name: 'Pet store',
      custom: true,
      version: 1,
    });
    expect(r.body.data.connector.actions).toEqual([{ id: 'get_pet', name: 'Get a pet', kind: 'read' }]);
    const listed = await svc.call('GET', '/connectors', { auth: apiKey });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain('pets-live');
    // Its actions run like a built-in's: the catalog lists them with their input schema.
    const actions = await svc.call('GET', '/connectors/pets-live/actions', { auth: apiKey });
    expect(actions.status, actions.text).toBe(200);
    expect(actions.body.data[0]).toMatchObject({ id: 'get_pet' });
    const again = await svc.call('POST', '/connectors/import?create=true', {
      auth: apiKey,
      body: { document: petstore, id: 'pets-live' },
    });
    expectProblem(again, 409, 'conflict', 'body.id', 'unique');
    const builtIn = await svc.call('POST', '/connectors/import?create=true', {
      auth: apiKey,
      body: { document: petstore, id: 'slack' },
    });
    expectProblem(builtIn, 409, 'conflict', 'body.id', 'unique');
    // Without create, nothing is stored.
    await post({ document: petstore, id: 'pets-draft' });
    const after = await svc.call('GET', '/connectors', { auth: apiKey });
    expect(after.body.data.map((c: { id: string }) => c.id)).not.toContain('pets-draft');
    expectProblem(
      await svc.call('POST', '/connectors/import?create=yes', {
        auth: apiKey,
        body: { document: petstore, id: 'x' },
      }),
      400,
      'invalid_request',
      'query.create',
      'enum',
    );
  });

  it('needs the API key', async () => {
    const userId = await createUser(svc, apiKey, 'importer');
    const jwt = await tokenFor(svc, apiKey, userId);
    expectProblem(await post({ document: petstore, id: 'x' }, jwt), 403, 'forbidden');
    expectProblem(await post({ document: petstore, id: 'x' }, 'nope'), 401, 'unauthorized');
  });
});

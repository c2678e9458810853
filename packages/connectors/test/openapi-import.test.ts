import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeclarativeConnector } from '@inlay/contract';
import { readFixture } from '@inlay/test-kit/fixture-files';
import { startProvider } from '@inlay/test-kit/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorRuntime, compileDeclarative, importOpenApi, OpenApiImportError } from '../src/index.ts';

const fixture = (name: string) => readFixture(`openapi/${name}`);

// Real providers' documents, shipped in npm packages (see fixtures/openapi/README.md).
const FIXTURES = [
  { file: 'netlify.swagger.json.gz', id: 'netlify', spec: 'Swagger 2.0 (JSON text)', operations: 181 },
  { file: 'blockfrost.openapi.yaml.gz', id: 'blockfrost', spec: 'OpenAPI 3.0 (YAML text)', operations: 129 },
  { file: 'readme.openapi.json.gz', id: 'readme', spec: 'OpenAPI 3.1 (object)', operations: 54 },
];

describe('OpenAPI import of real documents', () => {
  const drafts = new Map<string, Awaited<ReturnType<typeof importOpenApi>>>();
  beforeAll(async () => {
    for (const f of FIXTURES) {
      const text = fixture(f.file);
      drafts.set(f.id, await importOpenApi(f.id === 'readme' ? JSON.parse(text) : text, { id: f.id }));
    }
  }, 240_000);

  it.each(FIXTURES)('$id ($spec): every operation becomes a valid, compiling action', (f) => {
    const { definition } = drafts.get(f.id)!;
    expect(definition.actions).toHaveLength(f.operations);
    // The draft is what POST /connectors takes: the schema accepts it and the runtime compiles each action.
    expect(DeclarativeConnector.safeParse(definition).success).toBe(true);
    const compiled = compileDeclarative(definition);
    expect(compiled.actions.map((a) => a.id)).toEqual(definition.actions.map((a) => a.id));
    expect(new Set(compiled.actions.map((a) => a.id)).size).toBe(f.operations);
  });

  it('imports at least 100 operations in total, none invalid', () => {
    const total = [...drafts.values()].reduce((n, d) => n + d.definition.actions.length, 0);
    expect(total).toBe(364);
  });

  it('maps servers, Swagger hosts and security schemes', () => {
    const netlify = drafts.get('netlify')!;
    expect(netlify.definition.baseUrl).toBe('https://api.netlify.com/api/v1');
    // Netlify declares only the implicit OAuth flow, which gives no token endpoint.
    expect(netlify.definition.auth).toEqual({ type: 'none' });
    expect(netlify.warnings.map((w) => w.message)).toContain(
      'Security scheme "netlifyAuth" was dropped: OAuth 2.0 without the authorization code flow is not supported (implicit)',
    );
    const blockfrost = drafts.get('blockfrost')!.definition;
    expect(blockfrost.baseUrl).toBe('https://cardano-mainnet.blockfrost.io/api/v0');
    expect(blockfrost.auth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'project_id',
      format: '{apiKey}',
    });
    const readme = drafts.get('readme')!.definition;
    expect(readme.baseUrl).toBe('https://api.readme.com/v2');
    expect(readme.auth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      format: 'Bearer {token}',
    });
    expect(readme.name).toBe('ReadMe API');
  });

  it('turns operations into ids, inputs and request templates', () => {
    const netlify = drafts.get('netlify')!.definition;
    const getSite = netlify.actions.find((a) => a.id === 'get_site')!;
    expect(getSite.kind).toBe('read');
    expect(getSite.request).toMatchObject({
      method: 'GET',
      path: '/sites/{{ $encodeUrlComponent($string(input.`site_id`)) }}',
    });
    expect(getSite.input.required).toEqual(['site_id']);
    // No operationId: an id from the method and path, with a warning naming the operation.
    const blockfrost = drafts.get('blockfrost')!;
    const rewards = blockfrost.definition.actions.find(
      (a) => a.id === 'get_accounts_by_stake_address_rewards',
    );
    expect(rewards?.request.query).toMatchObject({
      page: '{{ input.`page` }}',
      order: '{{ input.`order` }}',
    });
    expect(blockfrost.warnings).toContainEqual({
      operation: 'GET /accounts/{stake_address}/rewards',
      message:
        'it has no operationId: its action id "get_accounts_by_stake_address_rewards" was made from the method and path',
    });
  });

  it('names each operation and what was dropped', () => {
    const messages = drafts.get('readme')!.warnings.filter((w) => w.message.includes('multipart'));
    expect(messages.length).toBeGreaterThan(0);
    for (const w of messages) expect(w.operation).toMatch(/\w/);
    expect(drafts.get('netlify')!.warnings).toEqual(
      expect.arrayContaining([
        {
          operation: 'createSiteBuild',
          message: 'multipart form body (zip) was dropped: only JSON and URL-encoded bodies are sent',
        },
        {
          operation: 'uploadDeployFunction',
          message:
            'request body (application/octet-stream) was dropped: only JSON and URL-encoded bodies are sent',
        },
      ]),
    );
  });

  it('restricts the import to the listed operations', async () => {
    const { definition } = await importOpenApi(fixture('netlify.swagger.json.gz'), {
      id: 'netlify',
      name: 'Netlify (sites)',
      operations: ['listSites', 'getSite', 'createSiteDeploy'],
    });
    expect(definition.name).toBe('Netlify (sites)');
    expect(definition.actions.map((a) => a.id)).toEqual(['list_sites', 'get_site', 'create_site_deploy']);
  }, 120_000);
});

describe('an imported action runs', () => {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  beforeAll(async () => {
    provider = await startProvider({
      'POST /projects/my%20docs/apikeys': (r) => ({
        status: 201,
        body: { label: r.body.label, token: 'rdme_x' },
      }),
      'GET /accounts/stake1u9/rewards': (r) => ({ body: [{ epoch: 215, page: r.query.get('page') }] }),
      'POST /store/pets/7/tags': (r) => ({ body: { got: r.body, trace: r.headers['x-trace-id'] ?? null } }),
      'GET /store/pets': (r) => ({
        body: { tags: r.query.getAll('tags'), ids: r.query.getAll('ids'), limit: r.query.get('limit') },
      }),
    });
  });
  afterAll(() => provider.close());

  it('ReadMe create_api_key: path encoded, JSON body from the input, bearer token from the credential', async () => {
    const { definition } = await importOpenApi(JSON.parse(fixture('readme.openapi.json.gz')), {
      id: 'readme',
      operations: ['createAPIKey'],
    });
    const runtime = new ConnectorRuntime({
      connectors: [compileDeclarative(definition)],
      env: { INLAY_CONNECTOR_README_BASE_URL: provider.url },
    });
    const { output } = await runtime.execute(
      'readme',
      'create_api_key',
      { subdomain: 'my docs', label: 'CI' },
      { credential: { fields: { token: 'rdme_secret' } } },
    );
    expect(output).toEqual({ label: 'CI', token: 'rdme_x' });
    const req = provider.requests.at(-1)!;
    expect(req.headers.authorization).toBe('Bearer rdme_secret');
    expect(req.body).toEqual({ label: 'CI' });
  }, 120_000);

  it('Blockfrost rewards: query from the input, API key in its header', async () => {
    const { definition } = await importOpenApi(fixture('blockfrost.openapi.yaml.gz'), {
      id: 'blockfrost',
      operations: ['get_accounts_by_stake_address_rewards'],
    });
    const runtime = new ConnectorRuntime({
      connectors: [compileDeclarative(definition)],
      env: { INLAY_CONNECTOR_BLOCKFROST_BASE_URL: provider.url },
    });
    const { output } = await runtime.execute(
      'blockfrost',
      'get_accounts_by_stake_address_rewards',
      { stake_address: 'stake1u9', page: 2 },
      { credential: { fields: { apiKey: 'mainnetKEY' } } },
    );
    expect(output).toEqual([{ epoch: 215, page: '2' }]);
    const req = provider.requests.at(-1)!;
    expect(req.headers.project_id).toBe('mainnetKEY');
    expect(req.query.get('count')).toBe('100'); // the document's default, filled by the input schema
  }, 120_000);

  it('a Swagger 2.0 document: header and array query parameters (repeated and joined), an optional header left out', async () => {
    const doc = {
      swagger: '2.0',
      info: { title: 'Pet store', version: '1' },
      host: 'pets.example.com',
      basePath: '/store',
      securityDefinitions: { key: { type: 'apiKey', in: 'query', name: 'api_key' } },
      security: [{ key: [] }],
      paths: {
        '/pets': {
          get: {
            operationId: 'listPets',
            parameters: [
              {
                name: 'tags',
                in: 'query',
                type: 'array',
                items: { type: 'string' },
                collectionFormat: 'multi',
              },
              { name: 'limit', in: 'query', type: 'integer', maximum: 100 },
              // Swagger 2.0's default collectionFormat: one comma-separated value.
              { name: 'ids', in: 'query', type: 'array', items: { type: 'integer' } },
            ],
            responses: { 200: { description: 'ok' } },
          },
        },
        '/pets/{petId}/tags': {
          parameters: [{ name: 'petId', in: 'path', required: true, type: 'integer' }],
          post: {
            operationId: 'tagPet',
            parameters: [
              { name: 'X-Trace-Id', in: 'header', type: 'string' },
              {
                name: 'tag',
                in: 'body',
                required: true,
                schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
              },
            ],
            responses: { 200: { description: 'ok' } },
          },
        },
      },
    };
    const { definition, warnings } = await importOpenApi(doc, { id: 'petstore' });
    expect(warnings).toEqual([]);
    expect(definition.baseUrl).toBe('https://pets.example.com/store');
    expect(definition.auth).toMatchObject({ type: 'apiKey', in: 'query', name: 'api_key' });
    const runtime = new ConnectorRuntime({
      connectors: [compileDeclarative(definition)],
      env: { INLAY_CONNECTOR_PETSTORE_BASE_URL: `${provider.url}/store` },
    });
    const credential = { credential: { fields: { apiKey: 'k1' } } };
    const tagged = await runtime.execute('petstore', 'tag_pet', { petId: 7, name: 'good' }, credential);
    expect(tagged.output).toEqual({ got: { name: 'good' }, trace: null });
    expect(provider.requests.at(-1)!.query.get('api_key')).toBe('k1');
    const traced = await runtime.execute(
      'petstore',
      'tag_pet',
      { petId: 7, name: 'x', 'X-Trace-Id': 't-1' },
      credential,
    );
    expect(traced.output).toEqual({ got: { name: 'x' }, trace: 't-1' });
    const listed = await runtime.execute(
      'petstore',
      'list_pets',
      { tags: ['a', 'b'], ids: [1, 2] },
      credential,
    );
    expect(listed.output).toEqual({ tags: ['a', 'b'], ids: ['1,2'], limit: null });
    await expect(runtime.execute('petstore', 'list_pets', { limit: 101 }, credential)).rejects.toThrow();
  }, 120_000);
});

const minimal = (extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  servers: [{ url: 'https://api.example.com/v1' }],
  paths: { '/things': { get: { operationId: 'listThings', responses: { 200: { description: 'ok' } } } } },
  ...extra,
});

async function refusal(document: unknown, opts: Partial<Parameters<typeof importOpenApi>[1]> = {}) {
  try {
    await importOpenApi(document, { id: 'x', ...opts });
  } catch (e) {
    expect(e).toBeInstanceOf(OpenApiImportError);
    const { field, rule, message } = e as OpenApiImportError;
    return { field, rule, message };
  }
  throw new Error('expected a refusal');
}

describe('documents that cannot be imported', () => {
  it('an external $ref to a URL is refused before any connection is opened', async () => {
    let connections = 0;
    const server = createServer((_q, r) => r.end('{"type":"string"}'));
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.json`;
    try {
      const doc = minimal({
        paths: {
          '/things': {
            post: {
              requestBody: { content: { 'application/json': { schema: { $ref: url } } } },
              responses: { 200: { description: 'ok' } },
            },
          },
        },
      });
      expect(await refusal(doc)).toMatchObject({
        field: 'body.document.paths./things.post.requestBody.content.application/json.schema.$ref',
        rule: 'external_ref',
      });
      // The same reference as YAML text, and a file reference.
      const yaml = `openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    $ref: '${url}'\n`;
      expect(await refusal(yaml)).toMatchObject({
        field: 'body.document.paths./a.$ref',
        rule: 'external_ref',
      });
      expect(
        await refusal(minimal({ components: { schemas: { A: { $ref: './a.yaml#/A' } } } })),
      ).toMatchObject({
        rule: 'external_ref',
      });
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('names the field and the rule', async () => {
    expect(await refusal('a: [')).toMatchObject({ field: 'body.document', rule: 'yaml' });
    expect(await refusal([1, 2])).toMatchObject({ field: 'body.document', rule: 'type' });
    expect(await refusal({ info: {}, paths: {} })).toMatchObject({
      field: 'body.document.openapi',
      rule: 'required',
    });
    expect(await refusal({ ...minimal(), openapi: '4.0' })).toMatchObject({
      field: 'body.document.openapi',
      rule: 'version',
    });
    expect(await refusal({ swagger: '1.2', paths: {} })).toMatchObject({
      field: 'body.document.swagger',
      rule: 'version',
    });
    expect(await refusal({ openapi: '3.0.0', info: {} })).toMatchObject({
      field: 'body.document.paths',
      rule: 'required',
    });
    expect(await refusal(minimal({ servers: [{ url: '/v1' }] }))).toMatchObject({
      field: 'body.baseUrl',
      rule: 'required',
    });
    expect(await refusal(minimal(), { operations: ['listThings', 'nope'] })).toMatchObject({
      field: 'body.operations[1]',
      rule: 'unknown_operation',
    });
    expect(await refusal(minimal({ paths: {} }))).toMatchObject({
      field: 'body.document.paths',
      rule: 'min',
    });
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 80; i++) deep = { items: deep };
    expect(await refusal(minimal({ components: { schemas: { Deep: deep } } }))).toMatchObject({
      rule: 'max_depth',
    });
  });

  it('more than 200 operations need a list', async () => {
    const paths = Object.fromEntries(
      Array.from({ length: 201 }, (_, i) => [
        `/r${i}`,
        { get: { responses: { 200: { description: 'ok' } } } },
      ]),
    );
    expect(await refusal(minimal({ paths }))).toMatchObject({ field: 'body.operations', rule: 'max' });
    const { definition } = await importOpenApi(minimal({ paths }), { id: 'many', operations: ['get_r7'] });
    expect(definition.actions.map((a) => a.id)).toEqual(['get_r7']);
  });

  it('warns about cookies, multipart bodies, unsupported auth and repeated ids', async () => {
    const { definition, warnings } = await importOpenApi(
      minimal({
        components: {
          securitySchemes: { oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://x/.well-known' } },
        },
        paths: {
          '/things': {
            get: {
              operationId: 'list_things',
              parameters: [{ name: 'session', in: 'cookie', schema: { type: 'string' } }],
              responses: { 200: { description: 'ok' } },
            },
            post: {
              operationId: 'listThings',
              requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } },
              responses: { 200: { description: 'ok' } },
            },
          },
        },
      }),
      { id: 'things' },
    );
    expect(definition.actions.map((a) => a.id)).toEqual(['list_things', 'list_things_2']);
    expect(definition.auth).toEqual({ type: 'none' });
    expect(warnings).toEqual([
      { operation: 'list_things', message: 'cookie parameter "session" was dropped: cookies are not sent' },
      { operation: 'listThings', message: 'its action id "list_things" is taken: it became "list_things_2"' },
      {
        operation: 'listThings',
        message: 'request body (multipart/form-data) was dropped: only JSON and URL-encoded bodies are sent',
      },
      { message: 'Security scheme "oidc" was dropped: "openIdConnect" security schemes are not supported' },
      { message: 'No security scheme could be mapped: the draft has no auth ("none")' },
    ]);
  });
});

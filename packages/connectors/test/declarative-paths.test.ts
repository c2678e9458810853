import { startProvider } from '@inlay/test-kit/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asPathSegment,
  ConnectorRuntime,
  compileDeclarative,
  dotSegmentProblem,
  EgressPolicy,
} from '../src/index.ts';

/** A connector whose one action, `get`, requests `path` with the string input `input.<name>`. */
const connectorWithPath = (id: string, baseUrl: string, path: string, name: string) =>
  compileDeclarative({
    id,
    name: id,
    description: 'Templated paths',
    category: 'developer',
    icon: id,
    baseUrl,
    auth: { type: 'none' },
    actions: [
      {
        id: 'get',
        name: 'Get',
        description: 'Reads a path its input names',
        kind: 'read',
        input: { type: 'object', properties: { [name]: { type: 'string' } }, required: [name] },
        request: { method: 'GET', path },
      },
    ],
  });

const def = connectorWithPath('paths', 'https://api.paths.example/v1', '{{ input.p }}', 'p');
const runtime = new ConnectorRuntime({ connectors: [def] });

describe('declarative request paths', () => {
  it.each(['https://evil.example/steal', 'HTTP://evil.example', '//evil.example/x', 'file:///etc/passwd'])(
    'refuses %s before any request: a path stays under the base URL',
    async (p) => {
      await expect(runtime.execute('paths', 'get', { p })).rejects.toMatchObject({ code: 'invalid_input' });
    },
  );
});

describe('dot segments', () => {
  it.each([
    '/../internal-admin/secrets',
    '/a/../../b',
    '/.',
    '/a/./b',
    '/%2e%2e/internal',
    '/%2E%2e/internal',
    '/%2e./internal',
    '/a/%252e%252e/b',
    '/a\\..\\b',
    '/a%5c..%5cb',
    '/a%2f..%2fb',
    '/a/..?x=1',
  ])('refuses %s', (path) => {
    expect(dotSegmentProblem(path)).toMatch(/must not contain a "\.\.?" segment/);
  });

  it.each(['/a/b', '/v1.2/items', '/a..b', '/..a/b', '/a/b.', '/files/%2e.txt', '/q?x=..', '//a//b'])(
    'lets %s through',
    (path) => {
      expect(dotSegmentProblem(path)).toBeUndefined();
    },
  );

  it('makes a value one segment: separators, ? and # encoded, escapes kept, dots refused', () => {
    expect(asPathSegment('a/b')).toBe('a%2Fb');
    expect(asPathSegment('a\\b?c#d e')).toBe('a%5Cb%3Fc%23d%20e');
    expect(asPathSegment('owner%2Frepo')).toBe('owner%2Frepo');
    expect(asPathSegment('100%')).toBe('100%25');
    expect(asPathSegment('café')).toBe('caf%C3%A9');
    expect(asPathSegment("it's:1@x")).toBe("it's:1@x");
    for (const bad of ['', '.', '..', '%2e%2e', 'a/../b']) expect(asPathSegment(bad), bad).toBeUndefined();
  });
});

describe('paths against a real server', () => {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let items: ConnectorRuntime;
  beforeAll(async () => {
    provider = await startProvider({ '*': (req) => ({ body: { path: req.path } }) });
    const connector = connectorWithPath(
      'items',
      `${provider.url}/stripe-only`,
      '/items/{{ input.id }}',
      'id',
    );
    items = new ConnectorRuntime({
      connectors: [connector],
      egress: new EgressPolicy({ allow: '127.0.0.1' }),
    });
  });
  afterAll(() => provider.close());

  it('puts a template value in its path as one segment', async () => {
    expect(await items.execute('items', 'get', { id: 'a/b c' })).toMatchObject({
      output: { path: '/stripe-only/items/a%2Fb%20c' },
    });
  });

  it.each(['..', '.', '%2e%2e', '../../internal-admin'])(
    'refuses the value %s before any request',
    async (id) => {
      const before = provider.requests.length;
      await expect(items.execute('items', 'get', { id })).rejects.toMatchObject({ code: 'invalid_input' });
      expect(provider.requests.length).toBe(before);
    },
  );

  it.each(['/../internal-admin/secrets', '/%2e%2e/internal-admin/secrets', '/x/..%5c..%5cinternal-admin'])(
    'refuses a streamed path %s before any connection',
    async (path) => {
      const def = items.get('items')!;
      const before = provider.requests.length;
      await expect(items.stream(def, { method: 'GET', path }, { maxBytes: 1_000 })).rejects.toMatchObject({
        code: 'invalid_path',
      });
      expect(provider.requests.length).toBe(before);
    },
  );
});

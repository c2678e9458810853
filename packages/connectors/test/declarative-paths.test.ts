import { describe, expect, it } from 'vitest';
import { ConnectorRuntime, compileDeclarative } from '../src/index.ts';

const def = compileDeclarative({
  id: 'paths',
  name: 'Paths',
  description: 'Templated paths',
  category: 'developer',
  icon: 'paths',
  baseUrl: 'https://api.paths.example/v1',
  auth: { type: 'none' },
  actions: [
    {
      id: 'get',
      name: 'Get',
      description: 'Reads a path the input names',
      kind: 'read',
      input: { type: 'object', properties: { p: { type: 'string' } }, required: ['p'] },
      request: { method: 'GET', path: '{{ input.p }}' },
    },
  ],
});
const runtime = new ConnectorRuntime({ connectors: [def] });

describe('declarative request paths', () => {
  it.each(['https://evil.example/steal', 'HTTP://evil.example', '//evil.example/x', 'file:///etc/passwd'])(
    'refuses %s before any request: a path stays under the base URL',
    async (p) => {
      await expect(runtime.execute('paths', 'get', { p })).rejects.toMatchObject({ code: 'invalid_input' });
    },
  );
});

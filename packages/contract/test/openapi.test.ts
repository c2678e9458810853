import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi.ts';

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument('http://127.0.0.1:8080');

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes the seed endpoints with their schemas', () => {
    const paths = doc.paths ?? {};
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/workflows',
        '/workflows/{workflowId}/logs',
        '/users/{userId}/logs',
        '/users/{userId}/token',
        '/installations',
      ]),
    );
    const schemas = doc.components?.schemas ?? {};
    for (const name of [
      'User',
      'Workflow',
      'LogEntry',
      'Result',
      'OutputItem',
      'Input',
      'Installation',
      'FormData',
      'Field',
      'Problem',
    ])
      expect(schemas[name], name).toBeDefined();
    const log = schemas.LogEntry as { required: string[] };
    expect(log.required).toEqual(
      expect.arrayContaining(['executionId', 'startedAt', 'stoppedAt', 'finished', 'results', 'inputs']),
    );
  });

  it('documents problem+json errors on every operation', () => {
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(
        item as Record<string, { responses: Record<string, { content?: object }> }>,
      )) {
        expect(op.responses['400']?.content, `${method} ${path}`).toHaveProperty([
          'application/problem+json',
        ]);
      }
    }
  });
});

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
    const log = schemas.LogEntry as { required: string[]; properties: Record<string, object> };
    expect(log.required).toEqual(
      expect.arrayContaining(['executionId', 'startedAt', 'finished', 'results', 'inputs']),
    );
    // A run still in flight has not stopped: stoppedAt is absent then, never null.
    expect(log.required).not.toContain('stoppedAt');
    expect(log.properties.stoppedAt).toMatchObject({ type: 'string', format: 'date-time' });
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

  type Param = { name: string; in: string; required?: boolean; schema: Record<string, unknown> };
  type Operation = { parameters?: Param[]; responses: Record<string, unknown>; security?: object[] };
  const op = (path: string, method: string) =>
    (doc.paths as Record<string, Record<string, Operation>>)[path]![method]!;
  const param = (path: string, method: string, name: string) =>
    op(path, method).parameters?.find((p) => p.name === name);

  it('declares parameters with their real types and ranges', () => {
    // A user JWT implies the user: the generated client must not demand userId.
    expect(param('/workflows', 'get', 'userId')?.required).toBeFalsy();
    expect(param('/workflows/{workflowId}/logs', 'get', 'page')?.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
    });
    expect(param('/workflows/{workflowId}/logs', 'get', 'limit')?.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 30,
      default: 10,
    });
    expect(param('/users', 'get', 'page')?.schema).toMatchObject({ type: 'integer', minimum: 1 });
    expect(param('/users', 'get', 'limit')?.schema).toMatchObject({ type: 'integer', maximum: 1000 });
    expect(param('/workflows/{workflowId}', 'get', 'workflowId')?.schema).toMatchObject({ format: 'uuid' });
    const formData = doc.components?.schemas?.FormData as { properties: Record<string, object> };
    expect(formData.properties.blockId).toMatchObject({ type: 'string', format: 'uuid' });
    expect(doc.info.license).toMatchObject({ name: 'MIT', identifier: 'MIT' });
  });

  it('declares every status the routes answer', () => {
    const statuses = (path: string, method: string) => Object.keys(op(path, method).responses);
    expect(statuses('/users', 'post')).toEqual(expect.arrayContaining(['201', '403', '409', '413', '415']));
    expect(statuses('/installations', 'post')).toEqual(expect.arrayContaining(['201', '409', '422']));
    expect(statuses('/credentials/{credentialId}', 'delete')).toContain('409');
    expect(statuses('/run/workflow', 'post')).toContain('409');
    expect(statuses('/credentials', 'post')).toEqual(expect.arrayContaining(['422', '502']));
    expect(statuses('/credentials/oauth', 'post')).toContain('422');
    expect(statuses('/workflows', 'post')).toContain('422');
    expect(statuses('/oauth/callback', 'get')).toEqual(expect.arrayContaining(['200', '302', '400']));
    expect(statuses('/readyz', 'get')).toEqual(['200', '400', '503']);
    for (const [path, item] of Object.entries(doc.paths ?? {}))
      for (const [method, o] of Object.entries(item as Record<string, Operation>)) {
        const codes = Object.keys(o.responses);
        const keyOnly = JSON.stringify(o.security) === JSON.stringify([{ apiKey: [] }]);
        // Account routes refuse a user JWT, and a console session's writes without their CSRF header; every
        // authenticated route can be rate limited or find the DB down.
        const sessionWrite = o.security?.length && method !== 'get';
        expect(codes.includes('403'), `${method} ${path}`).toBe(
          Boolean(keyOnly || sessionWrite || (path === '/console/session' && method === 'delete')),
        );
        if (o.security?.length)
          expect(codes, `${method} ${path}`).toEqual(expect.arrayContaining(['401', '429', '503']));
      }
  });
});

import { randomUUID } from 'node:crypto';
import { type Json, OpenApiResponseValidator } from '@inlay/test-kit/openapi-validator';
import { type Service, sharedService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let svc: Service;
let v: OpenApiResponseValidator;
beforeAll(async () => {
  svc = await sharedService();
  v = new OpenApiResponseValidator((await (await fetch(`${svc.url}/openapi.json`)).json()) as Json);
});
afterAll(() => svc?.close());

const problem = (status: number) =>
  JSON.stringify({
    type: 'https://inlay.dev/problems/conflict',
    title: 'Conflict',
    status,
    detail: 'x',
    message: 'x',
    code: 'conflict',
  });
const json = 'application/json; charset=utf-8';
const problemJson = 'application/problem+json; charset=utf-8';

describe('response validation against the served openapi.json', () => {
  it('accepts a declared status with a body of its schema', () => {
    expect(
      v.check({
        method: 'POST',
        path: '/users',
        status: 201,
        contentType: json,
        text: JSON.stringify({ userId: randomUUID() }),
      }),
    ).toEqual([]);
    expect(
      v.check({ method: 'POST', path: '/users', status: 409, contentType: problemJson, text: problem(409) }),
    ).toEqual([]);
  });

  it('refuses an undeclared status, a wrong media type, and a body off its schema', () => {
    const undeclared = v.check({
      method: 'GET',
      path: '/integrations',
      status: 409,
      contentType: problemJson,
      text: problem(409),
    });
    expect(undeclared.join()).toMatch(/status 409 is not declared/);
    const media = v.check({
      method: 'POST',
      path: '/users',
      status: 201,
      contentType: 'text/plain',
      text: '{}',
    });
    expect(media.join()).toMatch(/declares application\/json/);
    const body = v.check({
      method: 'POST',
      path: '/users',
      status: 201,
      contentType: json,
      text: JSON.stringify({ userId: 'not-a-uuid' }),
    });
    expect(body.join()).toMatch(/userId.*format/);
    const missing = v.check({
      method: 'GET',
      path: `/workflows/${randomUUID()}/logs`,
      status: 200,
      contentType: json,
      text: JSON.stringify({ data: [{ executionId: randomUUID() }] }),
    });
    expect(missing.join()).toMatch(/must have required property 'startedAt'/);
  });

  it('matches literal segments before parameters, and holds unknown routes to the not-found problem', () => {
    expect(
      v.check({
        method: 'PUT',
        path: '/workflows/activate',
        status: 200,
        contentType: json,
        text: '{"message":"Success"}',
      }),
    ).toEqual([]);
    expect(
      v.check({ method: 'GET', path: '/nope', status: 200, contentType: json, text: '{}' }).join(),
    ).toMatch(/no operation/);
  });
});

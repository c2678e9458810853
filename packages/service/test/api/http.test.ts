import { connect } from 'node:net';
import { expectProblem, type Service, sharedService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let svc: Service;
let key: string;

beforeAll(async () => {
  svc = await sharedService();
  key = (await svc.account()).apiKey;
});
afterAll(() => svc?.close());

describe('authentication', () => {
  it('rejects a missing key with a 401 problem', async () => {
    const r = await svc.call('GET', '/users');
    expectProblem(r, 401, 'unauthorized');
    expect(r.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('rejects a wrong key and a malformed header', async () => {
    expectProblem(
      await svc.call('GET', '/users', { auth: 'inlay_live_thisisnotarealkey000000' }),
      401,
      'unauthorized',
    );
    expectProblem(
      await svc.call('GET', '/users', { headers: { authorization: `Basic ${key}` } }),
      401,
      'unauthorized',
    );
    expectProblem(await svc.call('GET', '/users', { headers: { authorization: key } }), 401, 'unauthorized');
  });

  it('accepts any case of the bearer scheme', async () => {
    for (const scheme of ['bearer', 'Bearer', 'BEARER', 'bEaReR']) {
      const r = await svc.call('GET', '/users', { headers: { authorization: `${scheme} ${key}` } });
      expect(r.status, scheme).toBe(200);
      expect(r.body).toEqual({ data: [] });
    }
  });
});

describe('x-api-version', () => {
  it('answers every response with the version, defaulting to the current one', async () => {
    const r = await svc.call('GET', '/users', { auth: key });
    expect(r.headers.get('x-api-version')).toBe('2025-09');
    const explicit = await svc.call('GET', '/users', { auth: key, headers: { 'x-api-version': '2025-09' } });
    expect(explicit.status).toBe(200);
    expect(explicit.headers.get('x-api-version')).toBe('2025-09');
  });

  it('rejects an unknown version with a 400 listing the supported ones', async () => {
    const r = await svc.call('GET', '/users', { auth: key, headers: { 'x-api-version': '2024-03' } });
    expectProblem(r, 400, 'unsupported_version', 'header.x-api-version', 'enum');
    expect(r.body.supportedVersions).toEqual(['2025-09']);
    expect(r.body.message).toContain('2025-09');
  });
});

describe('malformed requests', () => {
  it('answers invalid JSON with a 400 problem naming the body', async () => {
    const r = await svc.call('POST', '/users', {
      auth: key,
      rawBody: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(r, 400, 'invalid_request', 'body', 'json');
  });

  it('answers a non-JSON body with 415', async () => {
    const r = await svc.call('POST', '/users', {
      auth: key,
      rawBody: 'username=x',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(r, 415, 'unsupported_media_type', 'header.content-type');
  });

  it('answers a body over 1 MB with 413 and stores nothing', async () => {
    const r = await svc.call('POST', '/users', {
      auth: key,
      body: { username: 'big', fullName: 'x'.repeat(1_100_000) },
    });
    expectProblem(r, 413, 'payload_too_large', 'body', 'max_size');
    expect(r.body.detail).toBe('The request body exceeds the 1 MB limit');
    expect((await svc.call('GET', '/users', { auth: key })).body.data).toEqual([]);
  });

  it('answers an unknown route with a 404 problem', async () => {
    expectProblem(await svc.call('GET', '/nope', { auth: key }), 404, 'not_found');
  });

  it('names a malformed path id as a 400', async () => {
    expectProblem(
      await svc.call('GET', '/workflows/not-a-uuid?userId=x', { auth: key }),
      400,
      'invalid_request',
      'path.workflowId',
      'format',
    );
  });
});

describe('meta', () => {
  it('serves health, readiness and a valid OpenAPI document', async () => {
    expect((await svc.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await svc.call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
    const doc = await svc.call('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.servers[0].url).toBe(svc.url);
    expect(doc.body.paths['/workflows/{workflowId}/logs'].get.operationId).toBe('getWorkflowLogs');
  });
});

describe('requests the HTTP parser refuses', () => {
  /** Sends raw bytes and reads the whole answer until the service closes the connection. */
  function raw(bytes: string): Promise<string> {
    const { hostname, port } = new URL(svc.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.end(bytes));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (answer += d));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  }
  const parse = (answer: string) => {
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    return { statusLine: head.split('\r\n')[0], head: head.toLowerCase(), body: JSON.parse(body) };
  };

  it('a request line over 16 KB is a 431 problem naming the headers, not an empty answer', async () => {
    const r = parse(await raw(`GET /users?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(r.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(r.head).toContain('content-type: application/problem+json');
    expect(r.body).toMatchObject({
      status: 431,
      code: 'invalid_request',
      title: 'Request Header Fields Too Large',
      errors: [{ field: 'headers', rule: 'max_size' }],
    });
    expect(r.body.message).toBe(r.body.detail);
    expect(r.body.message).toContain('exceed 16 KB');
  });

  it('a request that is not HTTP is a 400 problem', async () => {
    const r = parse(await raw('NOT-HTTP\r\n\r\n'));
    expect(r.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(r.body).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(r.body.message).toContain('not valid HTTP/1.1');
  });
});

import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { byFirstSegment } from '../../src/http/by-first-segment.ts';

interface Reply {
  status: number;
  body: unknown;
  mw: string | undefined;
}

/** A router as the feature routes build theirs, plus a count of the times it was entered (walked). */
function featureRouter(kind: 'static' | 'param-first' | 'use' | 'case-sensitive') {
  const r = Router(kind === 'case-sensitive' ? { caseSensitive: true } : undefined);
  if (kind === 'use')
    r.use((_req, res, next) => {
      res.setHeader('x-mw', 'ran');
      next();
    });
  r.get('/users', (_req, res) => void res.json({ route: 'list' }));
  r.get('/users/:id', (req, res) => void res.json({ route: 'one', id: req.params.id }));
  r.put('/users/:id', (req, res) => void res.json({ route: 'put', id: req.params.id }));
  r.get('/.well-known/jwks.json', (_req, res) => void res.json({ route: 'jwks' }));
  r.get('/docs', (_req, res) => void res.json({ route: 'docs' }));
  if (kind === 'param-first')
    r.get('/:name/card', (req, res) => void res.json({ route: 'card', ...req.params }));
  // The router function enters its stack through `router.handle`: counting those calls counts the walks.
  type Handle = (req: express.Request, res: express.Response, next: express.NextFunction) => void;
  const walkable = r as unknown as { handle: Handle };
  const entered = { n: 0 };
  const handle = walkable.handle.bind(r);
  walkable.handle = (req, res, next) => {
    entered.n++;
    handle(req, res, next);
  };
  return { router: r, entered };
}

/** An app with the router (wrapped or not) and a fall-through that answers what the router passed on. */
async function serve(router: express.RequestHandler): Promise<{ server: Server; port: number }> {
  const app = express();
  app.use(router);
  app.use((req, res) => void res.status(404).json({ fellThrough: req.path }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends the request target as given (no URL normalisation), so raw and absolute-form paths arrive as written. */
function call(port: number, method: string, path: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          body: text ? JSON.parse(text) : undefined,
          mw: res.headers['x-mw'] as string | undefined,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** The same router twice: wrapped and bare, each in its own app. */
async function pair(kind: Parameters<typeof featureRouter>[0]) {
  const wrapped = featureRouter(kind);
  const bare = featureRouter(kind);
  const a = await serve(byFirstSegment(wrapped.router));
  const b = await serve(bare.router);
  servers.push(a.server, b.server);
  return { wrapped, bare, wrappedPort: a.port, barePort: b.port };
}

const MATCHING = [
  ['GET', '/users'],
  ['GET', '/users/'],
  ['GET', '/Users/x'],
  ['GET', '/USERS/Ab%20c/'],
  ['PUT', '/users/7'],
  ['POST', '/users/7'],
  ['GET', '/users/7/extra'],
  ['GET', '/users?limit=2'],
  ['GET', '/.well-known/jwks.json'],
  ['GET', '/.WELL-KNOWN/JWKS.JSON'],
  ['GET', '/docs/'],
  ['GET', '/Docs'],
  ['GET', 'http://example.test/users/abs'],
] as const;

const NOT_MATCHING = [
  ['GET', '/'],
  ['GET', '/workflows'],
  ['GET', '/user'],
  ['GET', '/usersx/1'],
  ['GET', '/users.json'],
  ['GET', '/%75sers'],
  ['GET', '//users'],
  ['GET', '/docsx'],
  ['GET', '/nope/card'],
  ['GET', 'http://example.test/workflows'],
] as const;

describe('byFirstSegment', () => {
  let p: Awaited<ReturnType<typeof pair>>;
  beforeEach(async () => {
    p ??= await pair('static');
    p.wrapped.entered.n = 0;
    p.bare.entered.n = 0;
  });

  it('answers the paths the router serves exactly as the bare router, any case, trailing slash', async () => {
    for (const [method, path] of MATCHING) {
      const wrapped = await call(p.wrappedPort, method, path);
      const bare = await call(p.barePort, method, path);
      expect(wrapped, `${method} ${path}`).toEqual(bare);
    }
    expect(await call(p.wrappedPort, 'GET', '/Users/x')).toMatchObject({
      status: 200,
      body: { route: 'one', id: 'x' },
    });
    expect(await call(p.wrappedPort, 'GET', '/users/')).toMatchObject({
      status: 200,
      body: { route: 'list' },
    });
    // Each of those entered the router.
    expect(p.wrapped.entered.n).toBe(MATCHING.length + 2);
  });

  it('passes a request whose first segment starts none of its routes to the next handler, unwalked', async () => {
    for (const [method, path] of NOT_MATCHING) {
      const wrapped = await call(p.wrappedPort, method, path);
      const bare = await call(p.barePort, method, path);
      expect(wrapped, `${method} ${path}`).toEqual(bare);
      expect(wrapped.status, path).toBe(404);
      expect(wrapped.body, path).toHaveProperty('fellThrough');
    }
    // The bare router walked its layers for each of them; the wrapped one was never entered.
    expect(p.bare.entered.n).toBe(NOT_MATCHING.length);
    expect(p.wrapped.entered.n).toBe(0);
  });

  it('keeps the routes visible to tools that walk the stack', () => {
    const wrapped = byFirstSegment(p.wrapped.router) as unknown as { stack: unknown[] };
    expect(wrapped.stack).toBe(p.wrapped.router.stack);
  });

  it('never passes by a router with a route whose first segment is a parameter', async () => {
    const q = await pair('param-first');
    for (const [method, path] of [...MATCHING, ...NOT_MATCHING]) {
      expect(await call(q.wrappedPort, method, path), `${method} ${path}`).toEqual(
        await call(q.barePort, method, path),
      );
    }
    expect(await call(q.wrappedPort, 'GET', '/nope/card')).toMatchObject({
      status: 200,
      body: { route: 'card', name: 'nope' },
    });
    expect(q.bare.entered.n).toBe(MATCHING.length + NOT_MATCHING.length);
    expect(q.wrapped.entered.n).toBe(MATCHING.length + NOT_MATCHING.length + 1);
  });

  it('never passes by a router with router.use middleware', async () => {
    const q = await pair('use');
    for (const [method, path] of [...MATCHING, ...NOT_MATCHING]) {
      const wrapped = await call(q.wrappedPort, method, path);
      expect(wrapped, `${method} ${path}`).toEqual(await call(q.barePort, method, path));
      expect(wrapped.mw, path).toBe('ran');
    }
    expect(q.wrapped.entered.n).toBe(MATCHING.length + NOT_MATCHING.length);
  });

  it('compares with case on a case-sensitive router', async () => {
    const q = await pair('case-sensitive');
    for (const [method, path] of [...MATCHING, ...NOT_MATCHING])
      expect(await call(q.wrappedPort, method, path), `${method} ${path}`).toEqual(
        await call(q.barePort, method, path),
      );
    expect((await call(q.wrappedPort, 'GET', '/users/x')).status).toBe(200);
    expect((await call(q.wrappedPort, 'GET', '/Users/x')).status).toBe(404);
  });

  it('sees routes added after the first request', async () => {
    const { router, entered } = featureRouter('static');
    const { server, port } = await serve(byFirstSegment(router));
    servers.push(server);
    expect((await call(port, 'GET', '/late')).status).toBe(404);
    router.get('/late', (_req, res) => void res.json({ route: 'late' }));
    expect(await call(port, 'GET', '/late')).toMatchObject({ status: 200, body: { route: 'late' } });
    expect(entered.n).toBe(1);
  });
});

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type RequestHandler } from 'express';
import { type InlayMiddlewareOptions, inlay } from '../src/index.ts';

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A host app whose "session" is the `x-host-user` header, with Inlay mounted at /api/inlay. */
export async function startHost(
  opts: Omit<InlayMiddlewareOptions, 'userId'> & {
    parseJsonFirst?: boolean;
    /** The host's own middleware ahead of Inlay's (body parsers, sessions). */
    before?: RequestHandler[];
    trustProxy?: boolean;
  },
): Promise<{ url: string; close: () => Promise<void>; app: Express }> {
  const app = express();
  if (opts.trustProxy) app.set('trust proxy', true);
  if (opts.parseJsonFirst) app.use(express.json());
  for (const m of opts.before ?? []) app.use(m);
  app.use('/api/inlay', inlay({ ...opts, userId: (req) => req.get('x-host-user') ?? null }));
  const server = createServer(app);
  const url = await listen(server);
  return {
    url,
    app,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const fakeJwt = (sub: string) =>
  `${Buffer.from('{"alg":"EdDSA"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.sig`;

/** A stand-in upstream that mints fake tokens, records requests, and can hang. */
export async function startFakeUpstream(extraHeaders: Record<string, string> = {}) {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    if (req.url?.endsWith('/token')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          token: fakeJwt('user-1'),
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
      return;
    }
    if (req.url?.startsWith('/slow')) return; // never answers
    res.writeHead(200, {
      'content-type': 'application/json',
      connection: 'keep-alive, x-upstream-hop',
      'x-upstream-hop': 'drop-me',
      'x-kept': 'yes',
      ...extraHeaders,
    });
    res.end(JSON.stringify({ ok: true }));
  });
  let connections = 0;
  server.on('connection', () => connections++);
  const url = await listen(server);
  return {
    url,
    seen,
    /** TCP connections the upstream accepted so far. */
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

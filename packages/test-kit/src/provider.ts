import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
  rawBody: string;
}

export type Reply = { status?: number; headers?: Record<string, string>; body?: unknown };
export type Handler = (req: Recorded) => Reply | Promise<Reply>;

/** A real HTTP server on 127.0.0.1 standing in for a provider: routes by `METHOD /path`, records every request. */
export async function startProvider(routes: Record<string, Handler> = {}) {
  const requests: Recorded[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body: unknown = rawBody;
    const type = req.headers['content-type'] ?? '';
    if (type.includes('json') && rawBody) body = JSON.parse(rawBody);
    else if (type.includes('x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(rawBody));
    const rec: Recorded = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      rawBody,
    };
    requests.push(rec);
    const handler = routes[`${rec.method} ${rec.path}`] ?? routes['*'];
    const reply = handler
      ? await handler(rec)
      : { status: 404, body: { message: `no route ${rec.method} ${rec.path}` } };
    const payload =
      reply.body === undefined
        ? ''
        : typeof reply.body === 'string'
          ? reply.body
          : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, {
      'content-type': typeof reply.body === 'string' ? 'text/plain' : 'application/json',
      ...reply.headers,
    });
    res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

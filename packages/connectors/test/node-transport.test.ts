import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressPolicy } from '../src/egress/egress-policy.ts';
import { nodeTransport, ResponseTooLarge } from '../src/node-transport.ts';

// Both test servers listen on loopback, which the policy refuses unless opened.
const egress = new EgressPolicy({ allow: '127.0.0.1' });

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  remotePort: number;
}

/** A real server on 127.0.0.1 whose routes are plain Node handlers; records what reached it. */
async function server(routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void>) {
  const seen: Seen[] = [];
  const s: Server = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ method: req.method!, path, headers: req.headers, body, remotePort: req.socket.remotePort! });
    (routes[path] ?? ((_q, r) => r.writeHead(404).end()))(req, res);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => s.close(() => r())) };
}

const json = (res: ServerResponse, body: unknown, encoding?: string, encode?: (b: Buffer) => Buffer) => {
  const raw = Buffer.from(JSON.stringify(body));
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(encoding ? { 'content-encoding': encoding } : {}),
  });
  res.end(encode ? encode(raw) : raw);
};

let a: Awaited<ReturnType<typeof server>>;
let b: Awaited<ReturnType<typeof server>>;

beforeAll(async () => {
  b = await server({ '/landing': (_q, r) => json(r, { on: 'b' }) });
  a = await server({
    '/plain': (_q, r) => json(r, { hello: 'world' }),
    '/gzip': (_q, r) => json(r, { packed: 'gzip' }, 'gzip', gzipSync),
    '/deflate': (_q, r) => json(r, { packed: 'deflate' }, 'deflate', deflateSync),
    '/br': (_q, r) => json(r, { packed: 'br' }, 'br', brotliCompressSync),
    '/see-other': (_q, r) => r.writeHead(303, { location: '/plain' }).end(),
    '/temporary': (_q, r) => r.writeHead(307, { location: '/plain' }).end(),
    '/elsewhere': (_q, r) => r.writeHead(302, { location: `${b.url}/landing` }).end(),
    '/loop': (_q, r) => r.writeHead(302, { location: '/loop' }).end(),
    '/endless': (_q, r) => {
      // No content-length: only the running total can stop it.
      r.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 97);
      const pump = () => {
        while (r.write(chunk)) {}
        r.once('drain', pump);
      };
      r.on('close', () => r.removeAllListeners('drain'));
      pump();
    },
  });
});
afterAll(async () => {
  egress.close();
  await a?.close();
  await b?.close();
});

const get = (url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) =>
  nodeTransport(
    {
      url: new URL(url),
      method: init.method ?? 'GET',
      headers: init.headers ?? {},
      body: init.body,
      signal: AbortSignal.timeout(5_000),
      egress,
    },
    1024 * 1024,
  );

describe('nodeTransport', () => {
  it('returns status, lower-cased headers and the body text, asking for compressed answers', async () => {
    const res = await get(`${a.url}/plain`, { headers: { 'x-trace': 'abc' } });
    expect(res).toMatchObject({ status: 200, text: '{"hello":"world"}' });
    expect(res.headers['content-type']).toBe('application/json');
    expect(a.seen.at(-1)!.headers).toMatchObject({
      'x-trace': 'abc',
      'accept-encoding': 'gzip, deflate, br',
    });
  });

  it('decompresses gzip, deflate and brotli', async () => {
    for (const enc of ['gzip', 'deflate', 'br'])
      expect(JSON.parse((await get(`${a.url}/${enc}`)).text)).toEqual({ packed: enc });
  });

  it('sends the body with its length and reuses the kept-alive connection', async () => {
    await get(`${a.url}/plain`, {
      method: 'POST',
      body: '{"n":1}',
      headers: { 'content-type': 'application/json' },
    });
    const first = a.seen.at(-1)!;
    expect(first).toMatchObject({ method: 'POST', body: '{"n":1}' });
    expect(first.headers['content-length']).toBe('7');
    await get(`${a.url}/plain`);
    expect(a.seen.at(-1)!.remotePort).toBe(first.remotePort);
  });

  it('follows 303 as a GET without the body, and 307 with method and body kept', async () => {
    await get(`${a.url}/see-other`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(a.seen.at(-1)).toMatchObject({ method: 'GET', path: '/plain', body: '' });
    expect(a.seen.at(-1)!.headers['content-type']).toBeUndefined();
    await get(`${a.url}/temporary`, { method: 'PUT', body: 'y', headers: { 'content-type': 'text/plain' } });
    expect(a.seen.at(-1)).toMatchObject({ method: 'PUT', path: '/plain', body: 'y' });
  });

  it('drops the authorization header when a redirect leaves the origin', async () => {
    const res = await get(`${a.url}/elsewhere`, {
      headers: { authorization: 'Bearer secret', 'x-keep': '1' },
    });
    expect(JSON.parse(res.text)).toEqual({ on: 'b' });
    expect(a.seen.at(-1)!.headers.authorization).toBe('Bearer secret');
    expect(b.seen.at(-1)!.headers.authorization).toBeUndefined();
    expect(b.seen.at(-1)!.headers['x-keep']).toBe('1');
  });

  it('gives up after 20 redirects', async () => {
    const before = a.seen.length;
    await expect(get(`${a.url}/loop`)).rejects.toThrow('more than 20 redirects');
    expect(a.seen.length - before).toBe(21);
  });

  it('cuts off a body with no length once it passes the limit', async () => {
    const err = await get(`${a.url}/endless`).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseTooLarge);
    expect(err.status).toBe(200);
  });

  it('rejects at once when the signal is aborted', async () => {
    const ctl = new AbortController();
    ctl.abort();
    await expect(
      nodeTransport(
        { url: new URL(`${a.url}/plain`), method: 'GET', headers: {}, signal: ctl.signal, egress },
        1024,
      ),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

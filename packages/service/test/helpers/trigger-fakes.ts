import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCustomer {
  id: string;
  email: string;
  name: string;
  created: number;
}

/**
 * A Stripe stand-in on 127.0.0.1: `GET /customers` newest first with `limit`, `starting_after` and
 * `created[gte]`, as Stripe pages it; `fail` makes it answer that status instead.
 */
export async function startFakeStripe() {
  const customers: FakeCustomer[] = [];
  const requests: { path: string; query: URLSearchParams; auth?: string }[] = [];
  let clock = 1_735_812_000;
  const state = { fail: 0 };
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, query: url.searchParams, auth: req.headers.authorization });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (state.fail)
      return send(state.fail, {
        error: { message: state.fail === 401 ? 'Invalid API Key provided' : 'boom' },
      });
    if (url.pathname !== '/customers') return send(404, { error: { message: 'no route' } });
    const gte = Number(url.searchParams.get('created[gte]') ?? 0);
    let list = [...customers]
      .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1))
      .filter((c) => c.created >= gte);
    const after = url.searchParams.get('starting_after');
    if (after) list = list.slice(list.findIndex((c) => c.id === after) + 1);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    send(200, { object: 'list', data: list.slice(0, limit), has_more: list.length > limit });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    customers,
    requests,
    state,
    /** Adds customers, each one second after the last. */
    add(...ids: string[]) {
      for (const id of ids) customers.push({ id, email: `${id}@x.test`, name: id, created: ++clock });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A GitHub stand-in that records repository webhooks created and deleted. */
export async function startFakeGithub() {
  const hooks = new Map<string, { url: string; secret: string; events: string[] }>();
  const deleted: string[] = [];
  let next = 100;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/repos/acme/api/hooks') {
      const b = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = String(++next);
      hooks.set(id, { url: b.config.url, secret: b.config.secret, events: b.events });
      return send(201, { id: Number(id), active: true, events: b.events });
    }
    const m = /^\/repos\/acme\/api\/hooks\/(\d+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && m) {
      if (!hooks.delete(m[1]!)) return send(404, { message: 'Not Found' });
      deleted.push(m[1]!);
      return send(204);
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hooks,
    deleted,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Waits until `check` returns a truthy value (polling; CI runs under load), or fails after `ms`. */
export async function until<T>(
  check: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  what: string,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

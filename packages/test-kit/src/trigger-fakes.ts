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
 * `created[gte]`, as Stripe pages it; webhook endpoints created (`POST /webhook_endpoints`, form-encoded,
 * answering the `whsec_` signing secret as Stripe does) and deleted. `fail` makes it answer that status
 * instead; while `hold` is set, endpoint creations wait for it.
 */
export async function startFakeStripe() {
  const customers: FakeCustomer[] = [];
  const requests: { path: string; query: URLSearchParams; auth?: string }[] = [];
  const endpoints = new Map<string, { url: string; events: string[]; secret: string }>();
  /** Every endpoint creation received (held ones too), and the ids deleted, in order. */
  const creations: string[] = [];
  const deleted: string[] = [];
  let clock = 1_735_812_000;
  let nextEndpoint = 0;
  const state: { fail: number; hold?: Promise<void> } = { fail: 0 };
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
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
    if (req.method === 'POST' && url.pathname === '/webhook_endpoints') {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      creations.push(form.get('url') ?? '');
      await state.hold;
      const id = `we_${++nextEndpoint}`;
      const secret = `whsec_fake_${id}_${Math.random().toString(36).slice(2)}`;
      const events = [...form].filter(([k]) => k.startsWith('enabled_events')).map(([, v]) => v);
      endpoints.set(id, { url: form.get('url') ?? '', events, secret });
      return send(200, {
        id,
        object: 'webhook_endpoint',
        url: form.get('url'),
        enabled_events: events,
        secret,
      });
    }
    const hook = /^\/webhook_endpoints\/(we_\d+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && hook) {
      if (!endpoints.delete(hook[1]!)) return send(404, { error: { message: 'No such webhook endpoint' } });
      deleted.push(hook[1]!);
      return send(200, { id: hook[1], object: 'webhook_endpoint', deleted: true });
    }
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
    endpoints,
    creations,
    deleted,
    state,
    /** Adds customers, each one second after the last. */
    add(...ids: string[]) {
      for (const id of ids) customers.push({ id, email: `${id}@x.test`, name: id, created: ++clock });
    },
    /** The customer as Stripe sends it in a `customer.created` event. */
    customer: (id: string) => ({ id, object: 'customer', email: `${id}@x.test`, name: id, created: ++clock }),
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

/** One request an oldest-first fake answered: its query, and the ids of the items it listed. */
export interface ListedPage {
  query: URLSearchParams;
  ids: string[];
  auth?: string;
}

/** Serves `list(url)` as JSON on 127.0.0.1, recording each request; `fail` makes it answer that status. */
async function startListFake(answer: (url: URL, pages: ListedPage[], auth?: string) => unknown) {
  const pages: ListedPage[] = [];
  const state = { fail: 0 };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = state.fail ? { error: 'boom' } : answer(url, pages, req.headers.authorization);
    res.writeHead(state.fail || (body === undefined ? 404 : 200), { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'no route' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pages,
    state,
    /** How many polls began (a first page: no offset). */
    polls: () => pages.filter((p) => !p.query.has('offset')).length,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Whole seconds of an ISO time, as Airtable's `CREATED_TIME()` compares them. */
const second = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * An Airtable stand-in: `GET /{baseId}/{table}` lists records oldest first, 100 a page (`pageSize`) with an
 * `offset` token, and honours the trigger's `filterByFormula` on `CREATED_TIME()` (`NOT(IS_BEFORE(…))` or
 * `IS_AFTER(…)`), comparing whole seconds as Airtable does.
 */
export async function startFakeAirtable(base = 'appAbCdEfGhIjKlMn', table = 'Leads') {
  const records: { id: string; createdTime: string; fields: Record<string, unknown> }[] = [];
  let clock = Date.parse('2025-01-02T00:00:00.000Z');
  const fake = await startListFake((url, pages, auth) => {
    if (url.pathname !== `/${base}/${table}`) return undefined;
    const formula = url.searchParams.get('filterByFormula') ?? '';
    const since = /DATETIME_PARSE\('([^']+)'\)/.exec(formula)?.[1];
    let list = records;
    if (since) {
      const s = second(since);
      list = formula.startsWith('IS_AFTER(')
        ? list.filter((r) => second(r.createdTime) > s)
        : list.filter((r) => second(r.createdTime) >= s);
    }
    const from = Number(url.searchParams.get('offset') ?? 0);
    const size = Math.min(100, Number(url.searchParams.get('pageSize') ?? 100));
    const page = list.slice(from, from + size);
    pages.push({ query: url.searchParams, ids: page.map((r) => r.id), auth });
    return { records: page, ...(from + size < list.length ? { offset: String(from + size) } : {}) };
  });
  return {
    ...fake,
    records,
    /** Adds records with these ids, each a second after the last, in this order. */
    add(...ids: string[]) {
      for (const id of ids) {
        clock += 1000;
        records.push({ id, createdTime: new Date(clock).toISOString(), fields: { Name: id } });
      }
    },
  };
}

export interface FakeTask {
  gid: string;
  name: string;
  created_at: string;
  modified_at: string;
}

/**
 * An Asana stand-in: `GET /tasks?project=` lists the project's tasks oldest first, `limit` a page with
 * `next_page.offset`, and `modified_since` keeps the tasks modified at or after it (an old task edited
 * since comes back, as Asana lists it).
 */
export async function startFakeAsana(project = '1200000000000001') {
  const tasks: FakeTask[] = [];
  let clock = Date.parse('2025-01-02T00:00:00.000Z');
  const tick = () => {
    clock += 1000;
    return new Date(clock).toISOString();
  };
  const fake = await startListFake((url, pages, auth) => {
    if (url.pathname !== '/tasks' || url.searchParams.get('project') !== project) return undefined;
    const since = url.searchParams.get('modified_since');
    const list = since ? tasks.filter((t) => t.modified_at >= since) : tasks;
    const from = Number(url.searchParams.get('offset') ?? 0);
    const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 100));
    const page = list.slice(from, from + limit);
    pages.push({ query: url.searchParams, ids: page.map((t) => t.gid), auth });
    return {
      data: page,
      next_page:
        from + limit < list.length ? { offset: String(from + limit), path: '/tasks', uri: '' } : null,
    };
  });
  return {
    ...fake,
    tasks,
    project,
    /** Adds tasks with these gids, each a second after the last, in this order. */
    add(...gids: string[]) {
      for (const gid of gids) {
        const at = tick();
        tasks.push({ gid, name: `task ${gid}`, created_at: at, modified_at: at });
      }
    },
    /** Edits a task now: it is listed again by `modified_since`, with its old `created_at`. */
    touch(gid: string) {
      const t = tasks.find((x) => x.gid === gid)!;
      t.modified_at = tick();
    },
  };
}

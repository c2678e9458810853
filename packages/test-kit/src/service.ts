import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConnectorDefinition, Resolve } from '@inlay/connectors';
import {
  answerClientErrors,
  type Config,
  createAccount,
  createApp,
  createLogger,
  createStore,
  type InlayApp,
  loadConfig,
  type Store,
} from '@inlay/service';
import { type OpenApiResponseValidator, validatorFor } from './openapi-validator.ts';

export const onPostgres = Boolean(process.env.DATABASE_URL);

/** One master key for every test service: on PostgreSQL they share rows sealed by it (as API nodes do). */
export const TEST_MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  auth?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/**
 * Requests `call` does not hold to openapi.json: CORS preflights (answered by the CORS middleware, not an
 * operation) and the MCP endpoint (JSON-RPC, described by MCP itself, not by the REST document).
 */
const outsideRestContract = (method: string, path: string) =>
  method.toUpperCase() === 'OPTIONS' || path.startsWith('/mcp/');

export type Service = Awaited<ReturnType<typeof startService>>;

export interface StartServiceOptions {
  /** Environment the service's config reads, over the test defaults (an in-memory store, silent logs, no rate limits). */
  env?: Record<string, string>;
  /** The connector catalog (default: the built-ins). */
  connectors?: readonly ConnectorDefinition[];
  /** Collects the service's log lines (at `debug`); without it the service logs nothing. */
  logs?: string[];
  /** The resolver behind outbound requests (a test resolver maps names to loopback). */
  resolve?: Resolve;
  /** Every MCP request through the SDK (see CreateAppOptions). */
  mcpSdkOnly?: boolean;
  /**
   * A database of the service's own instead of the worker's shared one (default false). On PGlite it is a clone of
   * the worker's migrated database, so it starts empty; on PostgreSQL pass a private database's URL as
   * `env.DATABASE_URL` as well. For a service that must not meet the rows or the engines of other files: a sweep of
   * every queued run, a purge of every old row, a count of a whole table.
   */
  ownStore?: boolean;
}

/**
 * The worker's PGlite databases. vitest runs every file of a worker in one module graph (`isolate: false`), so the
 * WebAssembly build, the database and the migrations are paid once a worker, not once a file. `template` is migrated
 * and never written; `shared` (a clone of it) is the store every file's services use, as API nodes share a
 * PostgreSQL database. Kept on `globalThis` so that a module graph vitest rebuilds still finds them.
 */
const WORKER_DB = Symbol.for('inlay.test-kit.pglite');
type WorkerDb = { template: Promise<Store>; shared?: Promise<Store> };
type WithWorkerDb = typeof globalThis & { [WORKER_DB]?: WorkerDb };

function workerDb(): WorkerDb {
  const g = globalThis as WithWorkerDb;
  g[WORKER_DB] ??= {
    template: createStore({ dataDir: 'memory://' }).then(async (store) => {
      await store.migrate();
      return store;
    }),
  };
  return g[WORKER_DB];
}

/** A new store on a clone of the worker's migrated template: the schema, and no rows. */
async function freshStore(): Promise<Store> {
  const template = await workerDb().template;
  // clone() is typed as the interface; it returns a PGlite.
  return createStore({ pglite: (await template.pglite!.clone()) as NonNullable<Store['pglite']> });
}

/**
 * The store handed to the service: none on PostgreSQL or with a PGlite folder in `env` (the service opens those
 * itself), a fresh one for `ownStore`, else the worker's shared one.
 */
async function storeFor(opts: StartServiceOptions, config: Config): Promise<Store | undefined> {
  if (config.databaseUrl || !config.dataDir.startsWith('memory://')) return undefined;
  if (opts.ownStore) return freshStore();
  const db = workerDb();
  db.shared ??= freshStore();
  return db.shared;
}

/** Starts the real service on 127.0.0.1 on the worker's PGlite store, or on PostgreSQL when DATABASE_URL is set. */
export async function startService(opts: StartServiceOptions = {}) {
  const server = createServer();
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    INLAY_DATA_DIR: 'memory://',
    INLAY_PUBLIC_URL: url,
    INLAY_MASTER_KEY: TEST_MASTER_KEY,
    LOG_LEVEL: opts.logs ? 'debug' : 'silent',
    INLAY_RATE_LIMIT_PER_KEY: '0',
    INLAY_RATE_LIMIT_PER_USER: '0',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...opts.env,
  });
  const store = await storeFor(opts, config);
  const ownsStore = Boolean(store && opts.ownStore);
  const sink = opts.logs;
  const logger = createLogger(
    config.logLevel,
    sink ? { write: (line: string) => void sink.push(line) } : undefined,
  );
  const app: InlayApp = await createApp(config, {
    logger,
    connectors: opts.connectors,
    resolve: opts.resolve,
    mcpSdkOnly: opts.mcpSdkOnly,
    store,
  });
  server.on('request', app);

  // The document this very service serves, fetched once: every reply of `call` is held to it.
  let contract: Promise<OpenApiResponseValidator> | undefined;
  const served = () =>
    (contract ??= fetch(`${url}/openapi.json`)
      .then((r) => r.json() as Promise<Parameters<typeof validatorFor>[0]>)
      .then(validatorFor));

  async function call<T = any>(method: string, path: string, o: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.auth) headers.authorization ??= `Bearer ${o.auth}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    if (!outsideRestContract(method, path)) {
      const problems = (await served()).check({
        method,
        path,
        status: res.status,
        contentType: res.headers.get('content-type'),
        text,
      });
      if (problems.length)
        throw new Error(`The response does not match openapi.json:\n${problems.slice(0, 10).join('\n')}`);
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return {
    url,
    app,
    ctx: app.context,
    db: app.context.db,
    config,
    call,
    /** A fresh account with its API key. */
    account: (name = 'Test account') => createAccount(app.context.db, name),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await app.close();
      if (ownsStore) await store!.close();
    },
  };
}

const SHARED_SERVICE = Symbol.for('inlay.test-kit.service');
type WithService = typeof globalThis & { [SHARED_SERVICE]?: Promise<Service> };

/**
 * The worker's service with the default options, started by the first file that asks and shared by every later
 * one: a file isolates itself by its own account and users (`svc.account()`). Its `close()` does nothing; the
 * service lives as long as the worker. A file that needs other options calls `startService(options)` instead.
 */
export function sharedService(): Promise<Service> {
  const g = globalThis as WithService;
  g[SHARED_SERVICE] ??= startService().then((svc) => ({ ...svc, close: async () => {} }));
  return g[SHARED_SERVICE];
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const ISO_MS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Asserts a problem+json body that names the field and the rule. */
export function expectProblem(reply: Reply, status: number, code: string, field?: string, rule?: string) {
  if (reply.status !== status) throw new Error(`expected ${status}, got ${reply.status}: ${reply.text}`);
  if (!reply.headers.get('content-type')?.startsWith('application/problem+json'))
    throw new Error(`expected problem+json, got ${reply.headers.get('content-type')}`);
  const b = reply.body;
  if (
    b.status !== status ||
    b.code !== code ||
    typeof b.message !== 'string' ||
    b.message !== b.detail ||
    !b.type ||
    !b.title
  )
    throw new Error(`bad problem body: ${reply.text}`);
  if (field) {
    const hit = (b.errors ?? []).find(
      (e: { field: string; rule: string }) => e.field === field && (!rule || e.rule === rule),
    );
    if (!hit) throw new Error(`no error for ${field}${rule ? ` (${rule})` : ''}: ${reply.text}`);
  }
  if (/\n\s+at /.test(reply.text)) throw new Error('stack trace in a response');
}

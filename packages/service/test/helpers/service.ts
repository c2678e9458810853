import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConnectorDefinition, Resolve } from '@inlay/connectors';
import { createAccount, createApp, createLogger, type InlayApp, loadConfig } from '../../src/index.ts';
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

/** Starts the real service on 127.0.0.1 with an in-memory PGlite, or on PostgreSQL when DATABASE_URL is set. */
export async function startService(
  opts: {
    env?: Record<string, string>;
    connectors?: readonly ConnectorDefinition[];
    logs?: string[];
    /** The resolver behind outbound requests (a test resolver maps names to loopback). */
    resolve?: Resolve;
    /** Every MCP request through the SDK (see CreateAppOptions). */
    mcpSdkOnly?: boolean;
  } = {},
) {
  const server = createServer();
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
    },
  };
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

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type EgressAllowEntry, EgressAllowError, parseEgressAllow } from '@inlay/connectors';
import { z } from 'zod';

export interface RateLimitConfig {
  /** Requests per window per API key; 0 turns the limit off. */
  perKey: number;
  /** Requests per window per user JWT. */
  perUser: number;
  /** Calls per window per installation's webhook URL; 0 turns the limit off. */
  perWebhook: number;
  /** Proxy calls per window per user (`/connectors/{connector}/proxy/…`); 0 turns the limit off. */
  perProxyUser: number;
  windowSeconds: number;
  /** How often a node sends its batched counts to the shared store; 0 sends every request at once. */
  syncMs: number;
  /** `redis://…` to share counters through Redis instead of PostgreSQL. */
  redisUrl?: string;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** `INLAY_CONSOLE_DIR`: the console's built files, served at `/console`; unset, the service has no console. */
  consoleDir?: string;
  /** `INLAY_PGLITE_TEMPLATE_DIR`: where a new PGlite data folder's migrated template is kept for the next one. */
  pgliteTemplateDir?: string;
  /** PostgreSQL; when unset the store is PGlite in `dataDir` (or in memory for `memory://`). */
  databaseUrl?: string;
  /** Current master key first, then older ones still accepted for decryption. */
  masterKeys: Buffer[];
  bootstrapApiKey?: string;
  /** `INLAY_BOOTSTRAP_ACCOUNT_NAME`: the name of the account `INLAY_BOOTSTRAP_API_KEY` creates. */
  bootstrapAccountName?: string;
  mcpPort?: number;
  /** Base of the MCP URLs handed to agents: `INLAY_MCP_PUBLIC_URL`, else the public URL (on `mcpPort` if set). */
  mcpPublicUrl: string;
  /**
   * `Host` names the MCP endpoint answers (against DNS rebinding): those of the public URLs, plus the
   * loopback names when neither public URL is configured and NODE_ENV is not production.
   */
  mcpAllowedHosts: string[];
  /** `INLAY_MCP_ALLOWED_ORIGINS`: origins of browser-based MCP clients, beyond the public URLs' own. */
  mcpAllowedOrigins: string[];
  /** `execute_action_inlay` calls one user may have in flight on one node; more are refused at once. */
  mcpMaxConcurrentActions: number;
  logLevel: string;
  jwtTtlSeconds: number;
  logRetentionDays: number;
  queue: 'memory' | 'pg-boss';
  /** When false this node only enqueues (API node); `inlay worker` processes run jobs. */
  runWorkers: boolean;
  workerConcurrency: number;
  stepTimeoutMs: number;
  /** Worker threads that evaluate JSONata (transform steps, templates) off the event loop. */
  expressionWorkers: number;
  /** Heap budget of one expression evaluation, in MB; beyond it the step fails with expression_memory. */
  expressionMemoryMb: number;
  /** Niceness of the expression workers, 0 – 19 (19: they yield the CPU to the service). */
  expressionNice: number;
  stepRetries: number;
  maxStepOutputBytes: number;
  /** The most items a `forEach` step may loop over; more fail the step. */
  maxIterations: number;
  /** The most webhook endpoints one account may have. */
  maxWebhookEndpoints: number;
  /** The most active (unrevoked) API keys one account may have. */
  maxApiKeys: number;
  /** The most step occurrences one run may record, nested loops included; one more fails the run. */
  maxStepsPerRun: number;
  /** The most bytes of step inputs and outputs one run may store; past it the run fails. */
  maxRunOutputBytes: number;
  /** A run's share of a logs page: its steps past this many bytes of inputs and outputs are cut with a marker. */
  maxLogEntryBytes: number;
  /**
   * One OAuth callback for every connector (`/oauth/callback`) instead of one per connector
   * (`/oauth/callback/<connector>`): for provider apps registered with the shared one. Off by default.
   */
  oauthSharedRedirect: boolean;
  /** First backoff of a step retry; doubles per attempt, with jitter. */
  retryBaseMs: number;
  /** First retry delay of an account webhook delivery; four times longer per attempt, for 24 hours. */
  webhookRetryBaseMs: number;
  /** How often queued account webhook deliveries are looked for (they are also sent as soon as queued). */
  webhookPollMs: number;
  /** Cap of one retry wait, `Retry-After` included. */
  retryMaxMs: number;
  /** How long a worker holds a run without a heartbeat before another may take it over. */
  runLeaseMs: number;
  /** Starts of one run (worker lost mid-run counts) before it is marked failed. */
  runMaxAttempts: number;
  /** A queued run not claimed within this time is dispatched again (its first dispatch was lost). */
  dispatchTimeoutMs: number;
  schedulerIntervalMs: number;
  /** The shortest `every` an app trigger may poll at. */
  pollMinIntervalMs: number;
  retentionIntervalMs: number;
  /** How often an idle pg-boss worker polls for jobs. */
  queuePollMs: number;
  /** How long shutdown waits for running executions before handing them back to the queue. */
  drainTimeoutMs: number;
  requestTimeoutMs: number;
  /** Memory for cached reads (users, workflow lists), in bytes; 0 turns the cache off. */
  readCacheBytes: number;
  /**
   * Memory for kept log pages, in bytes; a quarter of `readCacheBytes` when absent. Not read from the
   * environment: the bench sets 0 to measure the composed page on every request.
   */
  logPagesBytes?: number;
  /**
   * Memory for kept log entries (one run's each, reused by every page showing it), in bytes; a quarter of
   * `readCacheBytes` when absent. Not read from the environment: the bench sets 0 to measure composing.
   */
  logEntriesBytes?: number;
  /** Largest provider answer the proxy streams back (`INLAY_PROXY_MAX_RESPONSE_MB`). */
  proxyMaxResponseBytes: number;
  rateLimit: RateLimitConfig;
  /** Express `trust proxy`: true, a hop count, or addresses/subnets/names. */
  trustProxy: boolean | number | string;
  /**
   * Targets user-influenced requests may reach although the egress policy refuses their address
   * (`INLAY_EGRESS_ALLOW`: hostnames, `*.` subdomains, addresses, CIDRs, each optionally with `:port`).
   */
  egressAllow: EgressAllowEntry[];
  /** Environment the connector runtime reads its `INLAY_CONNECTOR_*` overrides from. */
  env: Record<string, string | undefined>;
  production: boolean;
  /** `INLAY_METRICS_PORT`: serves `GET /metrics` (Prometheus text) on this port of its own, without a token. */
  metricsPort?: number;
  /** `INLAY_METRICS_TOKEN`: serves `GET /metrics` on the main port to `Authorization: Bearer <token>`. */
  metricsToken?: string;
}

const int = (name: string, min: number, max: number, dflt: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`)
    .default(dflt);

const EnvSchema = z.object({
  PORT: int('PORT', 0, 65535, 8080),
  INLAY_HOST: z.string().default('127.0.0.1'),
  INLAY_PUBLIC_URL: z.url({ error: 'INLAY_PUBLIC_URL must be an absolute URL' }).optional(),
  INLAY_DATA_DIR: z.string().default('.inlay-data'),
  INLAY_CONSOLE_DIR: z.string().min(1, 'INLAY_CONSOLE_DIR must name a folder').optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  INLAY_MASTER_KEY: z.string().optional(),
  INLAY_MASTER_KEY_PREVIOUS: z.string().optional(),
  INLAY_BOOTSTRAP_API_KEY: z
    .string()
    .regex(
      /^inlay_(live|test)_[A-Za-z0-9_-]{16,}$/,
      'INLAY_BOOTSTRAP_API_KEY must look like inlay_live_<16+ chars>',
    )
    .optional(),
  INLAY_BOOTSTRAP_ACCOUNT_NAME: z.string().trim().min(1).max(200).optional(),
  INLAY_PGLITE_TEMPLATE_DIR: z.string().trim().min(1).optional(),
  INLAY_MCP_PORT: int('INLAY_MCP_PORT', 1, 65535, 0).transform((v) => v || undefined),
  INLAY_MCP_PUBLIC_URL: z.url('INLAY_MCP_PUBLIC_URL must be an absolute URL').optional(),
  INLAY_MCP_ALLOWED_ORIGINS: z.string().optional(),
  INLAY_MCP_MAX_CONCURRENT_ACTIONS: int('INLAY_MCP_MAX_CONCURRENT_ACTIONS', 1, 1000, 4),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INLAY_JWT_TTL_SECONDS: int('INLAY_JWT_TTL_SECONDS', 60, 86_400, 1800),
  INLAY_LOG_RETENTION_DAYS: int('INLAY_LOG_RETENTION_DAYS', 1, 3650, 30),
  INLAY_QUEUE: z.enum(['memory', 'pg-boss']).optional(),
  INLAY_RUN_WORKERS: z.enum(['true', 'false']).optional(),
  INLAY_WORKER_CONCURRENCY: int('INLAY_WORKER_CONCURRENCY', 1, 256, 8),
  INLAY_STEP_TIMEOUT_MS: int('INLAY_STEP_TIMEOUT_MS', 100, 600_000, 30_000),
  INLAY_EXPRESSION_WORKERS: int('INLAY_EXPRESSION_WORKERS', 1, 64, 2),
  INLAY_EXPRESSION_MEMORY_MB: int('INLAY_EXPRESSION_MEMORY_MB', 16, 4096, 64),
  INLAY_EXPRESSION_NICE: int('INLAY_EXPRESSION_NICE', 0, 19, 19),
  INLAY_STEP_RETRIES: int('INLAY_STEP_RETRIES', 0, 10, 3),
  INLAY_MAX_ITERATIONS: int('INLAY_MAX_ITERATIONS', 1, 1_000_000, 1000),
  INLAY_MAX_WEBHOOK_ENDPOINTS: int('INLAY_MAX_WEBHOOK_ENDPOINTS', 1, 10_000, 20),
  INLAY_MAX_API_KEYS: int('INLAY_MAX_API_KEYS', 1, 10_000, 20),
  INLAY_MAX_STEPS_PER_RUN: int('INLAY_MAX_STEPS_PER_RUN', 1, 10_000_000, 10_000),
  INLAY_MAX_RUN_OUTPUT_MB: int('INLAY_MAX_RUN_OUTPUT_MB', 1, 10_240, 100),
  INLAY_OAUTH_SHARED_REDIRECT: z.enum(['true', 'false']).optional(),
  INLAY_MAX_LOG_ENTRY_BYTES: int('INLAY_MAX_LOG_ENTRY_BYTES', 1024, 100 * 1024 * 1024, 1024 * 1024),
  INLAY_MAX_STEP_OUTPUT_BYTES: int('INLAY_MAX_STEP_OUTPUT_BYTES', 1024, 100 * 1024 * 1024, 10 * 1024 * 1024),
  INLAY_RETRY_BASE_MS: int('INLAY_RETRY_BASE_MS', 1, 60_000, 1000),
  INLAY_WEBHOOK_RETRY_BASE_MS: int('INLAY_WEBHOOK_RETRY_BASE_MS', 1, 3_600_000, 5000),
  INLAY_WEBHOOK_POLL_MS: int('INLAY_WEBHOOK_POLL_MS', 10, 600_000, 1000),
  INLAY_RETRY_MAX_MS: int('INLAY_RETRY_MAX_MS', 1, 600_000, 30_000),
  INLAY_RUN_LEASE_MS: int('INLAY_RUN_LEASE_MS', 300, 3_600_000, 60_000),
  INLAY_RUN_MAX_ATTEMPTS: int('INLAY_RUN_MAX_ATTEMPTS', 1, 10, 3),
  INLAY_DISPATCH_TIMEOUT_MS: int('INLAY_DISPATCH_TIMEOUT_MS', 500, 86_400_000, 300_000),
  INLAY_SCHEDULER_INTERVAL_MS: int('INLAY_SCHEDULER_INTERVAL_MS', 50, 3_600_000, 5_000),
  INLAY_POLL_MIN_INTERVAL_MS: int('INLAY_POLL_MIN_INTERVAL_MS', 10, 86_400_000, 60_000),
  INLAY_RETENTION_INTERVAL_MS: int('INLAY_RETENTION_INTERVAL_MS', 50, 604_800_000, 3_600_000),
  INLAY_QUEUE_POLL_MS: int('INLAY_QUEUE_POLL_MS', 500, 60_000, 2_000),
  INLAY_DRAIN_TIMEOUT_MS: int('INLAY_DRAIN_TIMEOUT_MS', 0, 600_000, 10_000),
  INLAY_REQUEST_TIMEOUT_MS: int('INLAY_REQUEST_TIMEOUT_MS', 1000, 600_000, 30_000),
  INLAY_READ_CACHE_MB: int('INLAY_READ_CACHE_MB', 0, 65_536, 64),
  INLAY_RATE_LIMIT_PER_KEY: int('INLAY_RATE_LIMIT_PER_KEY', 0, 10_000_000, 6000),
  INLAY_RATE_LIMIT_PER_USER: int('INLAY_RATE_LIMIT_PER_USER', 0, 10_000_000, 600),
  INLAY_RATE_LIMIT_PER_WEBHOOK: int('INLAY_RATE_LIMIT_PER_WEBHOOK', 0, 10_000_000, 120),
  INLAY_RATE_LIMIT_WINDOW_SECONDS: int('INLAY_RATE_LIMIT_WINDOW_SECONDS', 1, 86_400, 60),
  INLAY_RATE_LIMIT_SYNC_MS: int('INLAY_RATE_LIMIT_SYNC_MS', 0, 10_000, 100),
  INLAY_PROXY_RATE_LIMIT_PER_USER: int('INLAY_PROXY_RATE_LIMIT_PER_USER', 0, 10_000_000, 300),
  INLAY_PROXY_MAX_RESPONSE_MB: int('INLAY_PROXY_MAX_RESPONSE_MB', 1, 4096, 50),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis://')
    .optional(),
  INLAY_TRUST_PROXY: z.string().optional(),
  INLAY_EGRESS_ALLOW: z.string().optional(),
  INLAY_METRICS_PORT: int('INLAY_METRICS_PORT', 1, 65535, 0).transform((v) => v || undefined),
  INLAY_METRICS_TOKEN: z.string().min(16, 'INLAY_METRICS_TOKEN must be at least 16 characters').optional(),
  NODE_ENV: z.string().optional(),
});

/** Every environment variable the service reads (besides `INLAY_CONNECTOR_<ID>_*`); each is in docs/deployment.md. */
export const ENV_VARS: readonly string[] = Object.keys(EnvSchema.shape);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseMasterKey(value: string, name = 'INLAY_MASTER_KEY'): Buffer {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32 || key.toString('base64') !== value.trim().replace(/\s/g, ''))
    throw new ConfigError(`${name} must be 32 bytes, base64-encoded (openssl rand -base64 32)`);
  return key;
}

/** In development the master key lives next to the data; production must provide it. */
function developmentMasterKey(dataDir: string, inMemory: boolean, warn: (msg: string) => void): Buffer {
  if (inMemory) return randomBytes(32);
  const file = join(dataDir, 'master.key');
  if (existsSync(file)) return parseMasterKey(readFileSync(file, 'utf8'), file);
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  warn(
    `INLAY_MASTER_KEY is not set: generated a development key in ${file}. Set INLAY_MASTER_KEY in production.`,
  );
  return key;
}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  opts: { warn?: (msg: string) => void } = {},
): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('; '));
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const warn = opts.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
  const inMemory = e.INLAY_DATA_DIR.startsWith('memory://');
  const dataDir = inMemory ? e.INLAY_DATA_DIR : resolve(e.INLAY_DATA_DIR);
  let current: Buffer;
  if (e.INLAY_MASTER_KEY) current = parseMasterKey(e.INLAY_MASTER_KEY);
  else if (production) throw new ConfigError('INLAY_MASTER_KEY is required when NODE_ENV=production');
  else current = developmentMasterKey(dataDir, inMemory, warn);
  const previous = (e.INLAY_MASTER_KEY_PREVIOUS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((k) => parseMasterKey(k, 'INLAY_MASTER_KEY_PREVIOUS'));
  const queue = e.INLAY_QUEUE ?? 'memory';
  if (queue === 'pg-boss' && !e.DATABASE_URL) throw new ConfigError('INLAY_QUEUE=pg-boss needs DATABASE_URL');
  checkConnectorUrls(env);
  const publicUrl = (e.INLAY_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const mcpBase = mcpPublicUrl(publicUrl, e.INLAY_MCP_PORT, e.INLAY_MCP_PUBLIC_URL);
  const hosts = new Set([new URL(publicUrl).hostname, new URL(mcpBase).hostname]);
  if (!production && !e.INLAY_PUBLIC_URL && !e.INLAY_MCP_PUBLIC_URL)
    for (const h of LOOPBACK_HOSTS) hosts.add(h);
  return {
    port: e.PORT,
    host: e.INLAY_HOST,
    publicUrl,
    dataDir,
    consoleDir: e.INLAY_CONSOLE_DIR === undefined ? undefined : resolve(e.INLAY_CONSOLE_DIR),
    pgliteTemplateDir: e.INLAY_PGLITE_TEMPLATE_DIR && resolve(e.INLAY_PGLITE_TEMPLATE_DIR),
    databaseUrl: e.DATABASE_URL,
    masterKeys: [current, ...previous],
    bootstrapApiKey: e.INLAY_BOOTSTRAP_API_KEY,
    bootstrapAccountName: e.INLAY_BOOTSTRAP_ACCOUNT_NAME,
    mcpPort: e.INLAY_MCP_PORT,
    mcpPublicUrl: mcpBase,
    mcpAllowedHosts: [...hosts],
    mcpAllowedOrigins: origins(e.INLAY_MCP_ALLOWED_ORIGINS, 'INLAY_MCP_ALLOWED_ORIGINS'),
    mcpMaxConcurrentActions: e.INLAY_MCP_MAX_CONCURRENT_ACTIONS,
    logLevel: e.LOG_LEVEL,
    jwtTtlSeconds: e.INLAY_JWT_TTL_SECONDS,
    logRetentionDays: e.INLAY_LOG_RETENTION_DAYS,
    queue,
    runWorkers: e.INLAY_RUN_WORKERS !== 'false',
    workerConcurrency: e.INLAY_WORKER_CONCURRENCY,
    stepTimeoutMs: e.INLAY_STEP_TIMEOUT_MS,
    expressionWorkers: e.INLAY_EXPRESSION_WORKERS,
    expressionMemoryMb: e.INLAY_EXPRESSION_MEMORY_MB,
    expressionNice: e.INLAY_EXPRESSION_NICE,
    stepRetries: e.INLAY_STEP_RETRIES,
    maxStepOutputBytes: e.INLAY_MAX_STEP_OUTPUT_BYTES,
    maxIterations: e.INLAY_MAX_ITERATIONS,
    maxStepsPerRun: e.INLAY_MAX_STEPS_PER_RUN,
    maxWebhookEndpoints: e.INLAY_MAX_WEBHOOK_ENDPOINTS,
    maxApiKeys: e.INLAY_MAX_API_KEYS,
    maxRunOutputBytes: e.INLAY_MAX_RUN_OUTPUT_MB * 1024 * 1024,
    maxLogEntryBytes: e.INLAY_MAX_LOG_ENTRY_BYTES,
    oauthSharedRedirect: e.INLAY_OAUTH_SHARED_REDIRECT === 'true',
    retryBaseMs: e.INLAY_RETRY_BASE_MS,
    webhookRetryBaseMs: e.INLAY_WEBHOOK_RETRY_BASE_MS,
    webhookPollMs: e.INLAY_WEBHOOK_POLL_MS,
    retryMaxMs: e.INLAY_RETRY_MAX_MS,
    runLeaseMs: e.INLAY_RUN_LEASE_MS,
    runMaxAttempts: e.INLAY_RUN_MAX_ATTEMPTS,
    dispatchTimeoutMs: e.INLAY_DISPATCH_TIMEOUT_MS,
    schedulerIntervalMs: e.INLAY_SCHEDULER_INTERVAL_MS,
    pollMinIntervalMs: e.INLAY_POLL_MIN_INTERVAL_MS,
    retentionIntervalMs: e.INLAY_RETENTION_INTERVAL_MS,
    queuePollMs: e.INLAY_QUEUE_POLL_MS,
    drainTimeoutMs: e.INLAY_DRAIN_TIMEOUT_MS,
    requestTimeoutMs: e.INLAY_REQUEST_TIMEOUT_MS,
    readCacheBytes: e.INLAY_READ_CACHE_MB * 1024 * 1024,
    proxyMaxResponseBytes: e.INLAY_PROXY_MAX_RESPONSE_MB * 1024 * 1024,
    rateLimit: {
      perKey: e.INLAY_RATE_LIMIT_PER_KEY,
      perUser: e.INLAY_RATE_LIMIT_PER_USER,
      perWebhook: e.INLAY_RATE_LIMIT_PER_WEBHOOK,
      perProxyUser: e.INLAY_PROXY_RATE_LIMIT_PER_USER,
      windowSeconds: e.INLAY_RATE_LIMIT_WINDOW_SECONDS,
      syncMs: e.INLAY_RATE_LIMIT_SYNC_MS,
      redisUrl: e.REDIS_URL,
    },
    trustProxy: trustProxy(e.INLAY_TRUST_PROXY),
    egressAllow: egressAllow(e.INLAY_EGRESS_ALLOW),
    env,
    production,
    metricsPort: e.INLAY_METRICS_PORT,
    metricsToken: e.INLAY_METRICS_TOKEN,
  };
}

/** `true`, a hop count (`1`: trust the nearest proxy only), or Express's address/subnet/name list. */
function trustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  // Express reads a number as a hop count but the string '1' as an address.
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** A comma-separated list of origins (`scheme://host[:port]`), normalised as `URL.origin` writes them. */
function origins(value: string | undefined, name: string): string[] {
  const out = new Set<string>();
  for (const item of (value ?? '').split(',')) {
    const v = item.trim();
    if (!v) continue;
    let url: URL | undefined;
    try {
      url = new URL(v);
    } catch {}
    const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username && !v.endsWith('#');
    if (!url || !bare || !['http:', 'https:'].includes(url.protocol))
      throw new ConfigError(`${name}: "${v}" is not an http(s) origin (scheme://host[:port], no path)`);
    out.add(url.origin);
  }
  return [...out];
}

function egressAllow(value: string | undefined): EgressAllowEntry[] {
  try {
    return parseEgressAllow(value);
  } catch (err) {
    if (err instanceof EgressAllowError) throw new ConfigError(`INLAY_EGRESS_ALLOW: ${err.message}`);
    throw err;
  }
}

const CONNECTOR_URL = /^INLAY_CONNECTOR_[A-Z0-9_]+_(BASE_URL|AUTHORIZE_URL|TOKEN_URL)$/;

/** Operator URLs are trusted as written, so they must at least be absolute http(s) URLs. */
function checkConnectorUrls(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) {
    if (!CONNECTOR_URL.test(name) || value === undefined) continue;
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {}
    if (!ok) throw new ConfigError(`${name} must be an absolute http(s) URL`);
  }
}

function mcpPublicUrl(publicUrl: string, mcpPort?: number, explicit?: string): string {
  if (explicit) return explicit.replace(/\/+$/, '');
  if (!mcpPort) return publicUrl;
  const url = new URL(publicUrl);
  url.port = String(mcpPort);
  return url.toString().replace(/\/+$/, '');
}

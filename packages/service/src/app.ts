import { createServer, type Server } from 'node:http';
import {
  type ConnectorDefinition,
  ConnectorRuntime,
  catalog,
  configureExpressions,
  EgressPolicy,
  expressionPoolEvents,
  type Resolve,
  type WorkerStartFailure,
} from '@inlay/connectors';
import cors from 'cors';
import express, { type Express } from 'express';
import { ensureBootstrapAccount } from './accounts/accounts.ts';
import { apiKeyRoutes } from './accounts/api-key-routes.ts';
import { settingsRoutes } from './accounts/settings-routes.ts';
import type { Config } from './config.ts';
import { connectorImportRoutes } from './connectors/import-routes.ts';
import { connectorOptionsRoutes } from './connectors/options-routes.ts';
import { connectorIconRoutes, connectorsRoutes } from './connectors/routes.ts';
import { consoleSessionRoutes, consoleStatic } from './console/routes.ts';
import type { AppContext } from './context.ts';
import { CredentialService } from './credentials/credential-service.ts';
import { oauthAppRoutes } from './credentials/oauth-app-routes.ts';
import { oauthCallbackRoutes } from './credentials/oauth-callback.ts';
import { isLoopback, OAuthClient } from './credentials/oauth-client.ts';
import { credentialsRoutes } from './credentials/routes.ts';
import { Vault } from './credentials/vault.ts';
import { ConnectorRegistry } from './custom-connectors/connector-registry.ts';
import { customConnectorRoutes } from './custom-connectors/routes.ts';
import { appHookRoutes } from './engine/app-triggers/hook-routes.ts';
import { Engine } from './engine/engine.ts';
import { runRoutes } from './engine/routes.ts';
import { webhookRoutes } from './engine/webhook-routes.ts';
import { accountExecutionsRoutes } from './executions/account-routes.ts';
import { executionsRoutes } from './executions/routes.ts';
import { apiVersion } from './http/api-version.ts';
import { authenticate, createAuthenticator } from './http/auth.ts';
import { byFirstSegment } from './http/by-first-segment.ts';
import { answerClientErrors } from './http/client-errors.ts';
import { errorHandler, notFoundRoute } from './http/error-handler.ts';
import { jsonBody } from './http/json-body.ts';
import { requestId } from './http/request-id.ts';
import { requestLog } from './http/request-log.ts';
import { requireJson } from './http/require-json.ts';
import { announceNeedsOf } from './installations/announce-needs.ts';
import { installationsRoutes } from './installations/routes.ts';
import { createLogger, type Logger } from './logger.ts';
import { mcpEndpoint } from './mcp/endpoint.ts';
import { createMcpPorts } from './mcp/ports.ts';
import { mcpServerRoutes } from './mcp/routes.ts';
import { docsRoutes } from './meta/docs-routes.ts';
import { metaRoutes } from './meta/routes.ts';
import { Metrics } from './metrics/metrics.ts';
import { metricsApp, metricsRoutes } from './metrics/metrics-routes.ts';
import { requestMetrics } from './metrics/request-metrics.ts';
import { ProviderCallLog } from './provider-calls/provider-call-log.ts';
import { providerCallsRoutes } from './provider-calls/routes.ts';
import { ProxyMetrics } from './proxy/proxy-metrics.ts';
import { proxyRoutes, proxyStatsRoutes } from './proxy/proxy-routes.ts';
import { createLimiters } from './ratelimit/limiters.ts';
import { rateLimit } from './ratelimit/rate-limit.ts';
import { ReadCache } from './store/read-cache.ts';
import { createStore, type Store } from './store/store.ts';
import { UserTokens } from './tokens/user-tokens.ts';
import { requestSpans } from './tracing/request-spans.ts';
import { startTracing, tracing } from './tracing/tracing.ts';
import { usersRoutes } from './users/routes.ts';
import { AccountEvents } from './webhooks/account-events.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { webhookEndpointRoutes } from './webhooks/routes.ts';
import { createDefinitionCache } from './workflows/definitions.ts';
import { workflowsRoutes } from './workflows/routes.ts';

export interface CreateAppOptions {
  /** A store to use instead of the one the config describes (tests share one). */
  store?: Store;
  logger?: Logger;
  /** Connector definitions; the built-in catalog by default. */
  connectors?: readonly ConnectorDefinition[];
  /**
   * The resolver behind every outbound request (`dns.lookup` by default). Whatever it answers still
   * passes the egress policy; tests use it to map names to loopback. There is no way to swap the
   * transport itself: every request goes through the policy.
   */
  resolve?: Resolve;
  /**
   * The console's built files (`packages/console/dist` of a checkout), served at `/console`; by default
   * `config.consoleDir` (`INLAY_CONSOLE_DIR`). Without either, `/console` answers 503.
   */
  consoleDir?: string;
  /** Every MCP request through the SDK, none answered directly (tests compare the two answers). */
  mcpSdkOnly?: boolean;
}

export type InlayApp = Express & {
  context: AppContext;
  /** The workflow engine of this node (runs, queue, scheduler, retention). */
  workflowEngine: Engine;
  /** Serves only the MCP endpoint, on `INLAY_MCP_PORT`; set when that port is configured. */
  mcpApp?: Express;
  /** Serves only `GET /metrics`, on `INLAY_METRICS_PORT`; set when that port is configured. */
  metricsApp?: Express;
  close(): Promise<void>;
};

export const JSON_LIMIT = '1mb';

/** Builds the service: store (migrated), vault, signing keys, and the Express app that composes every feature. */
export async function createApp(config: Config, opts: CreateAppOptions = {}): Promise<InlayApp> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  // Traces only when the standard OTEL_* variables ask for them; the SDK is not even loaded otherwise.
  const stopTracing = await startTracing(config.env, logger);
  const store =
    opts.store ??
    (await createStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      pgliteTemplateDir: config.pgliteTemplateDir,
    }));
  const closers: (() => Promise<void> | void)[] = [];
  if (stopTracing) closers.push(stopTracing);
  if (!opts.store) closers.push(() => store.close());
  await store.migrate();
  const vault = new Vault(config.masterKeys);
  const tokens = new UserTokens(store.db, vault, config.publicUrl, config.jwtTtlSeconds);
  await tokens.init();
  if (config.bootstrapApiKey) {
    const { created, accountId } = await ensureBootstrapAccount(
      store.db,
      config.bootstrapApiKey,
      config.bootstrapAccountName,
    );
    if (created) logger.info({ accountId }, 'created the bootstrap account');
  }
  // JSONata runs in worker processes, where a runaway expression can be stopped (one pool per process).
  configureExpressions({
    workers: config.expressionWorkers,
    memoryMb: config.expressionMemoryMb,
    nice: config.expressionNice,
  });
  // A worker that cannot start fails expressions until one does: the operator learns why (its stderr).
  const onWorkerStartFailed = (f: WorkerStartFailure) =>
    logger.warn(
      { failures: f.failures, retryInMs: f.retryInMs, stderr: f.stderr || undefined },
      `expression worker failed: ${f.reason}`,
    );
  expressionPoolEvents.on('worker-start-failed', onWorkerStartFailed);
  closers.push(() => void expressionPoolEvents.off('worker-start-failed', onWorkerStartFailed));
  // One egress policy for every outbound request: connector calls, option sources, credential tests, OAuth.
  const egress = new EgressPolicy({ allow: config.egressAllow, resolve: opts.resolve });
  closers.push(() => egress.close());
  const connectors = new ConnectorRuntime({
    connectors: opts.connectors ?? catalog,
    env: config.env,
    egress,
  });
  // Plain-http OAuth endpoints only for local sandboxes, or anywhere outside production.
  const oauth = new OAuthClient(connectors, { allowHttp: (url) => !config.production || isLoopback(url) });
  const reads = new ReadCache(store.changes, { maxBytes: config.readCacheBytes });
  const registry = new ConnectorRegistry(store.db, connectors, reads);
  const providerCalls = new ProviderCallLog(store.db, logger);
  const ctx: AppContext = {
    config,
    store,
    db: store.db,
    vault,
    tokens,
    connectors,
    registry,
    credentials: new CredentialService(store.db, vault, {
      connectors: registry,
      oauth,
      logger,
      rowLocks: store.kind === 'postgres',
      calls: providerCalls,
    }),
    logger,
    // Off unless asked for: every hot path then pays one undefined check.
    metrics:
      config.metricsPort || config.metricsToken
        ? new Metrics(store.db, (id) => (connectors.get(id) ? id : 'custom'), logger)
        : undefined,
    proxyMetrics: new ProxyMetrics(store.db, logger),
    providerCalls,
    events: new AccountEvents(store.db, logger),
    reads,
    onClose: (fn) => closers.push(fn),
  };
  // Saves the proxy counts still in memory; runs before the store closes (closers run last first).
  closers.push(() => ctx.proxyMetrics.close());
  closers.push(() => ctx.providerCalls.close());
  if (ctx.metrics) closers.push(() => ctx.metrics?.registry.clear());
  closers.push(
    store.changes.watch((live, reason) => {
      if (live) logger.info('change feed live: cached reads on');
      else logger.warn({ reason }, 'change feed down: reads go to the database until it is back');
    }),
  );
  // Account webhooks: credential status changes become events; the dispatcher sends what is queued.
  ctx.credentials.onStatusChange(({ row }) => {
    if (row.status === 'needs_reconnect') void announceNeedsOf(ctx, row);
    if (row.status !== 'connected' && row.status !== 'needs_reconnect') return;
    void ctx.events.emit(row.accountId, `credential.${row.status}`, {
      credentialId: row.id,
      userId: row.userId,
      connector: row.connector,
      name: row.name,
      status: row.status,
      statusReason: row.statusReason,
      ...(row.accountLabel ? { accountLabel: row.accountLabel } : {}),
    });
  });
  const dispatcher = new WebhookDispatcher(store.db, vault, egress, logger, {
    retryBaseMs: config.webhookRetryBaseMs,
    pollMs: config.webhookPollMs,
    onAttempt: ctx.metrics && ((status) => ctx.metrics?.webhookDeliveries.inc({ status })),
  });
  ctx.events.onQueued(() => dispatcher.kick());
  dispatcher.start();
  closers.push(() => dispatcher.stop());
  const defs = createDefinitionCache(store.db, registry, config.publicUrl);
  const auth = createAuthenticator(ctx);
  const engine = new Engine(ctx, defs);
  closers.push(() => engine.stop());
  const limiters = await createLimiters(config.rateLimit, store);
  closers.push(() => limiters.close());

  const app = express() as InlayApp;
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  if (tracing) app.use(requestSpans());
  app.use(requestId, requestLog(logger));
  if (ctx.metrics) app.use(requestMetrics(ctx.metrics));
  app.use(
    cors({
      exposedHeaders: [
        'x-api-version',
        'x-request-id',
        'retry-after',
        'ratelimit',
        'ratelimit-policy',
        'x-inlay-upstream-status',
      ],
      maxAge: 600,
    }),
  );
  app.use(apiVersion);
  // Every router mounted at the root goes through byFirstSegment: a request passes by the routers none of whose
  // routes start with its first path segment, instead of walking all their layers (see by-first-segment.ts).
  // The OAuth callback is public: the provider sends the browser there without a bearer token.
  app.use(
    ...[metaRoutes(ctx), docsRoutes(ctx), connectorIconRoutes(ctx), oauthCallbackRoutes(ctx)].map(
      byFirstSegment,
    ),
  );
  // Webhooks are public too: the secret in the URL is the credential.
  app.use(
    ...[webhookRoutes(ctx, engine, limiters), appHookRoutes(ctx, defs, limiters, engine)].map(byFirstSegment),
  );
  // The console: its files are public; its sign-in trades an API key for a session cookie.
  app.use('/console', consoleStatic(opts.consoleDir ?? config.consoleDir));
  app.use(byFirstSegment(consoleSessionRoutes(ctx, jsonBody(JSON_LIMIT))));
  // Prometheus scrapes with its own bearer token, outside the API's keys and quotas.
  app.use(byFirstSegment(metricsRoutes(ctx.metrics, config.metricsToken)));
  // Quotas per API key and per user; meta routes above stay unlimited (probes, JWKS).
  const limit = rateLimit(limiters, auth, config.rateLimit.windowSeconds);
  app.use(limit);
  // MCP reads its own body (JSON-RPC errors, not problem+json) and checks its own bearer.
  const mcp = mcpEndpoint(ctx, auth, defs, createMcpPorts(engine, config.mcpMaxConcurrentActions, limiters), {
    sdkOnly: opts.mcpSdkOnly,
  });
  if (ctx.metrics && config.metricsPort) app.metricsApp = metricsApp(ctx.metrics);
  if (config.mcpPort) app.mcpApp = mcpApp([limit, mcp], logger, config.trustProxy);
  else app.all(MCP_PATH, mcp);
  // The proxy forwards bodies of any type as bytes, so it comes before the JSON-only body parser.
  app.use(byFirstSegment(proxyRoutes(ctx, auth, limiters, ctx.proxyMetrics)));
  app.use(requireJson, jsonBody(JSON_LIMIT));
  app.use(authenticate(auth));
  app.use(
    ...[
      usersRoutes(ctx, defs),
      workflowsRoutes(ctx, defs, { onToggle: engine.onToggle }),
      executionsRoutes(ctx, { beforeDeleteUserLogs: (a, u) => engine.cancelUser(a, u) }),
      accountExecutionsRoutes(ctx),
      providerCallsRoutes(ctx),
      apiKeyRoutes(ctx),
      runRoutes(ctx, engine),
      installationsRoutes(ctx, defs),
      connectorsRoutes(ctx),
      connectorImportRoutes(ctx),
      customConnectorRoutes(ctx, defs),
      credentialsRoutes(ctx),
      oauthAppRoutes(ctx),
      connectorOptionsRoutes(ctx),
      mcpServerRoutes(ctx),
      settingsRoutes(ctx),
      webhookEndpointRoutes(ctx),
      proxyStatsRoutes(ctx.proxyMetrics),
    ].map(byFirstSegment),
  );
  app.use(notFoundRoute);
  app.use(errorHandler(logger));

  await engine.start();
  app.context = ctx;
  app.workflowEngine = engine;
  app.close = async () => {
    for (const fn of closers.reverse()) await fn();
  };
  return app;
}

const MCP_PATH = '/mcp/:serverId/:accessToken';

/** The MCP endpoint on a listener of its own, so agents' traffic can be exposed or scaled apart from the API. */
function mcpApp(
  handlers: express.RequestHandler[],
  logger: Logger,
  trustProxy: Config['trustProxy'],
): Express {
  const app = express();
  app.disable('x-powered-by');
  // The Host check reads X-Forwarded-Host behind a trusted proxy, as on the API port.
  app.set('trust proxy', trustProxy);
  app.set('etag', false);
  app.use(
    requestId,
    requestLog(logger),
    cors({ exposedHeaders: ['x-request-id', 'mcp-session-id'], maxAge: 600 }),
  );
  app.all(MCP_PATH, ...handlers);
  app.use(notFoundRoute);
  app.use(errorHandler(logger));
  return app;
}

/** Listens with timeouts that keep a slow client from holding a request open forever. */
export function listen(app: Express, port: number, host: string, requestTimeoutMs = 30_000): Promise<Server> {
  // Node checks the timeouts below only every `connectionsCheckingInterval` (30 s by default).
  const server = createServer({ connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs) }, app);
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(requestTimeoutMs, 20_000);
  server.keepAliveTimeout = 5_000;
  answerClientErrors(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

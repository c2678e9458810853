#!/usr/bin/env node
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import { createAccount } from './accounts/accounts.ts';
import { checkAllowedOrigins, loadSettings, saveAllowedOrigins } from './accounts/settings.ts';
import { createApp, type InlayApp, listen } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { installedConsoleDir } from './console/installed-console.ts';
import { rotateKeys, rotationProblem } from './credentials/key-rotation.ts';
import { Vault } from './credentials/vault.ts';
import { createLogger, type Logger } from './logger.ts';
import { createStore, StoreLockedError } from './store/store.ts';

const USAGE = `Usage: inlay <command> [options]

Commands:
  serve [--port N]              Start the API (migrations run first)
  migrate                       Apply database migrations and exit
  worker                        Run workflow executions from the pg-boss queue (INLAY_QUEUE=pg-boss)
  accounts create --name NAME   Create an account; prints {"accountId","apiKey"} as one JSON line
  keys rotate [--batch-size N]  Re-encrypt every secret under INLAY_MASTER_KEY (old keys in INLAY_MASTER_KEY_PREVIOUS)
  settings allowed-origins list|add|remove --account ID [ORIGIN ...]
                                The origins OAuth may redirect or post to; prints {"allowedOrigins":[...]}

Configuration comes from the environment (PORT, DATABASE_URL, INLAY_DATA_DIR, INLAY_MASTER_KEY, ...):
every variable is listed in docs/deployment.md#configuration.
`;

/** `GET /metrics` on `INLAY_METRICS_PORT`, when it is set (API nodes and workers alike). */
async function listenMetrics(app: InlayApp, config: Config, logger: Logger): Promise<Server | undefined> {
  if (!app.metricsApp || !config.metricsPort) return undefined;
  const server = await listen(app.metricsApp, config.metricsPort, config.host, config.requestTimeoutMs);
  logger.info({ port: config.metricsPort, host: config.host }, 'inlay metrics listening');
  return server;
}

function fail(message: string, code = 2): never {
  process.stderr.write(`inlay: ${message}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfig(process.env);
  const storeOf = () =>
    createStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      pgliteTemplateDir: config.pgliteTemplateDir,
    });

  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { port: { type: 'string' } } });
      const port = values.port === undefined ? config.port : Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        fail('--port must be an integer between 0 and 65535');
      const logger = createLogger(config.logLevel);
      // The console: INLAY_CONSOLE_DIR, else @inlay/console where the command runs, if it is installed there.
      const app = await createApp(config, { logger, consoleDir: config.consoleDir ?? installedConsoleDir() });
      const server = await listen(app, port, config.host, config.requestTimeoutMs);
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      logger.info(
        { port: bound, host: config.host, publicUrl: config.publicUrl, store: app.context.store.kind },
        'inlay listening',
      );
      const mcpServer = app.mcpApp
        ? await listen(app.mcpApp, config.mcpPort ?? 0, config.host, config.requestTimeoutMs)
        : undefined;
      if (mcpServer) logger.info({ port: config.mcpPort, url: config.mcpPublicUrl }, 'inlay MCP listening');
      const metricsServer = await listenMetrics(app, config, logger);
      const stop = async () => {
        logger.info('shutting down');
        server.close();
        mcpServer?.close();
        metricsServer?.close();
        await app.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return;
    }
    case 'worker': {
      // A worker takes jobs from the shared queue; the in-process queue has nothing to hand it.
      if (config.queue !== 'pg-boss')
        fail('inlay worker needs INLAY_QUEUE=pg-boss and DATABASE_URL (PostgreSQL)');
      const logger = createLogger(config.logLevel);
      const app = await createApp({ ...config, runWorkers: true }, { logger });
      logger.info(
        { pid: process.pid, concurrency: config.workerConcurrency, queue: config.queue },
        'inlay worker started',
      );
      const metricsServer = await listenMetrics(app, config, logger);
      const stop = async () => {
        logger.info('worker stopping: finishing running executions');
        metricsServer?.close();
        await app.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return;
    }
    case 'migrate': {
      const store = await storeOf();
      await store.migrate();
      await store.close();
      process.stdout.write(`migrated (${store.kind})\n`);
      return;
    }
    case 'accounts': {
      const [sub, ...args] = rest;
      if (sub !== 'create')
        fail(`unknown accounts command "${sub ?? ''}"; use "accounts create --name NAME"`);
      const { values } = parseArgs({
        args,
        options: { name: { type: 'string' }, test: { type: 'boolean' } },
      });
      const name = values.name?.trim();
      if (!name) fail('accounts create needs --name NAME');
      const store = await storeOf();
      await store.migrate();
      const created = await createAccount(store.db, name, { mode: values.test ? 'test' : 'live' });
      await store.close();
      process.stdout.write(`${JSON.stringify(created)}\n`);
      return;
    }
    case 'keys': {
      const [sub, ...args] = rest;
      if (sub !== 'rotate') fail(`unknown keys command "${sub ?? ''}"; use "keys rotate"`);
      const { values } = parseArgs({ args, options: { 'batch-size': { type: 'string' } } });
      const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
      if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0))
        fail('--batch-size must be a positive integer');
      const store = await storeOf();
      await store.migrate();
      const summary = await rotateKeys(store.db, new Vault(config.masterKeys), { batchSize });
      await store.close();
      process.stdout.write(`${JSON.stringify(summary)}\n`);
      const problem = rotationProblem(summary);
      if (problem) fail(problem, 1);
      return;
    }
    case 'settings': {
      const [sub, action, ...args] = rest;
      if (sub !== 'allowed-origins' || !['list', 'add', 'remove'].includes(action ?? ''))
        fail('use "settings allowed-origins list|add|remove --account ID [ORIGIN ...]"');
      const { values, positionals } = parseArgs({
        args,
        options: { account: { type: 'string' } },
        allowPositionals: true,
      });
      if (!values.account) fail('settings allowed-origins needs --account ID');
      if (action !== 'list' && !positionals.length)
        fail(`settings allowed-origins ${action} needs an ORIGIN`);
      let origins: string[] = [];
      try {
        origins = checkAllowedOrigins(positionals, 'origin');
      } catch (err) {
        fail((err as Error).message);
      }
      const store = await storeOf();
      await store.migrate();
      try {
        const current = /^[0-9a-f-]{36}$/i.test(values.account)
          ? await loadSettings(store.db, values.account)
          : undefined;
        if (!current) fail(`no account ${values.account}`);
        let next = current.allowedOrigins;
        if (action === 'add') next = [...new Set([...next, ...origins])];
        if (action === 'remove') next = next.filter((o) => !origins.includes(o));
        const saved =
          action === 'list'
            ? { allowedOrigins: current.allowedOrigins }
            : await saveAllowedOrigins(store.db, values.account, next);
        process.stdout.write(`${JSON.stringify(saved)}\n`);
      } finally {
        await store.close();
      }
      return;
    }
    default:
      fail(`unknown command "${command}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (
    err instanceof ConfigError ||
    err instanceof StoreLockedError ||
    (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  )
    fail(err.message);
  process.stderr.write(`inlay: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});

import type { ConnectorRuntime } from '@inlay/connectors';
import type { Config } from './config.ts';
import type { CredentialService } from './credentials/credential-service.ts';
import type { Vault } from './credentials/vault.ts';
import type { ConnectorRegistry } from './custom-connectors/connector-registry.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { ProviderCallLog } from './provider-calls/provider-call-log.ts';
import type { ProxyMetrics } from './proxy/proxy-metrics.ts';
import type { ReadCache } from './store/read-cache.ts';
import type { Db, Store } from './store/store.ts';
import type { UserTokens } from './tokens/user-tokens.ts';
import type { AccountEvents } from './webhooks/account-events.ts';

/** What feature modules share: built once by `createApp`. */
export interface AppContext {
  config: Config;
  store: Store;
  db: Db;
  vault: Vault;
  tokens: UserTokens;
  /** The built-in catalog only: name connectors through `registry`, which knows each account's own too. */
  connectors: ConnectorRuntime;
  /** The connectors an account can use: the built-ins plus its own (`POST /connectors`). */
  registry: ConnectorRegistry;
  credentials: CredentialService;
  /** Account events for the account's webhook endpoints. */
  events: AccountEvents;
  logger: Logger;
  /** The log of every call to a provider (`GET /provider-calls`). */
  providerCalls: ProviderCallLog;
  /** Proxy calls counted per account and connector (they are not executions). */
  proxyMetrics: ProxyMetrics;
  /** The Prometheus metrics; undefined when they are off (neither INLAY_METRICS_PORT nor INLAY_METRICS_TOKEN). */
  metrics?: Metrics;
  /** Hot reads kept until a write (on any node) changes them. */
  reads: ReadCache;
  /** Called on shutdown, in reverse order of registration. */
  onClose(fn: () => Promise<void> | void): void;
}

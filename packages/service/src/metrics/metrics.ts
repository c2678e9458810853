import { expressionPoolStats } from '@inlay/connectors';
import { RUN_TRIGGER_TYPES } from '@inlay/contract';
import { sql } from 'drizzle-orm';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/store.ts';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const RUN_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];
const TRIGGERS = new Set<string>(RUN_TRIGGER_TYPES);
const CREDENTIAL_STATUSES = ['pending', 'connected', 'needs_reconnect', 'failed'] as const;

/** A connector of the built-in catalog by its id; an account's own (custom) connectors share one label. */
export type ConnectorLabel = (connector: string) => string;

/**
 * The service's Prometheus metrics, in a registry of its own (one per app). Labels are bounded sets only: route
 * templates, methods, status codes or classes, built-in connector and action ids, trigger types. Never a user or
 * account id, a raw path, or an account's own connector name (those count as `custom`).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'inlay_http_requests_total',
    help: 'API requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'inlay_http_request_duration_seconds',
    help: 'Time to answer an API request, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly runs = new Counter({
    name: 'inlay_runs_total',
    help: 'Runs finished, by status and trigger type',
    labelNames: ['status', 'trigger'] as const,
    registers: [this.registry],
  });
  readonly runDuration = new Histogram({
    name: 'inlay_run_duration_seconds',
    help: 'Time a worker spent on a run, by status and trigger type',
    labelNames: ['status', 'trigger'] as const,
    buckets: RUN_SECONDS,
    registers: [this.registry],
  });
  readonly steps = new Counter({
    name: 'inlay_steps_total',
    help: 'Action steps ended (retries included), by connector, action and status',
    labelNames: ['connector', 'action', 'status'] as const,
    registers: [this.registry],
  });
  readonly stepDuration = new Histogram({
    name: 'inlay_step_duration_seconds',
    help: 'Time of an action step, retries included, by connector, action and status',
    labelNames: ['connector', 'action', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly proxyRequests = new Counter({
    name: 'inlay_proxy_requests_total',
    help: 'Proxy calls, by connector and status class (2xx … 5xx, or error when no answer came)',
    labelNames: ['connector', 'status_class'] as const,
    registers: [this.registry],
  });
  readonly proxyDuration = new Histogram({
    name: 'inlay_proxy_request_duration_seconds',
    help: 'Time of a proxy call until its answer was streamed back, by connector and status class',
    labelNames: ['connector', 'status_class'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'inlay_webhook_deliveries_total',
    help: 'Account webhook delivery attempts, by outcome: delivered, retrying or failed (given up)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'inlay_rate_limited_total',
    help: 'Requests refused with 429 by a quota, by route template',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  constructor(
    db: Db,
    readonly connector: ConnectorLabel,
    logger: Logger,
  ) {
    const registers = [this.registry];
    // Read from the database at scrape time: every node's runs and connections, not this node's alone.
    const queue = async () => {
      const [row] = rowsOf<{ depth: number | string; lag: number | string | null }>(
        await db.execute(sql`
          select count(*) as depth, extract(epoch from now() - min(created_at)) as lag
          from executions where status = 'queued'`),
      );
      return { depth: Number(row?.depth ?? 0), lag: Math.max(0, Number(row?.lag ?? 0)) };
    };
    let pending: ReturnType<typeof queue> | undefined;
    // Depth and lag come from one query per scrape.
    const once = () => {
      pending ??= queue().finally(() => setImmediate(() => (pending = undefined)));
      return pending;
    };
    const failed = (err: unknown) =>
      logger.warn({ err: (err as Error).message }, 'metrics: could not read the database');
    new Gauge({
      name: 'inlay_queue_depth',
      help: 'Runs queued and not yet claimed by a worker, every node’s',
      registers,
      async collect() {
        await once().then((q) => this.set(q.depth), failed);
      },
    });
    new Gauge({
      name: 'inlay_queue_lag_seconds',
      help: 'Age of the oldest queued run (0 when none waits)',
      registers,
      async collect() {
        await once().then((q) => this.set(q.lag), failed);
      },
    });
    new Gauge({
      name: 'inlay_credentials',
      help: 'Connections (credentials) by status, every account’s',
      labelNames: ['status'] as const,
      registers,
      async collect() {
        try {
          const rows = rowsOf<{ status: string; n: number | string }>(
            await db.execute(sql`select status, count(*) as n from credentials group by status`),
          );
          const counts = new Map(rows.map((r) => [r.status, Number(r.n)]));
          for (const s of CREDENTIAL_STATUSES) this.set({ status: s }, counts.get(s) ?? 0);
        } catch (err) {
          failed(err);
        }
      },
    });
    new Gauge({
      name: 'inlay_expression_pool_queue',
      help: 'Expressions (JSONata) waiting for a free worker of this process’s pool',
      registers,
      collect() {
        this.set(expressionPoolStats().queued);
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'inlay_' });
  }

  /** A run ended on this node. */
  run(status: 'succeeded' | 'failed', triggerType: string, ms: number): void {
    const labels = { status, trigger: TRIGGERS.has(triggerType) ? triggerType : 'other' };
    this.runs.inc(labels);
    this.runDuration.observe(labels, ms / 1000);
  }

  /** An action step ended; its action is labelled only for a built-in connector. */
  step(connector: string, action: string, ok: boolean, ms: number): void {
    const c = this.connector(connector);
    const labels = {
      connector: c,
      action: c === 'custom' ? 'custom' : action,
      status: ok ? 'succeeded' : 'failed',
    };
    this.steps.inc(labels);
    this.stepDuration.observe(labels, ms / 1000);
  }

  /** A proxy call ended: `status` is the provider's, undefined when none came. */
  proxy(connector: string, status: number | undefined, ms: number): void {
    const labels = { connector: this.connector(connector), status_class: statusClass(status) };
    this.proxyRequests.inc(labels);
    this.proxyDuration.observe(labels, ms / 1000);
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** `2xx` … `5xx`, or `error` when the call got no answer. */
export function statusClass(status: number | undefined): string {
  if (status === undefined || status < 100 || status > 599) return 'error';
  return `${Math.floor(status / 100)}xx`;
}

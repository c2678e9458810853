import type pg from 'pg';
import type { Logger } from '../logger.ts';

/** The channel API nodes notify when they enqueue runs; workers listen on it. */
export const RUNS_CHANNEL = 'inlay_runs';

const MAX_BACKOFF_MS = 5_000;

/** Tells listening workers that runs were enqueued (after the jobs are committed, so a fetch finds them). */
export async function announceRuns(pool: pg.Pool): Promise<void> {
  await pool.query(`select pg_notify('${RUNS_CHANNEL}', '')`);
}

/**
 * Holds one pooled connection LISTENing on `inlay_runs` and calls `onRuns` for each notice, so an idle worker
 * fetches at once instead of at its next poll. Polling stays the fallback: while the connection is lost
 * (reconnected with backoff) a worker only waits longer, it misses nothing.
 */
export function listenForRuns(pool: pg.Pool, onRuns: () => void, logger: Logger): { close(): Promise<void> } {
  let client: pg.PoolClient | undefined;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  const drop = (c: pg.PoolClient, err?: Error) => {
    if (client !== c) return;
    client = undefined;
    c.release(err ?? true);
    if (closed) return;
    logger.warn({ err: err?.message }, 'run notices lost; polling until the listener is back');
    retry = setTimeout(connect, Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt++)).unref();
  };

  async function connect() {
    let c: pg.PoolClient;
    try {
      c = await pool.connect();
    } catch (err) {
      if (!closed) retry = setTimeout(connect, Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt++)).unref();
      logger.debug({ err: (err as Error).message }, 'run notices: no connection yet');
      return;
    }
    if (closed) return c.release();
    client = c;
    c.on('notification', (msg) => {
      if (msg.channel === RUNS_CHANNEL) onRuns();
    });
    c.on('error', (err) => drop(c, err));
    try {
      await c.query(`LISTEN ${RUNS_CHANNEL}`);
      attempt = 0;
      // Runs enqueued while this connection was being set up were announced to nobody.
      onRuns();
    } catch (err) {
      drop(c, err as Error);
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      if (!c) return;
      await c.query(`UNLISTEN ${RUNS_CHANNEL}`).catch(() => {});
      c.release();
    },
  };
}

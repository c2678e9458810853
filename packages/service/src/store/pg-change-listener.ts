import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { CHANGES_CHANNEL, type ChangeFeed, parseChange } from './change-feed.ts';

const HEARTBEAT_MS = 10_000;
const MAX_BACKOFF_MS = 5_000;

/**
 * Keeps one connection LISTENing on `inlay_changes` and feeds what arrives into `feed`. The feed is live only
 * while that connection is known good: on an error, a close or a failed heartbeat it goes dark (readers stop
 * trusting what they kept) and the listener reconnects with backoff.
 */
export function listenForChanges(connectionString: string, feed: ChangeFeed): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const waiting = new Map<string, () => void>();

  const onNotification = (msg: pg.Notification) => {
    if (msg.channel !== CHANGES_CHANNEL || msg.payload === undefined) return;
    if (msg.payload.startsWith('s:')) {
      waiting.get(msg.payload)?.();
      return;
    }
    const change = parseChange(msg.payload);
    if (change) feed.publish(change);
  };

  const drop = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    clearInterval(heartbeat);
    feed.setLive(false);
    c.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt++)).unref();
  };

  async function connect() {
    const c = new pg.Client({
      connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
      application_name: 'inlay-changes',
    });
    client = c;
    c.on('error', () => drop(c));
    c.on('end', () => drop(c));
    c.on('notification', onNotification);
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch {
      drop(c);
      return;
    }
    if (client !== c || closed) return;
    attempt = 0;
    feed.setLive(true);
    heartbeat = setInterval(() => c.query('select 1').catch(() => drop(c)), HEARTBEAT_MS).unref();
  }

  // Notifications arrive in commit order, so our own marker arriving means every earlier one has.
  feed.setSync(async () => {
    const c = client;
    if (!c || !feed.live) return;
    const marker = `s:${randomUUID()}`;
    const arrived = new Promise<void>((resolve) => waiting.set(marker, resolve));
    try {
      await c.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, marker]);
      await Promise.race([arrived, new Promise((r) => setTimeout(r, 5_000).unref())]);
    } finally {
      waiting.delete(marker);
    }
  });

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const c = client;
      client = undefined;
      feed.setLive(false);
      await c?.end().catch(() => {});
    },
  };
}

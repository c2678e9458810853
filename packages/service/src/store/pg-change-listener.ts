import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { CHANGES_CHANNEL, type ChangeFeed, parseChange } from './change-feed.ts';

const HEARTBEAT_MS = 10_000;
const ROUND_TRIP_TIMEOUT_MS = 5_000;
const MAX_BACKOFF_MS = 5_000;

/**
 * Keeps one connection LISTENing on `inlay_changes` and feeds what arrives into `feed`. The feed is live only
 * while that connection is known to deliver: it goes live once a notification it sent itself has come back,
 * and every heartbeat repeats that check. An error, a close or a lost heartbeat takes the feed down (readers
 * stop trusting what they kept) and the listener reconnects with backoff. A proxy that pools by transaction
 * accepts LISTEN but delivers nothing; the first check catches that and the feed stays down.
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

  const drop = (c: pg.Client, reason: string) => {
    if (client !== c) return;
    client = undefined;
    clearInterval(heartbeat);
    feed.setLive(false, reason);
    c.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, Math.min(MAX_BACKOFF_MS, 100 * 2 ** attempt++)).unref();
  };

  // Notifications arrive in commit order, so our own marker arriving means every earlier one has.
  async function roundTrip(c: pg.Client): Promise<void> {
    const marker = `s:${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<void>((resolve, reject) => {
      waiting.set(marker, resolve);
      timer = setTimeout(() => reject(new Error('own notification not delivered')), ROUND_TRIP_TIMEOUT_MS);
    });
    try {
      await c.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, marker]);
      await arrived;
    } finally {
      clearTimeout(timer);
      waiting.delete(marker);
    }
  }

  async function connect() {
    const c = new pg.Client({
      connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      query_timeout: ROUND_TRIP_TIMEOUT_MS,
      application_name: 'inlay-changes',
    });
    client = c;
    c.on('error', (err) => drop(c, err.message));
    c.on('end', () => drop(c, 'connection closed'));
    c.on('notification', onNotification);
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
      await roundTrip(c);
    } catch (err) {
      drop(c, (err as Error).message);
      return;
    }
    if (client !== c || closed) return;
    attempt = 0;
    feed.setLive(true);
    heartbeat = setInterval(
      () => roundTrip(c).catch((err: Error) => drop(c, err.message)),
      HEARTBEAT_MS,
    ).unref();
  }

  feed.setSync(async () => {
    const c = client;
    if (!c || !feed.live) return;
    // A listener that cannot prove it has caught up is taken down: nothing it kept is trusted after that.
    await roundTrip(c).catch((err: Error) => drop(c, err.message));
  });

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const c = client;
      client = undefined;
      feed.setLive(false, 'closed');
      await c?.end().catch(() => {});
    },
  };
}

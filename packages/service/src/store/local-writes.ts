import type pg from 'pg';
import type { Change } from './change-feed.ts';

/** A statement that writes one of the tables whose changes the `inlay_changes` trigger announces. */
const WATCHED_WRITE =
  /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:"?public"?\.)?"?(?:accounts|api_keys|users|integrations|workflows|installations|user_workflows|custom_connectors|mcp_servers)\b/i;
// The scheduler moving a schedule on, and app-trigger polls recording their state: the trigger ignores those
// columns, so this does too (else every poll would empty this node's read cache).
const SCHEDULE_MOVE =
  /^\s*update\s+"user_workflows"\s+set\s+(?:"(?:next_run_at|trigger_state)"\s*=\s*\$\d+\s*,?\s*)+where\b/i;
// Authentication stamping a key's last use (once a minute per key and node): no read depends on it, and
// counting it would empty this node's read cache on a key's first request of every minute.
const KEY_STAMP = /^\s*update\s+"api_keys"\s+set\s+"last_used_at"\s*=\s*\$\d+\s+where\b/i;
// What `attention` reads beyond the watched tables: a run's status, runs deleted, a credential's status (or the
// credential), an app trigger's poll state. The trigger announces these per user, but a statement names no user,
// so locally they only make attention stale (not every cached read).
const ATTENTION_WRITE =
  /\b(?:update\s+"?(?:executions|credentials)"?\s+set\s+(?:(?!\bwhere\b)[^;])*?"?\bstatus"?\s*=|update\s+"?user_workflows"?\s+set\s+(?:(?!\bwhere\b)[^;])*?"?\btrigger_state"?\s*=|delete\s+from\s+"?(?:executions|credentials)\b|insert\s+into\s+"?credentials\b|truncate(?:\s+table)?\s+"?(?:executions|credentials)\b)/i;
const TRANSACTION_END = /^\s*(?:commit|end|rollback|abort)\b/i;

type Query = (...args: unknown[]) => unknown;

const ALL: Change = { kind: 'all' };
const ATTENTION: Change = { kind: 'topic', topic: 'attention' };

/**
 * Calls `onWrite` when a statement that writes a watched table, or the commit of a transaction that did,
 * completes on one of the pool's connections: with `all` for a watched table, with the `attention` topic for
 * what only attention reads. The trigger's notification tells every node, but it arrives asynchronously; this
 * lets the node that wrote read its own write on the very next request.
 */
export function trackLocalWrites(pool: pg.Pool, onWrite: (change: Change) => void): void {
  pool.on('connect', (client) => {
    const query = client.query as unknown as Query;
    let dirty = false;
    let dirtyAttention = false;
    (client as unknown as { query: Query }).query = function (this: unknown, ...args: unknown[]) {
      const first = args[0] as string | { text?: unknown; submit?: unknown } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      if (typeof text !== 'string' || (typeof first === 'object' && typeof first.submit === 'function'))
        return query.apply(this, args);
      const writes = WATCHED_WRITE.test(text) && !SCHEDULE_MOVE.test(text) && !KEY_STAMP.test(text);
      const attention = !writes && ATTENTION_WRITE.test(text);
      const ending = (dirty || dirtyAttention) && TRANSACTION_END.test(text);
      if (!writes && !attention && !ending) return query.apply(this, args);
      if (writes) dirty = true;
      if (attention) dirtyAttention = true;
      // What this statement (or the transaction it ends) wrote; read when it completes.
      const all = writes || (ending && dirty);
      const done = () => {
        if (ending) dirty = dirtyAttention = false;
        onWrite(all ? ALL : ATTENTION);
      };
      const cb = args.findIndex((a) => typeof a === 'function');
      if (cb >= 0) {
        const callback = args[cb] as (err: unknown, res: unknown) => void;
        args[cb] = (err: unknown, res: unknown) => {
          done();
          callback(err, res);
        };
        return query.apply(this, args);
      }
      return (query.apply(this, args) as Promise<unknown>).finally(done);
    };
  });
}

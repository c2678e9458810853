import type { Db } from '@inlay/service/testing';
import { sql } from 'drizzle-orm';
import { onPostgres } from './service.ts';

export type Snapshot = Record<string, string>;

/**
 * Row count and newest row version (max xmin: any insert or update raises it) of every table, scoped to the given accounts (other test files share the
 * PostgreSQL database). Tables are discovered from information_schema, so a new table is covered by itself.
 */
export async function snapshotter(db: Db, accountIds: string[], skip: string[] = []) {
  const cols = (await db.execute(sql`
    select table_name as t, column_name as c from information_schema.columns
    where table_schema = current_schema()`)) as unknown as { rows: { t: string; c: string }[] };
  const byTable = new Map<string, Set<string>>();
  for (const { t, c } of cols.rows) byTable.set(t, (byTable.get(t) ?? new Set()).add(c));
  const ids = accountIds.map((id) => `'${id.replace(/[^0-9a-f-]/gi, '')}'`).join(',');
  const parts: string[] = [];
  for (const [table, columns] of [...byTable].sort()) {
    // Counters, not data a request writes: the rate limiter's, and the proxy's calls (a refused proxy call
    // counts as an error, saved by a later flush).
    if (
      skip.includes(table) ||
      table.startsWith('__drizzle') ||
      table === 'inlay_rate_limits' ||
      table === 'proxy_counts'
    )
      continue;
    let where: string | undefined;
    if (columns.has('account_id')) where = `account_id in (${ids})`;
    else if (columns.has('user_id')) where = `user_id in (select id from users where account_id in (${ids}))`;
    else if (columns.has('workflow_id'))
      where = `workflow_id in (select id from workflows where account_id in (${ids}))`;
    else if (columns.has('execution_id'))
      where = `execution_id in (select id from executions where account_id in (${ids}))`;
    else if (table === 'accounts') where = `id in (${ids})`;
    else if (table === 'custom_connector_versions')
      where = `connector_id in (select id from custom_connectors where account_id in (${ids}))`;
    else if (onPostgres) continue; // global table shared with other test files
    // API keys are updated by use (`last_used_at`, bookkeeping of a read): compare what a write would change.
    const version =
      table === 'api_keys'
        ? `coalesce(md5(string_agg(x.id::text || coalesce(x.name, '') || coalesce(x.revoked_at::text, ''), ',' order by x.id)), '')`
        : `coalesce(max(x.xmin::text::bigint), 0)::text`;
    parts.push(
      `select '${table}' as t, count(*)::text || ':' || ${version} as v from "${table}" x${where ? ` where ${where}` : ''}`,
    );
  }
  const query = parts.join(' union all ');
  return {
    tables: parts.length,
    async take(): Promise<Snapshot> {
      const r = (await db.execute(sql.raw(query))) as unknown as { rows: { t: string; v: string }[] };
      return Object.fromEntries(r.rows.map((row) => [row.t, row.v]));
    },
  };
}

export function diff(a: Snapshot, b: Snapshot): string[] {
  return Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k]);
}

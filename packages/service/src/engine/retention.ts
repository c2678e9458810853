import { and, eq, inArray, lt } from 'drizzle-orm';
import { retentionOf } from '../accounts/settings.ts';
import { accounts, executions } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

/**
 * Deletes finished executions (their steps cascade) that started before their account's retention, account by
 * account in batches, so the `(account_id, started_at)` index serves each batch and no statement holds many
 * locks. An account keeps its runs `days` (the service's INLAY_LOG_RETENTION_DAYS), or fewer when it set its
 * own (`PUT /settings {logRetentionDays}`). Rows another purger holds are skipped. Returns how many were deleted.
 */
export async function purgeExpiredExecutions(db: Db, days: number, batch = 1000, now = Date.now()) {
  const owners = await db.select({ id: accounts.id, own: accounts.logRetentionDays }).from(accounts);
  let deleted = 0;
  for (const { id: accountId, own } of owners) {
    const cutoff = new Date(now - retentionOf(own, days) * 86_400_000);
    for (;;) {
      const expired = db
        .select({ id: executions.id })
        .from(executions)
        .where(
          and(
            eq(executions.accountId, accountId),
            lt(executions.startedAt, cutoff),
            inArray(executions.status, ['succeeded', 'failed']),
          ),
        )
        .limit(batch)
        .for('update', { skipLocked: true });
      const gone = await db
        .delete(executions)
        .where(inArray(executions.id, expired))
        .returning({ id: executions.id });
      deleted += gone.length;
      if (gone.length < batch) break;
    }
  }
  return deleted;
}

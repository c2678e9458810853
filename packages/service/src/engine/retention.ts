import { and, eq, inArray, lt } from 'drizzle-orm';
import { accounts, executions } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

/**
 * Deletes finished executions (their steps cascade) that started before `days` ago, account by account in
 * batches, so the `(account_id, started_at)` index serves each batch and no statement holds many locks.
 * Rows another purger holds are skipped. Returns how many were deleted.
 */
export async function purgeExpiredExecutions(db: Db, days: number, batch = 1000, now = Date.now()) {
  const cutoff = new Date(now - days * 86_400_000);
  const owners = await db.select({ id: accounts.id }).from(accounts);
  let deleted = 0;
  for (const { id: accountId } of owners) {
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

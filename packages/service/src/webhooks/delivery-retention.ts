import { and, eq, inArray, lt } from 'drizzle-orm';
import { webhookDeliveries } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

/**
 * Deletes an account's settled webhook deliveries (delivered, or failed for good) queued before `cutoff`, in
 * batches by `webhook_deliveries_settled_idx`: the retention that keeps the account's runs keeps the events about
 * them. A pending delivery stays until it settles (at most a day of retries). Returns how many were deleted.
 */
export async function purgeSettledDeliveries(db: Db, accountId: string, cutoff: Date, batch: number) {
  let deleted = 0;
  for (;;) {
    const expired = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.accountId, accountId),
          inArray(webhookDeliveries.status, ['delivered', 'failed']),
          lt(webhookDeliveries.createdAt, cutoff),
        ),
      )
      .limit(batch)
      .for('update', { skipLocked: true });
    const gone = await db
      .delete(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, expired))
      .returning({ id: webhookDeliveries.id });
    deleted += gone.length;
    if (gone.length < batch) return deleted;
  }
}

import { and, eq, inArray, lt } from 'drizzle-orm';
import { deleteInBatches } from '../store/delete-in-batches.ts';
import { webhookDeliveries } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

/**
 * Deletes an account's settled webhook deliveries (delivered, or failed for good) queued before `cutoff`, by
 * `webhook_deliveries_settled_idx`: the retention that keeps the account's runs keeps the events about them. A
 * pending delivery stays until it settles (at most a day of retries). Returns how many were deleted.
 */
export function purgeSettledDeliveries(db: Db, accountId: string, cutoff: Date, batch: number) {
  const settled = and(
    eq(webhookDeliveries.accountId, accountId),
    inArray(webhookDeliveries.status, ['delivered', 'failed']),
    lt(webhookDeliveries.createdAt, cutoff),
  );
  return deleteInBatches(db, webhookDeliveries, webhookDeliveries.id, settled, batch);
}

import { and, eq, lt } from 'drizzle-orm';
import { deleteInBatches } from '../store/delete-in-batches.ts';
import { providerCalls } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

/**
 * Deletes an account's provider calls made before `cutoff`, by `provider_calls_account_at_idx`: the retention
 * that keeps the account's runs keeps the calls. Returns how many were deleted.
 */
export function purgeProviderCalls(db: Db, accountId: string, cutoff: Date, batch: number) {
  const expired = and(eq(providerCalls.accountId, accountId), lt(providerCalls.at, cutoff));
  return deleteInBatches(db, providerCalls, providerCalls.id, expired, batch);
}

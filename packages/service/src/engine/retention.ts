import { and, eq, inArray, lt } from 'drizzle-orm';
import { retentionOf } from '../accounts/settings.ts';
import { purgeProviderCalls } from '../provider-calls/provider-call-retention.ts';
import { deleteInBatches } from '../store/delete-in-batches.ts';
import { accounts, executions } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { purgeSettledDeliveries } from '../webhooks/delivery-retention.ts';

export interface Purged {
  /** Finished executions deleted (their steps cascade). */
  executions: number;
  /** Settled account webhook deliveries deleted. */
  deliveries: number;
  /** Provider calls deleted. */
  providerCalls: number;
}

/**
 * Deletes what is older than its account's retention: finished executions (their steps cascade) that started
 * before it, settled webhook deliveries queued before it, and provider calls made before it; account by account, in batches each served by an
 * index. An account keeps them `days` (the service's INLAY_LOG_RETENTION_DAYS), or fewer when it set its own
 * (`PUT /settings {logRetentionDays}`).
 */
export async function purgeExpired(db: Db, days: number, batch = 1000, now = Date.now()): Promise<Purged> {
  const owners = await db.select({ id: accounts.id, own: accounts.logRetentionDays }).from(accounts);
  const purged: Purged = { executions: 0, deliveries: 0, providerCalls: 0 };
  for (const { id: accountId, own } of owners) {
    const cutoff = new Date(now - retentionOf(own, days) * 86_400_000);
    purged.executions += await purgeExecutions(db, accountId, cutoff, batch);
    purged.deliveries += await purgeSettledDeliveries(db, accountId, cutoff, batch);
    purged.providerCalls += await purgeProviderCalls(db, accountId, cutoff, batch);
  }
  return purged;
}

/** The account's finished executions that started before `cutoff`, by the `(account_id, started_at)` index. */
function purgeExecutions(db: Db, accountId: string, cutoff: Date, batch: number) {
  const expired = and(
    eq(executions.accountId, accountId),
    lt(executions.startedAt, cutoff),
    inArray(executions.status, ['succeeded', 'failed']),
  );
  return deleteInBatches(db, executions, executions.id, expired, batch);
}

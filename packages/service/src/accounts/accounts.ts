import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { accounts, apiKeys } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { apiKeyRow, generateApiKey, type KeyMode, sha256 } from './api-keys.ts';

/** Creates an account and its first API key; the key is returned once and stored only as a hash. */
export async function createAccount(db: Db, name: string, opts: { apiKey?: string; mode?: KeyMode } = {}) {
  const accountId = randomUUID();
  const apiKey = opts.apiKey ?? generateApiKey(opts.mode);
  await db.transaction(async (tx) => {
    await tx.insert(accounts).values({ id: accountId, name });
    await tx.insert(apiKeys).values(apiKeyRow(apiKey, accountId));
  });
  return { accountId, apiKey };
}

/** `INLAY_BOOTSTRAP_API_KEY`: on first start, an account that owns this key. */
export async function ensureBootstrapAccount(
  db: Db,
  apiKey: string,
): Promise<{ accountId: string; created: boolean }> {
  const [existing] = await db
    .select({ accountId: apiKeys.accountId })
    .from(apiKeys)
    .where(eq(apiKeys.hash, sha256(apiKey)));
  if (existing) return { accountId: existing.accountId, created: false };
  const { accountId } = await createAccount(db, 'Bootstrap account', { apiKey });
  return { accountId, created: true };
}

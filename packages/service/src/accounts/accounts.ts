import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { accounts, apiKeys } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { apiKeyRow, defaultKeyName, generateApiKey, type KeyMode, sha256 } from './api-keys.ts';

/** The bootstrap account's name when `INLAY_BOOTSTRAP_ACCOUNT_NAME` is not set. */
export const DEFAULT_BOOTSTRAP_ACCOUNT_NAME = 'Default account';

/**
 * Creates an account and its first API key (named `keyName` in the list of keys, or after the day it was made); the key is returned once and
 * stored only as a hash.
 */
export async function createAccount(
  db: Db,
  name: string,
  opts: { apiKey?: string; mode?: KeyMode; keyName?: string } = {},
) {
  const accountId = randomUUID();
  const apiKey = opts.apiKey ?? generateApiKey(opts.mode);
  await db.transaction(async (tx) => {
    await tx.insert(accounts).values({ id: accountId, name });
    await tx
      .insert(apiKeys)
      .values({ ...apiKeyRow(apiKey, accountId), name: opts.keyName ?? defaultKeyName() });
  });
  return { accountId, apiKey };
}

/** The key's name in the console's list of keys: where it came from. */
export const BOOTSTRAP_KEY_NAME = 'INLAY_BOOTSTRAP_API_KEY';

/**
 * `INLAY_BOOTSTRAP_API_KEY`: on first start, an account named `name` (`INLAY_BOOTSTRAP_ACCOUNT_NAME`) that owns
 * this key, the key named after the variable.
 */
export async function ensureBootstrapAccount(
  db: Db,
  apiKey: string,
  name = DEFAULT_BOOTSTRAP_ACCOUNT_NAME,
): Promise<{ accountId: string; created: boolean }> {
  const [existing] = await db
    .select({ accountId: apiKeys.accountId })
    .from(apiKeys)
    .where(eq(apiKeys.hash, sha256(apiKey)));
  if (existing) return { accountId: existing.accountId, created: false };
  const { accountId } = await createAccount(db, name, { apiKey, keyName: BOOTSTRAP_KEY_NAME });
  return { accountId, created: true };
}

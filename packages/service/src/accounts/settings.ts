import type { AccountSettings } from '@inlay/contract';
import { eq } from 'drizzle-orm';
import { invalid } from '../http/problem.ts';
import { accounts } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { normaliseOrigin } from './allowed-origins.ts';

/** The account's settings; undefined for an account that does not exist. */
export async function loadSettings(db: Db, accountId: string): Promise<AccountSettings | undefined> {
  const [row] = await db
    .select({ allowedOrigins: accounts.allowedOrigins })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row && { allowedOrigins: row.allowedOrigins };
}

/**
 * Normalises and de-duplicates a list of origins, or throws a 400 naming the first bad entry
 * (`body.allowedOrigins[2]`, rule `origin`).
 */
export function checkAllowedOrigins(values: readonly string[], field = 'body.allowedOrigins'): string[] {
  const out = new Set<string>();
  values.forEach((value, i) => {
    const r = normaliseOrigin(value);
    if ('rule' in r) throw invalid(`${field}[${i}]`, r.rule, r.message);
    out.add(r.origin);
  });
  return [...out];
}

/** Replaces the account's allowed origins (already checked); undefined for an account that does not exist. */
export async function saveAllowedOrigins(
  db: Db,
  accountId: string,
  allowedOrigins: string[],
): Promise<AccountSettings | undefined> {
  const [row] = await db
    .update(accounts)
    .set({ allowedOrigins })
    .where(eq(accounts.id, accountId))
    .returning({ allowedOrigins: accounts.allowedOrigins });
  return row && { allowedOrigins: row.allowedOrigins };
}

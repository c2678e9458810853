import { eq } from 'drizzle-orm';
import { invalid } from '../http/problem.ts';
import { accounts } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { normaliseOrigin } from './allowed-origins.ts';

/** What an account stores: its allowed origins, and its own log retention (null: the service's). */
export interface StoredSettings {
  allowedOrigins: string[];
  logRetentionDays: number | null;
}

const columns = { allowedOrigins: accounts.allowedOrigins, logRetentionDays: accounts.logRetentionDays };

/** The account's settings; undefined for an account that does not exist. */
export async function loadSettings(db: Db, accountId: string): Promise<StoredSettings | undefined> {
  const [row] = await db.select(columns).from(accounts).where(eq(accounts.id, accountId));
  return row;
}

/**
 * Days an account's runs are kept: its own setting, never longer than the service's (which may have been
 * lowered since the account chose).
 */
export const retentionOf = (own: number | null, serviceDays: number) =>
  own === null ? serviceDays : Math.min(own, serviceDays);

/** An account's own retention, or a 400 naming `body.logRetentionDays` when it is longer than the service's. */
export function checkLogRetention(days: number | null, serviceDays: number): number | null {
  if (days !== null && days > serviceDays)
    throw invalid(
      'body.logRetentionDays',
      'max',
      `must be at most ${serviceDays}, the service's retention (INLAY_LOG_RETENTION_DAYS)`,
    );
  return days;
}

/** Saves the settings given (already checked); undefined for an account that does not exist. */
export async function saveSettings(
  db: Db,
  accountId: string,
  changes: Partial<StoredSettings>,
): Promise<StoredSettings | undefined> {
  const [row] = await db.update(accounts).set(changes).where(eq(accounts.id, accountId)).returning(columns);
  return row;
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
): Promise<{ allowedOrigins: string[] } | undefined> {
  const row = await saveSettings(db, accountId, { allowedOrigins });
  return row && { allowedOrigins: row.allowedOrigins };
}

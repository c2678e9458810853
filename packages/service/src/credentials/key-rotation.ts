import { and, asc, eq, gt, isNotNull, notLike, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { webhookAad } from '../installations/installations.ts';
import {
  credentials,
  installations,
  oauthApps,
  oauthStates,
  signingKeys,
  webhookEndpoints,
} from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { signingKeyAad } from '../tokens/signing-keys.ts';
import { endpointAad } from '../webhooks/endpoints.ts';
import { credentialAad } from './credential-service.ts';
import { oauthAppAad } from './oauth-apps.ts';
import { stateAad } from './oauth-states.ts';
import { keyIdOf, type Vault } from './vault.ts';

export interface TableRotation {
  /** Envelopes re-encrypted under the current key. */
  resealed: number;
  /** Rows rewritten by the running service meanwhile: their new value is already under the current key. */
  skipped: number;
  failed: number;
  /** Envelopes still under another key once the pass is over (0 when the rotation is complete). */
  remaining: number;
}

export interface RotationSummary {
  keyId: string;
  tables: Record<string, TableRotation>;
  failures: { table: string; id: string; error: string }[];
}

/** One sealed column: how to page through it, rebuild its associated data, and swap a value in place. */
interface SealedColumn {
  table: string;
  source: PgTable;
  column: PgColumn;
  /** Rows whose envelope is not under `notCurrent`'s key, after `after` in primary-key order (keyset paging). */
  page(
    after: string | undefined,
    notCurrent: SQL,
    limit: number,
  ): Promise<{ key: string; sealed: string; aad: string }[]>;
  /** Compare-and-swap: writes only if the row still holds `old`. */
  swap(key: string, old: string, next: string, keyId: string): Promise<boolean>;
}

function columns(db: Db): SealedColumn[] {
  const credKey = sql<string>`${credentials.id}::text`;
  const appKey = sql<string>`${oauthApps.accountId}::text || '/' || ${oauthApps.connector}`;
  const instKey = sql<string>`${installations.id}::text`;
  const after = (key: SQL<string>, k: string | undefined) => (k === undefined ? undefined : gt(key, k));
  return [
    {
      table: 'credentials',
      source: credentials,
      column: credentials.sealed,
      page: async (k, notCurrent, limit) =>
        (
          await db
            .select({
              key: credKey,
              sealed: credentials.sealed,
              accountId: credentials.accountId,
              id: credentials.id,
            })
            .from(credentials)
            .where(and(isNotNull(credentials.sealed), notCurrent, after(credKey, k)))
            .orderBy(asc(credKey))
            .limit(limit)
        ).map((r) => ({ key: r.key, sealed: r.sealed!, aad: credentialAad(r.accountId, r.id) })),
      swap: async (k, old, next, keyId) =>
        (
          await db
            .update(credentials)
            .set({ sealed: next, keyId })
            .where(and(eq(credentials.id, k), eq(credentials.sealed, old)))
            .returning({ id: credentials.id })
        ).length > 0,
    },
    {
      table: 'oauth_apps',
      source: oauthApps,
      column: oauthApps.clientSecretSealed,
      page: async (k, notCurrent, limit) =>
        (
          await db
            .select({
              key: appKey,
              sealed: oauthApps.clientSecretSealed,
              accountId: oauthApps.accountId,
              connector: oauthApps.connector,
            })
            .from(oauthApps)
            .where(and(notCurrent, after(appKey, k)))
            .orderBy(asc(appKey))
            .limit(limit)
        ).map((r) => ({ key: r.key, sealed: r.sealed, aad: oauthAppAad(r) })),
      swap: async (k, old, next, keyId) =>
        (
          await db
            .update(oauthApps)
            .set({ clientSecretSealed: next, keyId })
            .where(and(eq(appKey, k), eq(oauthApps.clientSecretSealed, old)))
            .returning({ c: oauthApps.connector })
        ).length > 0,
    },
    {
      table: 'oauth_states',
      source: oauthStates,
      column: oauthStates.sealed,
      page: async (k, notCurrent, limit) =>
        (
          await db
            .select({
              key: oauthStates.stateHash,
              sealed: oauthStates.sealed,
              accountId: oauthStates.accountId,
            })
            .from(oauthStates)
            .where(and(notCurrent, k === undefined ? undefined : gt(oauthStates.stateHash, k)))
            .orderBy(asc(oauthStates.stateHash))
            .limit(limit)
        ).map((r) => ({
          key: r.key,
          sealed: r.sealed,
          aad: stateAad({ accountId: r.accountId, stateHash: r.key }),
        })),
      swap: async (k, old, next, keyId) =>
        (
          await db
            .update(oauthStates)
            .set({ sealed: next, keyId })
            .where(and(eq(oauthStates.stateHash, k), eq(oauthStates.sealed, old)))
            .returning({ k: oauthStates.stateHash })
        ).length > 0,
    },
    {
      table: 'webhook_endpoints',
      source: webhookEndpoints,
      column: webhookEndpoints.secretSealed,
      page: async (k, notCurrent, limit) =>
        (
          await db
            .select({
              key: sql<string>`${webhookEndpoints.id}::text`,
              sealed: webhookEndpoints.secretSealed,
              accountId: webhookEndpoints.accountId,
              id: webhookEndpoints.id,
            })
            .from(webhookEndpoints)
            .where(and(notCurrent, k === undefined ? undefined : gt(sql`${webhookEndpoints.id}::text`, k)))
            .orderBy(asc(sql`${webhookEndpoints.id}::text`))
            .limit(limit)
        ).map((r) => ({ key: r.key, sealed: r.sealed, aad: endpointAad(r) })),
      swap: async (k, old, next, keyId) =>
        (
          await db
            .update(webhookEndpoints)
            .set({ secretSealed: next, keyId })
            .where(and(eq(sql`${webhookEndpoints.id}::text`, k), eq(webhookEndpoints.secretSealed, old)))
            .returning({ id: webhookEndpoints.id })
        ).length > 0,
    },
    {
      table: 'signing_keys',
      source: signingKeys,
      column: signingKeys.privateJwkSealed,
      page: async (k, notCurrent, limit) =>
        (
          await db
            .select({ key: signingKeys.kid, sealed: signingKeys.privateJwkSealed })
            .from(signingKeys)
            .where(and(notCurrent, k === undefined ? undefined : gt(signingKeys.kid, k)))
            .orderBy(asc(signingKeys.kid))
            .limit(limit)
        ).map((r) => ({ key: r.key, sealed: r.sealed, aad: signingKeyAad(r.key) })),
      swap: async (k, old, next) =>
        (
          await db
            .update(signingKeys)
            .set({ privateJwkSealed: next })
            .where(and(eq(signingKeys.kid, k), eq(signingKeys.privateJwkSealed, old)))
            .returning({ k: signingKeys.kid })
        ).length > 0,
    },
    {
      table: 'installations',
      source: installations,
      column: installations.webhookSecretSealed,
      page: async (k, notCurrent, limit) =>
        (
          await db
            .select({
              key: instKey,
              sealed: installations.webhookSecretSealed,
              accountId: installations.accountId,
              id: installations.id,
            })
            .from(installations)
            .where(and(isNotNull(installations.webhookSecretSealed), notCurrent, after(instKey, k)))
            .orderBy(asc(instKey))
            .limit(limit)
        ).map((r) => ({ key: r.key, sealed: r.sealed!, aad: webhookAad(r) })),
      swap: async (k, old, next) =>
        (
          await db
            .update(installations)
            .set({ webhookSecretSealed: next })
            .where(and(eq(installations.id, k), eq(installations.webhookSecretSealed, old)))
            .returning({ id: installations.id })
        ).length > 0,
    },
  ];
}

/**
 * Re-encrypts every sealed value (credentials, OAuth apps and states, signing keys, webhook secrets) under
 * the vault's current key, in batches, while the service keeps serving: each row is swapped only if it
 * still holds the envelope that was read, so a value the service rewrote meanwhile (a refreshed token) is
 * left alone — it is under the current key already. The old key must stay in `INLAY_MASTER_KEY_PREVIOUS`
 * on every node until this reports nothing remaining.
 */
export async function rotateKeys(
  db: Db,
  vault: Vault,
  opts: { batchSize?: number } = {},
): Promise<RotationSummary> {
  const limit = opts.batchSize ?? 200;
  const summary: RotationSummary = { keyId: vault.keyId, tables: {}, failures: [] };
  for (const col of columns(db)) {
    const stats: TableRotation = { resealed: 0, skipped: 0, failed: 0, remaining: 0 };
    const notCurrent = notLike(col.column, `v1.${vault.keyId}.%`);
    let after: string | undefined;
    for (;;) {
      const rows = await col.page(after, notCurrent, limit);
      if (rows.length === 0) break;
      for (const row of rows) {
        try {
          const next = vault.reseal(row.sealed, row.aad);
          if (next === row.sealed) continue;
          if (await col.swap(row.key, row.sealed, next, vault.keyId)) stats.resealed++;
          else stats.skipped++;
        } catch (err) {
          stats.failed++;
          summary.failures.push({
            table: col.table,
            id: row.key,
            error: `${(err as Error).message} (key ${keyIdOf(row.sealed) || 'unknown'})`,
          });
        }
      }
      after = rows.at(-1)!.key;
    }
    stats.remaining = await db.$count(col.source, and(isNotNull(col.column), notCurrent));
    summary.tables[col.table] = stats;
  }
  return summary;
}

/** Why a rotation is not finished yet (values under a key this process lacks, rows left), or undefined. */
export function rotationProblem(summary: RotationSummary): string | undefined {
  const remaining = Object.values(summary.tables).reduce((n, t) => n + t.remaining, 0);
  if (summary.failures.length)
    return `${summary.failures.length} value(s) did not open with the configured keys: put the key they were sealed with in INLAY_MASTER_KEY_PREVIOUS and run again`;
  if (remaining) return `${remaining} value(s) are still under an old key (written meanwhile?): run again`;
  return undefined;
}

import type { FormData, Installation } from '@inlay/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Vault } from '../credentials/vault.ts';
import { rowAad } from '../credentials/vault.ts';
import { installations, userWorkflows } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

export type InstallationRow = typeof installations.$inferSelect;

export const webhookAad = (row: { accountId: string; id: string }) =>
  rowAad('installations.webhook', row.accountId, row.id);

export function webhookUrl(publicUrl: string, vault: Vault, row: InstallationRow): string | null {
  if (!row.webhookSecretSealed) return null;
  const secret = vault.open(row.webhookSecretSealed, webhookAad(row));
  return `${publicUrl}/hooks/${row.id}/${secret}`;
}

export function toInstallation(
  row: InstallationRow,
  workflowIds: string[],
  publicUrl: string,
  vault: Vault,
): Installation {
  return {
    installationId: row.id,
    integrationId: row.integrationId,
    userId: row.userId,
    formData: row.formData as FormData[],
    credentialIds: row.credentialIds,
    workflowIds,
    installedAt: row.installedAt.toISOString(),
    enabled: row.enabled,
    updatedAt: row.updatedAt.toISOString(),
    webhookUrl: webhookUrl(publicUrl, vault, row),
  };
}

/** Installations of an account, or of one user of it, with their workflow ids. */
export async function listInstallations(
  db: Db,
  filter: { accountId: string; userId?: string; installationId?: string },
): Promise<{ row: InstallationRow; workflowIds: string[] }[]> {
  const rows = await db
    .select()
    .from(installations)
    .where(
      and(
        eq(installations.accountId, filter.accountId),
        filter.userId ? eq(installations.userId, filter.userId) : undefined,
        filter.installationId ? eq(installations.id, filter.installationId) : undefined,
      ),
    )
    .orderBy(asc(installations.installedAt), asc(installations.id));
  if (rows.length === 0) return [];
  const links = await db
    .select({ installationId: userWorkflows.installationId, workflowId: userWorkflows.workflowId })
    .from(userWorkflows)
    .where(
      inArray(
        userWorkflows.installationId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(userWorkflows.createdAt), asc(userWorkflows.workflowId));
  const byInstallation = new Map<string, string[]>(rows.map((r) => [r.id, []]));
  for (const l of links) byInstallation.get(l.installationId)?.push(l.workflowId);
  return rows.map((row) => ({ row, workflowIds: byInstallation.get(row.id) ?? [] }));
}

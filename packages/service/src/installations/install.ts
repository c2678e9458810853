import { randomBytes, randomUUID } from 'node:crypto';
import type { FormData, InstallValue } from '@inlay/contract';
import { and, eq, inArray, ne, notExists, sql } from 'drizzle-orm';
import { DELETED, type DeletedCredential } from '../credentials/announce-deleted.ts';
import type { Vault } from '../credentials/vault.ts';
import { triggerColumns } from '../engine/triggers.ts';
import { conflict, unprocessable } from '../http/problem.ts';
import { credentials, installations, userWorkflows, workflows } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import { isUniqueViolation } from '../store/unique-violation.ts';
import type { CompiledVersion, DefinitionCache } from '../workflows/definitions.ts';
import { type InstallationRow, webhookAad } from './installations.ts';

/**
 * The workflows to install, at their current versions. They must be workflows of the account, all of one
 * integration, listed once each, and not installed for this user yet (409 naming the one that is).
 */
export async function installTargets(
  db: Db,
  defs: DefinitionCache,
  accountId: string,
  userId: string,
  workflowIds: string[],
): Promise<{ integrationId: string; workflows: CompiledVersion[] }> {
  workflowIds.forEach((id, i) => {
    if (workflowIds.indexOf(id) !== i)
      throw unprocessable(
        `body.workflowIds[${i}]`,
        'unique',
        `repeats body.workflowIds[${workflowIds.indexOf(id)}]`,
      );
  });
  const rows = await db
    .select({ id: workflows.id, integrationId: workflows.integrationId, version: workflows.currentVersion })
    .from(workflows)
    .where(and(eq(workflows.accountId, accountId), inArray(workflows.id, workflowIds)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const first = byId.get(workflowIds[0]!);
  workflowIds.forEach((id, i) => {
    const row = byId.get(id);
    if (!row) throw unprocessable(`body.workflowIds[${i}]`, 'exists', 'no such workflow in this account');
    if (row.integrationId !== first!.integrationId)
      throw unprocessable(
        `body.workflowIds[${i}]`,
        'same_integration',
        'belongs to another integration than body.workflowIds[0]: install one integration at a time',
      );
  });
  const installed = await db
    .select({ workflowId: userWorkflows.workflowId })
    .from(userWorkflows)
    .where(and(eq(userWorkflows.userId, userId), inArray(userWorkflows.workflowId, workflowIds)));
  if (installed.length) {
    const i = workflowIds.indexOf(installed[0]!.workflowId);
    throw conflict(`body.workflowIds[${i}]`, `workflow ${workflowIds[i]} is already installed for this user`);
  }
  const compiled = await defs.getMany(rows.map((r) => ({ workflowId: r.id, version: r.version })));
  return {
    integrationId: first!.integrationId,
    workflows: workflowIds.map((id) => compiled.get(defs.key(id, byId.get(id)!.version))!),
  };
}

/** Creates an enabled installation and the user's workflow rows (active, listening) in one transaction. */
export async function createInstallation(
  db: Db,
  vault: Vault,
  p: {
    accountId: string;
    userId: string;
    integrationId: string;
    workflows: CompiledVersion[];
    credentialIds: Record<string, string>;
    formData: FormData[];
  },
): Promise<string> {
  const id = randomUUID();
  const hasWebhook = p.workflows.some((w) => w.definition.trigger.type === 'webhook');
  const now = new Date();
  try {
    await db.transaction(async (tx) => {
      // Locked as DELETE /workflows/{id} locks them: a delete that came first is a 422 here (not a foreign
      // key error), and one that comes later waits and counts this installation (409).
      const ids = p.workflows.map((w) => w.workflowId);
      const locked = await tx
        .select({ id: workflows.id })
        .from(workflows)
        .where(inArray(workflows.id, ids))
        .for('key share');
      const live = new Set(locked.map((w) => w.id));
      const gone = ids.findIndex((id) => !live.has(id));
      if (gone >= 0)
        throw unprocessable(`body.workflowIds[${gone}]`, 'exists', 'no such workflow in this account');
      await tx.insert(installations).values({
        id,
        accountId: p.accountId,
        userId: p.userId,
        integrationId: p.integrationId,
        enabled: true,
        credentialIds: p.credentialIds,
        formData: p.formData,
        webhookSecretSealed: hasWebhook
          ? vault.seal(randomBytes(24).toString('base64url'), webhookAad({ accountId: p.accountId, id }))
          : null,
        installedAt: now,
        updatedAt: now,
      });
      await tx.insert(userWorkflows).values(
        p.workflows.map((w) => ({
          userId: p.userId,
          workflowId: w.workflowId,
          accountId: p.accountId,
          installationId: id,
          version: w.version,
          active: true,
          ...triggerColumns(w.definition.trigger, now),
        })),
      );
    });
  } catch (err) {
    // Two installs of the same workflow raced: the loser gets what a sequential caller would.
    if (isUniqueViolation(err))
      throw conflict('body.workflowIds', 'a workflow is already installed for this user');
    throw err;
  }
  return id;
}

/** The versions an installation runs, to re-validate an edit against what is installed. */
export async function installedVersions(db: Db, defs: DefinitionCache, installationId: string) {
  const rows = await db
    .select({ workflowId: userWorkflows.workflowId, version: userWorkflows.version })
    .from(userWorkflows)
    .where(eq(userWorkflows.installationId, installationId));
  const compiled = await defs.getMany(rows);
  return rows.map((r) => compiled.get(defs.key(r.workflowId, r.version))!).filter(Boolean);
}

/** Turns stored `formData` back into request `values`, for an edit that changes only credentials. */
export const valuesOf = (formData: FormData[]): InstallValue[] =>
  formData.map((b) => ({
    workflowId: b.workflowId,
    blockId: b.blockId,
    fields: b.fields
      .filter((f) => f.value !== undefined && f.value !== null)
      .map((f) => ({ name: f.name, value: f.value! })),
  }));

/**
 * Uninstalls: the user's workflow rows go (so nothing fires any more), then the installation. With
 * `deleteCredentials`, its credentials go too, except those another installation of the user still uses.
 */
export async function deleteInstallation(
  db: Db,
  row: InstallationRow,
  deleteCredentials: boolean,
): Promise<DeletedCredential[]> {
  return db.transaction(async (tx) => {
    await tx.delete(userWorkflows).where(eq(userWorkflows.installationId, row.id));
    await tx.delete(installations).where(eq(installations.id, row.id));
    const ids = Object.values(row.credentialIds);
    if (!deleteCredentials || ids.length === 0) return [];
    return tx
      .delete(credentials)
      .where(
        and(
          eq(credentials.userId, row.userId),
          inArray(credentials.id, ids),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(installations)
              .where(
                and(
                  eq(installations.userId, row.userId),
                  ne(installations.id, row.id),
                  sql`exists (select 1 from jsonb_each_text(${installations.credentialIds}) c where c.value = ${credentials.id}::text)`,
                ),
              ),
          ),
        ),
      )
      .returning(DELETED);
  });
}

import { and, eq, sql } from 'drizzle-orm';
import { installations, userWorkflows } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

/** A user's installed copy of a workflow, with what triggers need to decide whether it runs. */
export interface InstalledWorkflow {
  accountId: string;
  userId: string;
  workflowId: string;
  installationId: string;
  version: number;
  triggerType: string;
  active: boolean;
  enabled: boolean;
}

const columns = {
  accountId: userWorkflows.accountId,
  userId: userWorkflows.userId,
  workflowId: userWorkflows.workflowId,
  installationId: userWorkflows.installationId,
  version: userWorkflows.version,
  triggerType: userWorkflows.triggerType,
  active: userWorkflows.active,
  enabled: installations.enabled,
};

/** The user's installed workflow, or undefined (not installed, or not this account's). */
export async function findInstalled(
  db: Db,
  accountId: string,
  userId: string,
  workflowId: string,
): Promise<InstalledWorkflow | undefined> {
  const [row] = await db
    .select(columns)
    .from(userWorkflows)
    .innerJoin(installations, eq(installations.id, userWorkflows.installationId))
    .where(
      and(
        eq(userWorkflows.userId, userId),
        eq(userWorkflows.workflowId, workflowId),
        eq(userWorkflows.accountId, accountId),
      ),
    );
  return row;
}

/** The user's active workflows listening to `event`, in enabled installations (served by the partial index). */
export function listeningTo(db: Db, accountId: string, userId: string, event: string) {
  return db
    .select(columns)
    .from(userWorkflows)
    .innerJoin(installations, eq(installations.id, userWorkflows.installationId))
    .where(
      and(
        // Written as the index predicate so the planner uses `user_workflows_event_idx`.
        sql`${userWorkflows.active} and ${userWorkflows.triggerType} = 'event'`,
        eq(userWorkflows.userId, userId),
        eq(userWorkflows.event, event),
        eq(userWorkflows.accountId, accountId),
        eq(installations.enabled, true),
      ),
    )
    .orderBy(userWorkflows.createdAt, userWorkflows.workflowId);
}

/** The active webhook workflows of an installation. */
export function webhookWorkflows(db: Db, installationId: string) {
  return db
    .select(columns)
    .from(userWorkflows)
    .innerJoin(installations, eq(installations.id, userWorkflows.installationId))
    .where(
      and(
        eq(userWorkflows.installationId, installationId),
        eq(userWorkflows.active, true),
        eq(userWorkflows.triggerType, 'webhook'),
      ),
    )
    .orderBy(userWorkflows.createdAt, userWorkflows.workflowId);
}

/** The run a trigger creates for an installed workflow (`event`: the event name of an `event` run). */
export const runFor = (
  w: InstalledWorkflow,
  trigger: unknown,
  triggerType: string,
  more: { event?: string | null; rerunOf?: string } = {},
) => ({
  accountId: w.accountId,
  userId: w.userId,
  workflowId: w.workflowId,
  installationId: w.installationId,
  version: w.version,
  trigger,
  triggerType,
  ...more,
});

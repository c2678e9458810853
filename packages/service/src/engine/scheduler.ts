import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { installations, userWorkflows } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import type { NewRun, RunStore } from './runs.ts';
import { nextRun } from './triggers.ts';

/**
 * Claims due schedules and creates their runs in one transaction: rows are locked with SKIP LOCKED, so
 * schedulers on several nodes never fire the same tick twice. `nextRunAt` moves to the next time after
 * `now`: ticks missed while nothing ran are skipped, not replayed in a burst. A disabled installation's
 * schedules advance without running. Returns the created execution ids (to dispatch after commit).
 */
export async function fireDueSchedules(db: Db, runs: RunStore, now = new Date(), limit = 100) {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({
        userId: userWorkflows.userId,
        workflowId: userWorkflows.workflowId,
        accountId: userWorkflows.accountId,
        installationId: userWorkflows.installationId,
        version: userWorkflows.version,
        cron: userWorkflows.cron,
        timezone: userWorkflows.timezone,
        nextRunAt: userWorkflows.nextRunAt,
        enabled: installations.enabled,
      })
      .from(userWorkflows)
      .innerJoin(installations, eq(installations.id, userWorkflows.installationId))
      .where(
        and(
          // Written as the index predicate so the planner uses `user_workflows_schedule_idx`.
          sql`${userWorkflows.active} and ${userWorkflows.triggerType} = 'schedule'`,
          lte(userWorkflows.nextRunAt, now),
        ),
      )
      .orderBy(asc(userWorkflows.nextRunAt))
      .limit(limit)
      .for('update', { of: userWorkflows, skipLocked: true });
    const fire: NewRun[] = [];
    for (const d of due) {
      const next = d.cron ? (nextRun(d.cron, d.timezone ?? undefined, now) ?? null) : null;
      await tx
        .update(userWorkflows)
        .set({ nextRunAt: next })
        .where(and(eq(userWorkflows.userId, d.userId), eq(userWorkflows.workflowId, d.workflowId)));
      if (!d.enabled) continue;
      fire.push({
        accountId: d.accountId,
        userId: d.userId,
        workflowId: d.workflowId,
        installationId: d.installationId,
        version: d.version,
        triggerType: 'schedule',
        trigger: {
          scheduledAt: d.nextRunAt!.toISOString(),
          firedAt: now.toISOString(),
          cron: d.cron,
          ...(d.timezone ? { timezone: d.timezone } : {}),
        },
      });
    }
    return { claimed: due.length, executionIds: await runs.create(fire, tx) };
  });
}

/** Recomputes a schedule's next run when the user switches the workflow on (from now) or off (none). */
export async function reschedule(db: Db, userId: string, workflowId: string, active: boolean) {
  const [row] = await db
    .select({
      triggerType: userWorkflows.triggerType,
      cron: userWorkflows.cron,
      timezone: userWorkflows.timezone,
    })
    .from(userWorkflows)
    .where(and(eq(userWorkflows.userId, userId), eq(userWorkflows.workflowId, workflowId)));
  if (row?.triggerType !== 'schedule' || !row.cron) return;
  await db
    .update(userWorkflows)
    .set({ nextRunAt: active ? (nextRun(row.cron, row.timezone ?? undefined) ?? null) : null })
    .where(and(eq(userWorkflows.userId, userId), eq(userWorkflows.workflowId, workflowId)));
}

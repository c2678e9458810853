import { randomUUID } from 'node:crypto';
import { ConnectorError, MAX_ITEMS_PER_POLL, pollTriggerPages } from '@inlay/connectors';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { type AppTriggerState, installations, userWorkflows } from '../../store/schema.ts';
import type { DefinitionCache } from '../../workflows/definitions.ts';
import type { NewRun, RunStore } from '../runs.ts';
import { StepFailure } from '../step-failure.ts';
import { DEFAULT_EVERY_MS, everyMs } from './app-trigger-check.ts';
import { subscribe, type TriggerRow, triggerCredential, unsubscribeRows } from './subscriptions.ts';
import { applyFailure, applyPoll } from './trigger-state.ts';

/** How long a claimed poll may take before another node may claim the row again (its result is then dropped). */
export const CLAIM_MS = 120_000;
/** The longest wait after repeated failures. */
const MAX_BACKOFF_MS = 3_600_000;
const CLAIM_BATCH = 20;

interface Claimed extends TriggerRow {
  version: number;
  state: AppTriggerState;
  claim: string;
}

/**
 * Claims due app triggers: rows are locked with SKIP LOCKED (as schedules are), so two nodes never take the
 * same row, and each gets a claim token and a deadline before the transaction ends; the slow part (HTTP to
 * the app) runs after it. A disabled installation's triggers wait a default interval without polling.
 */
export async function claimDueTriggers(db: AppContext['db'], now: Date): Promise<Claimed[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({
        accountId: userWorkflows.accountId,
        userId: userWorkflows.userId,
        installationId: userWorkflows.installationId,
        workflowId: userWorkflows.workflowId,
        version: userWorkflows.version,
        state: userWorkflows.triggerState,
        credentialIds: installations.credentialIds,
        enabled: installations.enabled,
      })
      .from(userWorkflows)
      .innerJoin(installations, eq(installations.id, userWorkflows.installationId))
      .where(
        and(
          // Written as the index predicate so the planner uses `user_workflows_app_trigger_idx`.
          sql`${userWorkflows.active} and ${userWorkflows.triggerType} = 'app'`,
          lte(userWorkflows.nextRunAt, now),
        ),
      )
      .orderBy(asc(userWorkflows.nextRunAt))
      .limit(CLAIM_BATCH)
      .for('update', { of: userWorkflows, skipLocked: true });
    const out: Claimed[] = [];
    for (const d of due) {
      const claim = randomUUID();
      const state = { ...(d.state ?? {}), claim };
      await tx
        .update(userWorkflows)
        .set({
          nextRunAt: new Date(now.getTime() + (d.enabled ? CLAIM_MS : DEFAULT_EVERY_MS)),
          ...(d.enabled ? { triggerState: state } : {}),
        })
        .where(and(eq(userWorkflows.userId, d.userId), eq(userWorkflows.workflowId, d.workflowId)));
      if (d.enabled) out.push({ ...d, state, claim });
    }
    return out;
  });
}

export interface PollDeps {
  ctx: AppContext;
  defs: DefinitionCache;
  runs: RunStore;
}

/**
 * Ends a claimed poll in one transaction: the new state, the next poll time and the runs, written only when
 * the row still holds this poll's claim and is active (an overrun, an uninstall or a switch-off drops it:
 * then undefined).
 */
async function finish(
  deps: PollDeps,
  c: Claimed,
  state: AppTriggerState,
  nextRunAt: Date | null,
  runs: NewRun[] = [],
): Promise<string[] | undefined> {
  return deps.ctx.db.transaction(async (tx) => {
    const pk = and(eq(userWorkflows.userId, c.userId), eq(userWorkflows.workflowId, c.workflowId));
    const [row] = await tx
      .select({ state: userWorkflows.triggerState, active: userWorkflows.active })
      .from(userWorkflows)
      .where(pk)
      .for('update');
    if (!row?.active || row.state?.claim !== c.claim) return undefined;
    await tx.update(userWorkflows).set({ triggerState: state, nextRunAt }).where(pk);
    return runs.length ? deps.runs.create(runs, tx) : [];
  });
}

const reasonOf = (err: unknown) =>
  err instanceof ConnectorError || err instanceof StepFailure ? err.message : 'internal error';

/** Polls (or, for a webhook trigger, subscribes) one claimed row; returns the executions it created. */
export async function runClaimed(deps: PollDeps, c: Claimed, now = new Date()): Promise<string[]> {
  const { ctx } = deps;
  const v = await deps.defs.get(c.workflowId, c.version);
  const trigger = v?.definition.trigger;
  if (trigger?.type !== 'app') return (await finish(deps, c, {}, null)) ?? [];
  const every = everyMs(trigger.every);
  const connectors = await ctx.registry.forAccount(c.accountId);
  const declared = connectors.get(trigger.connector)?.triggers?.find((t) => t.id === trigger.trigger);
  try {
    if (declared?.kind === 'webhook') {
      // Armed once; deliveries then come to the trigger URL and nothing polls.
      if (c.state.subscription) return (await finish(deps, c, withoutClaim(c.state), null)) ?? [];
      const armed = await subscribe(ctx, c, trigger);
      const kept = await finish(deps, c, { ...withoutClaim(c.state), ...armed, failures: 0 }, null);
      // Uninstalled, deactivated or its user deleted while the provider answered: the disarm found nothing
      // to remove yet, so the subscription made here is removed here.
      if (!kept) await unsubscribeRows(ctx, deps.defs, [{ ...c, state: armed }]);
      return [];
    }
    const oldestFirst = declared?.kind === 'poll' && declared.order === 'oldest';
    const cred = await triggerCredential(ctx, c, trigger.connector);
    const seen = new Set(c.state.seen ?? []);
    const { items, more } = await pollTriggerPages(
      connectors,
      trigger.connector,
      trigger.trigger,
      trigger.input,
      {
        ...(cred
          ? {
              credential: cred.secrets,
              onUnauthorized: cred.onUnauthorized,
              onAuthRefused: cred.onAuthRefused,
            }
          : {}),
        onCall: ctx.providerCalls.listener({
          accountId: c.accountId,
          userId: c.userId,
          credentialId: Object.hasOwn(c.credentialIds, trigger.connector)
            ? c.credentialIds[trigger.connector]
            : null,
          connector: trigger.connector,
          kind: 'poll',
        }),
        // Set once a poll read something: a baseline read over several polls goes on from where it stopped.
        since: c.state.highWater,
        seen: (id) => seen.has(id),
        // A newest-first list's baseline is its newest page; an oldest-first list's newest items are on its last
        // page, so its baseline reads to the end (the cap per poll, then at once again from the high-water mark).
        maxItems: c.state.baseline || oldestFirst ? MAX_ITEMS_PER_POLL : 1,
      },
    );
    const { fresh, next, again } = applyPoll(c.state, items, more);
    const runs: NewRun[] = fresh.map((item) => ({
      accountId: c.accountId,
      userId: c.userId,
      workflowId: c.workflowId,
      installationId: c.installationId,
      version: c.version,
      triggerType: 'app',
      trigger: item.data,
    }));
    return (await finish(deps, c, next, new Date(now.getTime() + (again ? 0 : every)), runs)) ?? [];
  } catch (err) {
    const state = applyFailure(c.state, reasonOf(err), now);
    const wait = Math.min(MAX_BACKOFF_MS, every * 2 ** Math.min(10, state.failures! - 1));
    ctx.logger.warn(
      {
        installationId: c.installationId,
        workflowId: c.workflowId,
        failures: state.failures,
        reason: state.lastError,
      },
      'app trigger failed',
    );
    if (!(err instanceof ConnectorError || err instanceof StepFailure))
      ctx.logger.error({ err }, 'app trigger crashed');
    return (await finish(deps, c, state, new Date(now.getTime() + wait))) ?? [];
  }
}

const withoutClaim = ({ claim: _claim, ...rest }: AppTriggerState): AppTriggerState => rest;

/** One pass: claims due triggers batch by batch and runs each; `dispatch` hands the created runs to workers. */
export async function pollDueTriggers(
  deps: PollDeps,
  dispatch: (ids: string[]) => Promise<void>,
  now = () => new Date(),
) {
  for (;;) {
    const claimed = await claimDueTriggers(deps.ctx.db, now());
    for (const c of claimed) {
      const ids = await runClaimed(deps, c, now());
      if (ids.length) await dispatch(ids);
    }
    if (claimed.length < CLAIM_BATCH) return;
  }
}

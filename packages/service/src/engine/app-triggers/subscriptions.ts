import { randomBytes } from 'node:crypto';
import { subscribeTrigger, unsubscribeTrigger } from '@inlay/connectors';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { type AppTriggerState, installations, userWorkflows } from '../../store/schema.ts';
import type { DefinitionCache } from '../../workflows/definitions.ts';
import { RunCredentials } from '../run-credentials.ts';
import type { AppTrigger } from './app-trigger-check.ts';

/** What binds a sealed trigger secret to its row: a copy moved to another row does not open. */
export const triggerAad = (r: { accountId: string; installationId: string; workflowId: string }) =>
  `app-trigger:${r.accountId}:${r.installationId}:${r.workflowId}`;

export interface TriggerRow {
  accountId: string;
  userId: string;
  installationId: string;
  workflowId: string;
  credentialIds: Record<string, string>;
}

/** The credential a trigger calls its app with (refresh and the credential-health path included). */
export const triggerCredential = async (ctx: AppContext, r: TriggerRow, connector: string) =>
  new RunCredentials(
    ctx.credentials,
    await ctx.registry.forAccount(r.accountId),
    { accountId: r.accountId, userId: r.userId },
    r.credentialIds,
  ).for(connector);

/** The credential's calls, each recorded in the provider-call log as a `subscription` call of the row's user. */
const callOptions = (
  ctx: AppContext,
  r: TriggerRow,
  connector: string,
  cred: Awaited<ReturnType<typeof triggerCredential>>,
) => ({
  ...(cred
    ? { credential: cred.secrets, onUnauthorized: cred.onUnauthorized, onAuthRefused: cred.onAuthRefused }
    : {}),
  onCall: ctx.providerCalls.listener({
    accountId: r.accountId,
    userId: r.userId,
    credentialId: Object.hasOwn(r.credentialIds, connector) ? r.credentialIds[connector] : null,
    connector,
    kind: 'subscription',
  }),
});

/**
 * Subscribes a webhook trigger toward this row's own trigger URL (a fresh secret in its path) and returns
 * the state to store: the URL secret and the provider's signing secret, both sealed.
 */
export async function subscribe(
  ctx: AppContext,
  r: TriggerRow,
  trigger: AppTrigger,
): Promise<AppTriggerState> {
  const cred = await triggerCredential(ctx, r, trigger.connector);
  const hookSecret = randomBytes(24).toString('base64url');
  const url = `${ctx.config.publicUrl}/hooks/app/${r.installationId}/${r.workflowId}/${hookSecret}`;
  const sub = await subscribeTrigger(
    await ctx.registry.forAccount(r.accountId),
    trigger.connector,
    trigger.trigger,
    trigger.input,
    { url, secret: randomBytes(32).toString('hex') },
    callOptions(ctx, r, trigger.connector, cred),
  );
  const aad = triggerAad(r);
  return {
    hookSecret: ctx.vault.seal(hookSecret, aad),
    subscription: { id: sub.id, secret: ctx.vault.seal(sub.secret, aad) },
  };
}

/**
 * Removes the webhook subscriptions of the given app-trigger rows at their providers. Best effort: a
 * provider that fails is logged, and its deliveries to the gone URL answer 404 from then on.
 */
export async function unsubscribeRows(
  ctx: AppContext,
  defs: DefinitionCache,
  rows: (TriggerRow & { version: number; state: AppTriggerState | null })[],
) {
  for (const r of rows) {
    const sub = r.state?.subscription;
    if (!sub) continue;
    try {
      const v = await defs.get(r.workflowId, r.version);
      const trigger = v?.definition.trigger;
      if (trigger?.type !== 'app') continue;
      const cred = await triggerCredential(ctx, r, trigger.connector);
      const connectors = await ctx.registry.forAccount(r.accountId);
      await unsubscribeTrigger(connectors, trigger.connector, trigger.trigger, trigger.input, sub.id, {
        ...callOptions(ctx, r, trigger.connector, cred),
        timeoutMs: 10_000,
      });
    } catch (err) {
      ctx.logger.warn(
        { err: (err as Error).message, installationId: r.installationId, workflowId: r.workflowId },
        'could not remove an app trigger subscription',
      );
    }
  }
}

const rowColumns = {
  accountId: userWorkflows.accountId,
  userId: userWorkflows.userId,
  installationId: userWorkflows.installationId,
  workflowId: userWorkflows.workflowId,
  version: userWorkflows.version,
  state: userWorkflows.triggerState,
  credentialIds: installations.credentialIds,
};

/** The subscribed app-trigger rows matching `where` (an installation, a user, or one workflow of a user). */
async function subscribedRows(ctx: AppContext, where: ReturnType<typeof and>) {
  return ctx.db
    .select(rowColumns)
    .from(userWorkflows)
    .innerJoin(installations, eq(installations.id, userWorkflows.installationId))
    .where(
      and(
        sql`${userWorkflows.triggerType} = 'app' and ${userWorkflows.triggerState} ? 'subscription'`,
        where,
      ),
    );
}

/** Disarms an installation's webhook triggers before it is deleted. */
export async function disarmInstallation(ctx: AppContext, defs: DefinitionCache, installationId: string) {
  await unsubscribeRows(
    ctx,
    defs,
    await subscribedRows(ctx, eq(userWorkflows.installationId, installationId)),
  );
}

/** Disarms every webhook trigger of a user before the user is deleted. */
export async function disarmUser(ctx: AppContext, defs: DefinitionCache, userId: string) {
  await unsubscribeRows(ctx, defs, await subscribedRows(ctx, eq(userWorkflows.userId, userId)));
}

/**
 * A user switched one workflow off (disarm: unsubscribe, stop polling) or on (arm again from a fresh
 * baseline at the next pass of the poller).
 */
export async function toggleAppTrigger(
  ctx: AppContext,
  defs: DefinitionCache,
  userId: string,
  workflowId: string,
  active: boolean,
) {
  const pk = and(eq(userWorkflows.userId, userId), eq(userWorkflows.workflowId, workflowId));
  if (!active) await unsubscribeRows(ctx, defs, await subscribedRows(ctx, pk));
  await ctx.db
    .update(userWorkflows)
    .set({ nextRunAt: active ? new Date() : null, triggerState: {} })
    .where(and(pk, sql`${userWorkflows.triggerType} = 'app'`));
}

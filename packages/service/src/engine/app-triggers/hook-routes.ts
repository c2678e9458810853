import {
  ConnectorError,
  type TriggerItem,
  triggerDeliveryItems,
  verifyTriggerDelivery,
} from '@inlay/connectors';
import { operations as ops } from '@inlay/contract';
import { and, eq } from 'drizzle-orm';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { HttpProblem, notFound, unprocessable } from '../../http/problem.ts';
import { route } from '../../http/route.ts';
import { isUuid } from '../../http/validate.ts';
import type { Limiters } from '../../ratelimit/limiters.ts';
import { limitWebhook } from '../../ratelimit/rate-limit.ts';
import { installations, userWorkflows } from '../../store/schema.ts';
import type { DefinitionCache } from '../../workflows/definitions.ts';
import type { RunStore } from '../runs.ts';
import { sameSecret } from '../webhook-routes.ts';
import { parseDelivery, readDeliveryBytes } from './delivery-body.ts';
import { triggerAad } from './subscriptions.ts';
import { applyPoll } from './trigger-state.ts';

/**
 * `POST /hooks/app/{installationId}/{workflowId}/{secret}`: where a provider delivers a webhook trigger's
 * events. The secret in the path picks the subscription (unknown → 404, as for any webhook); the provider's
 * signature must verify with the signing secret of that subscription over the body's bytes as sent (else 401,
 * and nothing starts); only then is the body inflated and parsed (any content type is read as JSON: providers
 * label it in their own ways). Items already seen (a redelivery) start nothing again.
 */
export function appHookRoutes(
  ctx: AppContext,
  defs: DefinitionCache,
  limiters: Limiters,
  engine: { runs: RunStore; dispatch: (ids: string[]) => Promise<void> },
): Router {
  const r = Router();
  const gone = () => notFound('Webhook');

  // The signature covers the body's bytes as sent: the handler reads them itself.
  route(r, ops.receiveAppTrigger, { raw: ['body'] }, async (req, res) => {
    const installationId = String(req.params.installationId).toLowerCase();
    const workflowId = String(req.params.workflowId).toLowerCase();
    if (!isUuid(installationId) || !isUuid(workflowId)) throw gone();
    const [row] = await ctx.db
      .select({
        accountId: userWorkflows.accountId,
        userId: userWorkflows.userId,
        version: userWorkflows.version,
        active: userWorkflows.active,
        state: userWorkflows.triggerState,
        enabled: installations.enabled,
      })
      .from(userWorkflows)
      .innerJoin(installations, eq(installations.id, userWorkflows.installationId))
      .where(and(eq(userWorkflows.installationId, installationId), eq(userWorkflows.workflowId, workflowId)));
    const sub = row?.state?.subscription;
    if (!row || !sub || !row.state?.hookSecret) throw gone();
    const aad = triggerAad({ accountId: row.accountId, installationId, workflowId });
    let signingSecret: string;
    try {
      if (!sameSecret(ctx.vault.open(row.state.hookSecret, aad), String(req.params.secret))) throw gone();
      signingSecret = ctx.vault.open(sub.secret, aad);
    } catch {
      throw gone();
    }
    await limitWebhook(limiters, installationId, ctx.config.rateLimit.windowSeconds, res);
    const rawBody = await readDeliveryBytes(req);
    const trigger = (await defs.get(workflowId, row.version))?.definition.trigger;
    if (trigger?.type !== 'app') throw gone();
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
    );
    const runtime = await ctx.registry.forAccount(row.accountId);
    const delivery = { headers, rawBody };
    if (!verifyTriggerDelivery(runtime, trigger.connector, trigger.trigger, delivery, signingSecret))
      throw new HttpProblem(401, 'unauthorized', 'The signature of this delivery does not verify');
    const body = parseDelivery(rawBody, headers['content-encoding']);
    const items = await triggerDeliveryItems(runtime, trigger.connector, trigger.trigger, {
      ...delivery,
      body,
    }).catch((err: unknown) => {
      // An authentic delivery the trigger cannot read (too many items, no item id, a custom connector's
      // expression failing).
      if (err instanceof ConnectorError) throw unprocessable('body', 'items', err.message);
      throw err;
    });
    if (!row.active || !row.enabled || items.length === 0) {
      res.json({ message: 'success', executionIds: [] });
      return;
    }
    const executionIds = await startNew(ctx, { installationId, workflowId, ...row }, items, engine.runs);
    await engine.dispatch(executionIds);
    res.json({ message: 'success', executionIds });
  });

  return r;
}

/** Runs created by one insert statement. */
const INSERT_CHUNK = 200;

/** Records the delivered items as seen and starts a run for each one not seen before, in one step per row. */
async function startNew(
  ctx: AppContext,
  r: { accountId: string; userId: string; installationId: string; workflowId: string; version: number },
  items: TriggerItem[],
  runs: RunStore,
): Promise<string[]> {
  return ctx.db.transaction(async (tx) => {
    const pk = and(eq(userWorkflows.userId, r.userId), eq(userWorkflows.workflowId, r.workflowId));
    const [locked] = await tx
      .select({ state: userWorkflows.triggerState })
      .from(userWorkflows)
      .where(pk)
      .for('update');
    // Deliveries need no baseline: everything the app pushes is new unless it was seen.
    const { fresh, next } = applyPoll({ ...(locked?.state ?? {}), baseline: true }, items);
    await tx
      .update(userWorkflows)
      .set({ triggerState: { ...locked?.state, seen: next.seen } })
      .where(pk);
    const rows = fresh.map((item) => ({
      accountId: r.accountId,
      userId: r.userId,
      workflowId: r.workflowId,
      installationId: r.installationId,
      version: r.version,
      triggerType: 'app' as const,
      trigger: item.data,
    }));
    // In chunks: one insert of thousands of runs passes PostgreSQL's limit of parameters per statement.
    const ids: string[] = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK)
      ids.push(...(await runs.create(rows.slice(i, i + INSERT_CHUNK), tx)));
    return ids;
  });
}

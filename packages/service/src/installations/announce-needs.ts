import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { installations } from '../store/schema.ts';
import { credentialNeeds } from './readiness.ts';

/**
 * Queues `installation.needs_credential` for each of the given installations that now lacks a usable
 * credential (read by `credentialNeeds`, as the API's `attention` is), so a host can tell its user before the
 * next run fails. Installations that lack nothing send none.
 */
export async function announceNeeds(
  ctx: Pick<AppContext, 'db' | 'registry' | 'events' | 'logger'>,
  accountId: string,
  installationIds: string[],
): Promise<void> {
  if (!installationIds.length) return;
  const needs = await credentialNeeds(ctx, { accountId, installationIds });
  for (const [installationId, byWorkflow] of needs) {
    const first = byWorkflow.values().next().value!;
    const userId = first.userId;
    void ctx.events.emit(accountId, 'installation.needs_credential', {
      installationId,
      userId,
      workflowIds: [...byWorkflow.keys()],
      code: first.code,
      connector: first.connector,
      ...(first.credentialId ? { credentialId: first.credentialId } : {}),
    });
  }
}

/** `announceNeeds` for every installation that uses a credential the provider now refuses. */
export async function announceNeedsOf(
  ctx: Pick<AppContext, 'db' | 'registry' | 'events' | 'logger'>,
  credential: { accountId: string; userId: string; id: string },
): Promise<void> {
  try {
    const using = await ctx.db
      .select({ id: installations.id })
      .from(installations)
      .where(
        and(
          eq(installations.accountId, credential.accountId),
          eq(installations.userId, credential.userId),
          sql`exists (select 1 from jsonb_each_text(${installations.credentialIds}) c where c.value = ${credential.id})`,
        ),
      );
    await announceNeeds(
      ctx,
      credential.accountId,
      using.map((u) => u.id),
    );
  } catch (err) {
    ctx.logger.error(
      { err, credentialId: credential.id },
      'announcing the installations of a credential failed',
    );
  }
}

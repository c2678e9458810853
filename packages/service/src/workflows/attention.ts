import type { WorkflowAttention } from '@inlay/contract';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';

/** How many finished runs in a row must have failed before a workflow reads as `failing`. */
export const FAILING_RUNS = 3;

interface AttentionRow {
  workflowId: string;
  credentialIds: Record<string, string> | null;
  runs: { status: string; code: string | null; message: string | null; startedAt: string }[] | null;
  triggerFailures: string | null;
  triggerError: string | null;
  triggerSince: string | null;
}

interface BrokenCredential {
  id: string;
  connector: string;
  statusReason: string | null;
  statusChangedAt: Date | string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * What each of a user's installed workflows needs from them: a credential to reconnect (from the credential's
 * status, so it shows before the next run fails), else `failing` when its last three finished runs all failed
 * for another reason. Kept in the read cache: the writes it depends on (a run ending in a way that can change
 * it, a credential's status, runs deleted, an app trigger's failures) announce the user's change through the
 * `inlay_attention` triggers, and this node's own such writes make every kept attention stale at once.
 */
export function attentionOf(
  ctx: Pick<AppContext, 'db' | 'registry' | 'reads'>,
  accountId: string,
  userId: string,
): Promise<Map<string, WorkflowAttention>> {
  return ctx.reads.through(
    `attention|${accountId}|${userId}`,
    () => readAttention(ctx, accountId, userId),
    (m) => ({ accountId, userId, topic: 'attention', bytes: 64 + m.size * 256 }),
  );
}

async function readAttention(
  ctx: Pick<AppContext, 'db' | 'registry'>,
  accountId: string,
  userId: string,
): Promise<Map<string, WorkflowAttention>> {
  const [installed, broken] = await Promise.all([
    ctx.db.execute(sql`
      select uw.workflow_id as "workflowId", i.credential_ids as "credentialIds",
        uw.trigger_state->>'failures' as "triggerFailures", uw.trigger_state->>'lastError' as "triggerError",
        uw.trigger_state->>'failingSince' as "triggerSince",
        (select json_agg(json_build_object('status', e.status, 'code', e.error->>'code',
                  'message', e.error->>'message', 'startedAt', e.started_at) order by e.started_at desc)
           from (select status, error, started_at from executions
                 where user_id = uw.user_id and workflow_id = uw.workflow_id and status in ('succeeded', 'failed')
                 order by started_at desc limit ${FAILING_RUNS}) e) as runs
      from user_workflows uw join installations i on i.id = uw.installation_id
      where uw.user_id = ${userId} and uw.account_id = ${accountId}`),
    ctx.db.execute(sql`
      select id, connector, status_reason as "statusReason", status_changed_at as "statusChangedAt"
      from credentials
      where user_id = ${userId} and account_id = ${accountId} and status = 'needs_reconnect'`),
  ]);
  const rows = (installed as unknown as { rows: AttentionRow[] }).rows;
  const needsReconnect = new Map(
    (broken as unknown as { rows: BrokenCredential[] }).rows.map((c) => [c.id, c]),
  );
  const out = new Map<string, WorkflowAttention>();
  for (const r of rows) {
    const cred = Object.values(r.credentialIds ?? {})
      .map((id) => needsReconnect.get(id))
      .find((c) => c !== undefined);
    if (cred) {
      const app = (await ctx.registry.forAccount(accountId)).get(cred.connector)?.name ?? cred.connector;
      out.set(r.workflowId, {
        code: 'needs_reconnect',
        credentialId: cred.id,
        since: iso(cred.statusChangedAt),
        message: `Reconnect ${app}${cred.statusReason ? `: ${cred.statusReason}` : ''}`,
      });
      continue;
    }
    // An app trigger that keeps failing starts no runs at all, so it is read from the trigger's own state.
    if (Number(r.triggerFailures ?? 0) >= FAILING_RUNS && r.triggerSince) {
      out.set(r.workflowId, {
        code: 'failing',
        since: iso(r.triggerSince),
        message: `The trigger failed ${r.triggerFailures} times in a row${r.triggerError ? `: ${r.triggerError}` : ''}`,
      });
      continue;
    }
    const runs = r.runs ?? [];
    const failing =
      runs.length === FAILING_RUNS &&
      runs.every((run) => run.status === 'failed' && run.code !== 'credential_needs_reconnect');
    if (failing)
      out.set(r.workflowId, {
        code: 'failing',
        since: iso(runs.at(-1)!.startedAt),
        message: `The last ${FAILING_RUNS} runs failed${runs[0]!.message ? `: ${runs[0]!.message}` : ''}`,
      });
  }
  return out;
}

/**
 * Adds `"attention"` to each workflow of a serialised list. Every element starts with `{"workflowId":"<uuid>",`
 * and a string value cannot hold an unescaped quote, so the pattern only ever meets element starts.
 */
export function withAttentionJson(json: string, attention: Map<string, WorkflowAttention>): string {
  return json.replace(
    /\{"workflowId":"([0-9a-f-]{36})",/g,
    (_, id: string) => `{"workflowId":"${id}","attention":${JSON.stringify(attention.get(id) ?? null)},`,
  );
}

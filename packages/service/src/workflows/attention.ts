import type { WorkflowAttention } from '@inlay/contract';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { type CredentialNeed, credentialNeeds, needMessage } from '../installations/readiness.ts';

/** How many finished runs in a row must have failed before a workflow reads as `failing`. */
export const FAILING_RUNS = 3;

interface AttentionRow {
  workflowId: string;
  installationId: string;
  runs: { status: string; code: string | null; message: string | null; startedAt: string }[] | null;
  triggerFailures: string | null;
  triggerError: string | null;
  triggerSince: string | null;
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
  const [installed, needs] = await Promise.all([
    ctx.db.execute(sql`
      select uw.workflow_id as "workflowId", uw.installation_id as "installationId",
        uw.trigger_state->>'failures' as "triggerFailures", uw.trigger_state->>'lastError' as "triggerError",
        uw.trigger_state->>'failingSince' as "triggerSince",
        (select json_agg(json_build_object('status', e.status, 'code', e.error->>'code',
                  'message', e.error->>'message', 'startedAt', e.started_at) order by e.started_at desc)
           from (select status, error, started_at from executions
                 where user_id = uw.user_id and workflow_id = uw.workflow_id and status in ('succeeded', 'failed')
                 order by started_at desc limit ${FAILING_RUNS}) e) as runs
      from user_workflows uw
      where uw.user_id = ${userId} and uw.account_id = ${accountId}`),
    credentialNeeds(ctx, { accountId, userId }),
  ]);
  const rows = (installed as unknown as { rows: AttentionRow[] }).rows;
  const out = new Map<string, WorkflowAttention>();
  for (const r of rows) {
    const need = needs.get(r.installationId)?.get(r.workflowId);
    if (need) {
      out.set(r.workflowId, attentionOfNeed(need));
      continue;
    }
    // An app trigger that keeps failing starts no runs at all, so it is read from the trigger's own state.
    if (Number(r.triggerFailures ?? 0) >= FAILING_RUNS && r.triggerSince) {
      out.set(r.workflowId, {
        code: 'failing',
        since: iso(r.triggerSince),
        message: `The trigger failed ${r.triggerFailures} times in a row, so the workflow is not starting. Open its run history or contact support.`,
        ...(r.triggerError ? { detail: r.triggerError } : {}),
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
        message: `The last ${FAILING_RUNS} runs failed. Open the run history to see why.`,
        ...(runs[0]!.message ? { detail: runs[0]!.message } : {}),
      });
  }
  return out;
}

/** The `attention` of a workflow that lacks a usable credential. */
export function attentionOfNeed(need: CredentialNeed): WorkflowAttention {
  return {
    code: need.code,
    connector: need.connector,
    ...(need.credentialId ? { credentialId: need.credentialId } : {}),
    since: need.since,
    message: needMessage(need),
    ...(need.detail ? { detail: need.detail } : {}),
  };
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

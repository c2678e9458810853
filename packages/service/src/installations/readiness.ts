import { type AnyStep, actionSteps, type WorkflowDefinition } from '@inlay/contract';
import { sql } from 'drizzle-orm';
import { needsNoCredential } from '../connectors/options.ts';
import type { AppContext } from '../context.ts';

/**
 * What an installed workflow lacks to run, read from the installation's chosen credentials and their status:
 * `needs_credential` when a connector it calls has no credential chosen (or the chosen one is gone),
 * `needs_reconnect` when the chosen one is refused by its provider. The REST API's `attention`, the widget's
 * card, the console and the `installation.needs_credential` event all read this one answer.
 */
export interface CredentialNeed {
  code: 'needs_credential' | 'needs_reconnect';
  userId: string;
  connector: string;
  /** The app's display name. */
  app: string;
  credentialId?: string;
  since: string;
  /** The provider's own words for a refused credential; never part of a sentence shown to a user. */
  detail?: string;
}

interface InstalledRow {
  installationId: string;
  userId: string;
  workflowId: string;
  credentialIds: Record<string, string> | null;
  definition: WorkflowDefinition | null;
  updatedAt: Date | string;
}

interface CredentialState {
  id: string;
  connector: string;
  status: string;
  statusReason: string | null;
  statusChangedAt: Date | string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** The sentence the API shows for a need: what happened and what to do, without the provider's words. */
export function needMessage(need: Pick<CredentialNeed, 'code' | 'app'>): string {
  return need.code === 'needs_credential'
    ? `No ${need.app} account is chosen for this workflow, so it cannot run. Open Configure and choose one.`
    : `The ${need.app} account of this workflow stopped working, so it cannot run. Reconnect ${need.app} to continue.`;
}

/** The connectors a workflow calls with a credential: its action steps' and its app trigger's. */
function connectorsOf(definition: WorkflowDefinition | null): string[] {
  if (!definition) return [];
  const out = new Set(actionSteps((definition.steps ?? []) as AnyStep[]).map((s) => s.connector));
  if (definition.trigger?.type === 'app' && definition.trigger.connector)
    out.add(definition.trigger.connector);
  return [...out];
}

/**
 * Each installed workflow's credential need, by `installationId` then `workflowId`, for one user or (without
 * `userId`) the whole account. Workflows that lack nothing are absent.
 */
export async function credentialNeeds(
  ctx: Pick<AppContext, 'db' | 'registry'>,
  filter: { accountId: string; userId?: string; installationIds?: string[] },
): Promise<Map<string, Map<string, CredentialNeed>>> {
  const byUser = filter.userId ? sql`and uw.user_id = ${filter.userId}` : sql``;
  const byInstallation = filter.installationIds
    ? filter.installationIds.length
      ? sql`and i.id in (${sql.join(
          filter.installationIds.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql`and false`
    : sql``;
  const [installed, creds] = await Promise.all([
    ctx.db.execute(sql`
      select i.id as "installationId", uw.user_id as "userId", uw.workflow_id as "workflowId",
        i.credential_ids as "credentialIds", v.definition, i.updated_at as "updatedAt"
      from user_workflows uw
        join installations i on i.id = uw.installation_id
        left join workflow_versions v on v.workflow_id = uw.workflow_id and v.version = uw.version
      where uw.account_id = ${filter.accountId} ${byUser} ${byInstallation}`),
    ctx.db.execute(sql`
      select c.id, c.connector, c.status, c.status_reason as "statusReason", c.status_changed_at as "statusChangedAt"
      from credentials c
      where c.account_id = ${filter.accountId} ${filter.userId ? sql`and c.user_id = ${filter.userId}` : sql``}
        and c.id in (select v.value::uuid from installations i, jsonb_each_text(i.credential_ids) v
                     where i.account_id = ${filter.accountId})`),
  ]);
  const rows = (installed as unknown as { rows: InstalledRow[] }).rows;
  const state = new Map((creds as unknown as { rows: CredentialState[] }).rows.map((c) => [c.id, c]));
  const out = new Map<string, Map<string, CredentialNeed>>();
  if (!rows.length) return out;
  const runtime = await ctx.registry.forAccount(filter.accountId);
  for (const r of rows) {
    const chosen = r.credentialIds ?? {};
    let need: CredentialNeed | undefined;
    for (const connector of connectorsOf(r.definition)) {
      const def = runtime.get(connector);
      if (!def || needsNoCredential(def)) continue;
      const id = Object.hasOwn(chosen, connector) ? chosen[connector] : undefined;
      const cred = id ? state.get(id) : undefined;
      if (!id || !cred) {
        need = {
          code: 'needs_credential',
          userId: r.userId,
          connector,
          app: def.name,
          since: iso(r.updatedAt),
        };
        break;
      }
      if (cred.status === 'needs_reconnect' || cred.status === 'failed') {
        need = {
          code: 'needs_reconnect',
          userId: r.userId,
          connector,
          app: def.name,
          credentialId: cred.id,
          since: iso(cred.statusChangedAt),
          ...(cred.statusReason ? { detail: cred.statusReason } : {}),
        };
        break;
      }
    }
    if (!need) continue;
    const of = out.get(r.installationId) ?? new Map<string, CredentialNeed>();
    of.set(r.workflowId, need);
    out.set(r.installationId, of);
  }
  return out;
}

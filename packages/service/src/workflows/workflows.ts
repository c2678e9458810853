import type { Trigger, Workflow, WorkflowAttention } from '@inlay/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { Request } from 'express';
import type { AppContext } from '../context.ts';
import { preparedPerStore } from '../store/prepared.ts';
import { installations, integrations, userWorkflows, workflows } from '../store/schema.ts';
import type { Db, Store } from '../store/store.ts';
import { checkLookedUp, lookupKey, USER_CTE, type UserLookup, userLookup } from '../users/resolve-user.ts';
import { attentionOf, withAttentionJson } from './attention.ts';
import type { CompiledVersion, DefinitionCache } from './definitions.ts';

const columns = {
  id: workflows.id,
  name: workflows.name,
  description: workflows.description,
  integrationId: workflows.integrationId,
  integrationName: integrations.name,
  version: workflows.currentVersion,
  createdAt: workflows.createdAt,
  updatedAt: workflows.updatedAt,
  installationId: userWorkflows.installationId,
  installedVersion: userWorkflows.version,
  userActive: userWorkflows.active,
  enabled: installations.enabled,
};

/** The account's workflows with `installed`/`active` for one user. */
export async function listWorkflows(
  db: Db,
  defs: DefinitionCache,
  accountId: string,
  userId: string,
  filter: { workflowId?: string; integrationId?: string } = {},
): Promise<Workflow[]> {
  const rows = await db
    .select(columns)
    .from(workflows)
    .innerJoin(integrations, eq(integrations.id, workflows.integrationId))
    .leftJoin(
      userWorkflows,
      and(eq(userWorkflows.workflowId, workflows.id), eq(userWorkflows.userId, userId)),
    )
    .leftJoin(installations, eq(installations.id, userWorkflows.installationId))
    .where(
      and(
        eq(workflows.accountId, accountId),
        filter.workflowId ? eq(workflows.id, filter.workflowId) : undefined,
        filter.integrationId ? eq(workflows.integrationId, filter.integrationId) : undefined,
      ),
    )
    .orderBy(asc(workflows.createdAt), asc(workflows.id));
  return withDefinitions(defs, rows);
}

type WorkflowRow = {
  id: string;
  name: string;
  description: string | null;
  integrationId: string;
  integrationName: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  installationId: string | null;
  installedVersion: number | null;
  userActive: boolean | null;
  enabled: boolean | null;
};

async function withDefinitions(defs: DefinitionCache, rows: WorkflowRow[]): Promise<Workflow[]> {
  const compiled = await defs.getMany(rows.map((r) => ({ workflowId: r.id, version: r.version })));
  return rows.map((r) => {
    const v = compiled.get(defs.key(r.id, r.version))!;
    const trigger = v.definition.trigger;
    return {
      workflowId: r.id,
      name: r.name,
      description: r.description,
      integrationId: r.integrationId,
      integrationName: r.integrationName,
      version: r.version,
      installed: r.installationId !== null,
      active: r.installationId !== null && r.userActive === true && r.enabled === true,
      connectors: v.connectors,
      trigger: triggerSummary(trigger),
      config: v.definition.config,
      installationId: r.installationId,
      installedVersion: r.installedVersion,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

// The user and the account's workflows in one round trip: `u` has no row when the user does not exist.
const listForUser = preparedPerStore<WorkflowRow & { userId: string; username: string }>(
  'inlay_list_workflows',
  `with ${USER_CTE}
  select u.id as "userId", u.username, w.id, w.name, w.description, w.integration_id as "integrationId",
         w.integration_name as "integrationName", w.current_version as "version", w.created_at as "createdAt",
         w.updated_at as "updatedAt", uw.installation_id as "installationId", uw.version as "installedVersion",
         uw.active as "userActive", inst.enabled
  from u
  left join (select w.*, i.name as integration_name from workflows w join integrations i on i.id = w.integration_id
             where w.account_id = $1 and ($4::uuid is null or w.integration_id = $4::uuid)
               and ($5::uuid is null or w.id = $5::uuid)) w on true
  left join user_workflows uw on uw.workflow_id = w.id and uw.user_id = u.id
  left join installations inst on inst.id = uw.installation_id
  order by w.created_at, w.id`,
);

type Filter = { workflowId?: string; integrationId?: string };

/** The looked-up user and the account's workflows for them, in one round trip; undefined when no such user. */
async function queryForUser(store: Store, lookup: UserLookup, filter: Filter) {
  const rows = await listForUser(store)([
    lookup.accountId,
    lookup.id,
    lookup.username,
    filter.integrationId ?? null,
    filter.workflowId ?? null,
  ]);
  if (!rows[0]) return undefined;
  return {
    user: { id: rows[0].userId, username: rows[0].username },
    rows: rows.filter((r) => r.id !== null),
  };
}

export async function listWorkflowsOf(
  ctx: AppContext,
  defs: DefinitionCache,
  req: Request,
  ref: string | undefined,
  filter: Filter = {},
): Promise<Workflow[]> {
  const lookup = userLookup(req, ref);
  const found = await queryForUser(ctx.store, lookup, filter);
  checkLookedUp(req, ref, found?.user);
  const [list, attention] = await Promise.all([
    withDefinitions(defs, found!.rows),
    attentionOf(ctx, lookup.accountId, found!.user.id),
  ]);
  return list.map((w) => ({ ...w, attention: attention.get(w.workflowId) ?? null }));
}

// The part of a workflow that only its version decides, serialised once per version.
const versionJson = new WeakMap<CompiledVersion, string>();
function versionPart(v: CompiledVersion): string {
  let json = versionJson.get(v);
  if (json === undefined) {
    const trigger = v.definition.trigger;
    json = `"connectors":${JSON.stringify(v.connectors)},"trigger":${JSON.stringify({
      ...triggerSummary(trigger),
    })},"config":${JSON.stringify(v.definition.config)}`;
    versionJson.set(v, json);
  }
  return json;
}

const str = JSON.stringify;

/**
 * `listWorkflowsOf` as the JSON text of the array, byte for byte what `JSON.stringify` makes of it: the
 * definition-derived part is serialised once per version, and the whole text is kept in the read cache until
 * the account's workflows or the user's installations change.
 */
export async function listWorkflowsJsonOf(
  ctx: AppContext,
  defs: DefinitionCache,
  req: Request,
  ref: string | undefined,
  filter: { integrationId?: string } = {},
): Promise<string> {
  const lookup = userLookup(req, ref);
  const found = await ctx.reads.through(
    `workflows|${filter.integrationId ?? ''}|${lookupKey(lookup)}`,
    async () => {
      const found = await queryForUser(ctx.store, lookup, filter);
      return found && { user: found.user, json: await workflowsJson(defs, found.rows) };
    },
    (v) => v && { accountId: lookup.accountId, userId: v.user.id, bytes: v.json.length },
  );
  checkLookedUp(req, ref, found?.user);
  return withAttention(found!.json, await attentionOf(ctx, lookup.accountId, found!.user.id));
}

// The last list each attention result was merged into. Both come from the read cache, so while neither changed
// (the same objects) the merged text is the same: a repeated read does not rebuild its 20 kB again.
const mergedFor = new WeakMap<Map<string, WorkflowAttention>, { json: string; out: string }>();

function withAttention(json: string, attention: Map<string, WorkflowAttention>): string {
  const last = mergedFor.get(attention);
  if (last?.json === json) return last.out;
  const out = withAttentionJson(json, attention);
  mergedFor.set(attention, { json, out });
  return out;
}

async function workflowsJson(defs: DefinitionCache, rows: WorkflowRow[]): Promise<string> {
  const compiled = await defs.getMany(rows.map((r) => ({ workflowId: r.id, version: r.version })));
  const parts = rows.map((r) => {
    const v = compiled.get(defs.key(r.id, r.version))!;
    const installed = r.installationId !== null;
    const active = installed && r.userActive === true && r.enabled === true;
    return `{"workflowId":${str(r.id)},"name":${str(r.name)},"description":${str(r.description)},"integrationId":${str(r.integrationId)},"integrationName":${str(r.integrationName)},"version":${str(r.version)},"installed":${installed},"active":${active},${versionPart(v)},"installationId":${str(r.installationId)},"installedVersion":${str(r.installedVersion)},"createdAt":"${r.createdAt.toISOString()}","updatedAt":"${r.updatedAt.toISOString()}"}`;
  });
  return `[${parts.join(',')}]`;
}

export async function findWorkflow(db: Db, accountId: string, workflowId: string) {
  const [row] = await db
    .select()
    .from(workflows)
    .where(and(eq(workflows.id, workflowId), eq(workflows.accountId, accountId)));
  return row;
}

/** What a workflow listing says of its trigger: the type, and the event or app trigger it names. */
function triggerSummary(trigger: Trigger) {
  if (trigger.type === 'event') return { type: trigger.type, event: trigger.event };
  if (trigger.type === 'app')
    return { type: trigger.type, connector: trigger.connector, trigger: trigger.trigger };
  return { type: trigger.type };
}

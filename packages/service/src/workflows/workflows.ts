import type { Workflow } from '@inlay/contract';
import { and, asc, eq } from 'drizzle-orm';
import { installations, integrations, userWorkflows, workflows } from '../store/schema.ts';
import type { Db } from '../store/store.ts';
import type { DefinitionCache } from './definitions.ts';

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
      trigger: { type: trigger.type, ...(trigger.type === 'event' ? { event: trigger.event } : {}) },
      config: v.definition.config,
      installationId: r.installationId,
      installedVersion: r.installedVersion,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

export async function findWorkflow(db: Db, accountId: string, workflowId: string) {
  const [row] = await db
    .select()
    .from(workflows)
    .where(and(eq(workflows.id, workflowId), eq(workflows.accountId, accountId)));
  return row;
}

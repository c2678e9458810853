import { randomUUID } from 'node:crypto';
import { connectorUuid } from '@inlay/connectors';
import type { InlayApp } from '@inlay/service';
import { sql } from 'drizzle-orm';
import {
  executionSteps,
  executions,
  integrations,
  users,
  workflows,
  workflowVersions,
} from '../../packages/service/src/store/schema.ts';

const step = (connector: string, action: string, input: Record<string, unknown>) => ({
  id: randomUUID(),
  connector,
  action,
  input,
});

/** 20 workflows with 3 app connectors each, one user, and 30 runs of the first workflow. */
export async function seedReadPath(app: InlayApp, accountId: string) {
  const db = app.context.db;
  const userId = randomUUID();
  await db.insert(users).values({ id: userId, accountId, username: 'bench-user', fullName: 'Bench User' });
  const integrationId = randomUUID();
  await db
    .insert(integrations)
    .values({ id: integrationId, accountId, name: 'CRM sync', connector: 'hubspot' });
  const workflowIds: string[] = [];
  for (let i = 0; i < 20; i++) {
    const id = randomUUID();
    workflowIds.push(id);
    const post = step('slack', 'post_message', {
      channel: '{{ config.channel }}',
      text: 'Deal {{ trigger.name }}',
    });
    const definition = {
      trigger: { type: 'event', event: `deal.created.${i}` },
      steps: [
        step('transform', 'map', { expression: '{"name": trigger.name}' }),
        post,
        step('hubspot', 'create_contact', { email: '{{ trigger.email }}' }),
        step('github', 'create_issue', { owner: 'acme', repo: 'crm', title: '{{ trigger.name }}' }),
      ],
      config: [
        {
          stepId: post.id,
          name: 'channel',
          displayName: 'Channel',
          type: 'select',
          required: true,
          options: { source: 'channels' },
        },
      ],
    };
    await db.insert(workflows).values({
      id,
      accountId,
      integrationId,
      name: `Workflow ${i + 1}`,
      description: 'Syncs deals',
      currentVersion: 1,
    });
    await db.insert(workflowVersions).values({ workflowId: id, version: 1, definition });
  }
  await insertRuns(app, { accountId, userId, workflowId: workflowIds[0]! }, 30, Date.now() - 3_600_000);
  return { userId, workflowId: workflowIds[0]!, workflowIds };
}

/** Runs with four steps each, the shape the engine writes. */
export async function insertRuns(
  app: InlayApp,
  s: { accountId: string; userId: string; workflowId: string },
  n: number,
  start: number,
) {
  const db = app.context.db;
  const rows = [];
  const steps = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    const startedAt = new Date(start + i * 1000);
    rows.push({
      id,
      ...s,
      version: 1,
      status: 'succeeded' as const,
      finished: true,
      trigger: { name: `Deal ${i}`, email: `d${i}@acme.test` },
      triggerType: 'event',
      startedAt,
      stoppedAt: new Date(startedAt.getTime() + 420),
    });
    for (const [position, [connector, action]] of [
      ['transform', 'map'],
      ['slack', 'post_message'],
      ['hubspot', 'create_contact'],
      ['github', 'create_issue'],
    ].entries())
      steps.push({
        executionId: id,
        position,
        userId: s.userId,
        stepId: randomUUID(),
        connector: connector!,
        connectorId: connectorUuid(connector!),
        action: action!,
        status: 'succeeded' as const,
        input: { name: `Deal ${i}`, channel: 'C0123456' },
        data: [
          [
            {
              id: randomUUID(),
              json: { ok: true, id: `obj_${i}_${position}`, name: `Deal ${i}` },
              statusCode: 200,
            },
          ],
        ],
        startedAt,
        stoppedAt: new Date(startedAt.getTime() + 100),
      });
  }
  await db.insert(executions).values(rows);
  await db.insert(executionSteps).values(steps);
}

/**
 * Bulk history for one account: `total` runs spread over 10 users and the account's 20 workflows, two steps each,
 * generated inside the database so a million rows load in seconds rather than hours.
 */
export async function bulkHistory(
  db: InlayApp['context']['db'],
  accountId: string,
  workflowIds: string[],
  total: number,
) {
  const userIds: string[] = [];
  // Ten users: even the 10 000-run history gives each (user, workflow) 50 runs, so every page read is full.
  for (let u = 0; u < 10; u++) {
    const id = randomUUID();
    userIds.push(id);
    await db.insert(users).values({ id, accountId, username: `history-${u}-${id.slice(0, 6)}` });
  }
  const usersArr = sql.raw(`array[${userIds.map((u) => `'${u}'::uuid`).join(',')}]`);
  const wfArr = sql.raw(`array[${workflowIds.map((w) => `'${w}'::uuid`).join(',')}]`);
  const batch = 200_000;
  for (let from = 0; from < total; from += batch) {
    const to = Math.min(total, from + batch) - 1;
    await db.execute(sql`
      insert into executions (id, account_id, user_id, workflow_id, version, status, finished, trigger, trigger_type, started_at, stopped_at)
      select gen_random_uuid(), ${accountId}::uuid, (${usersArr})[1 + (g % 10)], (${wfArr})[1 + ((g / 10) % ${workflowIds.length})], 1,
             -- One run in a hundred failed: the explorer's status filter has something sparse to find.
             case when g % 100 = 7 then 'failed' else 'succeeded' end, true, jsonb_build_object('name', 'Deal ' || g), 'event',
             now() - make_interval(secs => g), now() - make_interval(secs => g) + interval '400 ms'
      from generate_series(${from}::int, ${to}::int) as g`);
  }
  await db.execute(sql`
    insert into execution_steps (execution_id, position, user_id, step_id, connector, connector_id, action, status, input, data, started_at, stopped_at)
    select e.id, p, e.user_id, 'step-' || p, 'slack', ${connectorUuid('slack')}::uuid, 'post_message', 'succeeded',
           jsonb_build_object('channel', 'C0123456'), jsonb_build_array(jsonb_build_array(jsonb_build_object('id', gen_random_uuid(), 'json', jsonb_build_object('ok', true), 'statusCode', 200))),
           e.started_at, e.stopped_at
    from executions e cross join generate_series(0, 1) as p
    where e.account_id = ${accountId}::uuid and not exists (select 1 from execution_steps s where s.execution_id = e.id)`);
  await db.execute(sql`analyze executions`);
  await db.execute(sql`analyze execution_steps`);
  return { userIds };
}

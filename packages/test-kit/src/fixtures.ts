import { randomUUID } from 'node:crypto';
import { connectorUuid } from '@inlay/connectors';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import {
  credentials,
  type Db,
  executionSteps,
  executions,
  installations,
  userWorkflows,
  workflowVersions,
} from '@inlay/service/testing';
import { and, eq } from 'drizzle-orm';
import type { Service } from './service.ts';

export const slackDefinition = (): WorkflowDefinitionInput => {
  const post = randomUUID();
  return {
    trigger: { type: 'event', event: 'deal.created' },
    steps: [
      {
        id: randomUUID(),
        connector: 'transform',
        action: 'map',
        input: { expression: '{"text": "New deal " & trigger.name}' },
      },
      {
        id: post,
        connector: 'slack',
        action: 'post_message',
        input: { channel: '{{ config.channel }}', text: '{{ steps.x.text }}' },
      },
      { id: randomUUID(), connector: 'delay', action: 'wait', input: { ms: 1 } },
      { id: randomUUID(), connector: 'http', action: 'request', input: { url: 'https://example.com' } },
      {
        id: randomUUID(),
        connector: 'slack',
        action: 'list_messages',
        input: { channel: '{{ config.channel }}' },
      },
    ],
    config: [
      {
        stepId: post,
        name: 'channel',
        displayName: 'Channel',
        type: 'select',
        required: true,
        options: { source: 'channels' },
      },
    ],
  };
};

/** An account with a user, an integration and a workflow, created through the API. */
export async function seedAccount(
  svc: Service,
  opts: { username?: string; definition?: WorkflowDefinitionInput } = {},
) {
  const { accountId, apiKey } = await svc.account();
  const user = await svc.call('POST', '/users', {
    auth: apiKey,
    body: { username: opts.username ?? 'alice', fullName: 'Alice A' },
  });
  const integration = await svc.call('POST', '/integrations', {
    auth: apiKey,
    body: { name: 'Slack alerts', connector: 'slack' },
  });
  const wf = await svc.call('POST', '/workflows', {
    auth: apiKey,
    body: {
      integrationId: integration.body.integrationId,
      name: 'Post new deals to Slack',
      definition: opts.definition ?? slackDefinition(),
    },
  });
  if (user.status !== 201 || integration.status !== 201 || wf.status !== 201)
    throw new Error(`seed failed: ${user.text} ${integration.text} ${wf.text}`);
  return {
    accountId,
    apiKey,
    userId: user.body.userId as string,
    integrationId: integration.body.integrationId as string,
    workflowId: wf.body.workflowId as string,
  };
}

export async function createUser(svc: Service, apiKey: string, username: string): Promise<string> {
  const r = await svc.call('POST', '/users', { auth: apiKey, body: { username } });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.userId;
}

export async function tokenFor(svc: Service, apiKey: string, userId: string): Promise<string> {
  const r = await svc.call('GET', `/users/${userId}/token`, { auth: apiKey });
  if (r.status !== 200) throw new Error(r.text);
  return r.body.token;
}

/** Connectors whose steps run without an account: never given a stand-in credential. */
const BUILT_INS = new Set(['transform', 'delay', 'http']);

/**
 * Installs a workflow for a user directly in the store (the install API is tested on its own). Each app its
 * top-level steps call gets a stand-in credential that reads as `connected` (it holds no secret, so a run that
 * calls the app fails), so the installation reads as ready; `credentials: false` leaves every app without one.
 */
export async function installDirect(
  db: Db,
  s: { accountId: string; userId: string; integrationId: string; workflowId: string },
  opts: { active?: boolean; enabled?: boolean; credentials?: boolean } = {},
) {
  const id = randomUUID();
  const credentialIds: Record<string, string> = {};
  if (opts.credentials !== false) {
    const [v] = await db
      .select({ definition: workflowVersions.definition })
      .from(workflowVersions)
      .where(and(eq(workflowVersions.workflowId, s.workflowId), eq(workflowVersions.version, 1)));
    const steps = ((v?.definition as { steps?: { connector?: string }[] } | undefined)?.steps ?? []).flatMap(
      (step) => (step.connector && !BUILT_INS.has(step.connector) ? [step.connector] : []),
    );
    for (const connector of new Set(steps)) {
      const credentialId = randomUUID();
      await db.insert(credentials).values({
        id: credentialId,
        accountId: s.accountId,
        userId: s.userId,
        connector,
        name: `${connector} (stand-in)`,
        type: 'apiKey',
        status: 'connected',
      });
      credentialIds[connector] = credentialId;
    }
  }
  await db.insert(installations).values({
    id,
    accountId: s.accountId,
    userId: s.userId,
    integrationId: s.integrationId,
    enabled: opts.enabled ?? true,
    credentialIds,
    formData: [],
  });
  await db.insert(userWorkflows).values({
    userId: s.userId,
    workflowId: s.workflowId,
    accountId: s.accountId,
    installationId: id,
    version: 1,
    active: opts.active ?? true,
    triggerType: 'event',
    event: 'deal.created',
  });
  return id;
}

/** Inserts `n` finished executions, one second apart, each with two steps. Returns ids oldest first. */
export async function insertExecutions(
  db: Db,
  s: { accountId: string; userId: string; workflowId: string },
  n: number,
  start = Date.parse('2025-09-01T10:00:00.000Z'),
): Promise<string[]> {
  const ids: string[] = [];
  const rows = [];
  const steps = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    ids.push(id);
    const startedAt = new Date(start + i * 1000);
    const stoppedAt = new Date(start + i * 1000 + 250);
    rows.push({
      id,
      accountId: s.accountId,
      userId: s.userId,
      workflowId: s.workflowId,
      version: 1,
      status: 'succeeded' as const,
      finished: true,
      trigger: { name: `deal ${i}` },
      triggerType: 'event',
      event: 'deal.created',
      startedAt,
      stoppedAt,
    });
    for (const [position, connector] of ['transform', 'slack'].entries()) {
      steps.push({
        executionId: id,
        position,
        userId: s.userId,
        stepId: randomUUID(),
        connector,
        connectorId: connectorUuid(connector),
        action: connector === 'slack' ? 'post_message' : 'map',
        status: 'succeeded' as const,
        input: { n: i, connector },
        data: [
          [
            {
              id: randomUUID(),
              json: { ok: true, n: i },
              ...(connector === 'slack' ? { statusCode: 200 } : {}),
            },
          ],
        ],
        startedAt,
        stoppedAt,
      });
    }
  }
  await db.insert(executions).values(rows);
  await db.insert(executionSteps).values(steps);
  return ids;
}

import { randomUUID } from 'node:crypto';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { executions, userWorkflows } from '@inlay/service/testing';
import { and, eq } from 'drizzle-orm';
import { install, publish } from './engine.ts';
import { createUser } from './fixtures.ts';
import type { Service } from './service.ts';

type Secrets = { fields: Record<string, string>; oauth?: { accessToken: string } };

export interface AppTriggerSetup {
  /** The account: its id and key. */
  accountId: string;
  apiKey: string;
  /** The user created for the workflow, and the credential stored for them. */
  username: string;
  connector: string;
  credential: { name: string; type: 'apiKey' | 'oauth2'; secrets: Secrets };
  /** The workflow to publish; by default an app trigger of `connector` whose run maps `trigger.title`. */
  definition?: WorkflowDefinitionInput;
  trigger?: { trigger: string; input: Record<string, unknown> };
  workflowName: string;
  /** Whether to install it for the user now (arming the trigger). */
  installNow?: boolean;
}

/**
 * What each app-trigger test starts from: a user with a credential for the connector and a published workflow
 * started by one of its triggers, installed with that credential unless `installNow` is false.
 */
export async function setUpAppTrigger(svc: Service, o: AppTriggerSetup) {
  const userId = await createUser(svc, o.apiKey, o.username);
  const cred = await svc.ctx.credentials.create({
    accountId: o.accountId,
    userId,
    connector: o.connector,
    ...o.credential,
  });
  const definition = o.definition ?? {
    trigger: { type: 'app' as const, connector: o.connector, ...o.trigger! },
    steps: [
      { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: 'trigger.title' } },
    ],
  };
  const workflowId = await publish(svc, o.apiKey, definition, o.workflowName);
  const install_ = () =>
    install(svc, o.apiKey, userId, [workflowId], { credentialIds: { [o.connector]: cred.id } });
  const inst = o.installNow === false ? undefined : await install_();
  return {
    userId,
    credentialId: cred.id,
    workflowId,
    installationId: inst?.installationId,
    install: install_,
  };
}

/** The user's row of the installed workflow: its trigger state (baseline, seen ids, subscription). */
export const stateOf = async (svc: Service, userId: string, workflowId: string) =>
  (
    await svc.db
      .select()
      .from(userWorkflows)
      .where(and(eq(userWorkflows.userId, userId), eq(userWorkflows.workflowId, workflowId)))
  )[0];

/** The ids of the items that started the workflow's runs, sorted. */
export const triggeredIds = async (svc: Service, workflowId: string) =>
  (
    await svc.db
      .select({ trigger: executions.trigger })
      .from(executions)
      .where(eq(executions.workflowId, workflowId))
  )
    .map((e) => (e.trigger as { id: string }).id)
    .sort();

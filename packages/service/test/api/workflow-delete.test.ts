import { randomUUID } from 'node:crypto';
import { createUser, insertExecutions, seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { waitUntilBlockedBy } from '@inlay/test-kit/lock-wait';
import { expectProblem, onPostgres, type Reply, type Service, sharedService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  executions,
  installations,
  userWorkflows,
  workflows,
  workflowVersions,
} from '../../src/store/schema.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let bob: string;

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc);
  bob = await createUser(svc, s.apiKey, 'bob');
});
afterAll(() => svc?.close());

/** Needs no credential, so the install API takes it as is. */
const noop = (trigger: Record<string, unknown> = { type: 'manual' }) => ({
  trigger,
  steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '1' } }],
});

async function newWorkflow(
  apiKey = s.apiKey,
  integrationId = s.integrationId,
  trigger?: Record<string, unknown>,
) {
  const r = await svc.call('POST', '/workflows', {
    auth: apiKey,
    body: { integrationId, name: 'Doomed', definition: noop(trigger) },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.workflowId as string;
}

async function install(userId: string, workflowId: string) {
  const r = await svc.call('POST', '/installations', {
    auth: s.apiKey,
    body: { userId, workflowIds: [workflowId], credentialIds: {}, values: [] },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.data.installationId as string;
}

const rowsOf = async (id: string) => ({
  workflow: await svc.db.select().from(workflows).where(eq(workflows.id, id)),
  versions: await svc.db.select().from(workflowVersions).where(eq(workflowVersions.workflowId, id)),
});

const listed = async () =>
  (await svc.call('GET', '/account/workflows', { auth: s.apiKey })).body.data.map((w: any) => w.workflowId);

describe('DELETE /workflows/{workflowId}', () => {
  it('deletes a workflow nobody installed, with every version, and answers 204 with no body', async () => {
    const id = await newWorkflow();
    expect(
      (await svc.call('PUT', `/workflows/${id}`, { auth: s.apiKey, body: { definition: noop() } })).body
        .version,
    ).toBe(2);
    // Read first, so a cached listing would have to be dropped.
    expect(await listed()).toContain(id);
    expect((await svc.call('GET', '/workflows?userId=alice', { auth: s.apiKey })).body.data.length).toBe(2);
    const r = await svc.call('DELETE', `/workflows/${id}`, { auth: s.apiKey });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(await rowsOf(id)).toEqual({ workflow: [], versions: [] });
    expect(await listed()).not.toContain(id);
    const forUser = (await svc.call('GET', '/workflows?userId=alice', { auth: s.apiKey })).body.data;
    expect(forUser.map((w: any) => w.workflowId)).toEqual([s.workflowId]);
    expectProblem(
      await svc.call('GET', `/workflows/${id}?userId=alice`, { auth: s.apiKey }),
      404,
      'not_found',
    );
    expectProblem(await svc.call('GET', `/workflows/${id}/definition`, { auth: s.apiKey }), 404, 'not_found');
    expectProblem(await svc.call('DELETE', `/workflows/${id}`, { auth: s.apiKey }), 404, 'not_found');
  });

  it('refuses with 409 while users have it installed, naming how many installations, and deletes nothing', async () => {
    const id = await newWorkflow();
    const installs = [await install(s.userId, id), await install(bob, id)];
    const r = await svc.call('DELETE', `/workflows/${id}`, { auth: s.apiKey });
    expectProblem(r, 409, 'conflict', 'path.workflowId', 'in_use');
    expect(r.body.installationCount).toBe(2);
    expect(r.body.detail).toBe(
      'The workflow is installed by 2 users: uninstall it first (DELETE /installations/{installationId}), then delete it',
    );
    const kept = await rowsOf(id);
    expect(kept.workflow).toHaveLength(1);
    expect(kept.versions).toHaveLength(1);
    expect(await svc.db.select().from(userWorkflows).where(eq(userWorkflows.workflowId, id))).toHaveLength(2);

    // Uninstalled by one user, the count follows; by both, the delete goes through.
    expect((await svc.call('DELETE', `/installations/${installs[0]}`, { auth: s.apiKey })).status).toBe(200);
    const one = await svc.call('DELETE', `/workflows/${id}`, { auth: s.apiKey });
    expect(one.body.installationCount).toBe(1);
    expect(one.body.detail).toMatch(/^The workflow is installed by 1 user: uninstall it first/);
    expect((await svc.call('DELETE', `/installations/${installs[1]}`, { auth: s.apiKey })).status).toBe(200);
    expect((await svc.call('DELETE', `/workflows/${id}`, { auth: s.apiKey })).status).toBe(204);
    expect(await rowsOf(id)).toEqual({ workflow: [], versions: [] });
  });

  it('unblocks the delete of its integration (no dead end)', async () => {
    const integ = await svc.call('POST', '/integrations', { auth: s.apiKey, body: { name: 'Short-lived' } });
    const integrationId = integ.body.integrationId as string;
    const id = await newWorkflow(s.apiKey, integrationId);
    expectProblem(
      await svc.call('DELETE', `/integrations/${integrationId}`, { auth: s.apiKey }),
      409,
      'conflict',
    );
    expect((await svc.call('DELETE', `/workflows/${id}`, { auth: s.apiKey })).status).toBe(204);
    expect((await svc.call('DELETE', `/integrations/${integrationId}`, { auth: s.apiKey })).status).toBe(200);
  });

  it('keeps its runs readable in the account-wide explorer, with no workflow name', async () => {
    const id = await newWorkflow();
    const [run] = await insertExecutions(svc.db, { ...s, workflowId: id }, 1);
    // Read first, so a kept log page would have to be dropped.
    const before = await svc.call('GET', `/workflows/${id}/logs?userId=alice`, { auth: s.apiKey });
    expect(before.body.data.map((e: any) => e.executionId)).toEqual([run]);
    expect((await svc.call('DELETE', `/workflows/${id}`, { auth: s.apiKey })).status).toBe(204);
    expect(await svc.db.select().from(executions).where(eq(executions.workflowId, id))).toHaveLength(1);
    const one = await svc.call('GET', `/executions/${run}`, { auth: s.apiKey });
    expect(one.status, one.text).toBe(200);
    expect(one.body.data).toMatchObject({ executionId: run, workflowId: id, workflowName: null });
    const page = await svc.call('GET', `/executions?workflowId=${id}`, { auth: s.apiKey });
    expect(page.body.data.map((e: any) => e.executionId)).toEqual([run]);
    // The per-workflow log names the workflow, which is gone.
    expectProblem(
      await svc.call('GET', `/workflows/${id}/logs?userId=alice`, { auth: s.apiKey }),
      404,
      'not_found',
    );
  });

  it('leaves nothing to fire: a schedule installed and uninstalled has no row left for the scheduler', async () => {
    const id = await newWorkflow(s.apiKey, s.integrationId, { type: 'schedule', cron: '*/5 * * * *' });
    const installationId = await install(s.userId, id);
    const armed = await svc.db.select().from(userWorkflows).where(eq(userWorkflows.workflowId, id));
    expect(armed[0]?.nextRunAt).toBeInstanceOf(Date);
    expect((await svc.call('DELETE', `/installations/${installationId}`, { auth: s.apiKey })).status).toBe(
      200,
    );
    expect((await svc.call('DELETE', `/workflows/${id}`, { auth: s.apiKey })).status).toBe(204);
    expect(await svc.db.select().from(userWorkflows).where(eq(userWorkflows.workflowId, id))).toEqual([]);
  });

  it('answers 404 for another account’s workflow exactly as for a missing one, and keeps it', async () => {
    const other = await svc.account('other');
    const theirIntegration = await svc.call('POST', '/integrations', {
      auth: other.apiKey,
      body: { name: 'T' },
    });
    const theirs = await newWorkflow(other.apiKey, theirIntegration.body.integrationId);
    const foreign = await svc.call('DELETE', `/workflows/${theirs}`, { auth: s.apiKey });
    const missing = await svc.call('DELETE', `/workflows/${randomUUID()}`, { auth: s.apiKey });
    expectProblem(foreign, 404, 'not_found');
    expectProblem(missing, 404, 'not_found');
    expect(foreign.body.detail).toBe(missing.body.detail);
    expect((await rowsOf(theirs)).workflow).toHaveLength(1);
  });

  it('takes the API key only (a user token is a 403) and names a malformed id', async () => {
    const token = await tokenFor(svc, s.apiKey, s.userId);
    expectProblem(await svc.call('DELETE', `/workflows/${s.workflowId}`, { auth: token }), 403, 'forbidden');
    expectProblem(
      await svc.call('DELETE', '/workflows/not-a-uuid', { auth: s.apiKey }),
      400,
      'invalid_request',
      'path.workflowId',
      'format',
    );
    expect((await rowsOf(s.workflowId)).workflow).toHaveLength(1);
  });

  // Two connections at once: PostgreSQL only (PGlite has one).
  it.skipIf(!onPostgres)(
    'an install racing the delete answers 422 and leaves no installation of the deleted workflow',
    async () => {
      const id = await newWorkflow();
      const carol = await createUser(svc, s.apiKey, 'carol');
      let installed: Promise<Reply> | undefined;
      await svc.db.transaction(async (tx) => {
        // What DELETE does first: lock the row. The install then waits on that lock, as it would on a delete.
        await tx.select().from(workflows).where(eq(workflows.id, id)).for('update');
        installed = svc.call('POST', '/installations', {
          auth: s.apiKey,
          body: { userId: carol, workflowIds: [id], credentialIds: {}, values: [] },
        });
        await waitUntilBlockedBy(svc.db, tx);
        await tx.delete(workflows).where(eq(workflows.id, id));
      });
      expectProblem(await installed!, 422, 'unprocessable', 'body.workflowIds[0]', 'exists');
      expect(await svc.db.select().from(installations).where(eq(installations.userId, carol))).toEqual([]);
    },
  );

  it.skipIf(!onPostgres)(
    'a delete racing an install in flight waits for it and answers 409, leaving the installation whole',
    async () => {
      const id = await newWorkflow();
      const dave = await createUser(svc, s.apiKey, 'dave');
      let deleted: Promise<Reply> | undefined;
      await svc.db.transaction(async (tx) => {
        // An install mid-transaction: its rows are written (the foreign key check shares the workflow row).
        const installationId = randomUUID();
        await tx.insert(installations).values({
          id: installationId,
          accountId: s.accountId,
          userId: dave,
          integrationId: s.integrationId,
          credentialIds: {},
          formData: [],
        });
        await tx.insert(userWorkflows).values({
          userId: dave,
          workflowId: id,
          accountId: s.accountId,
          installationId,
          version: 1,
          triggerType: 'manual',
        });
        deleted = svc.call('DELETE', `/workflows/${id}`, { auth: s.apiKey });
        await waitUntilBlockedBy(svc.db, tx);
      });
      const r = await deleted!;
      expectProblem(r, 409, 'conflict', 'path.workflowId', 'in_use');
      expect(r.body.installationCount).toBe(1);
      expect(await svc.db.select().from(userWorkflows).where(eq(userWorkflows.workflowId, id))).toHaveLength(
        1,
      );
    },
  );
});

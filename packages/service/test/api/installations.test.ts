import { randomUUID } from 'node:crypto';
import { createUser, installDirect, seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { expectProblem, ISO_MS_RE, type Service, sharedService, UUID_RE } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let mine: string;
let bobs: string;
let bob: string;

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc);
  bob = await createUser(svc, s.apiKey, 'bob');
  mine = await installDirect(svc.db, s);
  bobs = await installDirect(svc.db, { ...s, userId: bob });
});
afterAll(() => svc?.close());

describe('GET /installations', () => {
  it('lists every installation of the account with an API key, in the seed shape', async () => {
    const r = await svc.call('GET', '/installations', { auth: s.apiKey });
    expect(r.status).toBe(200);
    expect(r.body.data.map((i: { installationId: string }) => i.installationId).sort()).toEqual(
      [mine, bobs].sort(),
    );
    const i = r.body.data.find((x: { installationId: string }) => x.installationId === mine);
    expect(i).toEqual({
      installationId: mine,
      integrationId: s.integrationId,
      userId: s.userId,
      formData: [],
      credentialIds: { slack: expect.stringMatching(UUID_RE) },
      workflowIds: [s.workflowId],
      installedAt: expect.stringMatching(ISO_MS_RE),
      updatedAt: expect.stringMatching(ISO_MS_RE),
      enabled: true,
      webhookUrl: null,
      attention: null,
    });
    expect(i.installationId).toMatch(UUID_RE);
  });

  it('filters by userId with an API key', async () => {
    const r = await svc.call('GET', '/installations?userId=bob', { auth: s.apiKey });
    expect(r.body.data.map((i: { installationId: string }) => i.installationId)).toEqual([bobs]);
  });

  it('shows a user JWT only that user’s installations', async () => {
    const jwt = await tokenFor(svc, s.apiKey, bob);
    const r = await svc.call('GET', '/installations', { auth: jwt });
    expect(r.body.data.map((i: { installationId: string }) => i.installationId)).toEqual([bobs]);
    expectProblem(await svc.call('GET', `/installations/${mine}`, { auth: jwt }), 404, 'not_found');
    expect((await svc.call('GET', `/installations/${bobs}`, { auth: jwt })).body.data.userId).toBe(bob);
    expectProblem(
      await svc.call('GET', `/installations?userId=${s.userId}`, { auth: jwt }),
      404,
      'not_found',
    );
  });

  it('answers 404 for another account’s installation, like a missing one', async () => {
    const other = await svc.account('other');
    const foreign = await svc.call('GET', `/installations/${mine}`, { auth: other.apiKey });
    const missing = await svc.call('GET', `/installations/${randomUUID()}`, { auth: other.apiKey });
    expectProblem(foreign, 404, 'not_found');
    expect(foreign.body.message).toBe(missing.body.message);
    expect((await svc.call('GET', '/installations', { auth: other.apiKey })).body.data).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import type { CredentialSecrets } from '@inlay/connectors';
import { install, publish, startUpstream, type Upstream, waitForRuns } from '@inlay/test-kit/engine';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV2 } from '@inlay/test-kit/mcp';
import { expectProblem, type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialAad } from '../../src/credentials/credential-service.ts';
import { credentials, executionSteps } from '../../src/store/schema.ts';

let svc: Service;
let partner: Upstream;
let other: Upstream;
let apiKey: string;
let accountId: string;
let alice: string;
let jwt: string;
let mcp: Awaited<ReturnType<typeof connectV2>>;
const SECRET = 'Bearer partner-token-0123456789';

beforeAll(async () => {
  partner = await startUpstream(() => ({ body: { from: 'partner' } }));
  other = await startUpstream(() => ({ body: { from: 'other' } }));
  svc = await startService({
    env: { INLAY_EGRESS_ALLOW: [partner.url, other.url].map((u) => new URL(u).host).join(',') },
  });
  ({ apiKey, accountId } = await svc.account());
  alice = await createUser(svc, apiKey, 'alice');
  jwt = await tokenFor(svc, apiKey, alice);
  const server = await svc.call('POST', '/mcp-servers', {
    auth: apiKey,
    body: { name: 'agent', restrictions: { connectors: { allow: ['http'] } } },
  });
  mcp = await connectV2(server.body.url, { authorization: `Bearer ${jwt}` });
});
afterAll(async () => {
  await mcp?.close();
  await Promise.all([svc?.close(), partner?.close(), other?.close()]);
});

const create = (data: Record<string, string>) =>
  svc.call('POST', '/credentials', { auth: jwt, body: { connector: 'http', name: 'Partner API', data } });

describe('creating an http credential', () => {
  it('requires the origins it may be sent to, normalised and shown, and fixed in the sealed secret', async () => {
    const r = await create({
      headerName: 'Authorization',
      headerValue: SECRET,
      origins: `${partner.url.toUpperCase()}/ , ${partner.url}`,
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data.allowedOrigins).toEqual([partner.url]);
    const listed = await svc.call('GET', '/credentials?connector=http', { auth: jwt });
    expect(listed.body.data.map((c: { allowedOrigins?: string[] }) => c.allowedOrigins)).toEqual([
      [partner.url],
    ]);
    const [row] = await svc.db.select().from(credentials).where(eq(credentials.id, r.body.data.credentialId));
    expect(row!.allowedOrigins).toEqual([partner.url]);
    const sealed = svc.ctx.vault.openJson<CredentialSecrets>(
      row!.sealed!,
      credentialAad(row!.accountId, row!.id),
    );
    expect(sealed.fields.origins).toBe(partner.url);
    expect(JSON.stringify(listed.body)).not.toContain('partner-token');
  });

  it.each([
    [{ headerName: 'Authorization', headerValue: SECRET }, 'body.data.origins', 'required'],
    [
      { headerName: 'Authorization', headerValue: SECRET, origins: 'partner.example' },
      'body.data.origins',
      'origin',
    ],
    [
      { headerName: 'Authorization', headerValue: SECRET, origins: 'https://partner.example/v1' },
      'body.data.origins',
      'origin',
    ],
    [
      { headerName: 'Host', headerValue: 'evil.example', origins: 'https://partner.example' },
      'body.data.headerName',
      'header',
    ],
    [
      { headerName: 'Transfer-Encoding', headerValue: 'chunked', origins: 'https://partner.example' },
      'body.data.headerName',
      'header',
    ],
  ])('refuses %j with 400 naming %s (%s), storing nothing', async (data, field, rule) => {
    // This account's rows only: on a shared PostgreSQL database other test files add credentials meanwhile.
    const ours = () => svc.db.select().from(credentials).where(eq(credentials.accountId, accountId));
    const before = await ours();
    const r = await create(data);
    expectProblem(r, 400, 'invalid_request');
    expect(r.body.errors).toContainEqual(expect.objectContaining({ field, rule }));
    expect(r.text).not.toContain('partner-token');
    expect(await ours()).toEqual(before);
  });
});

describe('using an http credential', () => {
  let credentialId: string;
  beforeAll(async () => {
    const r = await create({ headerName: 'X-Api-Key', headerValue: SECRET, origins: partner.url });
    credentialId = r.body.data.credentialId;
  });

  const act = (url: string, named?: string) =>
    mcp.callTool({
      name: 'execute_action_inlay',
      arguments: {
        connectorId: 'http',
        actionId: 'request',
        parameters: { url },
        ...(named ? { credentialId: named } : {}),
      },
    }) as Promise<{ isError?: boolean; content: { text: string }[]; structuredContent?: any }>;

  it('is never picked for an agent that did not name it, even when it is the user’s only one', async () => {
    const r = await act(`${partner.url}/unnamed`);
    expect(r.isError).toBeFalsy();
    expect(partner.seen.at(-1)).toMatchObject({ path: '/unnamed' });
    expect(partner.seen.at(-1)!.headers['x-api-key']).toBeUndefined();
  });

  it('is sent to its origin when named, and refused for any other, which sees nothing', async () => {
    const ok = await act(`${partner.url}/named`, credentialId);
    expect(ok.isError).toBeFalsy();
    expect(partner.seen.at(-1)!.headers['x-api-key']).toBe(SECRET);
    const before = other.seen.length;
    const r = await act(`${other.url}/exfiltrate`, credentialId);
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain(`may only be sent to ${partner.url}, not to ${other.url}`);
    const id = /executionId ([0-9a-f-]{36})/.exec(r.content[0]!.text)![1]!;
    const [step] = await svc.db.select().from(executionSteps).where(eq(executionSteps.executionId, id));
    expect(step!.error).toMatchObject({ code: 'credential_origin_mismatch' });
    expect(other.seen.length).toBe(before);
  });

  it('shows agents the origins of each credential', async () => {
    const r = (await mcp.callTool({ name: 'get_credentials_inlay', arguments: { connectorId: 'http' } })) as {
      structuredContent: { credentials: { credentialId: string; allowedOrigins?: string[] }[] };
    };
    const mine = r.structuredContent.credentials.find((c) => c.credentialId === credentialId);
    expect(mine?.allowedOrigins).toEqual([partner.url]);
  });

  it('keeps to the sealed origins even when the shown column is edited in the database', async () => {
    await svc.db
      .update(credentials)
      .set({ allowedOrigins: [partner.url, other.url] })
      .where(eq(credentials.id, credentialId));
    const before = other.seen.length;
    const r = await act(`${other.url}/after-edit`, credentialId);
    expect(r.isError).toBe(true);
    expect(other.seen.length).toBe(before);
  });

  it('fails a workflow step whose URL leaves the credential’s origin, installed with that credential', async () => {
    const stepId = randomUUID();
    const w = await publish(svc, apiKey, {
      trigger: { type: 'manual' },
      steps: [{ id: stepId, connector: 'http', action: 'request', input: { url: '{{ trigger.url }}' } }],
      config: [],
    });
    await install(svc, apiKey, alice, [w], { credentialIds: { http: credentialId } });
    const run = async (url: string) => {
      const r = await svc.call('POST', '/run/workflow', {
        auth: apiKey,
        body: { workflowId: w, userId: alice, data: { url } },
      });
      const [row] = await waitForRuns(svc, r.body.executionIds);
      const [step] = await svc.db
        .select()
        .from(executionSteps)
        .where(eq(executionSteps.executionId, row!.id));
      return { row: row!, step: step! };
    };
    const good = await run(`${partner.url}/wf`);
    expect(good.row.status).toBe('succeeded');
    expect(partner.seen.at(-1)!.headers['x-api-key']).toBe(SECRET);
    const before = other.seen.length;
    const bad = await run(`${other.url}/wf`);
    expect(bad.row.status).toBe('failed');
    expect(bad.step.error).toMatchObject({ code: 'credential_origin_mismatch' });
    expect(other.seen.length).toBe(before);
  });
});

describe('publishing an http step', () => {
  it.each([
    'Host',
    'content-length',
    'Transfer-Encoding',
    'connection',
    'upgrade',
    'te',
    'trailer',
    'Proxy-Authorization',
  ])('refuses a %s header with 422 naming the header', async (name) => {
    const r = await svc.call('POST', '/workflows', {
      auth: apiKey,
      body: {
        integrationId: (await svc.call('POST', '/integrations', { auth: apiKey, body: { name: 'h' } })).body
          .integrationId,
        name: 'smuggle',
        definition: {
          trigger: { type: 'manual' },
          steps: [
            {
              id: randomUUID(),
              connector: 'http',
              action: 'request',
              input: { url: 'https://partner.example/x', headers: { [name]: '{{ trigger.v }}' } },
            },
          ],
          config: [],
        },
      },
    });
    expectProblem(r, 422, 'unprocessable');
    expect(r.body.errors).toEqual([
      expect.objectContaining({ field: `body.definition.steps[0].input.headers.${name}`, rule: 'header' }),
    ]);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogEntry, Workflow } from '@inlay/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from '../server/demo.ts';
import { SUPPORT_DESK } from '../server/support-desk.ts';

/**
 * Every seeded workflow, run for real against the sandbox apps, without a browser: the OAuth dance is done
 * with plain HTTP (consent form post, redirect to Inlay's callback), deals through Acme CRM's own API.
 */
describe('Acme CRM seeded workflows against the sandbox', () => {
  let demo: Demo;
  let dataDir: string;
  let workflows: Workflow[];
  let cookie: string;

  const wf = (name: string) => {
    const w = workflows.find((x) => x.name === name);
    if (!w) throw new Error(`no seeded workflow "${name}"`);
    return w;
  };

  /** Connects one sandbox app for alice: Inlay's authorize URL, the consent form, the callback. */
  async function connect(connector: string): Promise<string> {
    const { credentialId, authorizeUrl } = await demo.client.credentials.startOAuth({
      connector,
      userId: 'alice',
      popup: false,
      redirectUri: `${demo.url}/settings/integrations`,
    });
    // Inlay's start link binds the flow to this "browser" with a cookie, then sends it to the provider.
    const started = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(started.status).toBe(302);
    const flowCookie = started.headers.getSetCookie()[0]!.split(';')[0]!;
    const providerUrl = started.headers.get('location')!;
    const consent = await fetch(providerUrl);
    expect(consent.status).toBe(200);
    expect(await consent.text()).toContain('SANDBOX');
    const q = new URL(providerUrl).searchParams;
    const decided = await fetch(providerUrl, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: q.get('client_id')!,
        redirect_uri: q.get('redirect_uri')!,
        state: q.get('state')!,
        scope: q.get('scope') ?? '',
        decision: 'allow',
      }),
      redirect: 'manual',
    });
    expect(decided.status).toBe(303);
    const callback = decided.headers.get('location')!;
    expect(callback.startsWith(`${demo.serviceUrl}/oauth/callback`)).toBe(true);
    const done = await fetch(callback, { redirect: 'manual', headers: { cookie: flowCookie } });
    expect(done.status).toBeLessThan(500);
    const cred = await demo.client.credentials.get(credentialId, { userId: 'alice' });
    expect(cred.status).toBe('connected');
    return credentialId;
  }

  async function host(method: string, path: string, body?: unknown) {
    const res = await fetch(`${demo.url}/api${path}`, {
      method,
      headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  async function finished(workflowId: string, executionId: string): Promise<LogEntry> {
    let entry: LogEntry | undefined;
    await expect
      .poll(
        async () => {
          const logs = await demo.client.workflows.logs(workflowId, { userId: 'alice' });
          entry = logs.find((l) => l.executionId === executionId);
          return entry?.finished;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(true);
    return entry!;
  }

  const start = () =>
    startDemo({
      dataDir,
      port: 0,
      servicePort: 0,
      sandboxPort: 0,
      env: {
        DATABASE_URL: process.env.DATABASE_URL,
        INLAY_MASTER_KEY: process.env.DATABASE_URL ? Buffer.alloc(32, 7).toString('base64') : undefined,
        LOG_LEVEL: 'error',
      },
    });

  async function signIn() {
    const login = await fetch(`${demo.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'demo' }),
    });
    expect(login.status).toBe(200);
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'acme-crm-wf-'));
    demo = await start();
    workflows = await demo.client.workflows.list({ userId: 'alice' });
    await signIn();
  });

  afterAll(async () => {
    await demo?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeds the account once: integrations, seven workflows with their triggers, alice and bob', async () => {
    expect(demo.seeded).toBe(true);
    expect(workflows.map((w) => [w.integrationName, w.name, w.trigger.type, w.trigger.event]).sort()).toEqual(
      [
        ['GitHub', 'Open a GitHub issue for lost deals', 'event', 'deal.lost'],
        ['HubSpot', 'Open a follow-up deal for new HubSpot contacts', 'app', undefined],
        ['HubSpot', 'Sync new contacts to HubSpot', 'event', 'contact.created'],
        ['Slack', 'Celebrate won deals in Slack', 'event', 'deal.won'],
        ['Slack', 'Post new deals to Slack', 'event', 'deal.created'],
        ['Slack', 'Post website leads to Slack', 'webhook', undefined],
        ['Support desk', 'Open an onboarding ticket for won deals', 'event', 'deal.won'],
      ],
    );
    expect((await demo.client.users.list()).map((u) => u.username).sort()).toEqual(['alice', 'bob']);
    // The Slack channel comes from dynamic options, the GitHub repository too.
    expect(wf('Post new deals to Slack').config[0]).toMatchObject({ name: 'channel', type: 'select' });
    expect(wf('Open a GitHub issue for lost deals').config[0]).toMatchObject({
      name: 'repo',
      type: 'select',
    });
  });

  it('refuses the host API without a session and a wrong password', async () => {
    expect((await fetch(`${demo.url}/api/deals`)).status).toBe(401);
    expect((await fetch(`${demo.url}/api/inlay/token`)).status).toBe(401);
    const bad = await fetch(`${demo.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'nope' }),
    });
    expect(bad.status).toBe(401);
  });

  let hubspotCredential: string;

  /** Waits for Inlay's next search of the sandbox HubSpot's contacts (after `since`, default now). */
  async function nextPoll(since = new Date().toISOString()) {
    await expect
      .poll(() => (demo.sandbox.hubspot.polledAt ?? '') > since, { timeout: 30_000, interval: 100 })
      .toBe(true);
  }

  it('HubSpot: a new deal contact becomes a HubSpot contact', async () => {
    const w = wf('Sync new contacts to HubSpot');
    const credentialId = await connect('hubspot');
    hubspotCredential = credentialId;
    await demo.client.installations.create({
      userId: 'alice',
      workflowIds: [w.workflowId],
      credentialIds: { hubspot: credentialId },
    });
    const { status, body } = await host('POST', '/deals', {
      name: 'Umbrella pilot',
      company: 'Umbrella',
      amount: 5000,
      contactName: 'Alice Wesker',
      contactEmail: 'alice.wesker@umbrella.test',
    });
    expect(status).toBe(201);
    const run = body.runs.find((r: { event: string }) => r.event === 'contact.created');
    expect(run.executionIds).toHaveLength(1);
    const entry = await finished(w.workflowId, run.executionIds[0]);
    expect(entry.status).toBe('succeeded');
    expect(demo.sandbox.hubspot.contacts).toEqual([
      expect.objectContaining({
        properties: {
          email: 'alice.wesker@umbrella.test',
          firstname: 'Alice',
          lastname: 'Wesker',
          company: 'Umbrella',
        },
      }),
    ]);
  });

  it('HubSpot polling: a contact added in the sandbox starts one run on the next poll, none for older ones', async () => {
    const w = wf('Open a follow-up deal for new HubSpot contacts');
    const installedAt = new Date().toISOString();
    await demo.client.installations.create({
      userId: 'alice',
      workflowIds: [w.workflowId],
      credentialIds: { hubspot: hubspotCredential },
    });
    // The first poll records the baseline (the contact of the test above starts nothing).
    await nextPoll(installedAt);
    // The sandbox page's form, as a user adding a contact in HubSpot.
    const added = await fetch(`${demo.sandboxUrl}/hubspot/contacts`, {
      method: 'POST',
      body: new URLSearchParams({
        firstname: 'Grace',
        lastname: 'Hopper',
        email: 'grace@navy.test',
        company: 'US Navy',
      }),
      redirect: 'manual',
    });
    expect(added.status).toBe(303);
    let logs: LogEntry[] = [];
    await expect
      .poll(
        async () => {
          logs = await demo.client.workflows.logs(w.workflowId, { userId: 'alice' });
          return logs.map((l) => l.status);
        },
        { timeout: 30_000, interval: 200 },
      )
      .toEqual(['succeeded']);
    expect(logs[0]!.trigger).toMatchObject({
      type: 'app',
      data: { properties: { email: 'grace@navy.test', firstname: 'Grace' } },
    });
    expect(demo.sandbox.hubspot.deals.map((d) => (d.properties as Record<string, string>).dealname)).toEqual([
      'Follow up with Grace Hopper (US Navy)',
    ]);
    // Later polls see the same contact again and start nothing more (two polls: the second one starts only
    // after the first has committed).
    await nextPoll();
    await nextPoll();
    expect(await demo.client.workflows.logs(w.workflowId, { userId: 'alice' })).toHaveLength(1);
  });

  it('GitHub: a lost deal opens an issue in the chosen repository', async () => {
    const w = wf('Open a GitHub issue for lost deals');
    const credentialId = await connect('github');
    const repos = await demo.client.connectors.options('github', 'repositories', {
      userId: 'alice',
      credentialId,
    });
    expect(repos.map((o) => o.value)).toEqual(['acme/crm', 'acme/sales-ops']);
    await demo.client.installations.create({
      userId: 'alice',
      workflowIds: [w.workflowId],
      credentialIds: { github: credentialId },
      values: [
        {
          workflowId: w.workflowId,
          blockId: w.config[0]!.stepId,
          fields: [{ name: 'repo', value: 'acme/sales-ops' }],
        },
      ],
    });
    const created = await host('POST', '/deals', { name: 'Soylent bulk', company: 'Soylent', amount: 900 });
    const lost = await host('POST', `/deals/${created.body.data.id}/lost`);
    expect(lost.body.data.stage).toBe('lost');
    const entry = await finished(w.workflowId, lost.body.runs[0].executionIds[0]);
    expect(entry.status).toBe('succeeded');
    expect(demo.sandbox.github.issues).toEqual([
      expect.objectContaining({
        repo: 'acme/sales-ops',
        title: 'Lost deal: Soylent bulk',
        labels: [{ name: 'lost-deal' }],
      }),
    ]);
  });

  it('Slack: a won deal is celebrated, and the webhook workflow posts website leads', async () => {
    const slack = await connect('slack');
    const won = wf('Celebrate won deals in Slack');
    const leads = wf('Post website leads to Slack');
    const value = (w: Workflow, channel: string) => ({
      workflowId: w.workflowId,
      blockId: w.config[0]!.stepId,
      fields: [{ name: 'channel', value: channel }],
    });
    await demo.client.installations.create({
      userId: 'alice',
      workflowIds: [won.workflowId],
      credentialIds: { slack },
      values: [value(won, 'C0DEALS02')],
    });
    const leadInstall = await demo.client.installations.create({
      userId: 'alice',
      workflowIds: [leads.workflowId],
      credentialIds: { slack },
      values: [value(leads, 'C0GENRL03')],
    });

    const created = await host('POST', '/deals', { name: 'Hooli cloud', company: 'Hooli', amount: 42000 });
    const closed = await host('POST', `/deals/${created.body.data.id}/won`);
    await finished(won.workflowId, closed.body.runs[0].executionIds[0]);

    expect(leadInstall.webhookUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const hook = await fetch(leadInstall.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Gavin Belson', email: 'gavin@hooli.test' }),
    });
    expect(hook.status).toBeLessThan(300);
    await expect
      .poll(() => demo.sandbox.slack.messages.map((m) => [m.channel, m.text]), { timeout: 30_000 })
      .toEqual([
        ['C0DEALS02', 'Won: Hooli cloud (42000 USD)'],
        ['C0GENRL03', 'New website lead: Gavin Belson <gavin@hooli.test>'],
      ]);
  });

  it('survives a restart: no second seeding, and the sandbox still honours the connections', async () => {
    await demo.close();
    demo = await start();
    expect(demo.seeded).toBe(false);
    expect(await demo.client.workflows.list({ userId: 'alice' })).toHaveLength(7);
    expect(demo.sandbox.slack.messages).toHaveLength(2);
    await signIn();
    const won = wf('Celebrate won deals in Slack');
    const created = await host('POST', '/deals', { name: 'Pied Piper', company: 'Pied Piper', amount: 7 });
    const closed = await host('POST', `/deals/${created.body.data.id}/won`);
    const entry = await finished(won.workflowId, closed.body.runs[0].executionIds[0]);
    expect(entry.status).toBe('succeeded');
    expect(demo.sandbox.slack.messages.at(-1)).toMatchObject({
      channel: 'C0DEALS02',
      text: 'Won: Pied Piper (7 USD)',
    });
  });

  it('Support desk: connected with an API key (a wrong one refused), a won deal opens a ticket', async () => {
    const wrong = await demo.client.credentials
      .create({ userId: 'alice', connector: 'freshdesk', data: { domain: 'acme', apiKey: 'not-the-key' } })
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ status: 422 });
    const desk = await demo.client.credentials.create({
      userId: 'alice',
      connector: 'freshdesk',
      data: { domain: SUPPORT_DESK.domain, apiKey: SUPPORT_DESK.apiKey },
    });
    expect(desk).toMatchObject({ type: 'basic', status: 'connected', accountLabel: 'support@acme.test' });
    const ticket = wf('Open an onboarding ticket for won deals');
    await demo.client.installations.create({
      userId: 'alice',
      workflowIds: [ticket.workflowId],
      credentialIds: { freshdesk: desk.credentialId },
      values: [],
    });
    const created = await host('POST', '/deals', {
      name: 'Pied Piper compression',
      company: 'Pied Piper',
      amount: 9000,
      contactName: 'Richard Hendricks',
      contactEmail: 'richard@piedpiper.test',
    });
    const closed = await host('POST', `/deals/${created.body.data.id}/won`);
    const runId = closed.body.runs.flatMap((r: { executionIds: string[] }) => r.executionIds).find(Boolean);
    expect(runId).toBeDefined();
    await expect
      .poll(() => demo.sandbox.desk.tickets.map((t) => [t.subject, t.email]), { timeout: 30_000 })
      .toContainEqual(['Onboarding: Pied Piper', 'richard@piedpiper.test']);
  });
});

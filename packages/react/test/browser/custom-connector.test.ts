// @vitest-environment node
// A custom connector in the install modal, in Chromium against a real service of its own (started by
// custom-connector-serve.ts) and a fake CRM on 127.0.0.1: the account creates the connector (`POST /connectors`,
// API-key auth with two credential fields, an option source reading one of them) and publishes a workflow whose
// select field that source fills. <InstallModal> shows the connector's own fields, connects with them (the CRM's
// refusal inline first), lists the CRM's options, installs; a run then reaches the CRM with the credential and
// the chosen option.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { eventually } from '@inlay/test-kit/eventually';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../src/i18n/locales/en.ts';
import { axeViolations, startHarness } from './harness.ts';

interface Served {
  url: string;
  apiKey: string;
  userId: string;
  providerUrl: string;
  /** The credential the CRM accepts. */
  workspace: string;
  key: string;
}

let h: Awaited<ReturnType<typeof startHarness>>;
let child: ChildProcess;
let s: Served;

beforeAll(async () => {
  const cwd = fileURLToPath(new URL('../..', import.meta.url));
  child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@inlay/source', 'test/browser/custom-connector-serve.ts'],
    { cwd, env: process.env, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const line = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`custom-connector-serve.ts exited with ${code}`)));
  });
  [s, h] = await Promise.all([line.then((l) => JSON.parse(l) as Served), startHarness()]);
}, 120_000);

afterAll(async () => {
  await h?.close();
  if (child && child.exitCode === null) {
    const gone = new Promise((r) => child.once('exit', r));
    child.stdin!.end();
    await gone;
  }
});

/** The service as the account (its API key). */
async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await fetch(s.url + path, {
    method,
    headers: {
      authorization: `Bearer ${s.apiKey}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const WORKFLOW = 'Add signups to a CRM list';

/** The account's own connector: a key sent as `{workspace}:{apiKey}`, lists read per workspace. */
const crm = () => ({
  id: 'crm',
  name: 'Pipeline CRM',
  description: 'Contacts and lists in Pipeline CRM',
  category: 'crm',
  icon: 'crm',
  baseUrl: s.providerUrl,
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'x-crm-key',
    format: '{workspace}:{apiKey}',
    fields: [
      { name: 'workspace', label: 'Workspace id', type: 'text', required: true, secret: false },
      { name: 'apiKey', label: 'CRM API key', type: 'password', required: true, secret: true },
    ],
  },
  test: { method: 'GET', path: '/me', label: 'email' },
  actions: [
    {
      id: 'add_contact',
      name: 'Add contact',
      description: 'Adds a contact to a list',
      kind: 'write',
      input: {
        type: 'object',
        properties: { email: { type: 'string' }, list: { type: 'string' } },
        required: ['email', 'list'],
      },
      request: {
        method: 'POST',
        path: '/contacts',
        body: { email: '{{ input.email }}', list: '{{ input.list }}' },
      },
      output: 'contact',
    },
  ],
  sources: {
    lists: {
      description: 'Lists of the workspace',
      request: { method: 'GET', path: '/workspaces/{{ settings.workspace }}/lists' },
      items: 'lists',
      value: 'id',
      label: '{{ item.name }}',
    },
  },
});

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
}
const seenByCrm = async (): Promise<Seen[]> => (await fetch(`${s.providerUrl}/__seen`)).json() as any;

describe('InstallModal with a custom connector', () => {
  it('connects with its credential fields, lists its source’s options, installs, and the run reaches the CRM', async () => {
    const created = await api('POST', '/connectors', crm());
    expect(created.data).toMatchObject({ id: 'crm', custom: true, authType: 'apiKey', sources: ['lists'] });
    const { integrationId } = await api('POST', '/integrations', { name: 'CRM sync', connector: 'crm' });
    const stepId = randomUUID();
    const { workflowId } = await api('POST', '/workflows', {
      integrationId,
      name: WORKFLOW,
      definition: {
        trigger: { type: 'manual' },
        steps: [
          {
            id: stepId,
            connector: 'crm',
            action: 'add_contact',
            input: { email: '{{ trigger.email }}', list: '{{ config.list }}' },
          },
        ],
        config: [
          {
            stepId,
            name: 'list',
            displayName: 'List',
            type: 'select',
            required: true,
            options: { source: 'lists' },
          },
        ],
      },
    });

    const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The page's `tokenUrl` (`/token?user=crm`) answers with this account's user's JWT, from its own service.
    await page.route(
      (u) => u.pathname === '/token',
      async (route) =>
        route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify(await api('GET', `/users/${s.userId}/token`)),
        }),
    );
    await page.goto(
      `${h.origin}/?${new URLSearchParams({ api: s.url, surface: 'modal', workflow: workflowId, user: 'crm' })}`,
    );
    const dialog = page.getByRole('dialog', { name: en.installTitle.replace('{name}', WORKFLOW) });
    await dialog.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();

    // The connector's own fields; a key the CRM refuses is said inline and nothing is stored.
    const workspace = dialog.getByLabel(/Workspace id/);
    const key = dialog.getByLabel(/CRM API key/);
    expect(await key.getAttribute('type')).toBe('password');
    await workspace.fill(s.workspace);
    await key.fill('not-the-key');
    await dialog.getByRole('button', { name: en.saveCredential }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /Pipeline CRM/ })
      .waitFor();
    expect(await api('GET', `/credentials?userId=${s.userId}`)).toEqual({ data: [] });

    await key.fill(s.key);
    await dialog.getByRole('button', { name: en.saveCredential }).click();
    const account = dialog.getByRole('radio', { name: /^Pipeline CRM/ });
    await expect.poll(() => account.isChecked(), { timeout: 15_000 }).toBe(true);
    await dialog.getByText('ops@crm.test').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: en.next, exact: true }).click();

    // The select lists what the custom source read from the CRM, for the workspace the user typed.
    const list = dialog.getByRole('combobox', { name: /List/ });
    await list.getByRole('option', { name: 'VIP customers' }).waitFor({ state: 'attached' });
    expect(await list.locator('option').allTextContents()).toEqual([en.choose, 'Leads', 'VIP customers']);
    const sourceCall = (await seenByCrm()).find((r) => r.path === `/workspaces/${s.workspace}/lists`);
    expect(sourceCall?.headers['x-crm-key']).toBe(`${s.workspace}:${s.key}`);
    await list.selectOption('l-vip');
    await dialog.getByRole('button', { name: en.next, exact: true }).click();
    await dialog.getByRole('heading', { name: /Step 3 of 3/ }).waitFor();
    expect(await dialog.locator('.inlay-review dd').allTextContents()).toContain('VIP customers');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: en.installAction, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.close();

    const [installation] = (await api('GET', `/installations?userId=${s.userId}`)).data;
    expect(installation).toMatchObject({ workflowIds: [workflowId] });
    const credentials = (await api('GET', `/credentials?userId=${s.userId}`)).data;
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({
      connector: 'crm',
      status: 'connected',
      accountLabel: 'ops@crm.test',
    });
    expect(installation.credentialIds).toEqual({ crm: credentials[0].credentialId });

    // A run: the CRM receives the contact, in the list the user chose, with the user's credential.
    const run = await api('POST', '/run/workflow', {
      workflowId,
      userId: s.userId,
      data: { email: 'new@signup.test' },
    });
    expect(run.executionIds).toHaveLength(1);
    const logs = await eventually(
      'the run to finish',
      async () => {
        const entries: { status: string }[] = (
          await api('GET', `/workflows/${workflowId}/logs?userId=${s.userId}`)
        ).data;
        return (entries[0]?.status === 'succeeded' || entries[0]?.status === 'failed') && entries;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(logs.map((l) => l.status)).toEqual(['succeeded']);
    const contacts = (await seenByCrm()).filter((r) => r.method === 'POST' && r.path === '/contacts');
    expect(contacts).toHaveLength(1);
    expect(contacts[0]!.headers['x-crm-key']).toBe(`${s.workspace}:${s.key}`);
    expect(contacts[0]!.body).toEqual({ email: 'new@signup.test', list: 'l-vip' });
  }, 180_000);
});

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccount, type InlayApp } from '@inlay/service';
import { eventually } from '@inlay/test-kit/eventually';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleHarness,
  choose,
  hasChromium,
  navigateTo,
  press,
  seriousViolations,
  signIn,
  startConsole,
  tabTo,
  typeInto,
  watch,
} from './harness.ts';

// Every page of the console in Chromium, light and dark, driven from the keyboard alone (Tab, Shift+Tab, Enter,
// Space, the arrow keys: see harness.ts), with axe and the 1280, 768 and 375 px checks on each.

let h: ConsoleHarness;
let app: InlayApp;
let origin: string;
let apiKey: string;
let accountId: string;
let browser: Browser;
/** A host's webhook receiver on 127.0.0.1 that is down: every delivery gets a 500. */
let receiver: Server;
let receiverUrl: string;

const api = <T = any>(method: string, path: string, body?: unknown) => h.api<T>(apiKey, method, path, body);
const sql = (q: string) => (app.context.db as unknown as { execute(q: string): Promise<unknown> }).execute(q);

beforeAll(async () => {
  if (!hasChromium) return;
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(500).end('down for maintenance'));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // The receiver is on loopback, which the egress policy refuses for webhook endpoints unless the operator
  // opens it (here its host:port only: the failing workflow's 127.0.0.1:9 stays refused).
  h = await startConsole({ INLAY_EGRESS_ALLOW: new URL(receiverUrl).host, INLAY_WEBHOOK_POLL_MS: '100' });
  ({ app, origin, browser } = h);
});

afterAll(async () => {
  await h?.close();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

/**
 * A fresh account for each run of the pages: two users, 3 good runs and 1 failed run each; a webhook endpoint
 * that is down, so the failed runs' `execution.failed` deliveries fail; bob's connections, one connected and
 * one to repair.
 */
async function seed() {
  ({ apiKey, accountId } = await createAccount(app.context.db, 'Acme CRM'));
  await api('POST', '/webhook-endpoints', { url: `${receiverUrl}/down`, events: ['execution.failed'] });
  // A workflow that succeeds and one that fails (the egress policy refuses loopback), run by two users.
  const { integrationId } = await api('POST', '/integrations', { name: 'Deals' });
  const ok = await api('POST', '/workflows', {
    integrationId,
    name: 'Summarise deal',
    definition: {
      trigger: { type: 'manual' },
      steps: [
        {
          id: randomUUID(),
          connector: 'transform',
          action: 'map',
          input: { expression: '{"deal": trigger.name}' },
        },
      ],
    },
  });
  const bad = await api('POST', '/workflows', {
    integrationId,
    name: 'Notify CRM',
    definition: {
      trigger: { type: 'manual' },
      steps: [
        {
          id: randomUUID(),
          connector: 'http',
          action: 'request',
          input: { method: 'GET', url: 'http://127.0.0.1:9/hook' },
        },
      ],
    },
  });
  for (const username of ['alice', 'bob']) {
    await api('POST', '/users', { username });
    await api('POST', '/installations', { userId: username, workflowIds: [ok.workflowId, bad.workflowId] });
    for (let i = 0; i < 3; i++)
      await api('POST', '/run/workflow', {
        userId: username,
        workflowId: ok.workflowId,
        data: { name: `Deal ${i}` },
      });
    await api('POST', '/run/workflow', { userId: username, workflowId: bad.workflowId, data: {} });
  }
  // bob's connections: a partner API key the health check found working (with the account it belongs to),
  // and one the provider refused.
  const partner = (name: string) =>
    api('POST', '/credentials', {
      userId: 'bob',
      connector: 'http',
      name,
      data: {
        headerName: 'Authorization',
        headerValue: 'Bearer pk_test',
        origins: 'https://api.partner.example',
      },
    });
  const { data: working } = await partner('Partner API (ops)');
  const { data: revoked } = await partner('Partner API');
  await sql(
    `update credentials set status = 'connected', account_label = 'ops@partner.example' where id = '${working.credentialId}'`,
  );
  await sql(
    `update credentials set status = 'needs_reconnect', status_reason = 'The key was revoked' where id = '${revoked.credentialId}'`,
  );
  // Every run finished, and a delivery to the endpoint that is down failed, before the pages are checked.
  await eventually(
    'the eight seeded runs to finish',
    async () => {
      const page = await api<{ data: { status: string }[] }>('GET', '/executions?limit=100');
      return (
        page.data.length === 8 && page.data.every((e) => e.status === 'succeeded' || e.status === 'failed')
      );
    },
    { timeout: 30_000 },
  );
  await eventually(
    'a failing delivery',
    async () => (await api<{ data: unknown[] }>('GET', '/webhook-deliveries?status=failing')).data.length > 0,
    { timeout: 30_000 },
  );
}

/** The cells of the table row that holds `text`. */
const rowCells = (page: Page, table: string, text: string) =>
  page
    .getByRole('table', { name: table })
    .locator('tbody tr', { hasText: text })
    .locator('td')
    .allTextContents();

describe.skipIf(!hasChromium).each(['light', 'dark'] as const)('the console in Chromium, %s', (scheme) => {
  it('signs in with an API key; every page is accessible, readable at 1280 and 768 px and used by keyboard alone', async () => {
    await seed();
    const context = await browser.newContext({
      colorScheme: scheme,
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    const { errors, failed, checkPage } = watch(page, scheme);
    const requested: string[] = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname + new URL(r.url()).search));

    // Sign-in: the form field is labelled "API key"; the key leaves no trace in the browser.
    await page.goto(`${origin}/console`);
    await page.getByLabel('API key').waitFor();
    await checkPage('sign-in');
    await signIn(page, apiKey);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie,
    );
    expect(stored).not.toContain(apiKey);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const cookies = await context.cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['inlay_console', true, 'Strict']]);
    expect(cookies[0]!.value).not.toContain(apiKey);

    // Overview: the chart, the error rate (2 failed of 8), the slowest workflows.
    await page.locator('.chart canvas').waitFor();
    await expect.poll(() => page.locator('.figures').textContent()).toContain('25.0 %');
    const slow = await page.getByRole('table', { name: 'Slowest workflows (p95)' }).textContent();
    expect(slow).toContain('Summarise deal');
    expect(slow).toContain('Notify CRM');
    // A connection to repair (bob's, revoked at the provider): listed with its reason, linked to bob's page.
    const reconnect = page.getByRole('table', { name: 'Connections that need a reconnect' });
    await reconnect.waitFor();
    expect(await reconnect.textContent()).toContain('The key was revoked');
    expect(await reconnect.textContent()).toContain('bob');
    // A delivery that is failing: the endpoint answered 500 and it is retried. One request for every endpoint.
    const failing = page.getByRole('table', { name: 'Failing webhook deliveries' });
    await failing.waitFor();
    const [endpointCell, event, state, attempts, lastError] = await rowCells(
      page,
      'Failing webhook deliveries',
      `${receiverUrl}/down`,
    );
    expect([endpointCell, event, state, lastError]).toEqual([
      `${receiverUrl}/down`,
      'execution.failed',
      'pending',
      'The endpoint answered HTTP 500',
    ]);
    expect(Number(attempts)).toBeGreaterThan(0);
    expect(requested).toContain('/webhook-deliveries?status=failing&limit=50');
    expect(requested.filter((r) => r.startsWith('/webhook-endpoints'))).toEqual([]);
    // `CONSOLE_SCREENSHOT=path` keeps a picture of the Overview (docs/console-overview.png is one).
    if (process.env.CONSOLE_SCREENSHOT && scheme === 'light')
      await page.screenshot({ path: process.env.CONSOLE_SCREENSHOT, fullPage: true });
    // The period, with the arrow keys (a radio group): per day over 30 days.
    await press(page, page.getByLabel('Last 24 hours, per hour'), 'ArrowRight');
    expect(await page.getByLabel('Last 30 days, per day').isChecked()).toBe(true);
    await page.locator('.chart canvas').waitFor();
    await checkPage('overview');

    // The slowest workflow's link opens its runs in Executions, the workflow picked by name.
    await press(
      page,
      page
        .getByRole('table', { name: 'Slowest workflows (p95)' })
        .getByRole('link', { name: 'Summarise deal' }),
    );
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(6);
    // The names arrive with the workflows list, which may come after the runs.
    await expect
      .poll(() => page.getByLabel('Workflow').locator('option:checked').textContent())
      .toBe('Summarise deal');

    // Executions: every run, then the filters from the keyboard (failed runs of bob).
    await navigateTo(page, 'Executions');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(8);
    await checkPage('executions');
    await choose(page, page.getByLabel('Status'), 'Failed');
    await typeInto(page, page.getByLabel('User (id or username)'), 'bob');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(page.url()).toContain('status=failed');
    const row = await page.locator('tbody tr').textContent();
    expect(row).toContain('Notify CRM');
    expect(row).toContain('bob');

    // Detail: trigger, the step's input and its error; rerun opens the new run.
    await press(page, page.locator('tbody tr a').first());
    await page.getByRole('heading', { name: /Run of Notify CRM/ }).waitFor();
    expect(await page.getByLabel('Step 1 input').textContent()).toContain('http://127.0.0.1:9/hook');
    expect(await page.locator('.steps .error').textContent()).toContain('egress_denied');
    await checkPage('execution detail');
    const before = page.url();
    await press(page, page.getByRole('button', { name: 'Rerun' }));
    await expect.poll(() => page.url()).not.toBe(before);
    await page.getByText('Re-ran').waitFor();

    // Calls: the refused http steps were calls that got no answer; filtered to failures from the keyboard.
    await navigateTo(page, 'Calls');
    await page.getByRole('heading', { name: 'Calls' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    await checkPage('calls');
    await choose(page, page.getByLabel('Outcome'), 'Failed (no answer, or 400 and above)');
    await press(page, page.getByRole('button', { name: 'Apply filters' }));
    await expect.poll(() => page.url()).toContain('failed=true');
    const call = await page.locator('tbody tr').first().textContent();
    expect(call).toContain('Workflow step');
    expect(call).toContain('GET /hook');
    expect(call).toContain('no answer');

    // API keys: create (shown once, never used yet), use it, its last use shown; revoke after confirming.
    await navigateTo(page, 'API keys');
    await typeInto(page, page.getByLabel('Name'), `CI ${scheme}`);
    await page.keyboard.press('Enter');
    const key = await page.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^inlay_live_/);
    const keyRow = () => rowCells(page, "The account's API keys", `CI ${scheme}`);
    await expect.poll(async () => (await keyRow())[3]).toBe('never');
    await checkPage('api keys');
    await press(page, page.getByRole('button', { name: 'Done' }));
    expect(await page.getByLabel('New API key').count()).toBe(0);
    expect((await fetch(`${origin}/users`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );
    const used = await eventually(
      'the key’s last use',
      async () => {
        const keys = await api<{ data: { name: string | null; lastUsedAt: string | null }[] }>(
          'GET',
          '/api-keys',
        );
        return keys.data.find((k) => k.name === `CI ${scheme}`)?.lastUsedAt;
      },
      { timeout: 30_000 },
    );
    // Shown when the page is opened again: the date and the time of that use (UTC).
    await navigateTo(page, 'Overview');
    await navigateTo(page, 'API keys');
    const [, , , lastUsed] = await eventually(
      'the last use on the page',
      async () => {
        const cells = await keyRow();
        return cells[3] && cells[3] !== 'never' ? cells : undefined;
      },
      { timeout: 30_000 },
    );
    expect(lastUsed).toContain(used.slice(0, 4));
    expect(lastUsed).toContain(used.slice(11, 19));
    expect(lastUsed).toMatch(/UTC$/);
    await press(page, page.getByRole('button', { name: `Revoke CI ${scheme}` }));
    const revoking = page.getByRole('dialog');
    await revoking.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // The dialog's own button: a key's row button reads "Revoke <its name>", and a name may start with "Key".
    await press(page, revoking.getByRole('button', { name: 'Revoke key' }));
    await expect
      .poll(
        async () => (await fetch(`${origin}/users`, { headers: { authorization: `Bearer ${key}` } })).status,
      )
      .toBe(401);

    // Workflows: the list, the editor linting against the contract's JSON Schema, publish, diff, test run.
    await navigateTo(page, 'Workflows');
    const workflowRows = page.getByRole('table', { name: "The account's workflows" }).locator('tbody tr');
    await expect.poll(() => workflowRows.count()).toBe(2);
    await checkPage('workflows');
    await press(page, page.getByRole('link', { name: 'Summarise deal' }));
    await page.getByRole('heading', { name: 'Summarise deal' }).waitFor({ timeout: 8000 });
    const editor = page.getByRole('textbox', { name: 'Definition of Summarise deal' });
    await editor.waitFor();
    expect(await editor.textContent()).toContain('trigger.name');
    await checkPage('workflow');
    // No steps breaks the schema's minItems: the problem is listed and publishing is off.
    await tabTo(page, editor);
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText('{"trigger": {"type": "manual"}, "steps": []}');
    await expect.poll(() => page.locator('.lint').textContent()).toBe('steps: needs at least 1 item');
    const publishButton = page.getByRole('button', { name: 'Publish new version' });
    expect(await publishButton.isDisabled()).toBe(true);
    const step = (await api('GET', `/workflows/${page.url().split('/').pop()}/definition`)).definition
      .steps[0];
    const next = {
      trigger: { type: 'manual' },
      steps: [{ ...step, input: { expression: '{"deal": trigger.name, "v": 2}' } }],
    };
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(JSON.stringify(next, null, 2));
    await expect.poll(() => publishButton.isDisabled()).toBe(false);
    await press(page, publishButton);
    await page.getByText('Published version 2.').waitFor();
    await page.getByRole('heading', { name: 'Definition (version 2)' }).waitFor();
    // The diff from version 1 to 2 marks the changed expression.
    const diff = page.getByRole('textbox', { name: 'Changes from version 1 to version 2' });
    await diff.waitFor();
    await expect.poll(() => page.locator('.cm-changedLine, .cm-insertedLine').count()).toBeGreaterThan(0);
    await checkPage('workflow versions');
    await typeInto(page, page.getByLabel('User (id or username)'), 'bob');
    await page.keyboard.press('Enter');
    await press(page, page.getByRole('link', { name: 'open the run' }));
    await page.getByRole('heading', { name: /Run of Summarise deal/ }).waitFor();
    await expect.poll(async () => (await page.locator('.facts').textContent()) ?? '').toContain('bob');

    // Users: search by name, a user's installations, credentials (status and label) and runs, delete.
    await navigateTo(page, 'Users');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await checkPage('users');
    // bob's connections: each with its status, its label and the account it reaches.
    await press(page, page.getByRole('link', { name: 'bob' }));
    await page.getByRole('heading', { name: 'bob', level: 1 }).waitFor();
    const creds = page.getByRole('table', { name: 'Credentials of bob' });
    await creds.waitFor();
    const credRow = (label: string) =>
      creds.locator('tbody tr', { has: page.getByRole('cell', { name: label, exact: true }) });
    expect(await credRow('Partner API (ops)').locator('td').allTextContents()).toEqual([
      'http',
      'Partner API (ops)',
      'ops@partner.example',
      'connected',
      expect.stringMatching(/UTC$/),
      'Calls of Partner API (ops)',
    ]);
    expect(await credRow('Partner API (ops)').locator('.badge-connected').count()).toBe(1);
    // Each connection links to its own view of the Calls page.
    expect(
      await credRow('Partner API (ops)')
        .getByRole('link', { name: 'Calls of Partner API (ops)' })
        .getAttribute('href'),
    ).toMatch(/^\/console\/calls\?credentialId=[0-9a-f-]{36}$/);
    const [, , account, status] = await credRow('Partner API').locator('td').allTextContents();
    expect(account).toBe('—');
    expect(status).toBe('needs_reconnect The key was revoked');
    expect(await credRow('Partner API').locator('.badge-needs_reconnect').count()).toBe(1);
    await checkPage('user with credentials');
    await press(page, page.getByRole('link', { name: '← All users' }));
    await typeInto(page, page.getByLabel('Id, username or name'), 'ALI');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(page.url()).toContain('search=ALI');
    await press(page, page.getByRole('link', { name: 'alice' }));
    await page.getByRole('heading', { name: 'alice' }).waitFor();
    expect(await page.getByRole('table', { name: 'Installations of alice' }).textContent()).toContain(
      'Summarise deal',
    );
    await page.getByText('No connected accounts.').waitFor();
    // `<ExecutionLogs>` under a token the console minted for alice: her 3 runs of the first workflow.
    await expect.poll(() => page.locator('.inlay-logs tbody tr[id]').count()).toBe(3);
    await checkPage('user');
    await press(page, page.getByRole('button', { name: 'Delete user…' }));
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const confirm = page.getByRole('button', { name: 'Delete permanently' });
    expect(await confirm.isDisabled()).toBe(true);
    await typeInto(page, page.getByLabel('Type the username to confirm'), 'alice');
    await press(page, confirm);
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect((await api<{ data: unknown[] }>('GET', '/users')).data).toHaveLength(1);

    // Connectors: the catalog, a connector's OAuth app set up (the secret never shown again).
    await navigateTo(page, 'Connectors');
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(5);
    await checkPage('connectors');
    // Categories and sign-in types in words, not the API's values.
    const slackRow = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'Slack', exact: true }) });
    expect(await slackRow.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Communication', 'OAuth (sign in with the app)']),
    );
    expect(await page.getByRole('cell', { name: /^(oauth2|apiKey|project-management)$/ }).count()).toBe(0);
    // The proxy has a page of its own.
    expect(await page.getByRole('heading', { name: 'Try the proxy' }).count()).toBe(0);
    await press(page, page.getByRole('link', { name: 'Slack', exact: true }));
    await page.getByRole('heading', { name: 'Slack', level: 1 }).waitFor();
    await page.getByText(/^Not set up/).waitFor();
    await typeInto(page, page.getByLabel('Client ID'), 'client-abc');
    await typeInto(page, page.getByLabel('Client secret'), 'shh-secret');
    await page.keyboard.press('Enter');
    await page.getByText(/^Set up: client/).waitFor();
    await page.getByText(/oauth\/callback/).waitFor();
    const oauthApp = await api('GET', '/connectors/slack/oauth-app');
    expect(oauthApp.data.clientId).toBe('client-abc');
    expect(JSON.stringify(oauthApp)).not.toContain('shh-secret');
    await checkPage('connector');

    // MCP servers: create with a restriction (URL and token shown once), list, delete after a confirmation.
    await navigateTo(page, 'MCP servers');
    const createForm = page.getByRole('form', { name: 'Create an MCP server' });
    await typeInto(page, createForm.getByLabel('Name', { exact: true }), 'Support agent');
    // A misspelt name is refused with the entry named, and what was typed stays to be corrected.
    const connectorNames = createForm.getByLabel('Connector names (comma separated; empty: all)');
    await typeInto(page, connectorNames, 'slakc');
    await page.keyboard.press('Enter');
    await page.getByText(/restrictions\.connectors\.allow\.0: no connector "slakc"/).waitFor();
    expect(await connectorNames.inputValue()).toBe('slakc');
    expect(await createForm.getByLabel('Name', { exact: true }).inputValue()).toBe('Support agent');
    await typeInto(page, connectorNames, 'slack');
    await page.keyboard.press('Enter');
    expect(await page.getByLabel('Access token').inputValue()).not.toBe('');
    const serverUrl = await page.getByLabel('Server URL').inputValue();
    expect(serverUrl).toMatch(/^http:\/\/127\.0\.0\.1.*\/mcp\/[0-9a-f-]{36}\/inlay_mcp_/);
    // The URL whole, with a Copy button that puts it on the clipboard.
    await press(page, page.getByRole('button', { name: 'Copy Server URL' }));
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(serverUrl);
    // How an agent signs in, with a client configuration holding this server's URL, to copy.
    const signInHelp = page.getByRole('region', { name: 'How an agent signs in' });
    expect(await signInHelp.textContent()).toContain('Authorization: Bearer');
    expect(JSON.parse((await signInHelp.locator('pre').textContent())!).servers.inlay.url).toBe(serverUrl);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').textContent()).toContain('only slack');
    const servers = await api<{ data: { restrictions: unknown }[] }>('GET', '/mcp-servers');
    expect(servers.data[0]!.restrictions).toEqual({ connectors: { allow: ['slack'] } });
    await checkPage('mcp servers');
    await press(page, page.getByRole('button', { name: 'Done' }));
    await press(page, page.getByRole('button', { name: 'Delete Support agent' }));
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await press(page, page.getByRole('button', { name: 'Delete server' }));
    await page.getByText('No MCP servers yet.').waitFor();
    expect((await api<{ data: unknown[] }>('GET', '/mcp-servers')).data).toEqual([]);

    // Settings: allowed origins, the account's own retention, webhook endpoints with their deliveries.
    await navigateTo(page, 'Settings');
    await typeInto(
      page,
      page.getByLabel('One origin a line (https://app.example.com)'),
      'https://App.example.com/',
    );
    await press(page, page.getByRole('button', { name: 'Save origins' }));
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect((await api('GET', '/settings')).data.allowedOrigins).toEqual(['https://app.example.com']);
    // Retention: the service's 30 days, then the account's own 7, then the service's again.
    await page
      .getByText('Runs and their logs are kept 30 days, then deleted (the service’s retention).')
      .waitFor();
    await typeInto(page, page.getByLabel(/^Days to keep runs \(at most 30/), '7');
    await page.keyboard.press('Enter');
    await page
      .getByText('Runs and their logs are kept 7 days, then deleted (this account’s own setting).')
      .waitFor();
    expect((await api('GET', '/settings')).data).toMatchObject({
      allowedOrigins: ['https://app.example.com'],
      logRetentionDays: 7,
      ownLogRetention: true,
    });
    await checkPage('settings with its own retention');
    await press(page, page.getByRole('button', { name: 'Use the service’s (30 days)' }));
    await page
      .getByText('Runs and their logs are kept 30 days, then deleted (the service’s retention).')
      .waitFor();
    expect((await api('GET', '/settings')).data).toMatchObject({
      logRetentionDays: 30,
      ownLogRetention: false,
    });
    // The endpoint that is down: its deliveries with the 500 it answered.
    await press(page, page.getByRole('button', { name: `Show deliveries of ${receiverUrl}/down` }));
    const downDeliveries = page.getByRole('table', { name: `Latest deliveries to ${receiverUrl}/down` });
    await downDeliveries.waitFor();
    expect(await downDeliveries.locator('tbody tr').first().textContent()).toContain('execution.failed');
    expect(await downDeliveries.textContent()).toContain('The endpoint answered HTTP 500');
    // A new endpoint: the URL typed, one event unticked with Space, added; its secret shown once.
    await typeInto(page, page.getByLabel('Endpoint URL'), 'https://hooks.example.com/inlay');
    await press(page, page.getByRole('checkbox', { name: 'credential.deleted' }), 'Space');
    expect(await page.getByRole('checkbox', { name: 'credential.deleted' }).isChecked()).toBe(false);
    await press(page, page.getByRole('button', { name: 'Add endpoint' }));
    expect(await page.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
    const endpoints = (await api<{ data: { url: string; events: string[] }[] }>('GET', '/webhook-endpoints'))
      .data;
    const added = endpoints.find((e) => e.url === 'https://hooks.example.com/inlay');
    expect(added?.events).toHaveLength(6);
    expect(added?.events).toContain('installation.needs_credential');
    expect(added?.events).not.toContain('credential.deleted');
    await press(
      page,
      page.getByRole('button', { name: 'Show deliveries of https://hooks.example.com/inlay' }),
    );
    await page.getByText('No deliveries yet.').waitFor();
    await checkPage('settings');
    await press(page, page.getByRole('button', { name: 'Delete https://hooks.example.com/inlay' }));
    await press(page, page.getByRole('button', { name: 'Delete endpoint' }));
    await expect
      .poll(() => page.getByRole('heading', { name: 'https://hooks.example.com/inlay' }).count())
      .toBe(0);
    expect((await api<{ data: unknown[] }>('GET', '/webhook-endpoints')).data).toHaveLength(1);

    // Sign out: the session is gone from the server, not just the page.
    const cookie = `inlay_console=${(await context.cookies())[0]!.value}`;
    await press(page, page.getByRole('button', { name: 'Sign out' }));
    await page.getByLabel('API key').waitFor();
    expect((await fetch(`${origin}/executions`, { headers: { cookie } })).status).toBe(401);

    // The misspelt MCP restriction's 422 is the only error the browser logged.
    expect(errors, failed.join('; ')).toEqual([
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
    await context.close();
  });

  it('manages integrations, creates a workflow in the editor and deletes one, by keyboard, at 1280 and 768 px', async () => {
    ({ apiKey } = await createAccount(app.context.db, 'Acme CRM'));
    const { integrationId: deals } = await api('POST', '/integrations', { name: 'Deals' });
    await api('POST', '/workflows', {
      integrationId: deals,
      name: 'Summarise deal',
      definition: {
        trigger: { type: 'manual' },
        steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '{}' } }],
      },
    });
    const integrations = async () =>
      (
        await api<{ data: { integrationId: string; name: string; description: string | null }[] }>(
          'GET',
          '/integrations',
        )
      ).data;
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { errors, failed, checkPage } = watch(page, scheme);
    await page.goto(`${origin}/console/workflows`);
    await signIn(page, apiKey);
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    const table = page.getByRole('table', { name: "The account's integrations" });
    const row = (name: string) => table.locator('tbody tr', { hasText: name });
    await expect.poll(() => row('Deals').locator('td').nth(2).textContent()).toBe('1');
    await checkPage('workflows with integrations');

    // Create with the keyboard: type the name, Enter submits.
    const create = page.getByRole('form', { name: 'Create an integration' });
    await typeInto(page, create.getByLabel('Name'), 'Support');
    await page.keyboard.press('Enter');
    await expect.poll(() => row('Support').count()).toBe(1);
    expect(await row('Support').locator('td').nth(2).textContent()).toBe('0');
    const support = (await integrations()).find((i) => i.name === 'Support')!;
    expect(support).toMatchObject({ description: null });

    // Edit in a dialog, opened and saved with the keyboard.
    await press(page, page.getByRole('button', { name: 'Edit Support' }));
    const edit = page.getByRole('dialog', { name: 'Edit Support' });
    await edit.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await typeInto(page, edit.getByLabel('Name'), 'Helpdesk');
    await typeInto(page, edit.getByLabel('Description'), 'Tickets to the team');
    await page.keyboard.press('Enter');
    await expect.poll(() => row('Helpdesk').count()).toBe(1);
    expect(await row('Helpdesk').textContent()).toContain('Tickets to the team');
    expect((await integrations()).find((i) => i.integrationId === support.integrationId)).toMatchObject({
      name: 'Helpdesk',
      description: 'Tickets to the team',
    });

    // Deleting an integration with a workflow: the service's refusal is shown in the dialog, nothing goes.
    await press(page, page.getByRole('button', { name: 'Delete Deals' }));
    const confirmDeals = page.getByRole('dialog', { name: 'Delete Deals?' });
    await confirmDeals.waitFor();
    await press(page, confirmDeals.getByRole('button', { name: 'Delete integration' }));
    await confirmDeals.getByRole('alert').waitFor();
    expect(await confirmDeals.getByRole('alert').textContent()).toBe(
      'The integration has 1 workflow: it can be deleted once it has none',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => confirmDeals.isVisible()).toBe(false);
    expect((await integrations()).map((i) => i.name)).toContain('Deals');

    // New workflow: the integration chosen, the definition linted as typed, the service's 422 shown.
    await press(page, page.getByRole('link', { name: 'New workflow' }));
    await page.getByRole('heading', { name: 'New workflow' }).waitFor();
    const editor = page.getByRole('textbox', { name: 'Definition of the new workflow' });
    await editor.waitFor();
    expect(await editor.textContent()).toContain('transform');
    await checkPage('new workflow');
    await choose(page, page.getByLabel('Integration'), 'Helpdesk');
    await typeInto(page, page.getByLabel('Name', { exact: true }), 'Triage ticket');
    const createButton = page.getByRole('button', { name: 'Create workflow' });
    await tabTo(page, editor);
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText('{"trigger": {"type": "manual"}, "steps": []}');
    await expect.poll(() => page.locator('.lint').textContent()).toBe('steps: needs at least 1 item');
    expect(await createButton.isDisabled()).toBe(true);
    const step = { id: randomUUID(), connector: 'nope', action: 'map', input: {} };
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(JSON.stringify({ trigger: { type: 'manual' }, steps: [step] }));
    await expect.poll(() => createButton.isDisabled()).toBe(false);
    await press(page, createButton);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('nope');
    await checkPage('new workflow refused');
    expect((await api<{ data: unknown[] }>('GET', '/account/workflows')).data).toHaveLength(1);
    await tabTo(page, editor);
    // A typo in the trigger's type: one line naming the field and the types there are, no schema jargon.
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(JSON.stringify({ trigger: { type: 'manul' }, steps: [step] }));
    await expect
      .poll(() => page.locator('.lint li').allTextContents())
      .toEqual(['trigger.type: must be one of "manual", "event", "webhook", "schedule", "app"']);
    // The service's refusal was of the text before: it goes once the text changes.
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(
      JSON.stringify({ trigger: { type: 'manual' }, steps: [{ ...step, connector: 'transform' }] }),
    );
    await expect.poll(() => page.locator('.lint').count()).toBe(0);
    await press(page, createButton);
    await page.getByRole('heading', { name: 'Triage ticket', level: 1 }).waitFor();
    const created = (
      await api<{ data: { name: string; integrationId: string; version: number }[] }>(
        'GET',
        '/account/workflows',
      )
    ).data.find((w) => w.name === 'Triage ticket');
    expect(created).toMatchObject({ integrationId: support.integrationId, version: 1 });

    // Back on the list: Helpdesk counts its workflow; an empty integration is deleted after confirming.
    await press(page, page.getByRole('link', { name: '← All workflows' }));
    await expect.poll(() => row('Helpdesk').locator('td').nth(2).textContent()).toBe('1');
    await typeInto(page, create.getByLabel('Name'), 'Scratch');
    await press(page, create.getByRole('button', { name: 'Create integration' }));
    await expect.poll(() => row('Scratch').count()).toBe(1);
    await press(page, page.getByRole('button', { name: 'Delete Scratch' }));
    await press(
      page,
      page
        .getByRole('dialog', { name: 'Delete Scratch?' })
        .getByRole('button', { name: 'Delete integration' }),
    );
    await expect.poll(() => row('Scratch').count()).toBe(0);
    expect((await integrations()).map((i) => i.name).sort()).toEqual(['Deals', 'Helpdesk']);
    await checkPage('workflows after changes');

    // Deleting a workflow a user has installed: the service's refusal is shown in the dialog, nothing goes.
    const summarise = (
      await api<{ data: { workflowId: string; name: string }[] }>('GET', '/account/workflows')
    ).data.find((w) => w.name === 'Summarise deal')!;
    await api('POST', '/users', { username: 'ann' });
    await api('POST', '/installations', {
      userId: 'ann',
      workflowIds: [summarise.workflowId],
      credentialIds: {},
      values: [],
    });
    await press(page, page.getByRole('link', { name: 'Summarise deal' }));
    await page.getByRole('heading', { name: 'Summarise deal', level: 1 }).waitFor();
    await press(page, page.getByRole('button', { name: 'Delete workflow' }));
    const confirmSummarise = page.getByRole('dialog', { name: 'Delete Summarise deal?' });
    await confirmSummarise.waitFor();
    await press(page, confirmSummarise.getByRole('button', { name: 'Delete workflow' }));
    await confirmSummarise.getByRole('alert').waitFor();
    expect(await confirmSummarise.getByRole('alert').textContent()).toBe(
      'The workflow is installed by 1 user: uninstall it first (DELETE /installations/{installationId}), then delete it',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => confirmSummarise.isVisible()).toBe(false);
    expect(
      (await api<{ data: { name: string }[] }>('GET', '/account/workflows')).data.map((w) => w.name),
    ).toContain('Summarise deal');

    // A workflow nobody installed is deleted after confirming, by keyboard, and the console goes back to the list,
    // where its integration no longer counts it.
    await press(page, page.getByRole('link', { name: '← All workflows' }));
    await press(page, page.getByRole('link', { name: 'Triage ticket' }));
    await page.getByRole('heading', { name: 'Triage ticket', level: 1 }).waitFor();
    await checkPage('workflow with delete');
    await press(page, page.getByRole('button', { name: 'Delete workflow' }));
    const confirmTriage = page.getByRole('dialog', { name: 'Delete Triage ticket?' });
    await confirmTriage.waitFor();
    await press(page, confirmTriage.getByRole('button', { name: 'Delete workflow' }));
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/workflows');
    await expect.poll(() => row('Helpdesk').locator('td').nth(2).textContent()).toBe('0');
    await expect.poll(() => page.getByRole('link', { name: 'Triage ticket' }).count()).toBe(0);
    expect(
      (await api<{ data: { name: string }[] }>('GET', '/account/workflows')).data.map((w) => w.name),
    ).toEqual(['Summarise deal']);
    await checkPage('workflows after a workflow delete');

    // The refused deletes (409) and the refused create (422) are the only errors the browser logged.
    expect(errors, failed.join('; ')).toEqual([
      expect.stringMatching(/status of 409/),
      expect.stringMatching(/status of 422/),
      expect.stringMatching(/status of 409/),
    ]);
    await context.close();
  });

  it('explores executions by keyboard: the workflow picked by name, a time range, Load more (keyset), a run in detail', async () => {
    ({ apiKey, accountId } = await createAccount(app.context.db, 'Explorer'));
    const { integrationId } = await api('POST', '/integrations', { name: 'Leads' });
    const workflow = async (name: string, expressions: string[]) =>
      (
        await api('POST', '/workflows', {
          integrationId,
          name,
          definition: {
            trigger: { type: 'manual' },
            steps: expressions.map((expression) => ({
              id: randomUUID(),
              connector: 'transform',
              action: 'map',
              input: { expression },
            })),
          },
        })
      ).workflowId as string;
    const enrich = await workflow('Enrich lead', [
      '{"name": $uppercase(trigger.name)}',
      '{"items": $count(trigger.items)}',
    ]);
    const archive = await workflow('Archive lead', ['{}']);
    const { userId } = await api('POST', '/users', { username: 'erin' });
    await api('POST', '/installations', { userId: 'erin', workflowIds: [enrich, archive] });
    // A real run with two steps, and history: 30 runs of Archive lead on 10 January 2025, 2 on the 12th.
    const run = await api('POST', '/run/workflow', {
      userId: 'erin',
      workflowId: enrich,
      data: { name: 'ada', items: [1, 2, 3] },
    });
    const history = (day: string, n: number) =>
      Array.from({ length: n }, (_, i) => {
        const at = new Date(Date.parse(`2025-01-${day}T09:00:00.000Z`) + i * 60_000).toISOString();
        return `('${randomUUID()}', '${accountId}', '${userId}', '${archive}', 1, 'succeeded', true, '{}', 'manual', '${at}', '${at}')`;
      });
    await sql(
      `insert into executions (id, account_id, user_id, workflow_id, version, status, finished, trigger, trigger_type, started_at, stopped_at) values ${[...history('10', 30), ...history('12', 2)].join(', ')}`,
    );
    await eventually(
      'the enrich run to succeed',
      async () => (await api('GET', `/executions/${run.executionIds[0]}`)).data.status === 'succeeded',
      { timeout: 30_000 },
    );

    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { errors, failed, checkPage } = watch(page, scheme);
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${origin}/console/executions`);
    await signIn(page, apiKey);
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    const rows = page.getByRole('table', { name: 'Runs, newest first' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(25);

    // The workflow by name, and a day in UTC: the 30 runs of that day, 25 on the first page.
    const picker = page.getByLabel('Workflow');
    // The workflows list may answer after the runs: wait for its names.
    await expect
      .poll(() => picker.locator('option').allTextContents())
      .toEqual(['Any', 'Enrich lead', 'Archive lead']);
    await choose(page, picker, 'Archive lead');
    // A datetime-local field takes its parts as typed: month, day, year, (next part) hours, minutes, AM/PM.
    const typeDateTime = async (label: string, keys: string[]) => {
      await tabTo(page, page.getByLabel(label));
      for (const k of keys) await page.keyboard.press(k);
    };
    const jan = (day: string) => [
      '0',
      '1',
      ...day.split(''),
      '2',
      '0',
      '2',
      '5',
      'ArrowRight',
      '1',
      '2',
      '0',
      '0',
      'A',
    ];
    await typeDateTime('From (UTC)', jan('10'));
    await typeDateTime('To (UTC)', jan('11'));
    expect(await page.getByLabel('From (UTC)').inputValue()).toBe('2025-01-10T00:00');
    expect(await page.getByLabel('To (UTC)').inputValue()).toBe('2025-01-11T00:00');
    await press(page, page.getByRole('button', { name: 'Apply filters' }));
    await expect.poll(() => page.url()).toContain(`workflowId=${archive}`);
    const url = new URL(page.url());
    expect([url.searchParams.get('from'), url.searchParams.get('to')]).toEqual([
      '2025-01-10T00:00',
      '2025-01-11T00:00',
    ]);
    await expect.poll(() => rows.count()).toBe(25);
    const starts = async () =>
      (await rows.locator('td:first-child').allTextContents()).map((t) => t.replace(/ UTC$/, ''));
    const first = await starts();
    expect(first[0]).toContain('09:29:00');
    expect(new Set(first).size).toBe(25);
    await checkPage('executions filtered');
    // The next page, by its cursor: the 5 runs left, none twice, still newest first; then no more pages.
    await press(page, page.getByRole('button', { name: 'Load more' }));
    await expect.poll(() => rows.count()).toBe(30);
    const all = await starts();
    expect(all.slice(0, 25)).toEqual(first);
    expect(new Set(all).size).toBe(30);
    expect(all[29]).toContain('09:00:00');
    expect(all.every((t) => t.includes('10 Jan 2025'))).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(requested.filter((r) => r.includes('cursor='))).toHaveLength(1);
    // Without the time range: the 2 runs of the 12th too.
    await press(page, page.getByRole('button', { name: 'Clear' }));
    await expect.poll(() => page.url()).toBe(`${origin}/console/executions`);
    await choose(page, picker, 'Archive lead');
    await press(page, page.getByRole('button', { name: 'Apply filters' }));
    await expect.poll(() => page.url()).toContain(`workflowId=${archive}`);
    await press(page, page.getByRole('button', { name: 'Load more' }));
    await expect.poll(() => rows.count()).toBe(32);

    // The real run: its trigger data, each step's input and output.
    await choose(page, picker, 'Enrich lead');
    await press(page, page.getByRole('button', { name: 'Apply filters' }));
    await expect.poll(() => rows.count()).toBe(1);
    await press(page, rows.locator('a').first());
    await page.getByRole('heading', { name: /Run of Enrich lead/ }).waitFor();
    const json = async (label: string) =>
      JSON.parse((await page.getByRole('region', { name: label }).textContent()) ?? 'null');
    expect(await json('Trigger data')).toEqual({ name: 'ada', items: [1, 2, 3] });
    expect(await json('Step 1 input')).toEqual({ expression: '{"name": $uppercase(trigger.name)}' });
    // Each step's output as the widget shows it: the item's JSON, not the log's [[{…}]] wrapping.
    expect(await json('Step 1 output')).toEqual({ name: 'ADA' });
    expect(await json('Step 2 output')).toEqual({ items: 3 });
    // One attempt each, said in words that agree with the count.
    expect(await page.getByText(/ · 1 attempt$/).count()).toBe(2);
    expect(await page.getByText(/attempt\(s\)/).count()).toBe(0);
    await checkPage('execution detail with steps');
    expect(errors, failed.join('; ')).toEqual([]);
    await context.close();
  });

  it('edits an MCP server’s restrictions by keyboard; a real MCP client gets the new connectors and actions at once', async () => {
    ({ apiKey } = await createAccount(app.context.db, 'Agents'));
    await api('POST', '/users', { username: 'mia' });
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { errors, failed, checkPage } = watch(page, scheme);
    await page.goto(`${origin}/console/mcp-servers`);
    await signIn(page, apiKey);
    await page.getByRole('heading', { name: 'MCP servers', level: 1 }).waitFor();

    // Created without restrictions; the URL and token, shown once, are what the agent gets.
    const createForm = page.getByRole('form', { name: 'Create an MCP server' });
    await typeInto(page, createForm.getByLabel('Name', { exact: true }), 'Assistant');
    await page.keyboard.press('Enter');
    const token = await page.getByLabel('Access token').inputValue();
    // The service's public URL here is http://127.0.0.1 (no port): the agent reaches it on the test's port.
    const url = (await page.getByLabel('Server URL').inputValue()).replace('http://127.0.0.1', origin);
    expect(url).toContain(token);
    await press(page, page.getByRole('button', { name: 'Done' }));
    const client = new Client({ name: 'console-test-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${apiKey}`, 'x-inlay-userid': 'mia' } },
      }),
    );
    const tools = async () => (await client.listTools()).tools.map((t) => t.name).sort();
    const connectors = async () =>
      (
        (await client.callTool({ name: 'list_connectors_inlay', arguments: {} })) as any
      ).structuredContent.connectors
        .map((c: { id: string }) => c.id)
        .sort() as string[];
    const actionsOf = async (connectorId: string) => {
      const r = (await client.callTool({
        name: 'get_connector_resources_inlay',
        arguments: { connectorId },
      })) as any;
      return r.isError ? 'refused' : r.structuredContent.actions.map((a: { id: string }) => a.id).sort();
    };
    const everyTool = await tools();
    expect(everyTool).toContain('run_workflow_inlay');
    expect(everyTool).toHaveLength(10);
    expect(await connectors()).toEqual(expect.arrayContaining(['hubspot', 'slack']));

    /** Opens the server's edit dialog, sets both rules from the keyboard, saves with Enter. */
    const edit = async (rules: { connectors: [string, string]; actions: [string, string] }) => {
      await press(page, page.getByRole('button', { name: 'Edit Assistant' }));
      const dialog = page.getByRole('dialog', { name: 'Edit Assistant' });
      await dialog.waitFor();
      for (const [legend, [mode, list], field] of [
        ['Connectors', rules.connectors, 'Connector names (comma separated; empty: all)'],
        ['Actions', rules.actions, 'Actions (connector.action or tool names; empty: all)'],
      ] as const) {
        const group = dialog.getByRole('group', { name: legend });
        await choose(page, group.getByLabel('Rule'), mode);
        await typeInto(page, group.getByLabel(field), list);
      }
      await page.keyboard.press('Enter');
      return dialog;
    };
    const row = () => rowCells(page, "The account's MCP servers", 'Assistant');

    // 1. Connectors allowed, actions (one of them a tool) blocked.
    await edit({
      connectors: ['Allow only', 'slack, hubspot'],
      actions: ['Block', 'slack.list_messages, run_workflow_inlay'],
    });
    await expect
      .poll(async () => (await row()).slice(1, 3))
      .toEqual(['only slack, hubspot', 'all but slack.list_messages, run_workflow_inlay']);
    expect(await tools()).toEqual(everyTool.filter((t) => t !== 'run_workflow_inlay'));
    expect(await connectors()).toEqual(['hubspot', 'slack']);
    expect(await actionsOf('slack')).toEqual(['post_message']);
    expect(await actionsOf('github')).toBe('refused');
    await checkPage('mcp server restricted');

    // 2. A connector blocked, actions and tools allowed.
    const dialog = await edit({
      connectors: ['Block', 'hubspot'],
      actions: ['Allow only', 'slack.post_message, list_connectors_inlay, get_connector_resources_inlay'],
    });
    await expect
      .poll(async () => (await row()).slice(1, 3))
      .toEqual([
        'all but hubspot',
        'only slack.post_message, list_connectors_inlay, get_connector_resources_inlay',
      ]);
    expect(await dialog.isVisible()).toBe(false);
    expect(await tools()).toEqual(['get_connector_resources_inlay', 'list_connectors_inlay']);
    const visible = await connectors();
    expect(visible).toContain('slack');
    expect(visible).not.toContain('hubspot');
    expect(await actionsOf('slack')).toEqual(['post_message']);
    expect(await actionsOf('hubspot')).toBe('refused');

    // A misspelt entry: refused in the dialog, which stays open; nothing changes for the agent.
    const refused = await edit({
      connectors: ['Block', 'hubspto'],
      actions: ['Allow only', 'slack.post_message'],
    });
    await refused.getByRole('alert').waitFor();
    expect(await refused.getByRole('alert').textContent()).toContain(
      'restrictions.connectors.block.0: no connector "hubspto"',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => refused.isVisible()).toBe(false);
    expect(await tools()).toEqual(['get_connector_resources_inlay', 'list_connectors_inlay']);

    // 3. Both lists emptied: no restrictions, every tool again.
    await edit({ connectors: ['Allow only', ''], actions: ['Allow only', ''] });
    await expect.poll(async () => (await row()).slice(1, 3)).toEqual(['all', 'all']);
    expect(
      (await api<{ data: { restrictions: unknown }[] }>('GET', '/mcp-servers')).data[0]!.restrictions,
    ).toEqual({});
    expect(await tools()).toEqual(everyTool);
    expect(await actionsOf('hubspot')).not.toBe('refused');

    // Deleted: the agent's next request is refused.
    await press(page, page.getByRole('button', { name: 'Delete Assistant' }));
    await press(page, page.getByRole('button', { name: 'Delete server' }));
    await page.getByText('No MCP servers yet.').waitFor();
    await expect(client.listTools()).rejects.toThrow();
    await client.close();
    expect(errors, failed.join('; ')).toEqual([
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
    await context.close();
  });
});

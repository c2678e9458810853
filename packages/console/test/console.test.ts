import { randomUUID } from 'node:crypto';
import { createAccount, type InlayApp } from '@inlay/service';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, hasChromium, seriousViolations, startConsole, watch } from './harness.ts';

let h: ConsoleHarness;
let app: InlayApp;
let origin: string;
let apiKey: string;
let browser: Browser;

const api = <T = any>(method: string, path: string, body?: unknown) => h.api<T>(apiKey, method, path, body);

beforeAll(async () => {
  if (!hasChromium) return;
  h = await startConsole();
  ({ app, origin, browser } = h);
});

afterAll(() => h?.close());

/** A fresh account for each run of the pages: two users, 3 good runs and 1 failed run each. */
async function seed() {
  ({ apiKey } = await createAccount(app.context.db, 'Acme CRM'));
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
  // A connection to repair: bob's partner API key, as the health check marks one the provider refused.
  const { data: cred } = await api('POST', '/credentials', {
    userId: 'bob',
    connector: 'http',
    name: 'Partner API',
    data: {
      headerName: 'Authorization',
      headerValue: 'Bearer pk_test',
      origins: 'https://api.partner.example',
    },
  });
  await (app.context.db as unknown as { execute(q: string): Promise<unknown> }).execute(
    `update credentials set status = 'needs_reconnect', status_reason = 'The key was revoked' where id = '${cred.credentialId}'`,
  );
  // Every run finished before the pages are checked.
  for (let i = 0; i < 300; i++) {
    const page = await api<{ data: { status: string }[] }>('GET', '/executions?limit=100');
    if (page.data.length === 8 && page.data.every((e) => e.status === 'succeeded' || e.status === 'failed'))
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasChromium).each(['light', 'dark'] as const)('the console in Chromium, %s', (scheme) => {
  it('signs in with an API key, and every page is accessible, keyboard usable and readable at 1280 and 768 px', async () => {
    await seed();
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { errors, checkPage } = watch(page, scheme);

    // Sign-in: the form field is labelled "API key"; the key leaves no trace in the browser.
    await page.goto(`${origin}/console`);
    await page.getByLabel('API key').waitFor();
    await checkPage('sign-in');
    await page.getByLabel('API key').fill(apiKey);
    await page.keyboard.press('Enter');
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
    await expect.poll(() => page.getByText('None: every delivery went through.').count()).toBe(1);
    // A connection to repair (bob's, revoked at the provider): listed with its reason, linked to bob's page.
    const reconnect = page.getByRole('table', { name: 'Connections that need a reconnect' });
    await reconnect.waitFor();
    expect(await reconnect.textContent()).toContain('The key was revoked');
    expect(await reconnect.textContent()).toContain('bob');
    // `CONSOLE_SCREENSHOT=path` keeps a picture of the Overview (docs/console-overview.png is one).
    if (process.env.CONSOLE_SCREENSHOT && scheme === 'light')
      await page.screenshot({ path: process.env.CONSOLE_SCREENSHOT, fullPage: true });
    await page.getByLabel('Last 30 days, per day').check();
    await page.locator('.chart canvas').waitFor();
    await checkPage('overview');

    // Keyboard only: Tab from the top of the page to the navigation's Executions link, Enter follows it.
    await page.keyboard.press('Tab'); // skip link
    let found = false;
    for (let i = 0; i < 10 && !found; i++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => document.activeElement?.textContent === 'Executions');
    }
    expect(found).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(8);
    await checkPage('executions');

    // Filters: failed runs of bob.
    await page.getByLabel('Status').selectOption('failed');
    await page.getByLabel('User (id or username)').fill('bob');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(page.url()).toContain('status=failed');
    const row = await page.locator('tbody tr').textContent();
    expect(row).toContain('Notify CRM');
    expect(row).toContain('bob');

    // Detail: trigger, the step's input and its error; rerun opens the new run.
    await page.locator('tbody tr a').first().click();
    await page.getByRole('heading', { name: /Run of Notify CRM/ }).waitFor();
    expect(await page.getByLabel('Step 1 input').textContent()).toContain('http://127.0.0.1:9/hook');
    expect(await page.locator('.steps .error').textContent()).toContain('egress_denied');
    await checkPage('execution detail');
    const before = page.url();
    await page.getByRole('button', { name: 'Rerun' }).click();
    await expect.poll(() => page.url()).not.toBe(before);
    await page.getByText('Re-ran').waitFor();

    // API keys: create (shown once), revoke through the confirmation dialog with the keyboard.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Name').fill(`CI ${scheme}`);
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^inlay_live_/);
    expect((await fetch(`${origin}/users`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );
    await checkPage('api keys');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('New API key').count()).toBe(0);
    await page.getByRole('button', { name: `Revoke CI ${scheme}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Revoke key' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(
        async () => (await fetch(`${origin}/users`, { headers: { authorization: `Bearer ${key}` } })).status,
      )
      .toBe(401);

    // Workflows: the list, the editor linting against the contract's JSON Schema, publish, diff, test run.
    await page.getByRole('link', { name: 'Workflows' }).click();
    await page.getByRole('heading', { name: 'Workflows' }).waitFor();
    const workflowRows = page.getByRole('table', { name: "The account's workflows" }).locator('tbody tr');
    await expect.poll(() => workflowRows.count()).toBe(2);
    await checkPage('workflows');
    await page.getByRole('link', { name: 'Summarise deal' }).click();
    await page.getByRole('heading', { name: 'Summarise deal' }).waitFor({ timeout: 8000 });
    const editor = page.getByRole('textbox', { name: 'Definition of Summarise deal' });
    await editor.waitFor();
    expect(await editor.textContent()).toContain('trigger.name');
    await checkPage('workflow');
    // No steps breaks the schema's minItems: the problem is listed and publishing is off.
    await editor.focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText('{"trigger": {"type": "manual"}, "steps": []}');
    await expect.poll(() => page.locator('.lint').textContent()).toContain('/steps');
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
    await publishButton.click();
    await page.getByText('Published version 2.').waitFor();
    await page.getByRole('heading', { name: 'Definition (version 2)' }).waitFor();
    // The diff from version 1 to 2 marks the changed expression.
    const diff = page.getByRole('textbox', { name: 'Changes from version 1 to version 2' });
    await diff.waitFor();
    await expect.poll(() => page.locator('.cm-changedLine, .cm-insertedLine').count()).toBeGreaterThan(0);
    await checkPage('workflow versions');
    await page.getByLabel('User (id or username)').fill('bob');
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('link', { name: 'open the run' }).click();
    await page.getByRole('heading', { name: /Run of Summarise deal/ }).waitFor();
    await expect.poll(async () => (await page.locator('.facts').textContent()) ?? '').toContain('bob');

    // Users: search by name, a user's installations, credentials and runs (the widget's run log), delete.
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await checkPage('users');
    await page.getByLabel('Id, username or name').fill('ALI');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(page.url()).toContain('search=ALI');
    await page.getByRole('link', { name: 'alice' }).click();
    await page.getByRole('heading', { name: 'alice' }).waitFor();
    expect(await page.getByRole('table', { name: 'Installations of alice' }).textContent()).toContain(
      'Summarise deal',
    );
    await page.getByText('No connected accounts.').waitFor();
    // `<ExecutionLogs>` under a token the console minted for alice: her 3 runs of the first workflow.
    await expect.poll(() => page.locator('.inlay-logs tbody tr[id]').count()).toBe(3);
    await checkPage('user');
    await page.getByRole('button', { name: 'Delete user…' }).click();
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const confirm = page.getByRole('button', { name: 'Delete permanently' });
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel('Type the username to confirm').fill('alice');
    await confirm.click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    expect(
      (await fetch(`${origin}/users/alice`, { headers: { authorization: `Bearer ${apiKey}` } })).status,
    ).toBe(404);

    // Connectors: the catalog, and Slack's OAuth app set up (the secret never comes back).
    await page.getByRole('link', { name: 'Connectors' }).click();
    await page.getByRole('heading', { name: 'Connectors' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(5);
    await checkPage('connectors');
    await page.getByRole('link', { name: 'Slack', exact: true }).click();
    await page.getByRole('heading', { name: 'Slack', level: 1 }).waitFor();
    await page.getByText(/^Not set up/).waitFor();
    await page.getByLabel('Client ID').fill('client-abc');
    await page.getByLabel('Client secret').fill('shh-secret');
    await page.getByRole('button', { name: 'Save OAuth app' }).click();
    await page.getByText(/^Set up: client/).waitFor();
    await page.getByText(/oauth\/callback/).waitFor();
    const oauthApp = await api('GET', '/connectors/slack/oauth-app');
    expect(oauthApp.data.clientId).toBe('client-abc');
    expect(JSON.stringify(oauthApp)).not.toContain('shh-secret');
    await checkPage('connector');

    // MCP servers: create with a restriction (URL and token shown once), list, delete after a confirmation.
    await page.getByRole('link', { name: 'MCP servers' }).click();
    await page.getByRole('heading', { name: 'MCP servers' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Support agent');
    // A misspelt name is refused with the entry named, and what was typed stays to be corrected.
    const connectorNames = page.getByLabel('Connector names (comma separated; empty: all)');
    await connectorNames.fill('slakc');
    await page.getByRole('button', { name: 'Create server' }).click();
    await page.getByText(/restrictions\.connectors\.allow\.0: no connector "slakc"/).waitFor();
    expect(await connectorNames.inputValue()).toBe('slakc');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Support agent');
    await connectorNames.fill('slack');
    await page.getByRole('button', { name: 'Create server' }).click();
    expect(await page.getByLabel('Access token').inputValue()).not.toBe('');
    expect(await page.getByLabel('Server URL').inputValue()).toMatch(/^http:\/\/127\.0\.0\.1/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').textContent()).toContain('only slack');
    const servers = await api<{ data: { restrictions: unknown }[] }>('GET', '/mcp-servers');
    expect(servers.data[0]!.restrictions).toEqual({ connectors: { allow: ['slack'] } });
    await checkPage('mcp servers');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Delete Support agent' }).click();
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Delete server' }).click();
    await page.getByText('No MCP servers yet.').waitFor();
    expect((await api<{ data: unknown[] }>('GET', '/mcp-servers')).data).toEqual([]);

    // Settings: allowed origins saved, retention shown, a webhook endpoint added (secret once) and deleted.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText('Runs and their logs are kept 30 days, then deleted.').waitFor();
    await page.getByLabel('One origin a line (https://app.example.com)').fill('https://App.example.com/');
    await page.getByRole('button', { name: 'Save origins' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await api('GET', '/settings')).data.allowedOrigins).toEqual(['https://app.example.com']);
    await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/inlay');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Show deliveries of https://hooks.example.com/inlay' }).click();
    await page.getByText('No deliveries yet.').waitFor();
    await checkPage('settings');
    await page.getByRole('button', { name: 'Delete https://hooks.example.com/inlay' }).click();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No webhook endpoints.').waitFor();

    // Sign out: the session is gone from the server, not just the page.
    const cookie = `inlay_console=${(await context.cookies())[0]!.value}`;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect((await fetch(`${origin}/executions`, { headers: { cookie } })).status).toBe(401);

    // The misspelt MCP restriction's 422 is the only error the browser logged.
    expect(errors).toEqual([
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
    const { errors, checkPage } = watch(page, scheme);
    await page.goto(`${origin}/console/workflows`);
    await page.getByLabel('API key').fill(apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    const table = page.getByRole('table', { name: "The account's integrations" });
    const row = (name: string) => table.locator('tbody tr', { hasText: name });
    await expect.poll(() => row('Deals').locator('td').nth(2).textContent()).toBe('1');
    await checkPage('workflows with integrations');

    // Create with the keyboard: type the name, Enter submits.
    const create = page.getByRole('form', { name: 'Create an integration' });
    await create.getByLabel('Name').fill('Support');
    await create.getByLabel('Name').press('Enter');
    await expect.poll(() => row('Support').count()).toBe(1);
    expect(await row('Support').locator('td').nth(2).textContent()).toBe('0');
    const support = (await integrations()).find((i) => i.name === 'Support')!;
    expect(support).toMatchObject({ description: null });

    // Edit in a dialog, opened and saved with the keyboard.
    await page.getByRole('button', { name: 'Edit Support' }).focus();
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: 'Edit Support' });
    await edit.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await edit.getByLabel('Name').fill('Helpdesk');
    await edit.getByLabel('Description').fill('Tickets to the team');
    await edit.getByLabel('Description').press('Enter');
    await expect.poll(() => row('Helpdesk').count()).toBe(1);
    expect(await row('Helpdesk').textContent()).toContain('Tickets to the team');
    expect((await integrations()).find((i) => i.integrationId === support.integrationId)).toMatchObject({
      name: 'Helpdesk',
      description: 'Tickets to the team',
    });

    // Deleting an integration with a workflow: the service's refusal is shown in the dialog, nothing goes.
    await page.getByRole('button', { name: 'Delete Deals' }).click();
    const confirmDeals = page.getByRole('dialog', { name: 'Delete Deals?' });
    await confirmDeals.waitFor();
    await confirmDeals.getByRole('button', { name: 'Delete integration' }).click();
    await confirmDeals.getByRole('alert').waitFor();
    expect(await confirmDeals.getByRole('alert').textContent()).toBe(
      'The integration has 1 workflow: it can be deleted once it has none',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => confirmDeals.isVisible()).toBe(false);
    expect((await integrations()).map((i) => i.name)).toContain('Deals');

    // New workflow: the integration chosen, the definition linted as typed, the service's 422 shown.
    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByRole('heading', { name: 'New workflow' }).waitFor();
    const editor = page.getByRole('textbox', { name: 'Definition of the new workflow' });
    await editor.waitFor();
    expect(await editor.textContent()).toContain('transform');
    await checkPage('new workflow');
    await page.getByLabel('Integration').selectOption({ label: 'Helpdesk' });
    await page.getByLabel('Name', { exact: true }).fill('Triage ticket');
    const createButton = page.getByRole('button', { name: 'Create workflow' });
    await editor.focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText('{"trigger": {"type": "manual"}, "steps": []}');
    await expect.poll(() => page.locator('.lint').textContent()).toContain('/steps');
    expect(await createButton.isDisabled()).toBe(true);
    const step = { id: randomUUID(), connector: 'nope', action: 'map', input: {} };
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(JSON.stringify({ trigger: { type: 'manual' }, steps: [step] }));
    await expect.poll(() => createButton.isDisabled()).toBe(false);
    await createButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('nope');
    await checkPage('new workflow refused');
    expect((await api<{ data: unknown[] }>('GET', '/account/workflows')).data).toHaveLength(1);
    await editor.focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(
      JSON.stringify({ trigger: { type: 'manual' }, steps: [{ ...step, connector: 'transform' }] }),
    );
    await expect.poll(() => page.locator('.lint').count()).toBe(0);
    await createButton.click();
    await page.getByRole('heading', { name: 'Triage ticket', level: 1 }).waitFor();
    const created = (
      await api<{ data: { name: string; integrationId: string; version: number }[] }>(
        'GET',
        '/account/workflows',
      )
    ).data.find((w) => w.name === 'Triage ticket');
    expect(created).toMatchObject({ integrationId: support.integrationId, version: 1 });

    // Back on the list: Helpdesk counts its workflow; an empty integration is deleted after confirming.
    await page.getByRole('link', { name: '← All workflows' }).click();
    await expect.poll(() => row('Helpdesk').locator('td').nth(2).textContent()).toBe('1');
    await create.getByLabel('Name').fill('Scratch');
    await create.getByRole('button', { name: 'Create integration' }).click();
    await expect.poll(() => row('Scratch').count()).toBe(1);
    await page.getByRole('button', { name: 'Delete Scratch' }).focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('dialog', { name: 'Delete Scratch?' })
      .getByRole('button', { name: 'Delete integration' })
      .click();
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
    await page.getByRole('link', { name: 'Summarise deal' }).click();
    await page.getByRole('heading', { name: 'Summarise deal', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete workflow' }).click();
    const confirmSummarise = page.getByRole('dialog', { name: 'Delete Summarise deal?' });
    await confirmSummarise.waitFor();
    await confirmSummarise.getByRole('button', { name: 'Delete workflow' }).click();
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
    await page.getByRole('link', { name: '← All workflows' }).click();
    await page.getByRole('link', { name: 'Triage ticket' }).click();
    await page.getByRole('heading', { name: 'Triage ticket', level: 1 }).waitFor();
    await checkPage('workflow with delete');
    await page.getByRole('button', { name: 'Delete workflow' }).focus();
    await page.keyboard.press('Enter');
    const confirmTriage = page.getByRole('dialog', { name: 'Delete Triage ticket?' });
    await confirmTriage.waitFor();
    await confirmTriage.getByRole('button', { name: 'Delete workflow' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/workflows');
    await expect.poll(() => row('Helpdesk').locator('td').nth(2).textContent()).toBe('0');
    await expect.poll(() => page.getByRole('link', { name: 'Triage ticket' }).count()).toBe(0);
    expect(
      (await api<{ data: { name: string }[] }>('GET', '/account/workflows')).data.map((w) => w.name),
    ).toEqual(['Summarise deal']);
    await checkPage('workflows after a workflow delete');

    // The refused deletes (409) and the refused create (422) are the only errors the browser logged.
    expect(errors).toEqual([
      expect.stringMatching(/status of 409/),
      expect.stringMatching(/status of 422/),
      expect.stringMatching(/status of 409/),
    ]);
    await context.close();
  });
});

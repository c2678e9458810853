import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from '../server/demo.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM)
  console.warn(`apps/demo e2e: SKIPPED, no Chromium at ${CHROMIUM} (set CHROMIUM_PATH or install chromium)`);

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = join(ROOT, 'test-artifacts', 'e2e');
const SLACK_WORKFLOW = 'Post new deals to Slack';

describe.skipIf(!HAS_CHROMIUM)('Acme CRM in a real browser', () => {
  let demo: Demo;
  let dataDir: string;
  let browser: Browser;
  let alice: BrowserContext;
  let page: Page;
  let shot = 0;
  let slackWorkflowId: string;

  const screenshot = async (p: Page, name: string) => {
    shot += 1;
    await p.screenshot({ path: join(SHOTS, `${String(shot).padStart(2, '0')}-${name}.png`), fullPage: true });
  };

  async function login(p: Page, username: string) {
    await p.goto(demo.url);
    await p.getByLabel('Username').fill(username);
    await p.getByLabel('Password').fill('demo');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => p.getByTestId('who').textContent()).toMatch(/\w/);
  }

  async function nav(p: Page, name: string) {
    await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
    await p.getByRole('heading', { level: 1, name }).waitFor();
  }

  async function createDeal(p: Page, name: string, company: string) {
    await nav(p, 'Deals');
    const form = p.getByRole('form', { name: 'New deal' });
    await form.getByLabel('Deal name').fill(name);
    await form.getByLabel('Company').fill(company);
    await form.getByLabel('Amount (USD)').fill('25000');
    await form.getByLabel('Contact name').fill('Hank Scorpio');
    await form.getByLabel('Contact email').fill(`hank+${Date.now()}@globex.test`);
    await form.getByRole('button', { name: 'Create deal' }).click();
    await p.getByRole('cell', { name, exact: true }).waitFor();
    return (await p.getByTestId('last-runs').textContent()) ?? '';
  }

  /** The Slack workflow's run history section on the Run history page. */
  const runsOf = (p: Page) => p.getByRole('region', { name: new RegExp(SLACK_WORKFLOW) });

  beforeAll(async () => {
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'acme-crm-e2e-'));
    demo = await startDemo({
      dataDir,
      port: 0,
      servicePort: 0,
      sandboxPort: 0,
      env: {
        DATABASE_URL: process.env.DATABASE_URL,
        // The shared test database's signing keys are sealed with the test suite's master key.
        INLAY_MASTER_KEY: process.env.DATABASE_URL ? Buffer.alloc(32, 7).toString('base64') : undefined,
        LOG_LEVEL: 'error',
      },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    alice = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await alice.newPage();
    const wf = (await demo.client.workflows.list({ userId: 'alice' })).find((w) => w.name === SLACK_WORKFLOW);
    slackWorkflowId = wf!.workflowId;
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('1. alice logs in', async () => {
    await login(page, 'alice');
    expect(await page.getByTestId('who').textContent()).toBe('Alice Martin');
    // The sandbox is marked as the demo's stand-in on every page.
    await expect.poll(() => page.getByRole('note').first().textContent()).toMatch(/stand-ins/);
    await screenshot(page, 'logged-in');
  });

  it('2. installs "Post new deals to Slack": OAuth popup, consent, channel from dynamic options', async () => {
    await nav(page, 'Settings → Integrations');
    await page.getByRole('button', { name: `Install: ${SLACK_WORKFLOW}` }).click();
    const dialog = page.getByRole('dialog', { name: `Install ${SLACK_WORKFLOW}` });
    await dialog.getByRole('button', { name: 'Connect with Slack' }).waitFor();
    await screenshot(page, 'install-connect');

    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      dialog.getByRole('button', { name: 'Connect with Slack' }).click(),
    ]);
    await popup.getByRole('button', { name: 'Allow' }).waitFor();
    expect(await popup.textContent('body')).toContain('SANDBOX');
    await screenshot(popup, 'oauth-consent');
    // Listen before clicking: the callback page may post its result and close at once.
    const closed = popup.waitForEvent('close', { timeout: 20_000 });
    await popup.getByRole('button', { name: 'Allow' }).click();
    await closed.catch(async (err) => {
      if (popup.isClosed()) return;
      // Say what the callback page showed instead of closing.
      throw new Error(`the OAuth popup stayed open on ${popup.url()}: ${await popup.textContent('body')}`, {
        cause: err,
      });
    });

    // Connected: the new account is listed and chosen, on to the channel.
    await dialog.getByRole('radio', { checked: true }).waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    const channel = dialog.getByLabel('Channel');
    await channel.locator('option', { hasText: '#sales' }).waitFor({ state: 'attached' });
    expect(await channel.locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['#sales', '#deal-desk', '#general']),
    );
    await channel.selectOption({ label: '#sales' });
    await screenshot(page, 'install-configure');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('#sales').or(dialog.getByText('C0SALES01')).first().waitFor();
    await screenshot(page, 'install-review');
    await dialog.getByRole('button', { name: 'Install' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('switch', { name: `Enable: ${SLACK_WORKFLOW}` }).waitFor();
    await screenshot(page, 'installed');

    const installs = await demo.client.installations.list({ userId: 'alice' });
    expect(installs).toHaveLength(1);
    expect(installs[0]!.workflowIds).toEqual([slackWorkflowId]);
    expect(Object.keys(installs[0]!.credentialIds)).toEqual(['slack']);
  });

  it('2b. a page on another origin cannot make alice run a workflow through @inlay/express', async () => {
    // The attacker's pages: one on another port of the same host (same-site, so alice's cookie goes along),
    // one on another host name (cross-site). Each tries a form post (which the demo's global form parser
    // would turn into an object) and a fetch without the x-inlay-client header.
    const target = `${demo.url}/api/inlay/run/event`;
    const evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Win a prize</title>
        <form method="post" action="${target}">
          <input name="event" value="deal.created"><input name="data[name]" value="CSRF deal">
          <input name="data[company]" value="Evil"><button>Claim</button>
        </form>`);
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    const port = (evil.address() as AddressInfo).port;
    const attacker = await alice.newPage();
    try {
      for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
        await attacker.goto(origin);
        await Promise.all([
          attacker.waitForURL(target),
          attacker.getByRole('button', { name: 'Claim' }).click(),
        ]);
        const answer = JSON.parse((await attacker.textContent('body')) ?? '{}');
        expect(answer).toMatchObject({ status: 403, code: 'forbidden' });
        expect(answer.errors[0]).toMatchObject({ field: 'header.origin', rule: 'allowed_origin' });
        await attacker.goto(origin);
        const sent = await attacker.evaluate(async (url) => {
          const body = JSON.stringify({
            event: 'deal.created',
            data: { name: 'CSRF deal', company: 'Evil' },
          });
          // A no-cors "simple" request goes out with the cookie, its answer unreadable; with a JSON type the
          // preflight is refused. Neither may run anything.
          const simple = await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', body });
          const json = await fetch(url, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/json' },
            body,
          }).then(
            (r) => `answered ${r.status}`,
            (e: Error) => `failed: ${e.name}`,
          );
          return { simple: simple.type, json };
        }, target);
        expect(sent).toEqual({ simple: 'opaque', json: 'failed: TypeError' });
      }
    } finally {
      await attacker.close();
      await new Promise<void>((r) => evil.close(() => r()));
    }
    // Nothing ran: no execution in Inlay, no message in the sandbox Slack. The widget still works (step 3 on).
    expect(await demo.client.workflows.logs(slackWorkflowId, { userId: 'alice' })).toEqual([]);
    expect(demo.sandbox.slack.messages).toEqual([]);
  });

  it('3-4. a new deal runs the workflow: Run history shows the Slack step, the sandbox Slack the message', async () => {
    const summary = await createDeal(page, 'Globex renewal', 'Globex');
    expect(summary).toContain('deal.created: 1 workflow run started');
    await screenshot(page, 'deal-created');

    await nav(page, 'Run history');
    const section = runsOf(page);
    // The run is asynchronous: refresh until it has finished.
    await expect
      .poll(
        async () => {
          await section.getByRole('button', { name: 'Refresh' }).click();
          return section.locator('.inlay-status-succeeded, .inlay-status-failed').count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    expect(await section.getByText('Succeeded').count()).toBeGreaterThan(0);
    await section
      .getByRole('button', { name: /^Details/ })
      .first()
      .click();
    const details = section.locator('.inlay-details');
    await details.waitFor();
    // Open the step's input and result, level by level (the JSON viewer renders lazily). Toggles inside the
    // collapsed "Show raw" disclosures are hidden and stay closed.
    for (let i = 0; i < 10; i++) {
      const closed = details.locator('button.inlay-json-toggle[aria-expanded="false"]:visible');
      if ((await closed.count()) === 0) break;
      await closed.first().click();
    }
    const text = (await details.textContent()) ?? '';
    expect(text).toContain('C0SALES01');
    expect(text).toContain('New deal: Globex renewal with Globex (25000 USD)');
    await screenshot(page, 'run-history');

    expect(demo.sandbox.slack.messages).toEqual([
      expect.objectContaining({
        channel: 'C0SALES01',
        text: 'New deal: Globex renewal with Globex (25000 USD)',
      }),
    ]);
    const sandbox = await alice.newPage();
    await sandbox.goto(demo.sandboxUrl);
    expect(await sandbox.locator('#slack').textContent()).toContain(
      'New deal: Globex renewal with Globex (25000 USD)',
    );
    await screenshot(sandbox, 'sandbox-slack');
    await sandbox.close();
  });

  it('5. with the workflow disabled, a new deal starts no run', async () => {
    await nav(page, 'Settings → Integrations');
    const toggle = page.getByRole('switch', { name: `Enable: ${SLACK_WORKFLOW}` });
    // A controlled switch: it flips once the service has answered, so click and wait rather than uncheck().
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await expect
      .poll(async () => (await demo.client.workflows.get(slackWorkflowId, { userId: 'alice' })).active)
      .toBe(false);
    await screenshot(page, 'disabled');

    const summary = await createDeal(page, 'Initech expansion', 'Initech');
    expect(summary).toContain('deal.created: 0 workflow runs started');
    const logs = await demo.client.workflows.logs(slackWorkflowId, { userId: 'alice' });
    expect(logs).toHaveLength(1);
    expect(demo.sandbox.slack.messages).toHaveLength(1);
    await nav(page, 'Run history');
    await runsOf(page)
      .getByRole('button', { name: /^Details/ })
      .first()
      .waitFor();
    expect(
      await runsOf(page)
        .getByRole('button', { name: /^Details/ })
        .count(),
    ).toBe(1);
    await screenshot(page, 'no-new-run');
  });

  it("6. bob sees none of alice's runs", async () => {
    const bobContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const bob = await bobContext.newPage();
    try {
      await login(bob, 'bob');
      await nav(bob, 'Run history');
      await bob.getByText('No installed workflows yet').waitFor();
      // Even naming alice explicitly through the proxy answers bob's own (empty) history.
      const res = await bob.evaluate(async (id) => {
        const r = await fetch(`/api/inlay/workflows/${id}/logs?userId=alice`);
        return { status: r.status, body: await r.json() };
      }, slackWorkflowId);
      expect(res).toEqual({ status: 200, body: { data: [] } });
      await screenshot(bob, 'bob-run-history');
    } finally {
      await bobContext.close();
    }
  });

  it('7. alice deletes her run history: empty, and still empty after a reload', async () => {
    await nav(page, 'Privacy');
    await page.getByRole('button', { name: 'Delete my run history' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByText('Your run history was deleted.').waitFor();
    await screenshot(page, 'history-deleted');

    await nav(page, 'Run history');
    await runsOf(page).getByText('No runs yet.').waitFor();
    await page.reload();
    await runsOf(page).getByText('No runs yet.').waitFor();
    expect(await demo.client.workflows.logs(slackWorkflowId, { userId: 'alice' })).toEqual([]);
    await screenshot(page, 'history-empty-after-reload');
  });

  it('8. the theme and locale switches reach the widget', async () => {
    await nav(page, 'Settings → Integrations');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await page.getByLabel('Language').selectOption('de');
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.getByRole('button', { name: 'Installieren: Sync new contacts to HubSpot' }).waitFor();
    expect(await page.locator('.inlay[data-scheme="dark"]').count()).toBeGreaterThan(0);
    await screenshot(page, 'dark-german');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await page.getByLabel('Language').selectOption('en');
    await page.getByRole('button', { name: 'Install: Sync new contacts to HubSpot' }).waitFor();
  });

  /** The Slack workflow's card on Settings → Integrations. */
  const cardOf = (p: Page) =>
    p.locator('[data-workflow]', { has: p.getByRole('heading', { name: SLACK_WORKFLOW }) });
  let slackCredentialId: string;

  /** Waits for alice's latest run of the Slack workflow to finish, and returns it. */
  async function latestRun(after: number) {
    let run: Awaited<ReturnType<typeof demo.client.workflows.logs>>[number] | undefined;
    await expect
      .poll(
        async () => {
          const logs = await demo.client.workflows.logs(slackWorkflowId, { userId: 'alice' });
          // `finished` says whether every step ran; a run is over once it has stopped.
          run = logs.length > after && logs[0]!.stoppedAt ? logs[0] : undefined;
          return run?.status;
        },
        { timeout: 30_000, interval: 300 },
      )
      .toMatch(/succeeded|failed/);
    return run!;
  }

  it('9. alice revokes the Slack token in the sandbox: the next run fails, the card says Reconnect, Acme CRM is told', async () => {
    await nav(page, 'Settings → Integrations');
    const toggle = page.getByRole('switch', { name: `Enable: ${SLACK_WORKFLOW}` });
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    slackCredentialId = (await demo.client.installations.list({ userId: 'alice' }))[0]!.credentialIds.slack!;

    // In the sandbox Slack: "remove Acme CRM" — its access token and the refresh token of that consent die.
    const sandbox = await alice.newPage();
    await sandbox.goto(demo.sandboxUrl);
    const revoke = sandbox.getByRole('button', { name: /^Revoke this token: Slack/ });
    expect(await revoke.count()).toBe(1);
    await screenshot(sandbox, 'sandbox-revoke');
    await Promise.all([sandbox.waitForURL(`${demo.sandboxUrl}/`), revoke.click()]);
    expect(await revoke.count()).toBe(0);
    await sandbox.close();

    const before = (await demo.client.workflows.logs(slackWorkflowId, { userId: 'alice' })).length;
    expect(await createDeal(page, 'Umbrella audit', 'Umbrella')).toContain(
      'deal.created: 1 workflow run started',
    );
    const failed = await latestRun(before);
    // Slack said invalid_auth, the refresh was refused (invalid_grant): the run stops with a stable code.
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'credential_needs_reconnect' } });
    expect(demo.sandbox.slack.messages.map((m) => m.text)).not.toContain(
      'New deal: Umbrella audit with Umbrella (25000 USD)',
    );
    expect(await demo.client.credentials.get(slackCredentialId, { userId: 'alice' })).toMatchObject({
      status: 'needs_reconnect',
    });

    // The card shows it, with a Reconnect action.
    await nav(page, 'Settings → Integrations');
    const card = cardOf(page);
    await card.getByRole('button', { name: 'Reconnect Slack' }).waitFor({ timeout: 15_000 });
    // In words, not the provider's code: the refused grant's own text sits in the collapsed details.
    expect(await card.getByRole('status').first().textContent()).toContain(
      'The Slack account of this workflow stopped working, so it cannot run. Reconnect Slack to continue.',
    );
    expect(await card.locator('.inlay-badge').textContent()).toBe('Needs reconnecting');

    // Acme CRM's backend received the signed credential.needs_reconnect (verified with verifyWebhook) and
    // "emailed" alice; the page shows that notice.
    await expect
      .poll(() => demo.webhooks.notices.find((n) => n.type === 'credential.needs_reconnect'), {
        timeout: 30_000,
      })
      .toMatchObject({
        username: 'alice',
        data: { credentialId: slackCredentialId, connector: 'slack', status: 'needs_reconnect' },
      });
    // ...and, for the installation that uses it, installation.needs_credential with code needs_reconnect.
    await expect
      .poll(() => demo.webhooks.notices.find((n) => n.type === 'installation.needs_credential'), {
        timeout: 30_000,
      })
      .toMatchObject({
        username: 'alice',
        data: { code: 'needs_reconnect', credentialId: slackCredentialId },
      });
    await page.getByTestId('host-notice').first().waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('host-notice').first().textContent()).toContain('Reconnect it in Settings');
    // The receiver really checks the signature: the same body with a forged one is refused.
    const forged = await fetch(`${demo.url}/webhooks/inlay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
      },
      body: JSON.stringify({
        type: 'credential.needs_reconnect',
        timestamp: new Date().toISOString(),
        data: {},
      }),
    });
    expect(forged.status).toBe(400);
    expect(demo.webhooks.notices.some((n) => n.webhookId === 'msg_forged')).toBe(false);
    await screenshot(page, 'needs-reconnect');
  });

  it('10. Reconnect Slack on the card reconnects in place: same credential, the next run succeeds', async () => {
    const card = cardOf(page);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      card.getByRole('button', { name: 'Reconnect Slack' }).click(),
    ]);
    await popup.getByRole('button', { name: 'Allow' }).waitFor();
    const closed = popup.waitForEvent('close', { timeout: 20_000 });
    await popup.getByRole('button', { name: 'Allow' }).click();
    await closed;
    await expect.poll(() => card.getByRole('button', { name: 'Reconnect Slack' }).count()).toBe(0);
    await screenshot(page, 'reconnected');

    // In place: still one Slack account, the same id, connected; the installation still uses it.
    const creds = await demo.client.credentials.list({ userId: 'alice', connector: 'slack' });
    expect(creds.map((c) => [c.credentialId, c.status])).toEqual([[slackCredentialId, 'connected']]);
    expect((await demo.client.installations.list({ userId: 'alice' }))[0]!.credentialIds).toEqual({
      slack: slackCredentialId,
    });

    const before = (await demo.client.workflows.logs(slackWorkflowId, { userId: 'alice' })).length;
    await createDeal(page, 'Stark upgrade', 'Stark');
    expect(await latestRun(before)).toMatchObject({ status: 'succeeded', error: null });
    expect(demo.sandbox.slack.messages.at(-1)).toMatchObject({
      channel: 'C0SALES01',
      text: 'New deal: Stark upgrade with Stark (25000 USD)',
    });
    await expect
      .poll(() => demo.webhooks.notices.find((n) => n.type === 'credential.connected'), { timeout: 30_000 })
      .toMatchObject({ username: 'alice', data: { credentialId: slackCredentialId } });
  });

  it('11. a contact added in the sandbox HubSpot starts the polling workflow on its next poll', async () => {
    const name = 'Open a follow-up deal for new HubSpot contacts';
    await nav(page, 'Settings → Integrations');
    await page.getByRole('button', { name: `Install: ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Install ${name}` });
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      dialog.getByRole('button', { name: 'Connect with HubSpot' }).click(),
    ]);
    const closed = popup.waitForEvent('close', { timeout: 20_000 });
    await popup.getByRole('button', { name: 'Allow' }).click();
    await closed;
    await dialog.getByRole('radio', { checked: true }).waitFor();
    // No settings to choose: on to the review, then install.
    const install = dialog.getByRole('button', { name: 'Install', exact: true });
    for (let i = 0; i < 3 && !(await install.isVisible()); i++)
      await dialog.getByRole('button', { name: 'Next' }).click();
    const installedAt = new Date().toISOString();
    await install.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('switch', { name: `Enable: ${name}` }).waitFor();
    await screenshot(page, 'hubspot-poll-installed');

    // The first poll records what exists as the baseline; only a contact added after it is new.
    await expect
      .poll(() => (demo.sandbox.hubspot.polledAt ?? '') > installedAt, { timeout: 30_000, interval: 100 })
      .toBe(true);
    const sandbox = await alice.newPage();
    await sandbox.goto(demo.sandboxUrl);
    const form = sandbox.getByRole('form', { name: 'Add a contact in HubSpot' });
    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('Last name').fill('Hopper');
    await form.getByLabel('Email').fill('grace@navy.test');
    await form.getByLabel('Company').fill('US Navy');
    await Promise.all([
      sandbox.waitForURL(`${demo.sandboxUrl}/#hubspot`),
      form.getByRole('button', { name: 'Add contact' }).click(),
    ]);
    expect(await sandbox.locator('#hubspot').textContent()).toContain('grace@navy.test');

    // Run history shows the run once the next poll (every 5 s in the demo) has found the contact.
    await nav(page, 'Run history');
    const section = page.getByRole('region', { name: new RegExp(name) });
    await expect
      .poll(
        async () => {
          await section.getByRole('button', { name: 'Refresh' }).click();
          return section.locator('.inlay-status-succeeded, .inlay-status-failed').count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    expect(await section.getByText('Succeeded').count()).toBeGreaterThan(0);
    await screenshot(page, 'hubspot-poll-run');
    const wf = (await demo.client.workflows.list({ userId: 'alice' })).find((w) => w.name === name)!;
    const logs = await demo.client.workflows.logs(wf.workflowId, { userId: 'alice' });
    expect(logs.map((l) => [l.status, l.trigger?.type])).toEqual([['succeeded', 'app']]);

    // The run opened the follow-up deal in the sandbox HubSpot.
    expect(demo.sandbox.hubspot.deals.map((d) => (d.properties as { dealname?: string }).dealname)).toContain(
      'Follow up with Grace Hopper (US Navy)',
    );
    // The sandbox page reloads itself every 3 s; a reload of ours could collide with its own ("Not attached to an
    // active page"), so wait for its next one. A read during that navigation fails and is tried again.
    await expect
      .poll(
        () =>
          sandbox
            .locator('#hubspot-deals')
            .textContent()
            .catch(() => ''),
        { timeout: 15_000 },
      )
      .toContain('Follow up with Grace Hopper (US Navy)');
    await screenshot(sandbox, 'sandbox-hubspot-deal');
    await sandbox.close();
  });
  it('12. disconnecting Slack asks first; the card then says Choose a Slack account; choosing one keeps #sales', async () => {
    await nav(page, 'Settings → Integrations');
    await page.getByRole('button', { name: /^Disconnect: Slack/ }).click();
    const confirm = page.getByRole('alertdialog', { name: /^Disconnect Slack/ });
    // The confirmation names the workflow that stops running.
    expect(await confirm.textContent()).toContain(SLACK_WORKFLOW);
    await screenshot(page, 'disconnect-confirm');
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await confirm.waitFor({ state: 'hidden' });

    // The card no longer says Active: it says what it needs, and the API and the host agree.
    const card = cardOf(page);
    await expect
      .poll(() => card.locator('.inlay-badge').textContent(), { timeout: 15_000 })
      .toBe('Choose a Slack account');
    expect(await card.getByRole('status').first().textContent()).toContain(
      'No Slack account is chosen for this workflow, so it cannot run.',
    );
    const wf = (await demo.client.workflows.list({ userId: 'alice' })).find(
      (w) => w.workflowId === slackWorkflowId,
    )!;
    expect(wf.attention).toMatchObject({ code: 'needs_credential', connector: 'slack' });
    const [inst] = await demo.client.installations.list({ userId: 'alice', attention: 'true' });
    expect(inst).toMatchObject({ credentialIds: {}, attention: { code: 'needs_credential' } });
    await expect
      .poll(
        () =>
          demo.webhooks.notices.find(
            (n) => n.type === 'installation.needs_credential' && n.data.code === 'needs_credential',
          ),
        { timeout: 30_000 },
      )
      .toMatchObject({ username: 'alice', data: { code: 'needs_credential', connector: 'slack' } });
    await screenshot(page, 'needs-credential');

    // Choosing an account opens the settings at the accounts step; the saved channel is still chosen after.
    await card.getByRole('button', { name: `Choose a Slack account: ${SLACK_WORKFLOW}` }).click();
    const dialog = page.getByRole('dialog', { name: `Settings of ${SLACK_WORKFLOW}` });
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      dialog.getByRole('button', { name: 'Connect with Slack' }).click(),
    ]);
    const closed = popup.waitForEvent('close', { timeout: 20_000 });
    await popup.getByRole('button', { name: 'Allow' }).click();
    await closed;
    await dialog.getByRole('radio', { checked: true }).waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    const channel = dialog.getByLabel('Channel');
    await channel.locator('option', { hasText: '#sales' }).waitFor({ state: 'attached' });
    expect(await channel.inputValue()).toBe('C0SALES01');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => card.locator('.inlay-badge').textContent(), { timeout: 15_000 }).toBe('Active');
    const after = await demo.client.installations.list({ userId: 'alice' });
    expect(after.find((i) => i.workflowIds.includes(slackWorkflowId))).toMatchObject({ attention: null });
    const before = (await demo.client.workflows.logs(slackWorkflowId, { userId: 'alice' })).length;
    await createDeal(page, 'Wayne merger', 'Wayne');
    expect(await latestRun(before)).toMatchObject({ status: 'succeeded', error: null });
    await screenshot(page, 'account-chosen-again');
  });

  it('13. a denied GitHub consent says so in words and lists no account; allowing then yields exactly one', async () => {
    const name = 'Open a GitHub issue for lost deals';
    await nav(page, 'Settings → Integrations');
    await page.getByRole('button', { name: `Install: ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Install ${name}` });
    const consent = async (decision: 'Allow' | 'Deny') => {
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        dialog.getByRole('button', { name: 'Connect with GitHub' }).click(),
      ]);
      const closed = popup.waitForEvent('close', { timeout: 20_000 });
      await popup.getByRole('button', { name: decision }).click();
      await closed;
    };
    await consent('Deny');
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.locator('p').first().textContent()).toBe(
      'GitHub did not grant access, so nothing was connected. Try again and choose Allow.',
    );
    // The provider's code is in the collapsed details, never in the sentence.
    expect(await alert.locator('details code').textContent()).toContain('access_denied');
    expect(await demo.client.credentials.list({ userId: 'alice', connector: 'github' })).toEqual([]);
    await screenshot(page, 'consent-denied');

    await consent('Allow');
    await dialog.getByRole('radio', { checked: true }).waitFor();
    const github = await demo.client.credentials.list({ userId: 'alice', connector: 'github' });
    expect(github.map((c) => c.status)).toEqual(['connected']);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Connected accounts lists that one GitHub account, and nothing that needs reconnecting.
    expect(await page.getByRole('button', { name: /^Disconnect: GitHub/ }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Reconnect GitHub/ }).count()).toBe(0);
  });
});

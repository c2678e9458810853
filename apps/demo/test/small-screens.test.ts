import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Workflow } from '@inlay/client';
import { eventually } from '@inlay/test-kit/eventually';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from '../server/demo.ts';

// Every page of Acme CRM, with the widget's surfaces open on them (the marketplace with a run history and a
// run's details, the install dialog, the connections, the run history page), in Chromium at 375 and 1280 px,
// light and dark: nothing scrolls sideways and axe-core finds no serious or critical violation.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) console.warn(`apps/demo small screens: SKIPPED, no Chromium at ${CHROMIUM}`);
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SLACK_WORKFLOW = 'Post new deals to Slack';

describe.skipIf(!HAS_CHROMIUM)('Acme CRM at 375 and 1280 px, light and dark', () => {
  let demo: Demo;
  let dataDir: string;
  let browser: Browser;
  let cookie: string;

  async function host(method: string, path: string, body?: unknown) {
    const res = await fetch(`${demo.url}/api${path}`, {
      method,
      headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status).toBeLessThan(300);
    return (await res.json()) as Record<string, any>;
  }

  /** Connects the sandbox's Slack for alice with plain HTTP: Inlay's authorize URL, consent, the callback. */
  async function connectSlack(): Promise<string> {
    const { credentialId, authorizeUrl } = await demo.client.credentials.startOAuth({
      connector: 'slack',
      userId: 'alice',
      popup: false,
      redirectUri: `${demo.url}/settings/integrations`,
    });
    const started = await fetch(authorizeUrl, { redirect: 'manual' });
    const flowCookie = started.headers.getSetCookie()[0]!.split(';')[0]!;
    const providerUrl = started.headers.get('location')!;
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
    await fetch(decided.headers.get('location')!, { redirect: 'manual', headers: { cookie: flowCookie } });
    return credentialId;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'acme-crm-small-'));
    demo = await startDemo({
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
    const login = await fetch(`${demo.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'demo' }),
    });
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    // alice's Slack workflow installed, two deals (one open, with Won and Lost), and a run with a rerun.
    const slack = await connectSlack();
    const workflows: Workflow[] = await demo.client.workflows.list({ userId: 'alice' });
    const w = workflows.find((x) => x.name === SLACK_WORKFLOW)!;
    await demo.client.installations.create({
      userId: 'alice',
      workflowIds: [w.workflowId],
      credentialIds: { slack },
      values: [
        {
          workflowId: w.workflowId,
          blockId: w.config[0]!.stepId,
          fields: [{ name: 'channel', value: 'C0SALES01' }],
        },
      ],
    });
    await host('POST', '/deals', {
      name: 'Initech renewal with a long name',
      company: 'Initech',
      amount: 98000,
    });
    const created = await host('POST', '/deals', { name: 'Globex pilot', company: 'Globex', amount: 25000 });
    const [executionId] = created.runs[0].executionIds as string[];
    await eventually(
      'the run to finish',
      async () => (await demo.client.workflows.logs(w.workflowId, { userId: 'alice' }))[0]?.finished,
      { timeout: 30_000 },
    );
    const rerun = await fetch(
      `${demo.serviceUrl}/workflows/${w.workflowId}/rerun/${executionId}?userId=alice`,
      { method: 'POST', headers: { authorization: `Bearer ${demo.apiKey}` } },
    );
    expect(rerun.status).toBeLessThan(300);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function check(page: Page, what: string) {
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways, `${what} scrolls sideways`).toBeLessThanOrEqual(0);
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const r = await (window as any).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      });
      return r.violations
        .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
        .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations, what).toEqual([]);
  }

  it('the demo account and its key have real names', async () => {
    const session = await fetch(`${demo.serviceUrl}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: demo.apiKey }),
    });
    expect((await session.json()).data.accountName).toBe('Acme CRM');
    const keys = await fetch(`${demo.serviceUrl}/api-keys`, {
      headers: { authorization: `Bearer ${demo.apiKey}` },
    });
    expect((await keys.json()).data.map((k: { name: string | null }) => k.name)).toEqual([
      'INLAY_BOOTSTRAP_API_KEY',
    ]);
  });

  const combos = (['light', 'dark'] as const).flatMap((theme) =>
    ([375, 1280] as const).map((width) => ({ theme, width })),
  );

  it.each(combos)(
    '$theme, $width px: every page and surface fits and passes axe',
    async ({ theme, width }) => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      await context.addCookies([
        { name: cookie.split('=')[0]!, value: cookie.split('=')[1]!, url: demo.url },
      ]);
      await context.addInitScript((t) => localStorage.setItem('acme.theme', t), theme);
      const page = await context.newPage();
      const go = async (path: string, heading: string) => {
        await page.goto(`${demo.url}${path}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      };

      await go('/deals', 'Deals');
      await page.getByRole('button', { name: 'Mark Globex pilot won' }).waitFor();
      await check(page, 'Deals');
      // The Won and Lost buttons are on screen, not past its right edge.
      const box = await page.getByRole('button', { name: 'Mark Globex pilot lost' }).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);

      await go('/settings/integrations', 'Settings → Integrations');
      await page.getByRole('button', { name: `Run history: ${SLACK_WORKFLOW}` }).click();
      await page
        .getByRole('button', { name: /^Details: / })
        .first()
        .click();
      await page.getByText('Trigger data').first().waitFor();
      await check(page, 'the marketplace with a run and its details open');
      // The details panel stays inside the run history's box.
      const logs = await page.locator('.inlay-logs').first().boundingBox();
      const details = await page.locator('.inlay-details').first().boundingBox();
      expect(details!.x + details!.width).toBeLessThanOrEqual(logs!.x + logs!.width + 1);

      await page.getByRole('button', { name: `Configure: ${SLACK_WORKFLOW}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Next' }).waitFor();
      await check(page, 'the install dialog');
      await dialog.getByRole('button', { name: 'Next' }).click();
      await dialog.getByRole('button', { name: 'Save changes' }).waitFor();
      await check(page, 'the install dialog, review step');
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await go('/runs', 'Run history');
      await page
        .getByRole('button', { name: /^Details: / })
        .first()
        .click();
      await page.getByText('Trigger data').first().waitFor();
      await check(page, 'Run history with a run open');

      await go('/privacy', 'Privacy');
      await check(page, 'Privacy');
      await context.close();
    },
  );
});

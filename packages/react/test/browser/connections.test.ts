// @vitest-environment node
// Connection health in a real browser (Debian Chromium via playwright-core) against the real service: an
// installed workflow whose Discord bot token was revoked at the (fake) provider. axe-core finds no violation
// on the attention card, `<Connections>` and the account picker (labels, status, Reconnect) in light and dark;
// the card's Reconnect for an API-key account replaces the key in place (`PUT`, same credential id); and
// `<Connections>` works with the keyboard alone: Reconnect, Rename, Disconnect with its confirmation.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_TOKEN } from '../constants.ts';
import { api, seed } from '../seed.ts';
import { axeViolations, startHarness } from './harness.ts';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.close());

const WORKFLOW = 'Announce won deals on Discord';
const GUILD = '123456789012345678';

async function ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await api(method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as T;
}

/**
 * For `user`: a Discord account that works (labelled by the provider) and one whose token the provider then
 * refuses, the second one used by the installed Discord workflow and found broken by a re-test.
 */
async function brokenInstall(user: keyof typeof seed.users) {
  const userId = seed.users[user];
  const connect = (token: string) =>
    ok('POST', '/credentials', { userId, connector: 'discord', data: { botToken: token, guildId: GUILD } });
  const working = (await connect(`${GOOD_TOKEN}-${user}-ok`)).data.credentialId as string;
  const token = `${GOOD_TOKEN}-${user}-revoked`;
  const broken = (await connect(token)).data.credentialId as string;
  const wf = (await ok('GET', `/workflows/${seed.discordWorkflowId}?userId=${userId}`)).data;
  const stepId = wf.config[0].stepId as string;
  await ok('POST', '/installations', {
    userId,
    workflowIds: [seed.discordWorkflowId],
    credentialIds: { discord: broken },
    values: [
      {
        workflowId: seed.discordWorkflowId,
        blockId: stepId,
        fields: [
          { name: 'channel', value: '111111111111111111' },
          { name: 'prefix', value: 'Won:' },
        ],
      },
    ],
  });
  await fetch(`${seed.providerUrl}/__revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const tested = await ok('POST', `/credentials/${broken}/test?userId=${userId}`);
  expect(tested.data).toMatchObject({ credentialId: broken, status: 'needs_reconnect' });
  return { userId, working, broken };
}

const cardOf = (page: Page) =>
  page.locator('[data-workflow]', { has: page.getByRole('heading', { name: WORKFLOW }) });

describe.each(['light', 'dark'] as const)('%s scheme', (scheme) => {
  const user = scheme === 'light' ? 'connections' : 'connections-dark';
  let ids: Awaited<ReturnType<typeof brokenInstall>>;
  beforeAll(async () => {
    ids = await brokenInstall(user);
  });

  it('the attention card, <Connections> and the account picker are axe-clean', async () => {
    const page = await h.open({ surface: 'page', scheme, user });
    const card = cardOf(page);
    await card.getByRole('button', { name: 'Reconnect Discord' }).waitFor();
    expect(await card.getByRole('status').textContent()).toContain(
      'The Discord account of this workflow stopped working, so it cannot run. Reconnect Discord to continue.',
    );
    // Not a green Active badge: it says what it needs.
    expect(await card.locator('.inlay-badge').textContent()).toBe('Needs reconnecting');
    expect(await axeViolations(page)).toEqual([]);

    await h.open({ surface: 'connections', scheme, user }, page);
    const items = page.locator('.inlay-connections .inlay-card');
    await page.getByText('Needs reconnecting').waitFor();
    expect(await items.count()).toBe(2);
    // Each account with its provider label, its status and the workflows it serves.
    const texts = await items.allTextContents();
    expect(texts.find((t) => t.includes('Needs reconnecting'))).toContain(`Used by: ${WORKFLOW}`);
    expect(texts.find((t) => t.includes('Connected'))).toContain('acme-bot');
    expect(await axeViolations(page)).toEqual([]);

    await h.open({ surface: 'modal', scheme, user, workflow: seed.discordWorkflowId }, page);
    const dialog = page.getByRole('dialog', { name: `Settings of ${WORKFLOW}` });
    // An installation whose account needs reconnecting opens at the accounts step.
    await dialog.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();
    // The working account is offered with its label; the broken one with its status and Reconnect.
    await dialog.getByRole('radio', { name: 'Discord · acme-bot' }).waitFor();
    await dialog.getByText('Needs reconnecting').waitFor();
    const reconnect = dialog.getByRole('button', { name: 'Reconnect Discord' });
    await reconnect.click();
    expect(await reconnect.getAttribute('aria-expanded')).toBe('true');
    await dialog.getByLabel(/Bot token/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("the card's Reconnect opens the key form and replaces the key in place (same credential id)", async () => {
    const page = await h.open({ surface: 'page', scheme, user });
    const card = cardOf(page);
    await card.getByRole('button', { name: 'Reconnect Discord' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reconnect Discord' });
    await dialog.getByLabel(/Bot token/).waitFor();
    // A key the provider refuses: said inline (the provider's words in the collapsed details), nothing changes.
    await dialog.getByLabel(/Bot token/).fill('bot-token-bad');
    await dialog.getByLabel(/Server id/).fill(GUILD);
    await dialog.getByRole('button', { name: 'Save and connect' }).click();
    await dialog.getByText('This was not accepted. Check it and try again.').waitFor();
    expect(await dialog.locator('[role=alert] details code').textContent()).toMatch(
      /Discord rejected the credential/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByLabel(/Bot token/).fill(`${GOOD_TOKEN}-${user}-new`);
    await dialog.getByRole('button', { name: 'Save and connect' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByRole('switch', { name: `Enable: ${WORKFLOW}` }).waitFor();
    await expect.poll(() => card.getByRole('button', { name: 'Reconnect Discord' }).count()).toBe(0);

    const creds = (await ok('GET', `/credentials?userId=${ids.userId}&connector=discord`)).data;
    expect(creds.map((c: { credentialId: string }) => c.credentialId).sort()).toEqual(
      [ids.working, ids.broken].sort(),
    );
    expect(creds.find((c: { credentialId: string }) => c.credentialId === ids.broken)).toMatchObject({
      status: 'connected',
      accountLabel: 'acme-bot',
    });
    const [inst] = (await ok('GET', `/installations?userId=${ids.userId}`)).data;
    expect(inst.credentialIds).toEqual({ discord: ids.broken });
    const wf = (await ok('GET', `/workflows/${seed.discordWorkflowId}?userId=${ids.userId}`)).data;
    expect(wf.attention).toBeNull();
    await page.close();
  });
});

/** Presses Tab until the focused element's accessible label matches; fails after 40 presses. */
async function tabTo(page: Page, label: string | RegExp) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const got = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      const l = a?.getAttribute('aria-label') ?? (a as HTMLInputElement | null)?.labels?.[0]?.textContent;
      return (l || a?.textContent || '').trim();
    });
    if (typeof label === 'string' ? got === label : label.test(got)) return;
  }
  throw new Error(`Tab never reached ${label}`);
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return a?.getAttribute('aria-label') ?? a?.textContent?.trim() ?? '';
  });

it('<Connections> with the keyboard alone: Reconnect, Rename, Disconnect with confirmation', async () => {
  const ids = await brokenInstall('connections-keyboard');
  const page = await h.open({ surface: 'connections', user: 'connections-keyboard' });
  await page.getByText('Needs reconnecting').waitFor();

  // Reconnect: the key form takes the focus; the new key goes in with Enter.
  await tabTo(page, 'Reconnect Discord');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id.endsWith('-botToken'));
  await page.keyboard.type(`${GOOD_TOKEN}-connections-keyboard-new`);
  await page.keyboard.press('Tab');
  await page.keyboard.type(GUILD);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByText('Needs reconnecting').count(), { timeout: 10_000 }).toBe(0);
  const broken = async () =>
    (await ok('GET', `/credentials/${ids.broken}?userId=${ids.userId}`)).data as {
      status: string;
      name: string;
    };
  expect((await broken()).status).toBe('connected');

  // Rename: the name field takes the focus, Enter saves, the focus comes back to the card's actions.
  const renames = page.getByRole('button', { name: 'Rename: Discord' });
  await expect.poll(() => renames.count()).toBe(2);
  await tabTo(page, 'Rename: Discord');
  const renamedId = await page.evaluate(() =>
    document.activeElement?.closest('.inlay-card')?.textContent?.includes('acme-bot'),
  );
  expect(renamedId).toBe(true);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Ops bot');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Rename: Ops bot' }).waitFor();
  await expect.poll(() => focused(page)).toBe('Rename: Ops bot');

  // Disconnect: a confirmation (focus on Cancel first), Escape keeps it, then confirmed with the keyboard.
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('Disconnect: Ops bot');
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Disconnect Ops bot?' });
  await confirm.waitFor();
  expect(await focused(page)).toBe('Cancel');
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });
  expect(await focused(page)).toBe('Disconnect: Ops bot');
  await page.keyboard.press('Enter');
  await confirm.waitFor();
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('Disconnect');
  await page.keyboard.press('Enter');
  await confirm.waitFor({ state: 'detached' });
  await expect.poll(() => page.locator('.inlay-connections .inlay-card').count()).toBe(1);
  const renamed = (await api('GET', `/credentials?userId=${ids.userId}`)).body.data as { name: string }[];
  expect(renamed.map((c) => c.name)).not.toContain('Ops bot');
  expect(renamed).toHaveLength(1);
  await page.close();
});

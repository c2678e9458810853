// @vitest-environment node
// The widget in a real browser (Debian Chromium via playwright-core) against the real service: axe-core
// finds no WCAG 2.2 A/AA violation on any surface in either color scheme, and a keyboard-only user can
// install a workflow from the marketplace.
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

describe.each(['light', 'dark'])('axe-core, %s scheme', (scheme) => {
  it('IntegrationsPage', async () => {
    const page = await h.open({ surface: 'page', scheme, user: 'browser' });
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    await page.getByRole('button', { name: 'Run history: Post new deals to Slack' }).click();
    await page.getByRole('table', { name: 'Run history' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('InstallModal, every step', async () => {
    // A user with no credential yet in each scheme, so the new-account form shows.
    const user = scheme === 'light' ? 'browser' : 'dark';
    const page = await h.open({ surface: 'modal', scheme, user, workflow: seed.discordWorkflowId });
    const dialog = page.getByRole('dialog', { name: 'Install Announce won deals on Discord' });
    await dialog.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();
    // With the step's own validation message showing.
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('Choose or connect a Discord account to continue.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // The provider's refusal inline.
    await dialog.getByLabel(/Bot token/).fill('bot-token-bad');
    await dialog.getByLabel(/Server id/).fill('123456789012345678');
    await dialog.getByRole('button', { name: 'Save and connect' }).click();
    await dialog.getByText(/Discord rejected the credential/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByLabel(/Bot token/).fill(GOOD_TOKEN);
    await dialog.getByRole('button', { name: 'Save and connect' }).click();
    await dialog
      .getByRole('radio', { name: /^Discord/ })
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    // Step 2 with its inline validation messages.
    await dialog.getByRole('option', { name: '#deals' }).waitFor({ state: 'attached' });
    await dialog.getByRole('textbox', { name: 'Minimum amount' }).fill('lots');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('Message prefix is required.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('combobox', { name: /Channel/ }).selectOption('111111111111111111');
    await dialog.getByRole('textbox', { name: /Message prefix/ }).fill('Hi');
    await dialog.getByRole('textbox', { name: 'Minimum amount' }).fill('');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('heading', { name: /Step 3 of 3/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('InstallModal with every field type and its validation messages', async () => {
    const page = await h.open({ surface: 'modal', scheme, user: 'browser', workflow: seed.fieldsWorkflowId });
    const dialog = page.getByRole('dialog', { name: 'Install Every field type' });
    await dialog.getByRole('heading', { name: /Step 1 of 2/ }).waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('Title is required.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('ExecutionLogs with a run expanded', async () => {
    const page = await h.open({ surface: 'logs', scheme, user: 'browser', workflow: seed.workflowId });
    await page.getByRole('table', { name: 'Run history' }).waitFor();
    await page
      .getByRole('button', { name: /^Details/ })
      .first()
      .click();
    await page
      .getByRole('button', { name: /Output/ })
      .first()
      .click();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('color scheme', () => {
  it('follows prefers-color-scheme with colorScheme="system"', async () => {
    const page = await h.browser.newPage();
    const bg = async () => {
      await page.getByRole('heading', { name: 'Billing' }).waitFor();
      return page.evaluate(() => getComputedStyle(document.querySelector('.inlay')!).backgroundColor);
    };
    await page.emulateMedia({ colorScheme: 'dark' });
    await h.open({ surface: 'page', scheme: 'system', user: 'browser' }, page);
    expect(await bg()).toBe('rgb(22, 24, 29)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await bg()).toBe('rgb(255, 255, 255)');
    await page.close();
  });
});

/** Presses Tab until the focused element matches; fails after 40 presses. */
async function tabTo(page: Page, test: (el: { label: string; tag: string }) => boolean, what: string) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const el = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      if (!a) return { label: '', tag: '' };
      const labelled = a.getAttribute('aria-label') ?? (a as HTMLInputElement).labels?.[0]?.textContent ?? '';
      return { label: (labelled || a.textContent || '').trim(), tag: a.tagName.toLowerCase() };
    });
    if (test(el)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

describe.each([
  ['light', 'keyboard'],
  ['dark', 'keyboard-dark'],
] as const)('keyboard only, %s scheme', (scheme, user) => {
  it('installs a workflow from the marketplace with Tab, arrows, Space and Enter', async () => {
    const page = await h.open({ surface: 'page', scheme, user });
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    await tabTo(page, (e) => e.label === 'Install: Announce won deals on Discord', 'the Install button');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Install Announce won deals on Discord' });
    await dialog.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();

    await tabTo(page, (e) => e.label.startsWith('Bot token'), 'Bot token');
    await page.keyboard.type(GOOD_TOKEN);
    await page.keyboard.press('Tab');
    await page.keyboard.type('123456789012345678');
    await page.keyboard.press('Enter'); // submits the credential form
    await dialog.getByRole('radio', { name: 'Discord' }).waitFor();
    await tabTo(page, (e) => e.label === 'Next', 'Next');
    await page.keyboard.press('Enter');

    await dialog.getByRole('heading', { name: /Step 2 of 3/ }).waitFor();
    await dialog.getByRole('option', { name: '#deals' }).waitFor({ state: 'attached' });
    await tabTo(page, (e) => e.tag === 'select', 'Channel');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Won:');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await tabTo(page, (e) => e.label === 'Next', 'Next');
    await page.keyboard.press('Enter');

    await dialog.getByRole('heading', { name: /Step 3 of 3/ }).waitFor();
    await tabTo(page, (e) => e.label === 'Install', 'Install');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    const list = (await api('GET', `/installations?userId=${user}`)).body.data;
    expect(list).toHaveLength(1);
    expect(
      list[0].formData[0].fields.map((f: { name: string; value: unknown }) => [f.name, f.value]),
    ).toEqual([
      ['channel', '222222222222222222'],
      ['prefix', 'Won:'],
      ['mentions', true],
      ['minAmount', null],
    ]);
    // The card now shows it installed, and the focus is on its first action, not lost on the body.
    await page.getByRole('button', { name: 'Configure: Announce won deals on Discord' }).waitFor();
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'Enabled: Announce won deals on Discord',
    );
    await page.close();
  });

  it('keeps Tab inside the dialog and closes it with Escape', async () => {
    const page = await h.open({ surface: 'page', scheme, user });
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    await tabTo(page, (e) => e.label === 'Install: Look up Stripe customers', 'the Install button');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Install Look up Stripe customers' });
    await dialog.getByRole('heading', { name: /Step 1 of 2/ }).waitFor();
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Install: Look up Stripe customers',
    );
    await page.close();
  });
});

// @vitest-environment node
// The OAuth states and the trigger sentence in Chromium, against the real service and a local
// OAuth 2.0 provider, in light and dark, at 1280 px and 375 px, in English and Japanese: the "finish in the
// window that opened" hint with Reopen and Cancel (Next held until the account is connected), the one-click
// notice before the blocked-popup redirect, the confirmation after install, and the card's "When a new
// customer is created in Stripe". axe (color-contrast on) finds nothing, and nothing scrolls sideways.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../src/i18n/locales/en.ts';
import ja from '../../src/i18n/locales/ja.ts';
import { api } from '../seed.ts';
import { axeViolations, holdConsent, startHarness } from './harness.ts';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.close());

const WORKFLOW = 'Sync Acme projects';
const catalogs = { en, ja };
const fill = (s: string, vars: Record<string, string> = {}) =>
  s.replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? _);

async function fitsWidth(page: Page) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(inner);
}

const combos = (['light', 'dark'] as const).flatMap((scheme) =>
  ([1280, 375] as const).flatMap((width) =>
    (['en', 'ja'] as const).map((locale) => ({ scheme, width, locale })),
  ),
);

describe.each(combos)('$scheme, $width px, $locale', ({ scheme, width, locale }) => {
  const T = catalogs[locale];
  const key = `${scheme}-${width}-${locale}` as const;
  const view = async () => {
    const page = await h.browser.newPage({ viewport: { width, height: 900 } });
    return page;
  };

  it('OAuth: the hint with Reopen and Cancel holds Next, then the account connects and the card confirms the install', async () => {
    const user = `wait-${key}` as const;
    const page = await view();
    const consent = await holdConsent(page);
    await h.open({ surface: 'page', scheme, user, locale }, page);
    await page.getByRole('button', { name: `${T.install}: ${WORKFLOW}` }).click();
    const dialog = page.getByRole('dialog', { name: fill(T.installTitle, { name: WORKFLOW }) });
    const connect = dialog.getByRole('button', { name: fill(T.connectWith, { app: 'Acme' }) });
    const next = dialog.getByRole('button', { name: T.next, exact: true });

    // The popup opens in the click; the hint replaces the Connect button and Next waits.
    let popup = page.waitForEvent('popup');
    await connect.click();
    let win = await popup;
    const hint = dialog.getByRole('status').filter({ hasText: fill(T.oauthWaiting, { app: 'Acme' }) });
    await hint.waitFor();
    expect(await connect.count()).toBe(0);
    expect(await next.isDisabled()).toBe(true);
    const reopen = dialog.getByRole('button', { name: T.reopen });
    // The focus moved to the hint's first button rather than being lost with the Connect button.
    await page.waitForFunction((name) => document.activeElement?.textContent === name, T.reopen);
    expect(await axeViolations(page)).toEqual([]);
    await fitsWidth(page);

    // Cancel abandons the attempt: the popup closes, the Connect button is back, Next works, no error.
    const wait = dialog.locator('.inlay-wait');
    await wait.getByRole('button', { name: T.cancel }).click();
    await wait.waitFor({ state: 'detached' });
    await connect.waitFor();
    await expect.poll(() => win.isClosed()).toBe(true);
    expect(await next.isDisabled()).toBe(false);
    expect(await dialog.getByRole('alert').count()).toBe(0);

    // Again; the user closes the window by mistake and Reopen opens it again on the provider's page, where
    // the consent now finishes.
    popup = page.waitForEvent('popup');
    await connect.click();
    win = await popup;
    await hint.waitFor();
    await win.close();
    expect(await next.isDisabled()).toBe(true);
    consent.release();
    popup = page.waitForEvent('popup');
    await reopen.click();
    win = await popup;

    // The new account is picked, the hint is gone and Next is enabled.
    const radio = dialog.getByRole('radio', { name: 'Acme' });
    await expect.poll(() => radio.isChecked(), { timeout: 15_000 }).toBe(true);
    await hint.waitFor({ state: 'detached' });
    expect(await next.isDisabled()).toBe(false);
    await next.click();
    await dialog.getByRole('button', { name: T.installAction, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // The card confirms it, as a polite status next to the workflow.
    const card = page.locator('li.inlay-card').filter({ hasText: WORKFLOW });
    const done = card.getByRole('status').filter({ hasText: fill(T.installedDone, { name: WORKFLOW }) });
    await done.waitFor();
    expect(await done.getAttribute('class')).toBe('inlay-notice');
    const list = (await api('GET', `/installations?userId=${user}`)).body.data;
    expect(list).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await fitsWidth(page);
    await page.close();
  }, 120_000);

  it('a blocked popup asks once before the page leaves, and Cancel stays on the page', async () => {
    const user = `blocked-${key}` as const;
    const page = await view();
    // What a popup blocker does: window.open answers null.
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await h.open({ surface: 'page', scheme, user, locale }, page);
    await page.getByRole('button', { name: `${T.install}: ${WORKFLOW}` }).click();
    const dialog = page.getByRole('dialog', { name: fill(T.installTitle, { name: WORKFLOW }) });
    const connect = dialog.getByRole('button', { name: fill(T.connectWith, { app: 'Acme' }) });
    await connect.click();
    const notice = dialog.getByRole('alert').filter({ hasText: fill(T.popupBlocked, { app: 'Acme' }) });
    await notice.waitFor();
    const before = page.url();
    expect(await axeViolations(page)).toEqual([]);
    await fitsWidth(page);

    // Cancel: nothing left the page, and the Connect button is back.
    await dialog.locator('.inlay-wait').getByRole('button', { name: T.cancel }).click();
    await connect.waitFor();
    expect(await notice.count()).toBe(0);
    expect(page.url()).toBe(before);

    // Continue: the page goes to the provider and comes back with the account picked.
    await connect.click();
    await dialog.getByRole('button', { name: T.continue }).click();
    await page.waitForURL((u) => u.origin !== h.origin || u.searchParams.has('credentialId'), {
      timeout: 20_000,
    });
    const radio = dialog.getByRole('radio', { name: 'Acme' });
    await radio.waitFor({ timeout: 20_000 });
    await expect.poll(() => radio.isChecked(), { timeout: 10_000 }).toBe(true);
    const creds = (await api('GET', `/credentials?userId=${user}`)).body.data;
    expect(creds.map((c: { status: string }) => c.status)).toEqual(['connected']);
    await page.close();
  });

  it('the card of a workflow an app trigger starts says what starts it', async () => {
    const page = await view();
    await h.open({ surface: 'page', scheme, user: `card-${key}`, locale }, page);
    const sentence = fill(T['when.new_customer'], { app: 'Stripe' });
    const card = page.locator('li.inlay-card').filter({ hasText: 'Welcome new customers' });
    await card.getByText(sentence, { exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await fitsWidth(page);
    await page.close();
  });
});

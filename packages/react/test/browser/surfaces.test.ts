// @vitest-environment node
// Every surface of the widget in Chromium against the real service, in light and dark, at 1280 px and 375 px,
// in English and Japanese: axe-core (color-contrast on) finds no serious or critical violation, and at 375 px
// nothing scrolls sideways. One browser, one page per combination, navigated from surface to surface.
// Also: the standalone <InstallModal> asks before leaving for the provider when the popup is blocked.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../src/i18n/locales/en.ts';
import ja from '../../src/i18n/locales/ja.ts';
import { GOOD_TOKEN } from '../constants.ts';
import { api, seed } from '../seed.ts';
import { axeViolations, startHarness } from './harness.ts';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
  // <Connections> of the `runs` user: one Discord account that works and one the provider then refuses.
  const userId = seed.users.runs;
  const connect = async (token: string) => {
    const r = await api('POST', '/credentials', {
      userId,
      connector: 'discord',
      data: { botToken: token, guildId: '123456789012345678' },
    });
    expect(r.status).toBe(201);
    return r.body.data.credentialId as string;
  };
  await connect(`${GOOD_TOKEN}-surfaces-ok`);
  const broken = await connect(`${GOOD_TOKEN}-surfaces-revoked`);
  await fetch(`${seed.providerUrl}/__revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: `${GOOD_TOKEN}-surfaces-revoked` }),
  });
  expect((await api('POST', `/credentials/${broken}/test?userId=${userId}`)).body.data.status).toBe(
    'needs_reconnect',
  );
}, 120_000);
afterAll(() => h?.close());

const catalogs = { en, ja };
const fill = (s: string, vars: Record<string, string> = {}) =>
  s.replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? _);

/** Each surface: what the harness page is asked for, and what shows once it has loaded. */
const SURFACES = [
  {
    name: 'IntegrationsPage',
    params: { surface: 'page', user: 'browser' },
    ready: '.inlay-page .inlay-card',
    text: 'allCategories',
  },
  {
    name: 'InstallModal',
    params: { surface: 'modal', user: 'browser', workflow: seed.fieldsWorkflowId },
    ready: '[role=dialog] .inlay-step-title',
    text: 'stepConfigure',
  },
  {
    name: 'ExecutionLogs',
    params: { surface: 'logs', user: 'runs', workflow: seed.runsWorkflowId },
    ready: '.inlay-logs tbody tr',
    text: 'runs',
  },
  {
    name: 'Connections',
    params: { surface: 'connections', user: 'runs' },
    ready: '.inlay-connections .inlay-badge-paused',
    text: 'connections',
  },
] as const;

const combos = (['light', 'dark'] as const).flatMap((scheme) =>
  ([1280, 375] as const).flatMap((width) =>
    (['en', 'ja'] as const).map((locale) => ({ scheme, width, locale })),
  ),
);

describe.each(combos)('$scheme, $width px, $locale', ({ scheme, width, locale }) => {
  let page: Page;
  beforeAll(async () => {
    page = await h.browser.newPage({ viewport: { width, height: 800 } });
  });
  afterAll(() => page?.close());

  it.each(SURFACES)('$name: no serious or critical axe violation, nothing scrolls sideways', async (s) => {
    await h.open({ ...s.params, scheme, locale }, page);
    await page.locator(s.ready).first().waitFor();
    // The locale's catalog is in: a string of the surface in that language is on the page.
    await page.getByText(catalogs[locale][s.text], { exact: true }).first().waitFor({ state: 'attached' });
    const serious = (await axeViolations(page)).filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(serious).toEqual([]);
    if (width === 375) {
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    }
  });
});

describe.each(['en', 'ja'] as const)('the standalone <InstallModal>, %s', (locale) => {
  it('a blocked popup asks once before the page leaves for the provider; Cancel stays', async () => {
    const T = catalogs[locale];
    const page = await h.browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.addInitScript(() => {
      window.open = () => null; // what a popup blocker does
    });
    const user = `modal-blocked-${locale}` as const; // connect-state.test.ts connects its own blocked-* users
    await h.open({ surface: 'modal', user, locale, workflow: seed.acmeWorkflowId }, page);
    const dialog = page.getByRole('dialog');
    const connect = dialog.getByRole('button', { name: fill(T.connectWith, { app: 'Acme' }) });
    await connect.click();
    const notice = dialog.getByRole('alert').filter({ hasText: fill(T.popupBlocked, { app: 'Acme' }) });
    await notice.waitFor();
    const before = page.url();
    await dialog.locator('.inlay-wait').getByRole('button', { name: T.continue }).waitFor();
    expect(
      (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    ).toEqual([]);
    await dialog.locator('.inlay-wait').getByRole('button', { name: T.cancel }).click();
    await connect.waitFor();
    expect(await notice.count()).toBe(0);
    expect(page.url()).toBe(before);
    await page.close();
  });
});

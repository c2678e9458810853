// @vitest-environment node
// Reconnecting an OAuth account in place, in Chromium against the real service and a local OAuth 2.0 provider
// that revoked the account's tokens: the card's Reconnect and <Connections>' Reconnect tell the user what is
// happening, as the install flow does. A blocked popup asks before the page leaves (Cancel stays); an open
// popup shows "finish in the window that opened" with Reopen and Cancel under the account; the consent then
// reconnects the same credential. Light and dark, axe (color-contrast on) finds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../src/i18n/locales/en.ts';
import { api, seed } from '../seed.ts';
import { axeViolations, holdConsent, startHarness } from './harness.ts';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.close());

const WORKFLOW = 'Sync Acme projects';
const fill = (s: string, vars: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? _);
const RECONNECT = fill(en.reconnectApp, { app: 'Acme' }).trim();

describe.each(['light', 'dark'] as const)('%s scheme', (scheme) => {
  const user = `reoauth-${scheme}` as const;
  const credentialId = () => seed.reoauth[user];

  it('the card: a blocked popup asks before leaving, and Cancel stays on the page', async () => {
    const page = await h.browser.newPage();
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await h.open({ surface: 'page', scheme, user }, page);
    const card = page.locator('li.inlay-card').filter({ hasText: WORKFLOW });
    const reconnect = card.getByRole('button', { name: RECONNECT });
    await reconnect.click();
    const notice = card.getByRole('alert').filter({ hasText: fill(en.popupBlocked, { app: 'Acme' }) });
    await notice.waitFor();
    expect(await card.getByRole('button', { name: en.continue }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    const before = page.url();
    await card.locator('.inlay-wait').getByRole('button', { name: en.cancel }).click();
    await notice.waitFor({ state: 'detached' });
    expect(page.url()).toBe(before);
    await expect.poll(() => reconnect.isDisabled()).toBe(false);
    const cred = (await api('GET', `/credentials/${credentialId()}?userId=${seed.users[user]}`)).body.data;
    expect(cred.status).toBe('needs_reconnect');
    await page.close();
  });

  it('<Connections>: the hint with Reopen and Cancel under the account, then the consent reconnects it', async () => {
    const page = await h.browser.newPage();
    const consent = await holdConsent(page);
    await h.open({ surface: 'connections', scheme, user }, page);
    const item = page.locator('li.inlay-card').filter({ hasText: 'Acme' });
    const reconnect = item.getByRole('button', { name: RECONNECT });

    let popup = page.waitForEvent('popup');
    await reconnect.click();
    let win = await popup;
    const hint = item.getByRole('status').filter({ hasText: fill(en.oauthWaiting, { app: 'Acme' }) });
    await hint.waitFor();
    expect(await item.getByRole('button', { name: en.reopen }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // Cancel abandons it: the window closes, the hint goes, nothing is reported as an error.
    await item.locator('.inlay-wait').getByRole('button', { name: en.cancel }).click();
    await hint.waitFor({ state: 'detached' });
    await expect.poll(() => win.isClosed()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);

    // Again, and this time the consent finishes: the same credential is connected.
    consent.release();
    popup = page.waitForEvent('popup');
    await reconnect.click();
    win = await popup;
    await item.getByText(en.connectedStatus, { exact: true }).waitFor({ timeout: 20_000 });
    await hint.waitFor({ state: 'detached' });
    const creds = (await api('GET', `/credentials?userId=${seed.users[user]}`)).body.data;
    expect(creds.map((c: { credentialId: string; status: string }) => [c.credentialId, c.status])).toEqual([
      [credentialId(), 'connected'],
    ]);
    await page.close();
  }, 60_000);
});

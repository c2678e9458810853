// @vitest-environment node
// OAuth through the widget in Chromium against a local OAuth 2.0 provider: the popup opened in the click
// handler, and the full-page redirect when the popup is blocked, both ending with the account connected
// and selected in the install modal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, seed } from '../seed.ts';
import { startHarness } from './harness.ts';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.close());

describe.each([
  ['light', ''],
  ['dark', '-dark'],
] as const)('OAuth in the install modal, %s scheme', (scheme, suffix) => {
  const user = `oauth${suffix}` as const;
  const redirectUser = `redirect${suffix}` as const;

  it('connects in a popup and installs', async () => {
    const page = await h.open({ surface: 'modal', scheme, user, workflow: seed.acmeWorkflowId });
    const dialog = page.getByRole('dialog', { name: 'Install Sync Acme projects' });
    await dialog.getByRole('heading', { name: /Step 1 of 2/ }).waitFor();
    const popup = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Connect with Acme' }).click();
    await popup; // opened by the click itself, not blocked
    await dialog.getByRole('radio', { name: 'Acme' }).waitFor();
    // The new account is picked once the credential list has reloaded.
    await expect
      .poll(() => dialog.getByRole('radio', { name: 'Acme' }).isChecked(), { timeout: 10_000 })
      .toBe(true);
    const events = await page.evaluate(() => (window as any).inlayEvents);
    const connected = events.find((e: { type: string }) => e.type === 'connected');
    expect(connected).toMatchObject({ connector: 'acme', method: 'oauth' });
    const cred = (await api('GET', `/credentials/${connected.credentialId}?userId=${user}`)).body.data;
    expect(cred.status).toBe('connected');

    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('button', { name: 'Install' }).click();
    await dialog.waitFor({ state: 'detached' });
    const list = (await api('GET', `/installations?userId=${user}`)).body.data;
    expect(list.map((i: { credentialIds: object }) => i.credentialIds)).toEqual([
      { acme: cred.credentialId },
    ]);
    await page.close();
  });

  it('falls back to a redirect when the popup is blocked, and resumes the install flow on return', async () => {
    const page = await h.browser.newPage();
    // What a popup blocker does: window.open answers null.
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await h.open({ surface: 'page', scheme, user: redirectUser }, page);
    await page.getByRole('button', { name: 'Install: Sync Acme projects' }).click();
    const dialog = page.getByRole('dialog', { name: 'Install Sync Acme projects' });
    await dialog.getByRole('button', { name: 'Connect with Acme' }).click();
    // One click on the notice lets the page go (see connect-state.test.ts for the notice itself).
    await dialog.getByRole('button', { name: 'Continue' }).click();
    // The page leaves for the provider and comes back; the modal reopens with the new account picked.
    await page.waitForURL((u) => u.searchParams.get('status') === 'connected' || u.origin === h.origin, {
      timeout: 20_000,
    });
    await dialog.getByRole('radio', { name: 'Acme' }).waitFor({ timeout: 20_000 });
    // The new account is picked once the credential list has reloaded.
    await expect
      .poll(() => dialog.getByRole('radio', { name: 'Acme' }).isChecked(), { timeout: 10_000 })
      .toBe(true);
    // The address is put back as it was before the round trip.
    expect(new URL(page.url()).searchParams.get('credentialId')).toBeNull();
    const creds = (await api('GET', `/credentials?userId=${redirectUser}`)).body.data;
    expect(creds.map((c: { connector: string; status: string }) => [c.connector, c.status])).toEqual([
      ['acme', 'connected'],
    ]);
    await page.close();
  });
});

// @vitest-environment jsdom
// Where triggers show: a card whose workflow starts on an event in an app says so in a sentence, in the
// user's language; and the confirmation after an install, announced in that card.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../src/i18n/locales/en.ts';
import { triggerSentence } from '../../src/i18n/triggerSentence.ts';
import { IntegrationsPage } from '../../src/index.ts';
import { seed, tokenOf } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);
const card = (name: string) => screen.getByRole('heading', { name }).closest('li')!;

describe('the trigger sentence on a card', () => {
  it.each([
    ['en', 'When a new customer is created in Stripe'],
    ['ja', 'Stripe で新しい顧客が作成されたとき'],
    ['de', 'Wenn in Stripe ein neuer Kunde angelegt wird'],
  ])('reads the app trigger in %s', async (locale, sentence) => {
    renderWidget(<IntegrationsPage />, { baseUrl: seed.url, getToken: tokenOf('trigger'), locale });
    await screen.findByRole('heading', { name: 'Welcome new customers' });
    await waitFor(() =>
      expect(card('Welcome new customers').querySelector('.inlay-trigger')?.textContent).toBe(sentence),
    );
    // Workflows the host starts (manual, event) have no such line.
    expect(card('Look up Stripe customers').querySelector('.inlay-trigger')).toBeNull();
  });

  it('shows the confirmation after an install in the card, as a polite status', async () => {
    const user = userEvent.setup();
    renderWidget(<IntegrationsPage />, { baseUrl: seed.url, getToken: tokenOf('trigger') });
    await user.click(await screen.findByRole('button', { name: 'Install: Every field type' }));
    const dialog = await screen.findByRole('dialog', { name: 'Install Every field type' });
    // The form renders once the workflow's fields have loaded: wait for it, as a user would.
    await user.type(await within(dialog).findByRole('textbox', { name: /Title/ }), 'Hello');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Level/ }), 'high');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Install' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const status = await within(card('Every field type')).findByText('Every field type is installed.');
    expect(status.getAttribute('role')).toBe('status');
    expect(status.className).toBe('inlay-notice');
  });
});

describe('triggerSentence()', () => {
  const t = (key: string, vars?: Record<string, string | number>) =>
    ((en as Record<string, string>)[key] ?? key).replace(/\{(\w+)\}/g, (m, k: string) =>
      String(vars?.[k] ?? m),
    );
  const app = (trigger: string, connector = 'github') => ({
    trigger: { type: 'app' as const, connector, trigger },
    connectors: [],
  });
  const catalog = [
    { id: 'github', name: 'GitHub', triggers: [{ id: 'starred', name: 'New star' }] },
  ] as never;

  it('reads the webhook variant of a catalog trigger like its polling twin', () => {
    expect(triggerSentence(app('new_pull_request_webhook'), catalog, t)).toBe(
      'When a pull request is opened in GitHub',
    );
  });

  it("names another trigger by the catalog's name, and a connector missing from the catalog by its id", () => {
    expect(triggerSentence(app('starred'), catalog, t)).toBe('Starts with “New star” in GitHub');
    expect(triggerSentence(app('new_row', 'sheets'), [], t)).toBe('When a new row is added in sheets');
  });

  it('is null for a workflow the host starts', () => {
    expect(
      triggerSentence({ trigger: { type: 'event', event: 'deal' }, connectors: [] }, catalog, t),
    ).toBeNull();
  });
});

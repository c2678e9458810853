// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { IntegrationsPage } from '../../src/index.ts';
import { api, seed, tokenOf } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);
const props = () => ({ baseUrl: seed.url, getToken: tokenOf('market') });

const card = (name: string) => screen.getByRole('heading', { name }).closest('li')!;

describe('<IntegrationsPage> against the service', () => {
  it('lists workflows grouped by integration, with icons and one state badge', async () => {
    renderWidget(<IntegrationsPage />, props());
    expect(screen.getByRole('status')).toHaveProperty('textContent', 'Loading…');
    await screen.findByRole('heading', { name: 'Slack alerts', level: 2 });
    // logs-tree.test.tsx adds the integrations Tree and Grid to the shared account, maybe while this runs.
    const theirs = new Set(['Tree', 'Grid']);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.filter((name) => !theirs.has(name!))).toEqual([
      'Slack alerts',
      'Discord alerts',
      'Billing',
      'Acme sync',
      'Stripe signups',
    ]);
    const slack = card('Post new deals to Slack');
    // One badge: "Paused" says it is installed too.
    expect([...slack.querySelectorAll('.inlay-badge')].map((b) => b.textContent)).toEqual(['Paused']);
    expect(within(slack).getByText('Disabled')).toBeTruthy();
    expect(within(slack).getByRole('switch', { name: /Enable:/ })).toHaveProperty('checked', false);
    expect(slack.querySelector('img')!.getAttribute('src')).toBe(`${seed.url}/connectors/slack/icon.svg`);
    const discord = card('Announce won deals on Discord');
    expect(within(discord).queryByText('Paused')).toBeNull();
    expect(
      within(discord).getByRole('button', { name: 'Install: Announce won deals on Discord' }),
    ).toBeTruthy();
  });

  it('filters by search text and by category', async () => {
    const user = userEvent.setup();
    renderWidget(<IntegrationsPage />, props());
    await screen.findByRole('heading', { name: 'Billing' });
    await user.type(screen.getByRole('searchbox', { name: 'Search integrations' }), 'discord');
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Announce won deals on Discord',
    ]);
    await user.clear(screen.getByRole('searchbox'));
    const category = screen.getByRole('combobox', { name: 'Category' });
    expect(
      within(category)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All categories', 'Communication', 'Developer tools', 'Payments', 'Utilities']);
    await user.selectOptions(category, 'payments');
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Look up Stripe customers',
      'Welcome new customers',
    ]);
    await user.type(screen.getByRole('searchbox'), 'slack');
    expect(screen.getByRole('status').textContent).toBe('No integrations match your search.');
  });

  it('enables a workflow, then uninstalls it after confirmation', async () => {
    const user = userEvent.setup();
    const { events } = renderWidget(<IntegrationsPage />, props());
    await screen.findByRole('heading', { name: 'Post new deals to Slack' });
    await user.click(within(card('Post new deals to Slack')).getByRole('switch'));
    await waitFor(() => expect(within(card('Post new deals to Slack')).getByText('Active')).toBeTruthy());
    const wf = await api('GET', `/workflows/${seed.workflowId}?userId=market`);
    expect(wf.body.data.active).toBe(true);
    expect(events).toContainEqual({ type: 'toggled', workflowId: seed.workflowId, active: true });

    await user.click(screen.getByRole('button', { name: 'Uninstall: Post new deals to Slack' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Uninstall Post new deals to Slack?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Uninstall' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() =>
      expect(within(card('Post new deals to Slack')).getByRole('button', { name: /^Install/ })).toBeTruthy(),
    );
    // The Uninstall button is gone: the focus lands on the card's Install button, not on the body.
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('aria-label')).toBe('Install: Post new deals to Slack'),
    );
    const after = await api('GET', '/installations?userId=market');
    expect(after.body.data).toEqual([]);
    expect(events.some((e) => (e as { type: string }).type === 'uninstalled')).toBe(true);
  });

  it('shows an error with a retry when the service is unreachable', async () => {
    const user = userEvent.setup();
    let tries = 0;
    renderWidget(<IntegrationsPage />, {
      baseUrl: seed.url,
      getToken: () => {
        tries++;
        if (tries <= 2) throw new Error('token endpoint down');
        return tokenOf('market')();
      },
    });
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toContain('token endpoint down');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Billing' });
  });
});

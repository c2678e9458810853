// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExecutionLogs, IntegrationsPage } from '../../src/index.ts';
import { api, seed, tokenOf } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const startedOf = (row: HTMLElement) => row.querySelector('time')!.getAttribute('datetime');

describe('<ExecutionLogs> against the service', () => {
  it('pages through runs with limit and order, newest first by default', async () => {
    const user = userEvent.setup();
    renderWidget(<ExecutionLogs workflowId={seed.workflowId} limit={5} />, {
      baseUrl: seed.url,
      getToken: tokenOf('logs'),
    });
    await screen.findByRole('table', { name: 'Run history' });
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Started', 'Trigger', 'Duration', 'Status', 'Actions']);
    expect(rows()).toHaveLength(5);
    // insertExecutions: 12 runs one second apart from 10:00:00, each 250 ms long, all succeeded.
    expect(startedOf(rows()[0]!)).toBe('2025-09-01T10:00:11.000Z');
    expect(within(rows()[0]!).getAllByRole('cell')[1]!.textContent).toBe('Event · deal.created');
    expect(within(rows()[0]!).getAllByRole('cell')[2]!.textContent).toBe('250 ms');
    expect(within(rows()[0]!).getByText('Succeeded')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(startedOf(rows()[0]!)).toBe('2025-09-01T10:00:06.000Z'));
    expect(screen.getByText('Page 2')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'asc');
    await waitFor(() => expect(startedOf(rows()[0]!)).toBe('2025-09-01T10:00:00.000Z'));
    expect(screen.getByText('Page 1')).toBeTruthy();
  });

  it('expands a run into its steps with a lazy JSON viewer, and reruns it', async () => {
    const user = userEvent.setup();
    renderWidget(<ExecutionLogs workflowId={seed.workflowId} limit={30} />, {
      baseUrl: seed.url,
      getToken: tokenOf('logs'),
    });
    await screen.findByRole('table');
    const first = rows()[0]!;
    const details = within(first).getByRole('button', { name: /^Details/ });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    await user.click(details);
    expect(details.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(details.getAttribute('aria-controls')!)!;
    // The details arrive on demand (their own chunk): wait for them as a user would.
    expect(await within(panel).findByText('Step 1: transform · map')).toBeTruthy();
    expect(within(panel).getByText('Step 2: slack · post_message')).toBeTruthy();
    // Collapsed nodes render nothing below them.
    const input = within(panel).getAllByRole('button', { name: /Input/ })[1]!;
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(within(panel).queryByText('"slack"')).toBeNull();
    await user.click(input);
    expect(within(panel).getByText('"slack"')).toBeTruthy();

    const before = rows().length;
    await user.click(within(first).getByRole('button', { name: /^Run again/ }));
    await screen.findByText('A new run has started.');
    const logs = await api('GET', `/workflows/${seed.workflowId}/logs?userId=logs&limit=30`);
    const rerun = logs.body.data.find((l: { rerunOf: string | null }) => l.rerunOf === seed.executions[11]);
    expect(rerun).toBeTruthy();
    await waitFor(() => expect(rows().length).toBe(before + 1));
  });

  it('renders a 5 MB step result as one collapsed line', async () => {
    const { JsonViewer } = await import('../../src/index.ts');
    const big = Array.from({ length: 50_000 }, (_, i) => ({ id: i, text: 'x'.repeat(90) }));
    expect(JSON.stringify(big).length).toBeGreaterThan(5_000_000);
    const user = userEvent.setup();
    const { container } = renderWidget(<JsonViewer label="Output" value={big} />, {
      baseUrl: seed.url,
      getToken: tokenOf('logs'),
    });
    expect(container.querySelectorAll('.inlay-json-leaf, .inlay-json-node')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: /Output/ }));
    // One page of 100 children, then a "show more".
    expect(container.querySelectorAll('.inlay-json-children > *')).toHaveLength(101);
    expect(screen.getByRole('button', { name: 'Show 100 more' })).toBeTruthy();
  });
});

describe('token refresh', () => {
  it('replaces a rejected token and one about to expire without a visible error', async () => {
    // Only the clock is fake (timers, fetch and React run for real), and it stands still until moved: the
    // widget's token manager reads it from its creation on, so it is faked before the render.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const user = userEvent.setup();
      const real = tokenOf('refresh');
      let calls = 0;
      // First a token the service rejects (401), then real tokens that claim to expire within 2 s.
      const getToken = async () => {
        calls++;
        if (calls === 1)
          return { token: 'not-a-jwt', expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
        const t = await real();
        return { token: t.token, expiresAt: new Date(Date.now() + 2_000).toISOString() };
      };
      renderWidget(<IntegrationsPage />, { baseUrl: seed.url, getToken });
      await screen.findByRole('heading', { name: 'Billing' });
      expect(calls).toBe(2);
      // A 2 s token is refreshed halfway through its lifetime: the clock moves past that point.
      vi.advanceTimersByTime(1_200);
      await user.type(screen.getByRole('searchbox'), 'stripe');
      await user.click(screen.getByRole('button', { name: 'Install: Look up Stripe customers' }));
      await screen.findByRole('dialog', { name: 'Install Look up Stripe customers' });
      await screen.findByRole('heading', { name: /Step 1 of 2/ });
      expect(calls).toBe(3);
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

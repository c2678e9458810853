// @vitest-environment jsdom
// A run the backend starts shows in the run history without a click: by polling just after mount (and
// while a run is in flight), or at once on refreshInlay().
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ExecutionLogs, refreshInlay } from '../../src/index.ts';
import { api, seed, tokenOf } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

/** Starts the workflow for `user` as the host's backend would, and waits until its run is on record. */
async function runFromBackend(user: 'live' | 'live-event') {
  const userId = seed.users[user];
  const r = await api('POST', '/run/workflow', {
    userId,
    workflowId: seed.workflowId,
    data: { from: 'backend' },
  });
  expect(r.status).toBe(200);
  await waitFor(
    async () => {
      const logs = await api('GET', `/workflows/${seed.workflowId}/logs?userId=${userId}`);
      expect(logs.body.data).toHaveLength(1);
    },
    { timeout: 15_000, interval: 200 },
  );
}

describe('<ExecutionLogs> stays current', () => {
  it('shows a run the backend started after the page opened, without a click', async () => {
    renderWidget(<ExecutionLogs workflowId={seed.workflowId} />, {
      baseUrl: seed.url,
      getToken: tokenOf('live'),
    });
    await screen.findByText(/no runs/i);
    await runFromBackend('live');
    await waitFor(() => expect(rows()).toHaveLength(1), { timeout: 10_000 });
  });

  it('with live={false}, fetches again only on refreshInlay()', async () => {
    renderWidget(<ExecutionLogs workflowId={seed.workflowId} live={false} />, {
      baseUrl: seed.url,
      getToken: tokenOf('live-event'),
    });
    await screen.findByText(/no runs/i);
    await runFromBackend('live-event');
    // The run exists and nothing polled: the page still shows none until the host says so.
    expect(screen.queryByRole('table')).toBeNull();
    refreshInlay();
    await waitFor(() => expect(rows()).toHaveLength(1), { timeout: 10_000 });
  });
});

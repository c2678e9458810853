// @vitest-environment jsdom
// The run log as a user reads it: what started each run, a status filter, step names, the output without
// the seed's wrapping, error codes as sentences in the user's language, and reruns linked both ways.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ExecutionLogs } from '../../src/index.ts';
import { api, seed, tokenOf } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);

const rows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .filter((r) => !r.classList.contains('inlay-details'));
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);
const panelOf = (row: HTMLElement) => {
  const details = within(row).getByRole('button', { name: /^Details/ });
  return document.getElementById(details.getAttribute('aria-controls')!)!;
};

describe('<ExecutionLogs> run log', () => {
  it('shows what started each run, filters by status, and names steps and errors', async () => {
    const user = userEvent.setup();
    renderWidget(<ExecutionLogs workflowId={seed.runsWorkflowId} live={false} />, {
      baseUrl: seed.url,
      getToken: tokenOf('runs'),
    });
    await screen.findByRole('table');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Started', 'Trigger', 'Duration', 'Status', 'Actions']);
    // Newest first: the failed Initech run, then Globex; the trigger kind and the definition's summary.
    expect(rows().map((r) => cells(r)[1])).toEqual(['Manual · Deal Initech', 'Manual · Deal Globex']);
    expect(rows().map((r) => cells(r)[3])).toEqual(['Failed', 'Succeeded']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'failed');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(cells(rows()[0]!)[1]).toBe('Manual · Deal Initech');

    await user.click(within(rows()[0]!).getByRole('button', { name: /^Details/ }));
    const panel = panelOf(rows()[0]!);
    expect(await within(panel).findByText('Step 1: Check the amount')).toBeTruthy();
    // The code's sentence, the expression's own message below it, and the error shown once (not per run and step).
    expect(within(panel).getByText('A mapping failed on this data.')).toBeTruthy();
    expect(within(panel).getAllByText(/Amount must be positive/)).toHaveLength(1);
    // The trigger data the run started with.
    await user.click(within(panel).getByRole('button', { name: /Trigger data/ }));
    expect(within(panel).getByText('"Initech"')).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'succeeded');
    await waitFor(() => expect(cells(rows()[0]!)[1]).toBe('Manual · Deal Globex'));
    await user.click(within(rows()[0]!).getByRole('button', { name: /^Details/ }));
    const ok = panelOf(rows()[0]!);
    // The output is the step's JSON itself ({deal, amount}), not [[{id, json}]]; the raw shape is one click away.
    const output = within(ok).getByRole('button', { name: /^Output/ });
    expect(output.textContent).toContain('{2 keys}');
    await user.click(output);
    expect(within(ok).getByText('"Globex"')).toBeTruthy();
    const raw = within(ok).getByText('Show raw').closest('details')!;
    expect(within(raw).getByRole('button', { hidden: true }).textContent).toContain('[1 item]');
  });

  it('writes error codes in the user language', async () => {
    const user = userEvent.setup();
    renderWidget(<ExecutionLogs workflowId={seed.runsWorkflowId} live={false} defaultStatus="failed" />, {
      baseUrl: seed.url,
      getToken: tokenOf('runs'),
      locale: 'ja',
    });
    await screen.findByRole('table');
    await waitFor(() => expect(rows()[0]!.textContent).toContain('失敗'));
    await user.click(within(rows()[0]!).getAllByRole('button')[0]!);
    await screen.findByText('このデータでマッピングが失敗しました。');
    expect(screen.getByText(/Amount must be positive/)).toBeTruthy();
    expect(cells(rows()[0]!)[1]).toBe('手動 · Deal Initech');
  });

  it('confirms "Run again" and links the new run and the old one both ways', async () => {
    const user = userEvent.setup();
    renderWidget(<ExecutionLogs workflowId={seed.runsWorkflowId} />, {
      baseUrl: seed.url,
      getToken: tokenOf('runs'),
    });
    await screen.findByRole('table');
    const before = rows().length;
    const globex = rows().find((r) => cells(r)[1]!.includes('Globex'))!;
    const started = globex.querySelector('time')!.textContent!;
    await user.click(within(globex).getByRole('button', { name: /^Run again/ }));
    // Visible, not only announced.
    expect((await screen.findByText('A new run has started.')).className).toBe('inlay-notice');
    // The new run appears by itself (it is queued or running, so the page polls) and names its origin.
    await waitFor(() => expect(rows()).toHaveLength(before + 1), { timeout: 15_000 });
    const fresh = rows()[0]!;
    expect(cells(fresh)[1]).toBe(`Manual · Deal GlobexRerun of the run from ${started}`);
    const logs = await api('GET', `/workflows/${seed.runsWorkflowId}/logs?userId=runs`);
    const original = logs.body.data.find(
      (l: { summary: string; rerunOf: string | null }) => l.summary === 'Deal Globex' && !l.rerunOf,
    );
    expect(logs.body.data[0].rerunOf).toBe(original.executionId);
    // "Rerun of …" opens the original, whose details say which run re-ran it.
    await user.click(within(fresh).getByRole('button', { name: started }));
    const origRow = rows().find((r) => r.id.endsWith(original.executionId))!;
    const panel = panelOf(origRow);
    expect(panel.textContent).toContain(`Rerun: ${fresh.querySelector('time')!.textContent!}`);
    expect(
      within(panel).getByRole('button', { name: fresh.querySelector('time')!.textContent! }),
    ).toBeTruthy();
  });
});

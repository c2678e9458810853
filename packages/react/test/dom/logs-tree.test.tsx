// @vitest-environment jsdom
// biome-ignore-all lint/suspicious/noThenProperty: `then` is the if step's branch, as the definition spells it
import { randomUUID } from 'node:crypto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ExecutionLogs } from '../../src/index.ts';
import { api, seed } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);

describe('<ExecutionLogs> with control flow', () => {
  it('shows nested steps as a tree, with each forEach iteration collapsible', async () => {
    const user = userEvent.setup();
    const inner = {
      id: randomUUID(),
      connector: 'transform',
      action: 'map',
      input: { expression: 'item * 10' },
    };
    const loop = { id: randomUUID(), type: 'forEach', items: '{{ [1, 2] }}', steps: [inner] };
    const gate = { id: randomUUID(), type: 'if', condition: '{{ true }}', then: [loop], else: [] };
    const integration = await api('POST', '/integrations', { name: 'Tree' });
    const wf = await api('POST', '/workflows', {
      integrationId: integration.body.integrationId,
      name: 'Tree',
      definition: { trigger: { type: 'manual' }, steps: [gate] },
    });
    expect(wf.status).toBe(201);
    const workflowId = wf.body.workflowId;
    const made = await api('POST', '/users', { username: `tree-${randomUUID().slice(0, 8)}` });
    const userId = made.body.userId;
    const inst = await api('POST', '/installations', {
      userId,
      workflowIds: [workflowId],
      credentialIds: {},
      values: [],
    });
    expect(inst.status).toBe(201);
    await api('POST', '/run/workflow', { workflowId, userId, data: {} });
    await waitFor(
      async () => {
        const logs = await api('GET', `/workflows/${workflowId}/logs?userId=${userId}`);
        expect(logs.body.data[0]?.status).toBe('succeeded');
      },
      { timeout: 30_000, interval: 200 },
    );
    const getToken = async () => (await api('GET', `/users/${userId}/token`)).body;

    renderWidget(<ExecutionLogs workflowId={workflowId} />, { baseUrl: seed.url, getToken });
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('button', { name: /^Details/ }));
    const head = await screen.findByText('Step 1: if · then');
    const ifItem = head.closest('li')!;
    // The forEach sits inside the if, and its transforms inside collapsed iterations.
    const loopItem = within(ifItem).getByText('Step 2: forEach').closest('li')!;
    // Iterations, not the "Show raw" disclosure each step has.
    const iterations = [...loopItem.querySelectorAll<HTMLDetailsElement>('details:not(.inlay-raw)')];
    expect(iterations.map((d) => d.querySelector('summary')!.textContent)).toEqual([
      'Iteration 1',
      'Iteration 2',
    ]);
    expect(iterations.every((d) => !d.open)).toBe(true);
    expect(within(iterations[1]!).getByText('Step 4: transform · map')).toBeTruthy();
    await user.click(iterations[0]!.querySelector('summary')!);
    expect(iterations[0]!.open).toBe(true);
  }, 60_000);

  it('files the steps of a forEach in a forEach under their own outer iteration, though the outer one runs side by side', async () => {
    const user = userEvent.setup();
    const cell = {
      id: randomUUID(),
      connector: 'transform',
      action: 'map',
      input: { expression: 'order * 10 + line' },
    };
    const inner = { id: randomUUID(), type: 'forEach', items: '{{ [0, 1] }}', as: 'line', steps: [cell] };
    const outer = {
      id: randomUUID(),
      type: 'forEach',
      items: '{{ [0, 1, 2] }}',
      as: 'order',
      concurrency: 3,
      steps: [inner],
    };
    const { workflowId, userId, entry } = await runInstalled('Grid', [outer]);
    // The three inner loops start together, so all of them come before any of their steps in the log: the
    // parent id and innermost index alone cannot tell which outer iteration a step belongs to.
    expect(entry.results.slice(0, 4).map((r: any) => r.stepId)).toEqual([
      outer.id,
      inner.id,
      inner.id,
      inner.id,
    ]);
    const getToken = async () => (await api('GET', `/users/${userId}/token`)).body;

    renderWidget(<ExecutionLogs workflowId={workflowId} />, { baseUrl: seed.url, getToken });
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('button', { name: /^Details/ }));
    const outerItem = (await screen.findByText('Step 1: forEach')).closest('li')!;
    const rounds = [...outerItem.querySelectorAll<HTMLDetailsElement>(':scope > details:not(.inlay-raw)')];
    expect(rounds.map((d) => d.querySelector('summary')!.textContent)).toEqual([
      'Iteration 1',
      'Iteration 2',
      'Iteration 3',
    ]);
    rounds.forEach((round, k) => {
      const loops = within(round).getAllByText(/^Step \d+: forEach$/);
      expect(loops).toHaveLength(1);
      const cells = within(round)
        .getAllByText(/^Step \d+: transform · map$/)
        .map((el) => Number(/\d+/.exec(el.textContent!)![0]) - 1);
      // Both steps of this outer iteration, each computed in it.
      expect(cells.map((i) => entry.results[i].iterationPath)).toEqual([
        [k, 0],
        [k, 1],
      ]);
      expect(cells.map((i) => entry.results[i].data[0][0].json.value)).toEqual([k * 10, k * 10 + 1]);
    });
  }, 60_000);
});

/** Publishes a manual workflow of `steps`, installs it for a new user, runs it and returns its log entry. */
async function runInstalled(name: string, steps: unknown[]) {
  const integration = await api('POST', '/integrations', { name });
  const wf = await api('POST', '/workflows', {
    integrationId: integration.body.integrationId,
    name,
    definition: { trigger: { type: 'manual' }, steps },
  });
  expect(wf.status).toBe(201);
  const workflowId = wf.body.workflowId as string;
  const made = await api('POST', '/users', { username: `tree-${randomUUID().slice(0, 8)}` });
  const userId = made.body.userId as string;
  const inst = await api('POST', '/installations', {
    userId,
    workflowIds: [workflowId],
    credentialIds: {},
    values: [],
  });
  expect(inst.status).toBe(201);
  await api('POST', '/run/workflow', { workflowId, userId, data: {} });
  let entry: any;
  await waitFor(
    async () => {
      const logs = await api('GET', `/workflows/${workflowId}/logs?userId=${userId}`);
      entry = logs.body.data[0];
      expect(entry?.status).toBe('succeeded');
    },
    { timeout: 30_000, interval: 200 },
  );
  return { workflowId, userId, entry };
}

// @vitest-environment jsdom
// <Connections> keeps a failure next to the control that failed: a refused disconnect in its confirmation
// (then beside the account's buttons once cancelled), a refused rename under that account, never above the
// list; each as the code's sentence with the service's detail collapsed.
import { createUserClient } from '@inlay/client';
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import en from '../../src/i18n/locales/en.ts';
import { Connections, InlayProvider } from '../../src/index.ts';

afterEach(cleanup);

const cred = (credentialId: string, name: string) => ({
  credentialId,
  userId: 'u1',
  connector: 'discord',
  name,
  type: 'apiKey',
  status: 'connected',
  statusReason: null,
  statusChangedAt: '2026-11-01T00:00:00.000Z',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status < 300 ? 'application/json' : 'application/problem+json' },
  });

/** A service with two accounts that refuses to delete (503) or rename (409) them. */
const client = createUserClient({
  baseUrl: 'http://inlay.invalid',
  getToken: () => 'token',
  fetch: async (input, init) => {
    const { pathname } = new URL(String(input));
    const method = init?.method ?? 'GET';
    if (method === 'DELETE')
      return json(503, { status: 503, code: 'unavailable', title: 'Unavailable', detail: 'Vault sealed' });
    if (method === 'PATCH')
      return json(409, { status: 409, code: 'conflict', title: 'Conflict', detail: 'body.label: taken' });
    if (pathname === '/credentials')
      return json(200, { data: [cred('c1', 'Ops bot'), cred('c2', 'Sales bot')] });
    return json(200, { data: [] });
  },
});

it('shows a refused disconnect in its confirmation, and a refused rename under its account', async () => {
  const user = userEvent.setup();
  const { container } = render(
    <InlayProvider client={client}>
      <Connections />
    </InlayProvider>,
  );
  const card = (name: string) => screen.getByRole('heading', { name: new RegExp(`^${name}`) }).closest('li')!;
  await user.click(await screen.findByRole('button', { name: 'Disconnect: Ops bot' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Disconnect Ops bot?' });
  await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
  const inDialog = await within(dialog).findByRole('alert');
  expect(inDialog.querySelector('p')!.textContent).toBe(en['code.internal']);
  expect(inDialog.querySelector('details')!.open).toBe(false);
  expect(inDialog.querySelector('details code')!.textContent).toContain('Vault sealed');
  expect(container.querySelectorAll('[role=alert]')).toHaveLength(0);

  // Cancelled: the failure stays beside that account's buttons, not the other's, not above the list.
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  const beside = within(card('Ops bot')).getByRole('alert');
  expect(beside.querySelector('p')!.textContent).toBe(en['code.internal']);
  expect(within(card('Sales bot')).queryByRole('alert')).toBeNull();

  await user.click(screen.getByRole('button', { name: 'Rename: Sales bot' }));
  await user.type(screen.getByLabelText('Rename'), ' 2{Enter}');
  const renameError = await within(card('Sales bot')).findByRole('alert');
  expect(renameError.querySelector('p')!.textContent).toBe(en['code.conflict']);
  expect(renameError.querySelector('details code')!.textContent).toMatch(
    /conflict · HTTP 409[\s\S]*body\.label: taken/,
  );
  expect(within(card('Ops bot')).queryByRole('alert')).toBeNull();
  expect(container.querySelectorAll('.inlay-connections > [role=alert]')).toHaveLength(0);
});

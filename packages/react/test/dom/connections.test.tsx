// @vitest-environment jsdom
// useConnections against the real service: the user's accounts with label and status, renamed and
// disconnected through the hook.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Connections, InstallModal, useConnections } from '../../src/index.ts';
import { GOOD_TOKEN } from '../constants.ts';
import { api, seed } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);

function Accounts() {
  const c = useConnections();
  if (!c.data) return <p>loading</p>;
  return (
    <ul>
      {c.data.map(({ credential: cred, workflows }) => (
        <li key={cred.credentialId}>
          <span>{`${cred.name} · ${cred.accountLabel ?? '-'} · ${cred.status} · ${workflows.length}`}</span>
          <button type="button" onClick={() => c.rename(cred.credentialId, 'Ops bot')}>
            rename
          </button>
          <button type="button" onClick={() => c.disconnect(cred.credentialId)}>
            disconnect
          </button>
        </li>
      ))}
    </ul>
  );
}

describe('useConnections', () => {
  it('lists the user’s accounts with label and status; rename and disconnect go to the service', async () => {
    const userId = (await api('POST', '/users', { username: `conn-${Date.now()}` })).body.userId;
    const cred = await api('POST', '/credentials', {
      userId,
      connector: 'discord',
      data: { botToken: GOOD_TOKEN, guildId: '123456789012345678' },
    });
    expect(cred.status).toBe(201);
    renderWidget(<Accounts />, {
      baseUrl: seed.url,
      getToken: async () => (await api('GET', `/users/${userId}/token`)).body,
    });
    await screen.findByText(/^Discord · .+ · connected · 0$/);
    fireEvent.click(screen.getByRole('button', { name: 'rename' }));
    await screen.findByText(/^Ops bot · /, {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'disconnect' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'disconnect' })).toBeNull(), {
      timeout: 10_000,
    });
    expect((await api('GET', `/credentials?userId=${userId}`)).body.data).toEqual([]);
  });
});

describe('<Connections>', () => {
  it('shows each account with its label and status; Rename and Disconnect (confirmed) from the keyboard', async () => {
    const user = userEvent.setup();
    const userId = (await api('POST', '/users', { username: `conn-ui-${Date.now()}` })).body.userId;
    const cred = await api('POST', '/credentials', {
      userId,
      connector: 'discord',
      data: { botToken: GOOD_TOKEN, guildId: '123456789012345678' },
    });
    expect(cred.status).toBe(201);
    renderWidget(<Connections />, {
      baseUrl: seed.url,
      getToken: async () => (await api('GET', `/users/${userId}/token`)).body,
    });
    await screen.findByRole('heading', { name: /^Discord/ });
    expect(screen.getByText('Connected')).toBeTruthy();
    expect(screen.getByText('Not used by any workflow')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Rename: Discord' }));
    const input = screen.getByLabelText('Rename');
    await user.clear(input);
    await user.type(input, 'Ops bot{Enter}');
    await screen.findByRole('heading', { name: /^Ops bot/ }, { timeout: 10_000 });
    // The heading can show the new name before the rename form closes: wait for the card's actions too.
    await user.click(await screen.findByRole('button', { name: 'Disconnect: Ops bot' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disconnect Ops bot?' });
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await screen.findByText('No connected accounts yet.', {}, { timeout: 10_000 });
    expect((await api('GET', `/credentials?userId=${userId}`)).body.data).toEqual([]);
  });
});

describe('<InstallModal> account picker', () => {
  it('a second install preselects the connected account, shown with its provider label', async () => {
    const user = userEvent.setup();
    const userId = (await api('POST', '/users', { username: `second-${Date.now()}` })).body.userId;
    const older = await api('POST', '/credentials', {
      userId,
      connector: 'discord',
      data: { botToken: GOOD_TOKEN, guildId: '123456789012345678' },
    });
    const newer = await api('POST', '/credentials', {
      userId,
      connector: 'discord',
      name: 'Ops bot',
      data: { botToken: GOOD_TOKEN, guildId: '123456789012345678' },
    });
    expect([older.status, newer.status]).toEqual([201, 201]);
    renderWidget(<InstallModal workflowId={seed.discordWorkflowId} defaultOpen />, {
      baseUrl: seed.url,
      getToken: async () => (await api('GET', `/users/${userId}/token`)).body,
    });
    const dialog = await screen.findByRole('dialog', { name: 'Install Announce won deals on Discord' });
    // Both accounts with their label; the most recent one is chosen without a click.
    const picked = await within(dialog).findByRole('radio', { name: /^Ops bot/ });
    await waitFor(() => expect(picked).toHaveProperty('checked', true));
    expect(within(dialog).getByRole('radio', { name: /^Discord/ })).toHaveProperty('checked', false);
    expect((picked as HTMLInputElement).value).toBe(newer.body.data.credentialId);
    expect(picked.closest('label')?.textContent).toBe('Ops bot · bot');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByRole('heading', { name: /Step 2 of 3/ });
  });
});

// @vitest-environment jsdom
import type { Installation } from '@inlay/client';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { InstallModal } from '../../src/index.ts';
import { GOOD_TOKEN } from '../constants.ts';
import { api, seed, tokenOf } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);
const props = () => ({ baseUrl: seed.url, getToken: tokenOf('install') });
const NAME = 'Announce won deals on Discord';

describe('<InstallModal> against the service', () => {
  let installationId = '';
  let credentialId = '';

  it('installs with an API-key credential: provider error inline, then connect, configure, review', async () => {
    const user = userEvent.setup();
    const installed: Installation[] = [];
    const { events } = renderWidget(
      <InstallModal workflowId={seed.discordWorkflowId} defaultOpen onInstalled={(i) => installed.push(i)} />,
      props(),
    );
    const dialog = await screen.findByRole('dialog', { name: `Install ${NAME}` });
    await within(dialog).findByRole('heading', { name: /Step 1 of 3/ });
    // The accounts step's picker arrives on demand; with no account yet it offers the key form.
    await within(dialog).findByLabelText(/Bot token/);

    // Next without an account is refused, named.
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    const needAccount = within(dialog).getByText('Choose or connect a Discord account to continue.');
    // The account's box is the highlighted field: marked, described by the message, and focused.
    const box = within(dialog).getByRole('group', { name: /Discord/ });
    expect(box.classList).toContain('inlay-invalid');
    expect(box.getAttribute('aria-describedby')).toBe(needAccount.id);
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText(/Bot token/)));

    // A token the provider refuses: a sentence inline, the provider's reason in the collapsed technical
    // details, and nothing is stored.
    await user.type(within(dialog).getByLabelText(/Bot token/), 'bot-token-bad');
    await user.type(within(dialog).getByLabelText(/Server id/), '123456789012345678');
    await user.click(within(dialog).getByRole('button', { name: 'Save and connect' }));
    const sentence = await within(dialog).findByText('This was not accepted. Check it and try again.');
    const refusal = sentence.closest('[role=alert]')!;
    const details = refusal.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('code')!.textContent).toMatch(
      /unprocessable · HTTP 422[\s\S]*Discord rejected the credential/,
    );
    expect(
      within(dialog)
        .getByLabelText(/Bot token/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect((await api('GET', '/credentials?userId=install')).body.data).toEqual([]);

    await user.clear(within(dialog).getByLabelText(/Bot token/));
    await user.type(within(dialog).getByLabelText(/Bot token/), GOOD_TOKEN);
    await user.click(within(dialog).getByRole('button', { name: 'Save and connect' }));
    const radio = await within(dialog).findByRole('radio', { name: /^Discord\b/ });
    expect(radio).toHaveProperty('checked', true);
    credentialId = (radio as HTMLInputElement).value;
    expect(events).toContainEqual({
      type: 'connected',
      connector: 'discord',
      credentialId,
      method: 'apiKey',
    });

    // Step 2: fields by type, the channel list comes from the provider with the new credential.
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByRole('heading', { name: /Step 2 of 3/ });
    const channel = within(dialog).getByRole('combobox', { name: /Channel/ });
    await waitFor(() =>
      expect(
        within(channel)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Choose…', '#general', '#deals']),
    );
    expect(
      within(dialog)
        .getByRole('textbox', { name: /Message prefix/ })
        .getAttribute('aria-required'),
    ).toBe('true');
    expect(within(dialog).getByRole('checkbox', { name: 'Allow mentions' })).toBeTruthy();

    // Inline validation: required and number, tied to their inputs.
    await user.type(within(dialog).getByRole('textbox', { name: 'Minimum amount' }), 'lots');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByText('Channel is required.')).toBeTruthy();
    expect(within(dialog).getByText('Message prefix is required.')).toBeTruthy();
    const amount = within(dialog).getByRole('textbox', { name: 'Minimum amount' });
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(amount.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Minimum amount must be a number.',
    );
    expect(channel.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(channel.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Channel is required.',
    );
    // The first highlighted field takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(channel));

    await user.selectOptions(channel, '222222222222222222');
    await user.type(within(dialog).getByRole('textbox', { name: /Message prefix/ }), 'Won:');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Allow mentions' }));
    await user.clear(amount);
    await user.type(amount, '100');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));

    // Step 3: review, then install.
    await within(dialog).findByRole('heading', { name: /Step 3 of 3/ });
    const review = within(dialog)
      .getAllByRole('definition')
      .map((d) => d.textContent);
    // The account by the label the provider gave it (the fake Discord's bot user), not the app's name again;
    // the channel's label as the provider lists it, not its id.
    expect(review).toEqual(['bot', '#deals', 'Won:', 'Yes', '100']);
    await user.click(within(dialog).getByRole('button', { name: 'Install' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    expect(installed).toHaveLength(1);
    installationId = installed[0]!.installationId;
    const stored = (await api('GET', `/installations/${installationId}`)).body.data;
    expect(stored.credentialIds).toEqual({ discord: credentialId });
    expect(stored.formData[0].fields.map((f: { name: string; value: unknown }) => [f.name, f.value])).toEqual(
      [
        ['channel', '222222222222222222'],
        ['prefix', 'Won:'],
        ['mentions', true],
        ['minAmount', 100],
      ],
    );
    // The refused token was reported as an `error` event.
    expect(events.map((e) => e.type)).toEqual(['opened', 'error', 'connected', 'installed', 'closed']);
  });

  it('edits the installation in the same modal, opened on the configure step, prefilled, and saves with PATCH', async () => {
    const user = userEvent.setup();
    renderWidget(<InstallModal workflowId={seed.discordWorkflowId} defaultOpen />, props());
    const dialog = await screen.findByRole('dialog', { name: `Settings of ${NAME}` });
    // Editing opens where changes are made; the account is one Back away.
    await within(dialog).findByRole('heading', { name: /Step 2 of 3/ });
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    await within(dialog).findByRole('heading', { name: /Step 1 of 3/ });
    expect(await within(dialog).findByRole('radio', { name: /^Discord\b/ })).toHaveProperty('checked', true);
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    const prefix = within(dialog).getByRole('textbox', { name: /Message prefix/ });
    expect(prefix).toHaveProperty('value', 'Won:');
    await user.clear(prefix);
    await user.type(prefix, 'Closed:');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByRole('heading', { name: /Step 3 of 3/ });
    expect(within(dialog).getByText('#deals')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const stored = (await api('GET', `/installations/${installationId}`)).body.data;
    expect(stored.formData[0].fields[1]).toMatchObject({ name: 'prefix', value: 'Closed:' });
  });

  it('puts an error the service names back on its step', async () => {
    const user = userEvent.setup();
    // A second credential, deleted behind the modal's back after it is picked.
    const extra = await api('POST', '/credentials', {
      userId: 'install',
      connector: 'discord',
      name: 'Spare bot',
      data: { botToken: GOOD_TOKEN, guildId: '123456789012345678' },
    });
    expect(extra.status).toBe(201);
    renderWidget(<InstallModal workflowId={seed.discordWorkflowId} defaultOpen />, props());
    const dialog = await screen.findByRole('dialog', { name: `Settings of ${NAME}` });
    await within(dialog).findByRole('heading', { name: /Step 2 of 3/ });
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    await user.click(await within(dialog).findByRole('radio', { name: /^Spare bot\b/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByRole('heading', { name: /Step 3 of 3/ });
    expect((await api('DELETE', `/credentials/${extra.body.data.credentialId}?userId=install`)).status).toBe(
      200,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await within(dialog).findByRole('heading', { name: /Step 1 of 3/ });
    const group = within(dialog).getByRole('group', { name: /Discord account/ });
    expect(document.getElementById(group.getAttribute('aria-describedby')!)!.textContent).toBe(
      'no Discord credential of this user has this id',
    );
    expect(within(dialog).getByRole('alert').textContent).toMatch(/body\.credentialIds\.discord/);
  });

  it('closes on Escape and gives the focus back', async () => {
    const user = userEvent.setup();
    const changes: boolean[] = [];
    renderWidget(
      <InstallModal workflowId={seed.stripeWorkflowId} defaultOpen onOpenChange={(o) => changes.push(o)} />,
      props(),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Install Look up Stripe customers' });
    await within(dialog).findByRole('heading', { name: /Step 1 of 2/ });
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(changes).toEqual([false]);
  });

  it('renders every field type, skips the connect step when no account is needed, and sends typed values', async () => {
    const user = userEvent.setup();
    const installed: Installation[] = [];
    renderWidget(
      <InstallModal workflowId={seed.fieldsWorkflowId} defaultOpen onInstalled={(i) => installed.push(i)} />,
      props(),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Install Every field type' });
    await within(dialog).findByRole('heading', { name: /Step 1 of 2 Configure/ });
    const title = within(dialog).getByRole('textbox', { name: /Title/ });
    const body = within(dialog).getByRole('textbox', { name: 'Body' });
    expect(body.tagName).toBe('TEXTAREA');
    expect(document.getElementById(body.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Markdown is fine',
    );
    const ratio = within(dialog).getByRole('textbox', { name: 'Ratio' });
    expect(ratio).toHaveProperty('value', '1'); // the field's default
    expect(ratio.getAttribute('inputmode')).toBe('decimal');
    const level = within(dialog).getByRole('combobox', { name: /Level/ });
    expect(
      within(level)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose…', 'Low', 'High']);
    const tags = within(dialog).getByRole('group', { name: 'Tags' });
    expect(
      within(tags)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement!.textContent),
    ).toEqual(['Alpha', 'Beta', 'Gamma']);

    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByText('Title is required.')).toBeTruthy();
    expect(within(dialog).getByText('Level is required.')).toBeTruthy();
    await user.type(title, 'Weekly report');
    await user.type(body, 'Hello');
    await user.clear(ratio);
    await user.type(ratio, '2.5');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Notify' }));
    await user.selectOptions(level, 'high');
    await user.click(within(tags).getByRole('checkbox', { name: 'Alpha' }));
    await user.click(within(tags).getByRole('checkbox', { name: 'Gamma' }));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByRole('heading', { name: /Step 2 of 2/ });
    expect(
      within(dialog)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(['Weekly report', 'Hello', '2.5', 'Yes', 'High', 'Alpha, Gamma']);
    await user.click(within(dialog).getByRole('button', { name: 'Install' }));
    await waitFor(() => expect(installed).toHaveLength(1));
    const stored = (await api('GET', `/installations/${installed[0]!.installationId}`)).body.data;
    expect(stored.credentialIds).toEqual({});
    expect(stored.formData[0].fields.map((f: { name: string; value: unknown }) => [f.name, f.value])).toEqual(
      [
        ['title', 'Weekly report'],
        ['body', 'Hello'],
        ['ratio', 2.5],
        ['notify', true],
        ['level', 'high'],
        ['tags', ['a', 'c']],
      ],
    );
  });
});

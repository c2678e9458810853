import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccount } from '@inlay/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, hasChromium, signIn, startConsole, watch } from './harness.ts';

// The Overview's installations that cannot run, in Chromium: a user's account disconnected while a workflow of
// theirs uses it, and the row that says so.

const KEY = 'desk-key-4f1a';
let h: ConsoleHarness;
/** A stand-in provider that accepts KEY, so the user's account connects (its own process: a real HTTP server). */
let provider: Server;
let providerUrl: string;

beforeAll(async () => {
  if (!hasChromium) return;
  provider = createServer((req, res) => {
    req.resume();
    const ok = req.headers['x-desk-key'] === KEY;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end(ok ? '{"tickets":[]}' : '{}');
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  h = await startConsole({ INLAY_EGRESS_ALLOW: new URL(providerUrl).host });
});
afterAll(async () => {
  await h?.close();
  await new Promise<void>((r) => (provider ? provider.close(() => r()) : r()));
});

describe.skipIf(!hasChromium)('the Overview', () => {
  it('lists an installation whose account was disconnected, with the user, the workflow and what it needs', async () => {
    const { apiKey } = await createAccount(h.app.context.db, 'Overview account');
    const api = <T = any>(method: string, path: string, body?: unknown) =>
      h.api<T>(apiKey, method, path, body);
    await api('POST', '/connectors', {
      id: 'desk',
      name: 'Support Desk',
      description: 'Tickets',
      category: 'support',
      icon: 'desk',
      baseUrl: providerUrl,
      auth: {
        type: 'apiKey',
        in: 'header',
        name: 'x-desk-key',
        fields: [{ name: 'apiKey', label: 'API key', type: 'password', required: true, secret: true }],
      },
      actions: [
        {
          id: 'list_tickets',
          name: 'List tickets',
          description: 'Lists tickets',
          kind: 'read',
          input: { type: 'object', properties: {} },
          request: { method: 'GET', path: '/tickets' },
        },
      ],
    });
    const { integrationId } = await api('POST', '/integrations', { name: 'Support' });
    const { workflowId } = await api('POST', '/workflows', {
      integrationId,
      name: 'Triage tickets',
      definition: {
        trigger: { type: 'manual' },
        steps: [{ id: randomUUID(), connector: 'desk', action: 'list_tickets', input: {} }],
      },
    });
    const user = await api('POST', '/users', { username: 'carol' });
    const { data: credential } = await api('POST', '/credentials', {
      userId: 'carol',
      connector: 'desk',
      data: { apiKey: KEY },
    });
    await api('POST', '/installations', {
      userId: 'carol',
      workflowIds: [workflowId],
      credentialIds: { desk: credential.credentialId },
      values: [],
    });

    const context = await h.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { checkPage } = watch(page, 'light');
    await page.goto(`${h.origin}/console`);
    await signIn(page, apiKey);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const section = page.getByRole('region', { name: 'Installations that cannot run' });
    await section.getByText('None: every installation has a working account for each app.').waitFor();

    // Disconnected as the user's widget does it, confirmed (`detach=true`): the installation stays, without it.
    await api('DELETE', `/credentials/${credential.credentialId}?userId=carol&detach=true`);
    await page.reload();
    const table = page.getByRole('table', { name: 'Installations that cannot run' });
    await table.waitFor();
    const cells = await table.locator('tbody tr').first().locator('td').allTextContents();
    expect(await table.locator('tbody tr').count()).toBe(1);
    expect(cells[0]).toBe(user.userId);
    expect(cells[1]).toBe('Triage tickets');
    expect(cells[2]).toBe(
      'No Support Desk account is chosen for this workflow, so it cannot run. Open Configure and choose one.',
    );
    expect(cells[3]).toMatch(/\d{4}, \d\d:\d\d:\d\d/);
    await checkPage('overview with an installation that cannot run');
    await context.close();
  });
});

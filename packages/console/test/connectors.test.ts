import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccount, type InlayApp } from '@inlay/service';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleHarness,
  choose,
  hasChromium,
  navigateTo,
  press,
  seriousViolations,
  signIn,
  startConsole,
  tabTo,
  typeInto,
  watch,
} from './harness.ts';

// The Connectors page end to end: custom connectors written in the JSON editor and imported from OpenAPI,
// and the proxy tried against a real fake provider on 127.0.0.1.

const PROVIDER_KEY = 'acme-key-51c2';
/** The key of carol's second Acme connection, which the fake provider refuses (401). */
const SECOND_KEY = 'acme-key-second-7e0a';

let h: ConsoleHarness;
let app: InlayApp;
let provider: Server;
let providerUrl: string;
let origin: string;
let apiKey: string;
let browser: Browser;
/** The `x-acme-key` of every request the fake provider got. */
const seenKeys: (string | undefined)[] = [];

const readBody = async (req: IncomingMessage) => {
  let s = '';
  for await (const chunk of req) s += chunk;
  return s;
};

/**
 * A fake CRM: contacts as JSON (the API key required), a big text body, echo of what was posted, and a second
 * API (`/files`, the connector's named API `files`) that answers with the path it got.
 */
function startProvider() {
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const key = req.headers['x-acme-key'] as string | undefined;
    seenKeys.push(key);
    const body = await readBody(req);
    if (key !== PROVIDER_KEY) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"bad key"}');
      return;
    }
    if (url.pathname === '/v1/contacts' && req.method === 'GET') {
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const contacts = [
        { id: 'c1', email: 'ada@acme.test' },
        { id: 'c2', email: 'grace@acme.test' },
        { id: 'c3', email: 'alan@acme.test' },
      ].slice(0, limit);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ contacts }));
    } else if (url.pathname === '/v1/contacts' && req.method === 'POST') {
      res.writeHead(201, { 'content-type': 'application/json' }).end(body);
    } else if (url.pathname.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ file: url.pathname }));
    } else if (url.pathname === '/v1/export') {
      res.writeHead(200, { 'content-type': 'text/csv' }).end(`id,email\n${'c9,x@acme.test\n'.repeat(5000)}`);
    } else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route');
  });
}

const api = <T = any>(method: string, path: string, body?: unknown) => h.api<T>(apiKey, method, path, body);

beforeAll(async () => {
  if (!hasChromium) return;
  provider = startProvider();
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  // The fake provider is on loopback, which the egress policy refuses unless the operator opens it.
  h = await startConsole({ INLAY_EGRESS_ALLOW: new URL(providerUrl).host });
  ({ app, origin, browser } = h);
});

afterAll(async () => {
  await h?.close();
  await new Promise<void>((r) => (provider ? provider.close(() => r()) : r()));
});

/** The custom connector typed into the editor: the fake CRM, its key in a header. */
const acme = (extra: Record<string, unknown> = {}) => ({
  id: 'acme',
  name: 'Acme CRM',
  description: 'Contacts in Acme',
  category: 'crm',
  icon: 'acme',
  baseUrl: `${providerUrl}/v1`,
  apis: { files: `${providerUrl}/files` },
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'x-acme-key',
    fields: [{ name: 'apiKey', label: 'API key', type: 'password', required: true, secret: true }],
  },
  actions: [
    {
      id: 'list_contacts',
      name: 'List contacts',
      description: 'Lists contacts',
      kind: 'read',
      input: { type: 'object', properties: {} },
      request: { method: 'GET', path: '/contacts' },
      output: 'contacts',
    },
  ],
  ...extra,
});

/** A small OpenAPI document, as a user would paste it: two operations, one with a cookie parameter dropped. */
const petsYaml = () => `openapi: 3.0.3
info: { title: Pet store, version: "1" }
servers: [{ url: "${providerUrl}/v1" }]
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets
      parameters:
        - { name: limit, in: query, schema: { type: integer } }
        - { name: session, in: cookie, schema: { type: string } }
      responses: { "200": { description: ok } }
  /pets/{petId}:
    get:
      operationId: getPet
      summary: Get a pet
      parameters:
        - { name: petId, in: path, required: true, schema: { type: integer } }
      responses: { "200": { description: ok } }
`;

/** Replaces an editor's (or a text area's) whole text from the keyboard, as a paste would. */
async function pasteInto(page: Page, target: Locator, text: string) {
  await tabTo(page, target);
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}
const editorNamed = (page: Page, name: string) => page.getByRole('textbox', { name });

/** Picks one of a user's credentials by its id, with the arrow keys (the options read name, status, id). */
async function chooseCredential(page: Page, pick: Locator, credentialId: string) {
  const label = await pick.locator(`option[value="${credentialId}"]`).textContent();
  await choose(page, pick, label ?? '');
}

describe.skipIf(!hasChromium).each(['light', 'dark'] as const)(
  'the Connectors page in Chromium, %s',
  (scheme) => {
    it('creates, edits and deletes custom connectors, imports OpenAPI and tries the proxy', async () => {
      ({ apiKey } = await createAccount(app.context.db, `Connectors ${scheme}`));
      await api('POST', '/users', { username: 'carol' });
      await api('POST', '/users', { username: 'dave' });
      const context = await browser.newContext({
        colorScheme: scheme,
        viewport: { width: 1280, height: 900 },
      });
      const page = await context.newPage();
      const { errors, checkPage } = watch(page, scheme);

      await page.goto(`${origin}/console/connectors`);
      await signIn(page, apiKey);
      await page.getByRole('heading', { name: 'Connectors', level: 1 }).waitFor();
      await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(5);
      expect(await page.locator('.badge-custom').count()).toBe(0);

      // New connector, from the keyboard: the editor starts from a template the schema accepts.
      const newButton = page.getByRole('button', { name: 'New connector' });
      await press(page, newButton);
      expect(await newButton.getAttribute('aria-expanded')).toBe('true');
      const template = page.getByRole('textbox', { name: 'New connector definition' });
      await template.waitFor();
      expect(await template.textContent()).toContain('"baseUrl"');
      await checkPage('new connector');
      // A category outside the schema's enum is listed by the linter, and Create stays off.
      await pasteInto(
        page,
        editorNamed(page, 'New connector definition'),
        JSON.stringify(acme({ category: 'toys' }), null, 2),
      );
      await expect.poll(() => page.locator('.lint').first().textContent()).toMatch(/^category: /);
      const create = page.getByRole('button', { name: 'Create connector' });
      expect(await create.isDisabled()).toBe(true);
      await pasteInto(page, editorNamed(page, 'New connector definition'), JSON.stringify(acme(), null, 2));
      await expect.poll(() => create.isDisabled()).toBe(false);
      await press(page, create);
      await page.getByRole('heading', { name: 'Acme CRM', level: 1 }).waitFor();
      expect(page.url()).toBe(`${origin}/console/connectors/acme`);
      await page.getByText('Custom, version 1').waitFor();
      expect((await api('GET', '/connectors/acme/definition')).data.definition).toEqual(acme());

      // Edit: the stored definition in the editor. What only the service checks comes back naming the field.
      const editorName = 'Definition of Acme CRM';
      await page.getByRole('heading', { name: 'Definition (version 1)' }).waitFor();
      await expect
        .poll(() => page.getByRole('textbox', { name: editorName }).textContent())
        .toContain('list_contacts');
      await checkPage('custom connector');
      const bad = acme();
      bad.actions[0]!.output = '$$$(';
      await pasteInto(page, editorNamed(page, editorName), JSON.stringify(bad, null, 2));
      const save = page.getByRole('button', { name: 'Save new version' });
      await expect.poll(() => save.isDisabled()).toBe(false);
      await press(page, save);
      const refused = page.locator('.error-list');
      await refused.waitFor();
      expect(await refused.textContent()).toContain('body.actions[0].output');
      expect(await refused.textContent()).toContain('JSONata');
      expect((await api('GET', '/connectors/acme/definition')).data.version).toBe(1);
      await checkPage('custom connector refused');
      await pasteInto(
        page,
        editorNamed(page, editorName),
        JSON.stringify(acme({ description: 'Contacts and deals in Acme' }), null, 2),
      );
      await press(page, save);
      await page.getByText('Saved version 2.').waitFor();
      await page.getByRole('heading', { name: 'Definition (version 2)' }).waitFor();
      const v2 = (await api('GET', '/connectors/acme/definition')).data;
      expect(v2).toMatchObject({ version: 2, definition: { description: 'Contacts and deals in Acme' } });

      // Versions: every one from 1 to the current, the one before it shown read-only by default.
      const versionSelect = page.getByLabel('Version', { exact: true });
      await versionSelect.waitFor();
      expect(await versionSelect.locator('option').allTextContents()).toEqual([
        'Version 2 (current)',
        'Version 1',
      ]);
      expect(await versionSelect.inputValue()).toBe('1');
      const v1View = page.getByRole('region', { name: 'Version 1 of Acme CRM' });
      await v1View.waitFor();
      expect(JSON.parse((await v1View.textContent()) ?? '')).toEqual(acme());
      await checkPage('connector versions');
      // The current one can be read too; then version 1, loaded into the editor from the keyboard, is published
      // again as version 3.
      await choose(page, versionSelect, 'Version 2 (current)');
      const v2View = page.getByRole('region', { name: 'Version 2 of Acme CRM' });
      await v2View.waitFor();
      expect(JSON.parse((await v2View.textContent()) ?? '')).toEqual(v2.definition);
      await press(page, versionSelect, 'ArrowDown');
      await v1View.waitFor();
      const load = page.getByRole('button', { name: 'Load version 1 into the editor' });
      await press(page, load);
      await page.getByText('Version 1 is in the editor: saving publishes it as version 3.').waitFor();
      // CodeMirror renders the lines in and near its viewport, measured after the first paint: until then the
      // description (after the actions, in the stored key order) may not be in the page yet. Wait for it.
      const editor = page.getByRole('textbox', { name: editorName });
      await expect
        .poll(() => editor.textContent(), { timeout: 5_000 })
        .toContain('"description": "Contacts in Acme"');
      expect(await editor.textContent()).not.toContain('deals');
      await checkPage('version loaded into the editor');
      await press(page, save);
      await page.getByText('Saved version 3.').waitFor();
      await page.getByRole('heading', { name: 'Definition (version 3)' }).waitFor();
      const v3 = (await api('GET', '/connectors/acme/definition')).data;
      expect(v3).toMatchObject({ version: 3, definition: acme() });
      await expect
        .poll(() => versionSelect.locator('option').allTextContents())
        .toEqual(['Version 3 (current)', 'Version 2', 'Version 1']);
      expect(await versionSelect.inputValue()).toBe('2');
      expect(JSON.parse((await v2View.textContent()) ?? '')).toEqual(v2.definition);

      // The catalog marks it custom.
      await press(page, page.getByRole('link', { name: '← All connectors' }));
      await page.getByRole('heading', { name: 'Connectors', level: 1 }).waitFor();
      const acmeRow = page.locator('tr', { has: page.getByRole('link', { name: 'Acme CRM' }) });
      await acmeRow.waitFor();
      expect(await acmeRow.locator('.badge-custom').textContent()).toBe('Custom');

      // Import OpenAPI: pasted, previewed (actions, warnings, the draft in the editor), then created.
      await press(page, page.getByRole('button', { name: 'Import OpenAPI' }));
      // Light: a file chosen on this computer, read by the browser; dark: the text pasted.
      if (scheme === 'light') {
        await page.getByLabel('Or read a file from this computer').setInputFiles({
          name: 'pets.yaml',
          mimeType: 'application/yaml',
          buffer: Buffer.from(petsYaml()),
        });
        await expect
          .poll(() => page.getByLabel('OpenAPI document (YAML or JSON)').inputValue())
          .toBe(petsYaml());
      } else await pasteInto(page, page.getByLabel('OpenAPI document (YAML or JSON)'), petsYaml());
      await typeInto(page, page.getByLabel(/^Connector id/), 'pets');
      await typeInto(page, page.getByLabel(/^Name/), 'Pets');
      await press(page, page.getByRole('button', { name: 'Preview' }));
      await page.getByRole('heading', { name: 'Draft: Pets' }).waitFor();
      expect(await page.getByText(/^2 actions, \d+ warnings?\.$/).count()).toBe(1);
      expect(await page.getByRole('list', { name: 'Import warnings' }).textContent()).toContain('session');
      await expect
        .poll(() => page.getByRole('textbox', { name: 'Draft definition of Pets' }).textContent())
        .toContain('list_pets');
      await checkPage('import preview');
      await expect
        .poll(() => page.getByRole('button', { name: 'Create connector' }).isDisabled())
        .toBe(false);
      await press(page, page.getByRole('button', { name: 'Create connector' }));
      await page.getByRole('heading', { name: 'Pets', level: 1 }).waitFor();
      const pets = (await api('GET', '/connectors/pets/definition')).data.definition;
      expect(pets.actions.map((a: { id: string }) => a.id).sort()).toEqual(['get_pet', 'list_pets']);
      expect(pets.baseUrl).toBe(`${providerUrl}/v1`);

      // Delete, after the confirmation dialog.
      await press(page, page.getByRole('button', { name: 'Delete Pets…' }));
      await page.getByRole('dialog').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await press(page, page.getByRole('button', { name: 'Delete connector' }));
      await page.getByRole('heading', { name: 'Connectors', level: 1 }).waitFor();
      expect(
        (
          await fetch(`${origin}/connectors/pets/definition`, {
            headers: { authorization: `Bearer ${apiKey}` },
          })
        ).status,
      ).toBe(404);

      // Try the proxy, a page of its own: carol's Acme key is inserted by Inlay; the provider's JSON comes back
      // pretty-printed.
      await navigateTo(page, 'Try the proxy');
      const { data: cred } = await api('POST', '/credentials', {
        userId: 'carol',
        connector: 'acme',
        data: { apiKey: PROVIDER_KEY },
      });
      seenKeys.length = 0;
      await choose(page, page.getByLabel('Connector', { exact: true }), 'Acme CRM');
      await typeInto(page, page.getByLabel('User (id or username)'), 'carol');
      await typeInto(page, page.getByLabel(/^Path/), '/contacts');
      await typeInto(page, page.getByLabel(/^Query/), 'limit=2');
      // Leaving the user field lists carol's Acme credentials; the default leaves the choice to the service.
      const credentialPick = page.getByLabel('Credential', { exact: true });
      await credentialPick.waitFor();
      expect(
        await credentialPick
          .locator('option')
          .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
      ).toEqual(['', cred.credentialId]);
      expect(await credentialPick.inputValue()).toBe('');
      // Acme declares a named API: offered, with its base URL as the default.
      const apiPick = page.getByLabel('API', { exact: true });
      expect(await apiPick.locator('option').allTextContents()).toEqual(['Base URL', 'files']);
      expect(await apiPick.inputValue()).toBe('');
      await press(page, page.getByRole('button', { name: 'Send request' }));
      const answer = page.getByRole('region', { name: 'Provider answer' });
      await answer.waitFor();
      const facts = await answer.locator('.facts').textContent();
      expect(facts).toContain('200');
      expect(facts).toContain('application/json');
      const shown = await page.getByRole('region', { name: 'Response body' }).textContent();
      expect(JSON.parse(shown ?? '')).toEqual({
        contacts: [
          { id: 'c1', email: 'ada@acme.test' },
          { id: 'c2', email: 'grace@acme.test' },
        ],
      });
      expect(shown).toContain('\n  "contacts": [');
      expect(seenKeys).toEqual([PROVIDER_KEY]);
      await checkPage('proxy answer');

      // A POST with a JSON body, echoed by the provider with its status.
      await choose(page, page.getByLabel('Method', { exact: true }), 'POST');
      await typeInto(page, page.getByLabel(/^Query/), '');
      await typeInto(page, page.getByLabel(/^Body/), '{"email": "new@acme.test"}');
      await press(page, page.getByRole('button', { name: 'Send request' }));
      await expect.poll(() => answer.locator('.facts').textContent()).toContain('201');
      expect(
        JSON.parse((await page.getByRole('region', { name: 'Response body' }).textContent()) ?? ''),
      ).toEqual({
        email: 'new@acme.test',
      });

      // A big text body is cut for display.
      await choose(page, page.getByLabel('Method', { exact: true }), 'GET');
      await typeInto(page, page.getByLabel(/^Body/), '');
      await typeInto(page, page.getByLabel(/^Path/), '/export');
      await press(page, page.getByRole('button', { name: 'Send request' }));
      await page.getByText('Cut to the first 20,000 characters.').waitFor();
      expect(await answer.locator('.facts').textContent()).toContain('text/csv');
      expect((await page.getByRole('region', { name: 'Response body' }).textContent())?.length).toBe(20_000);

      // Inlay's own refusal (dave has no Acme connection) as problem details.
      await typeInto(page, page.getByLabel('User (id or username)'), 'dave');
      await typeInto(page, page.getByLabel(/^Path/), '/contacts');
      await press(page, page.getByRole('button', { name: 'Send request' }));
      const problem = page.getByRole('alert', { name: 'Problem details' });
      await problem.waitFor();
      const text = await problem.textContent();
      expect(text).toContain('404');
      expect(text).toContain('not_found');
      expect(text).toContain('Acme CRM credential');
      // dave has no credential to pick from, and the form says so.
      await page.getByText('dave has no Acme CRM credential yet').waitFor();
      expect(await credentialPick.count()).toBe(0);
      await checkPage('proxy problem');

      // The named API: the path goes below its URL instead of the base URL.
      await typeInto(page, page.getByLabel('User (id or username)'), 'carol');
      await typeInto(page, page.getByLabel(/^Path/), '/q1.csv');
      await credentialPick.waitFor();
      await choose(page, apiPick, 'files');
      await press(page, page.getByRole('button', { name: 'Send request' }));
      await expect
        .poll(() => page.getByRole('region', { name: 'Response body' }).textContent())
        .toContain('/files/q1.csv');
      expect(await answer.locator('.facts').textContent()).toContain('200');
      await choose(page, apiPick, 'Base URL');

      // A second connection for carol, made elsewhere: the default is now refused (409, shown with what was
      // typed kept), the picker is read again and lists both, and the one picked is the one the provider gets.
      const { data: second } = await api('POST', '/credentials', {
        userId: 'carol',
        connector: 'acme',
        name: 'Acme sandbox',
        data: { apiKey: SECOND_KEY },
      });
      await typeInto(page, page.getByLabel(/^Path/), '/contacts');
      seenKeys.length = 0;
      await press(page, page.getByRole('button', { name: 'Send request' }));
      await expect.poll(() => problem.textContent()).toContain('409');
      expect(await problem.textContent()).toContain('several connected Acme CRM credentials');
      expect(await problem.textContent()).toContain('header.x-inlay-credential-id');
      expect(seenKeys).toEqual([]);
      expect(await page.getByLabel('User (id or username)').inputValue()).toBe('carol');
      expect(await page.getByLabel(/^Path/).inputValue()).toBe('/contacts');
      await expect.poll(() => credentialPick.locator('option').count()).toBe(3);
      expect(await credentialPick.locator(`option[value="${second.credentialId}"]`).textContent()).toMatch(
        /^Acme sandbox · connected · [0-9a-f]{8}$/,
      );
      await checkPage('proxy with several credentials');
      await chooseCredential(page, credentialPick, second.credentialId);
      await press(page, page.getByRole('button', { name: 'Send request' }));
      // The provider refuses the sandbox key: its own 401 is the answer, not Inlay's problem.
      await expect.poll(() => answer.locator('.facts').textContent()).toContain('401');
      expect(seenKeys).toEqual([SECOND_KEY]);
      await chooseCredential(page, credentialPick, cred.credentialId);
      await press(page, page.getByRole('button', { name: 'Send request' }));
      await expect.poll(() => answer.locator('.facts').textContent()).toContain('200');
      expect(seenKeys).toEqual([SECOND_KEY, PROVIDER_KEY]);

      // Delete while an installed workflow uses it: the service's refusal is shown, nothing is deleted.
      const { integrationId } = await api('POST', '/integrations', { name: 'CRM sync' });
      const wf = await api('POST', '/workflows', {
        integrationId,
        name: 'List Acme contacts',
        definition: {
          trigger: { type: 'manual' },
          steps: [{ id: randomUUID(), connector: 'acme', action: 'list_contacts', input: {} }],
        },
      });
      await api('POST', '/installations', {
        userId: 'carol',
        workflowIds: [wf.workflowId],
        credentialIds: { acme: cred.credentialId },
      });
      await navigateTo(page, 'Connectors');
      await press(page, page.getByRole('link', { name: 'Acme CRM' }));
      await press(page, page.getByRole('button', { name: 'Delete Acme CRM…' }));
      await press(page, page.getByRole('button', { name: 'Delete connector' }));
      await page
        .getByRole('dialog')
        .getByText(/is installed: uninstall it first/)
        .waitFor();
      await press(page, page.getByRole('button', { name: 'Cancel' }));
      expect((await api('GET', '/connectors/acme/definition')).data.version).toBe(3);

      // Chromium logs each refused request: exactly those the test provoked (the invalid JSONata, dave's
      // missing connection, the default among several credentials, the provider's 401 to the sandbox key, the
      // delete while installed), and nothing else was logged.
      const failedLoad = (e: string) => e.startsWith('Failed to load resource');
      expect(errors.filter(failedLoad).map((e) => e.match(/status of (\d+)/)?.[1])).toEqual([
        '400',
        '404',
        '409',
        '401',
        '409',
      ]);
      expect(errors.filter((e) => !failedLoad(e))).toEqual([]);
      await context.close();
      // Every control is reached with Tab, through the whole catalog: slower than clicks on a loaded machine.
    }, 300_000);
  },
);

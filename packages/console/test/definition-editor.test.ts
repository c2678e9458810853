import { randomUUID } from 'node:crypto';
import { createAccount } from '@inlay/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, hasChromium, press, signIn, startConsole, tabTo, watch } from './harness.ts';

// The workflow editor in Chromium: a definition reads back as it was typed, and the service's refusal of a
// publish reads as one line per field, gone once the text changes.

let h: ConsoleHarness;

beforeAll(async () => {
  if (hasChromium) h = await startConsole();
});
afterAll(() => h?.close());

describe.skipIf(!hasChromium)('the workflow editor', () => {
  it('shows a definition in the key order it was sent, and a refused publish as one line per field', async () => {
    const { apiKey } = await createAccount(h.app.context.db, 'Editor account');
    const api = <T = any>(method: string, path: string, body?: unknown) =>
      h.api<T>(apiKey, method, path, body);
    const { integrationId } = await api('POST', '/integrations', { name: 'Deals' });
    // Keys in an order neither the contract's schema (trigger, steps, config) nor jsonb would give back.
    const id = randomUUID();
    const typed = {
      config: [],
      steps: [{ input: { expression: '{"deal": trigger.name}' }, action: 'map', connector: 'transform', id }],
      trigger: { type: 'manual' },
    };
    const { workflowId } = await api('POST', '/workflows', {
      integrationId,
      name: 'Typed',
      definition: typed,
    });

    const context = await h.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { errors, checkPage } = watch(page, 'light');
    await page.goto(`${h.origin}/console/workflows/${workflowId}`);
    await signIn(page, apiKey);
    await page.getByRole('heading', { name: 'Typed', level: 1 }).waitFor();
    const editor = page.getByRole('textbox', { name: 'Definition of Typed' });
    await editor.waitFor();
    const text = async () => (await editor.locator('.cm-line').allTextContents()).join('\n');
    await expect.poll(text).toBe(`${JSON.stringify(typed, null, 2)}\n`);

    // Two problems only the service finds (an unknown connector, a JSONata expression that does not parse):
    // refused together, each a line naming its field, with no JSON Schema wording.
    const publish = page.getByRole('button', { name: 'Publish new version' });
    const refusedDefinition = {
      trigger: { type: 'manual' },
      steps: [
        { id, connector: 'nope', action: 'map', input: {} },
        { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '(' } },
      ],
    };
    await tabTo(page, editor);
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(JSON.stringify(refusedDefinition, null, 2));
    await expect.poll(() => publish.isDisabled()).toBe(false);
    await press(page, publish);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const lines = await alert.locator('li').allTextContents();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('steps[0].connector: no connector "nope"');
    expect(lines[1]).toMatch(/^steps\[1\]\.input\.expression: invalid JSONata: /);
    expect(await alert.textContent()).toContain('correct these 2 fields');
    expect(await alert.textContent()).not.toMatch(/Instance|False boolean schema|body\.definition/);
    await checkPage('editor refused');

    // A typo in the trigger's type is the editor's own single line; the service's refusal is gone.
    await tabTo(page, editor);
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(
      JSON.stringify({ ...refusedDefinition, trigger: { type: 'manul' } }, null, 2),
    );
    await expect
      .poll(() => page.locator('.lint li').allTextContents())
      .toEqual(['trigger.type: must be one of "manual", "event", "webhook", "schedule", "app"']);
    expect(await alert.count()).toBe(0);
    expect(await publish.isDisabled()).toBe(true);

    // Fixed: published, and the new version reads back in the order it was typed.
    const fixed = {
      steps: [{ id, connector: 'transform', action: 'map', input: { expression: '1' } }],
      trigger: { type: 'manual' },
    };
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(JSON.stringify(fixed, null, 2));
    await expect.poll(() => page.locator('.lint').count()).toBe(0);
    await press(page, publish);
    await page.getByRole('heading', { name: 'Definition (version 2)' }).waitFor();
    await expect.poll(text).toBe(`${JSON.stringify(fixed, null, 2)}\n`);
    expect(await alert.count()).toBe(0);
    const served = await api('GET', `/workflows/${workflowId}/definition`);
    expect(JSON.stringify(served.definition)).toBe(JSON.stringify(fixed));
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
    await context.close();
  });
});

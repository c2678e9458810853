// @vitest-environment node
// A host stylesheet with element rules (`button`, `input`, `select`) restyles the host's own controls and not
// the widget's: each widget control's computed style is the same with and without it. A host rule that names
// the widget's class still wins.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness } from './harness.ts';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.close());

const HOST_CSS = `
  button, input, select {
    background: rgb(255, 0, 0);
    color: rgb(0, 0, 255);
    padding: 30px;
    border: 5px dashed rgb(0, 128, 0);
    border-radius: 0;
    text-transform: uppercase;
    letter-spacing: 4px;
    box-shadow: 0 0 0 6px rgb(255, 165, 0);
  }`;
const PROPS = [
  'background-color',
  'color',
  'padding-top',
  'border-top-style',
  'border-top-left-radius',
  'text-transform',
  'letter-spacing',
  'box-shadow',
] as const;

/** The computed style of the first element matching each selector. */
const styles = (page: Page, selectors: string[]) =>
  page.evaluate(
    ([sels, props]) =>
      sels.map((s) => {
        const cs = getComputedStyle(document.querySelector(s)!);
        return Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)]));
      }),
    [selectors, PROPS as readonly string[]] as const,
  );

it("a host's `button {…}` rules leave the widget's buttons, inputs and selects as they were", async () => {
  const page = await h.open({ surface: 'page', user: 'browser' });
  await page.getByRole('heading', { name: 'Billing' }).waitFor();
  await page.getByRole('button', { name: 'Run history: Post new deals to Slack' }).click();
  await page.getByRole('table', { name: 'Run history' }).waitFor();
  const widget = [
    '.inlay .inlay-button-primary',
    '.inlay .inlay-button:not(.inlay-button-primary)',
    '.inlay input.inlay-input',
    '.inlay select.inlay-input',
  ];
  const before = await styles(page, widget);
  await page.evaluate(() => {
    const own = document.createElement('button');
    own.id = 'host-button';
    own.textContent = 'Host';
    document.body.append(own);
  });
  await page.addStyleTag({ content: HOST_CSS });
  // The host's own button takes its rules, so the stylesheet is in force.
  const [host] = await styles(page, ['#host-button']);
  expect(host).toMatchObject({ 'background-color': 'rgb(255, 0, 0)', 'padding-top': '30px' });
  expect(await styles(page, widget)).toEqual(before);
  // A rule naming the widget is the host's deliberate choice, and applies.
  await page.addStyleTag({ content: '.inlay .inlay-button { letter-spacing: 2px; }' });
  const [primary] = await styles(page, ['.inlay .inlay-button-primary']);
  expect(primary!['letter-spacing']).toBe('2px');
  await page.close();
});

// @vitest-environment node
// The widget in a real browser (Debian Chromium via playwright-core) against the real service: axe-core
// finds no WCAG 2.2 A/AA violation on any surface in either color scheme, and a keyboard-only user can
// install a workflow from the marketplace.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_TOKEN } from '../constants.ts';
import { api, seed } from '../seed.ts';
import { axeViolations, startHarness } from './harness.ts';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.close());

describe.each(['light', 'dark'])('axe-core, %s scheme', (scheme) => {
  it('IntegrationsPage', async () => {
    const page = await h.open({ surface: 'page', scheme, user: 'browser' });
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    await page.getByRole('button', { name: 'Run history: Post new deals to Slack' }).click();
    await page.getByRole('table', { name: 'Run history' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it("IntegrationsPage with a host accent (the demo's indigo) keeps AA contrast", async () => {
    const page = await h.open({ surface: 'page', scheme, user: 'browser', accent: '#4f46e5' });
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    await page
      .getByRole('button', { name: /^Install:/ })
      .first()
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('InstallModal, every step', async () => {
    // A user with no credential yet in each scheme, so the new-account form shows.
    const user = scheme === 'light' ? 'browser' : 'dark';
    const page = await h.open({ surface: 'modal', scheme, user, workflow: seed.discordWorkflowId });
    const dialog = page.getByRole('dialog', { name: 'Install Announce won deals on Discord' });
    await dialog.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();
    // With the step's own validation message showing.
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('Choose or connect a Discord account to continue.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // The provider's refusal inline.
    await dialog.getByLabel(/Bot token/).fill('bot-token-bad');
    await dialog.getByLabel(/Server id/).fill('123456789012345678');
    await dialog.getByRole('button', { name: 'Save and connect' }).click();
    // A human sentence, the provider's own words in the collapsed technical details.
    const refusal = dialog.locator('.inlay-key-form [role=alert]');
    await refusal.getByText('This was not accepted. Check it and try again.').waitFor();
    expect(await refusal.locator('details code').textContent()).toMatch(/Discord rejected the credential/);
    expect(await refusal.locator('details').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByLabel(/Bot token/).fill(GOOD_TOKEN);
    await dialog.getByRole('button', { name: 'Save and connect' }).click();
    await dialog
      .getByRole('radio', { name: /^Discord/ })
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    // Step 2 with its inline validation messages.
    await dialog.getByRole('option', { name: '#deals' }).waitFor({ state: 'attached' });
    await dialog.getByRole('textbox', { name: 'Minimum amount' }).fill('lots');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('Message prefix is required.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('combobox', { name: /Channel/ }).selectOption('111111111111111111');
    await dialog.getByRole('textbox', { name: /Message prefix/ }).fill('Hi');
    await dialog.getByRole('textbox', { name: 'Minimum amount' }).fill('');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('heading', { name: /Step 3 of 3/ }).waitFor();
    // Review names the channel as the provider lists it, not by its id.
    expect(await dialog.locator('.inlay-review dd').allTextContents()).toContain('#general');
    expect(await dialog.getByText('111111111111111111').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('InstallModal with every field type and its validation messages', async () => {
    const page = await h.open({ surface: 'modal', scheme, user: 'browser', workflow: seed.fieldsWorkflowId });
    const dialog = page.getByRole('dialog', { name: 'Install Every field type' });
    await dialog.getByRole('heading', { name: /Step 1 of 2/ }).waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('Title is required.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('ExecutionLogs with a run expanded', async () => {
    const page = await h.open({ surface: 'logs', scheme, user: 'browser', workflow: seed.workflowId });
    await page.getByRole('table', { name: 'Run history' }).waitFor();
    await page
      .getByRole('button', { name: /^Details/ })
      .first()
      .click();
    await page
      .getByRole('button', { name: /Output/ })
      .first()
      .click();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('color scheme', () => {
  it('follows prefers-color-scheme with colorScheme="system"', async () => {
    const page = await h.browser.newPage();
    const colors = async () => {
      await page.getByRole('heading', { name: 'Billing' }).waitFor();
      return page.evaluate(() => {
        const s = getComputedStyle(document.querySelector('.inlay')!);
        return { color: s.color, background: s.backgroundColor };
      });
    };
    await page.emulateMedia({ colorScheme: 'dark' });
    await h.open({ surface: 'page', scheme: 'system', user: 'browser' }, page);
    // The root is transparent by default: the host's background shows through.
    expect(await colors()).toEqual({ color: 'rgb(230, 232, 235)', background: 'rgba(0, 0, 0, 0)' });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await colors()).toEqual({ color: 'rgb(31, 35, 40)', background: 'rgba(0, 0, 0, 0)' });
    await page.close();
  });

  it('paints the root with the root-bg token when the host sets it', async () => {
    const page = await h.open({ surface: 'page', scheme: 'dark', user: 'browser', rootBg: '#16181d' });
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    expect(
      await page.evaluate(() => getComputedStyle(document.querySelector('.inlay')!).backgroundColor),
    ).toBe('rgb(22, 24, 29)');
    await page.close();
  });
});

describe('small defects', () => {
  it('one state badge, a switch whose text follows its state, and a run-history toggle that says Hide', async () => {
    const page = await h.open({ surface: 'page', user: 'browser' });
    const card = page.locator('[data-workflow]', {
      has: page.getByRole('heading', { name: 'Post new deals to Slack' }),
    });
    const sw = card.getByRole('switch', { name: 'Enable: Post new deals to Slack' });
    await sw.waitFor();
    const state = () =>
      card.evaluate((el) => ({
        badges: [...el.querySelectorAll('.inlay-badge')].map((b) => b.textContent),
        label: el.querySelector('.inlay-switch')!.textContent,
        checked: el.querySelector('[role=switch]')!.getAttribute('aria-checked'),
      }));
    expect(await state()).toEqual({ badges: ['Active'], label: 'Enabled', checked: 'true' });
    await sw.click();
    await card.getByText('Paused').waitFor();
    expect(await state()).toEqual({ badges: ['Paused'], label: 'Disabled', checked: 'false' });
    await sw.click();
    await card.getByText('Active').waitFor();
    expect(await state()).toEqual({ badges: ['Active'], label: 'Enabled', checked: 'true' });

    const runs = card.getByRole('button', { name: 'Run history: Post new deals to Slack' });
    expect(await runs.textContent()).toBe('Run history');
    await runs.click();
    await card.getByRole('table', { name: 'Run history' }).waitFor();
    expect(await runs.getAttribute('aria-expanded')).toBe('true');
    expect(await runs.textContent()).toBe('Hide run history');
    // Said once: the toggle names the runs, the table's own heading is for screen readers only.
    const heading = card.getByRole('heading', { name: 'Run history' });
    expect(await heading.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    // The toggle is a bordered button like Configure beside it.
    const border = (l: typeof runs) => l.evaluate((b) => getComputedStyle(b).borderTopColor);
    const configure = card.getByRole('button', { name: 'Configure: Post new deals to Slack' });
    expect(await border(runs)).toBe(await border(configure));
    // Table cells stay table cells, so their borders line up.
    expect(
      await card.evaluate(
        (el) =>
          [...el.querySelectorAll('td')].filter((td) => getComputedStyle(td).display !== 'table-cell').length,
      ),
    ).toBe(0);
    await page.close();
  });

  it.each([
    ['en', '[1 item]', '{2 keys}'],
    ['fr', '[1 élément]', '{2 clés}'],
    ['de', '[1 Eintrag]', '{2 Schlüssel}'],
    ['ja', '[1 件]', '{2 キー}'],
  ])('the JSON viewer counts in proper plurals (%s)', async (locale, one, two) => {
    const page = await h.open({ surface: 'logs', user: 'browser', locale, workflow: seed.workflowId });
    await page.locator('.inlay-table').waitFor();
    await page.locator('.inlay-table tbody tr button').first().click();
    // Each toggle is awaited by its text: the panel renders its viewers one after another.
    const toggle = (text: string) => page.locator('.inlay-json-toggle', { hasText: text }).first();
    await toggle(two).waitFor({ timeout: 10_000 }); // the step's input {n, connector}
    // The output is shown unwrapped ({ok, n}); its raw seed shape [[{id, json}]] is behind "Show raw".
    await page.locator('.inlay-raw > summary').first().click();
    await toggle(one).waitFor({ timeout: 10_000 }); // the raw output's outer array
    expect(await toggle(two).textContent()).toContain(two);
    expect(await toggle(one).textContent()).toContain(one);
    await page.close();
  });
});

/** Whether the page scrolls sideways. */
const overflows = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));

/** Texts of the elements matching `selector` whose own text is laid out on more than one line. */
const wrapped = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const lines = (n: Node) => {
      const r = document.createRange();
      r.selectNodeContents(n);
      return new Set([...r.getClientRects()].map((c) => Math.round(c.top))).size;
    };
    return [...document.querySelectorAll(sel)]
      .filter((el) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && lines(n) > 1))
      .map((el) => el.textContent);
  }, selector);

describe.each([
  ['en', 'Started'],
  ['ja', '開始'],
  ['de', 'Gestartet'],
])('phones (375 px), %s', (locale, started) => {
  const phone = () => h.browser.newPage({ viewport: { width: 375, height: 740 } });

  it('IntegrationsPage with run history and a run open: nothing overflows, runs are cards', async () => {
    const page = await h.open({ surface: 'page', user: 'browser', locale }, await phone());
    const runs = page.locator('.inlay-card .inlay-button[aria-expanded]').first();
    await runs.click();
    await page.locator('.inlay-table tbody tr').first().waitFor();
    await page.locator('.inlay-table tbody tr .inlay-button[aria-expanded]').first().click();
    await page.locator('.inlay-run-steps').waitFor();
    const { scrollWidth, innerWidth } = await overflows(page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    // A list of cards: rows are blocks with each cell labelled by its column, the header row hidden.
    expect(
      await page.evaluate(() => {
        const row = document.querySelector('.inlay-table tbody tr')!;
        return {
          row: getComputedStyle(row).display,
          label: getComputedStyle(row.querySelector('td')!, '::before').content,
          head: document.querySelector('.inlay-table thead')!.getBoundingClientRect().height <= 1,
        };
      }),
    ).toEqual({ row: 'block', label: `"${started}"`, head: true });
    expect(await wrapped(page, '.inlay-badge')).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('InstallModal: nothing overflows', async () => {
    const page = await h.open(
      { surface: 'modal', user: 'dark', locale, workflow: seed.discordWorkflowId },
      await phone(),
    );
    await page.getByRole('dialog').getByRole('heading', { level: 3 }).first().waitFor();
    await page.locator('.inlay-dialog input').first().waitFor();
    const { scrollWidth, innerWidth } = await overflows(page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await page.close();
  });

  it('InstallModal with every field type: nothing overflows', async () => {
    const page = await h.open(
      { surface: 'modal', user: 'browser', locale, workflow: seed.fieldsWorkflowId },
      await phone(),
    );
    await page.locator('.inlay-dialog input').first().waitFor();
    const { scrollWidth, innerWidth } = await overflows(page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await page.close();
  });

  it('ExecutionLogs with a run and its output open: nothing overflows, pills stay whole', async () => {
    const page = await h.open(
      { surface: 'logs', user: 'browser', locale, workflow: seed.workflowId },
      await phone(),
    );
    await page.locator('.inlay-table tbody tr .inlay-button[aria-expanded]').first().click();
    await page.locator('.inlay-json-toggle').first().click();
    await page.locator('.inlay-json-children').first().waitFor();
    const { scrollWidth, innerWidth } = await overflows(page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    expect(
      await page
        .locator('.inlay-table tbody tr')
        .first()
        .evaluate((tr) => getComputedStyle(tr).display),
    ).toBe('block');
    expect(await wrapped(page, '.inlay-badge')).toEqual([]);
    const layout = await page
      .locator('.inlay-table tbody tr')
      .first()
      .evaluate((tr) => {
        const box = (el: Element | null) => el!.getBoundingClientRect();
        const [trigger, status] = [tr.children[1]!, tr.children[3]!];
        return {
          // What started the run stays in the value column, not split across the label's.
          trigger:
            box(trigger.querySelector('.inlay-summary')).left >=
            box(trigger.querySelector('.inlay-muted')).left,
          // The status pill keeps its own width.
          pill: box(status.querySelector('.inlay-badge')).width < box(status).width / 2,
        };
      });
    expect(layout).toEqual({ trigger: true, pill: true });
    await page.close();
  });
});

it('Japanese at 1280 px: the status and order labels (状態, 並び順) stay on one line', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await h.open({ surface: 'page', user: 'browser', locale: 'ja' }, page);
  await page.locator('.inlay-card .inlay-button[aria-expanded]').first().click();
  await page.locator('.inlay-logs .inlay-inline').first().waitFor();
  expect(await page.locator('.inlay-logs .inlay-inline').allTextContents()).toEqual([
    expect.stringMatching(/^状態/),
    expect.stringMatching(/^並び順/),
  ]);
  expect(await wrapped(page, '.inlay-logs .inlay-inline, .inlay-badge')).toEqual([]);
  await page.close();
});

describe('errors', () => {
  const NETWORK = 'Could not reach the integrations service. Check your connection and try again.';
  /** The alert's visible sentence and its collapsed technical detail. */
  const alertOf = (page: Page, scope = '') =>
    page
      .locator(`${scope} [role=alert]`)
      .first()
      .evaluate((el) => ({
        text: el.querySelector('p')?.textContent,
        detailsOpen: el.querySelector('details')?.open,
        technical: el.querySelector('details code')?.textContent ?? '',
      }));

  it.each(['light', 'dark'])(
    'an unreachable service: one quick retry, then a human message with the detail collapsed (%s)',
    async (scheme) => {
      const page = await h.browser.newPage();
      let loads = 0;
      await page.route(`${seed.url}/**`, (route) => {
        if (new URL(route.request().url()).pathname === '/workflows') loads++;
        return route.abort('connectionrefused');
      });
      await h.open({ surface: 'page', scheme, user: 'browser' }, page);
      await page.getByRole('alert').waitFor();
      expect(loads).toBe(2);
      const a = await alertOf(page);
      expect(a).toMatchObject({ text: NETWORK, detailsOpen: false });
      expect(a.technical).toContain('network_error');
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await page.close();
    },
  );

  it('an answer that will not change (403) is not retried', async () => {
    const page = await h.browser.newPage();
    let loads = 0;
    await page.route(`${seed.url}/**`, (route) => {
      if (new URL(route.request().url()).pathname === '/workflows') loads++;
      return route.fulfill({
        status: 403,
        contentType: 'application/problem+json',
        body: JSON.stringify({ status: 403, code: 'forbidden', title: 'Forbidden', detail: 'Not for you.' }),
      });
    });
    await h.open({ surface: 'page', user: 'browser' }, page);
    await page.getByRole('alert').waitFor();
    expect(loads).toBe(1);
    // The code's sentence; the service's own words in the collapsed detail.
    const a = await alertOf(page);
    expect(a).toMatchObject({ text: 'You are not allowed to do this.', detailsOpen: false });
    expect(a.technical).toContain('Not for you.');
    await page.close();
  });

  it('the install dialog does not say Loading… above an error', async () => {
    const page = await h.browser.newPage();
    await page.route(`${seed.url}/**`, (route) => route.abort('connectionrefused'));
    await h.open({ surface: 'modal', user: 'browser', workflow: seed.discordWorkflowId }, page);
    const dialog = page.getByRole('dialog', { name: 'Could not open this' });
    await dialog.getByRole('alert').waitFor();
    expect((await alertOf(page, '[role=dialog]')).text).toBe(NETWORK);
    await page.close();
  });

  it('a failed toggle keeps its error next to the switch and the marketplace in place', async () => {
    const page = await h.open({ surface: 'page', user: 'browser' });
    const card = page.locator('[data-workflow]', {
      has: page.getByRole('heading', { name: 'Post new deals to Slack' }),
    });
    const sw = card.getByRole('switch', { name: 'Enable: Post new deals to Slack' });
    await sw.waitFor();
    expect(await sw.getAttribute('aria-checked')).toBe('true');
    // From now on the service is gone: the toggle and the refetch after it (and its retry) fail.
    let loads = 0;
    await page.route(`${seed.url}/**`, (route) => {
      if (new URL(route.request().url()).pathname === '/workflows') loads++;
      return route.abort('connectionrefused');
    });
    await sw.click();
    await card.getByRole('alert').waitFor();
    expect((await alertOf(page, '[data-workflow]')).text).toBe(NETWORK);
    // Rolled back, usable again, and every card still there.
    await page.waitForFunction(
      () =>
        document
          .querySelector('[role=switch][aria-label="Enable: Post new deals to Slack"]')
          ?.getAttribute('aria-checked') === 'true',
    );
    expect(await sw.isDisabled()).toBe(false);
    await expect.poll(() => loads).toBe(2);
    await page.waitForTimeout(300); // let the failed refetch render
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    expect(await page.locator('[data-workflow]').count()).toBeGreaterThan(3);
    expect(await page.locator('.inlay-page > div > .inlay-error').count()).toBe(0);
    await page.close();
  });
});

/** Presses Tab until the focused element matches; fails after 40 presses. */
/** Waits up to 10 s, then fails naming the step and quoting what the dialog shows (an error, a step not left). */
async function waitOrSay(
  dialog: Locator,
  what: Locator,
  step: string,
  state: 'visible' | 'detached' = 'visible',
) {
  try {
    await what.waitFor({ state, timeout: 10_000 });
  } catch {
    const shown = await dialog.textContent({ timeout: 1_000 }).catch(() => '(no dialog)');
    throw new Error(`never saw ${step}; the dialog shows: ${shown}`);
  }
}

async function tabTo(page: Page, test: (el: { label: string; tag: string }) => boolean, what: string) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const el = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      if (!a) return { label: '', tag: '' };
      const labelled = a.getAttribute('aria-label') ?? (a as HTMLInputElement).labels?.[0]?.textContent ?? '';
      return { label: (labelled || a.textContent || '').trim(), tag: a.tagName.toLowerCase() };
    });
    if (test(el)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

describe.each([
  ['light', 'keyboard'],
  ['dark', 'keyboard-dark'],
] as const)('keyboard only, %s scheme', (scheme, user) => {
  it('installs a workflow from the marketplace with Tab, arrows, Space and Enter', async () => {
    const page = await h.open({ surface: 'page', scheme, user });
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    await tabTo(page, (e) => e.label === 'Install: Announce won deals on Discord', 'the Install button');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Install Announce won deals on Discord' });
    await dialog.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();

    await tabTo(page, (e) => e.label.startsWith('Bot token'), 'Bot token');
    await page.keyboard.type(GOOD_TOKEN);
    await tabTo(page, (e) => e.label.startsWith('Server id'), 'Server id');
    await page.keyboard.type('123456789012345678');
    expect(await dialog.getByLabel(/^Bot token/).inputValue()).toBe(GOOD_TOKEN);
    expect(await dialog.getByLabel(/^Server id/).inputValue()).toBe('123456789012345678');
    await page.keyboard.press('Enter'); // submits the credential form
    await waitOrSay(dialog, dialog.getByRole('radio', { name: 'Discord' }), 'the connected account');
    await tabTo(page, (e) => e.label === 'Next', 'Next');
    await page.keyboard.press('Enter');

    await waitOrSay(dialog, dialog.getByRole('heading', { name: /Step 2 of 3/ }), 'step 2');
    await dialog.getByRole('option', { name: '#deals' }).waitFor({ state: 'attached' });
    await tabTo(page, (e) => e.tag === 'select', 'Channel');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Won:');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await tabTo(page, (e) => e.label === 'Next', 'Next');
    await page.keyboard.press('Enter');

    await waitOrSay(dialog, dialog.getByRole('heading', { name: /Step 3 of 3/ }), 'step 3');
    await tabTo(page, (e) => e.label === 'Install', 'Install');
    await page.keyboard.press('Enter');
    await waitOrSay(dialog, dialog, 'the dialog closed after Install', 'detached');

    const list = (await api('GET', `/installations?userId=${user}`)).body.data;
    expect(list).toHaveLength(1);
    expect(
      list[0].formData[0].fields.map((f: { name: string; value: unknown }) => [f.name, f.value]),
    ).toEqual([
      ['channel', '222222222222222222'],
      ['prefix', 'Won:'],
      ['mentions', true],
      ['minAmount', null],
    ]);
    // The card now shows it installed, and the focus is on its first action, not lost on the body.
    await page.getByRole('button', { name: 'Configure: Announce won deals on Discord' }).waitFor();
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'Enable: Announce won deals on Discord',
    );
    await page.close();
  });

  it('keeps Tab inside the dialog and closes it with Escape', async () => {
    const page = await h.open({ surface: 'page', scheme, user });
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    await tabTo(page, (e) => e.label === 'Install: Look up Stripe customers', 'the Install button');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Install Look up Stripe customers' });
    await dialog.getByRole('heading', { name: /Step 1 of 2/ }).waitFor();
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Install: Look up Stripe customers',
    );
    await page.close();
  });
});

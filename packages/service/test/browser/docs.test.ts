import { existsSync } from 'node:fs';
import { type Service, sharedService } from '@inlay/test-kit/service';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`docs: the Chromium render is SKIPPED, no Chromium at ${CHROMIUM}`);

let svc: Service;
beforeAll(async () => {
  svc = await sharedService();
});
afterAll(() => svc?.close());

/** The `src` and `href` of a page's scripts and style sheets. */
const loads = (html: string) =>
  [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)]
    .map((m) => m[1]!)
    .filter((url) => !url.startsWith('data:'));

describe('GET /docs', () => {
  it('answers a public HTML page whose script and styles come from the service itself', async () => {
    const page = await svc.call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const files = loads(page.text);
    expect(files).toEqual(['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js']);
    for (const file of files) {
      const r = await svc.call('GET', file);
      expect(r.status, file).toBe(200);
      expect(r.text.length, file).toBeGreaterThan(file.endsWith('init.js') ? 50 : 10_000);
    }
    expect((await svc.call('GET', '/docs/init.js')).text).toContain('"/openapi.json"');
    expect((await svc.call('GET', '/docs/package.json')).status).toBe(404);
  });

  it.skipIf(!hasChromium)(
    'renders the operations in Chromium without any request off the service',
    async () => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--no-first-run',
        ],
      });
      try {
        const page = await browser.newPage();
        const elsewhere: string[] = [];
        const errors: string[] = [];
        page.on('request', (req) => {
          if (!req.url().startsWith(`${svc.url}/`) && !req.url().startsWith('data:'))
            elsewhere.push(req.url());
        });
        page.on('pageerror', (err) => errors.push(err.message));
        page.on('response', (res) => {
          if (res.status() >= 400) errors.push(`${res.status()} ${res.url()}`);
        });
        page.on('console', (msg) => {
          if (msg.type() === 'error') errors.push(msg.text());
        });
        await page.goto(`${svc.url}/docs`);
        await page.getByText('List users, oldest first').first().waitFor({ timeout: 30_000 });
        await expect(page.getByText('Inlay API').first().isVisible()).resolves.toBe(true);
        expect(await page.locator('.opblock').count()).toBeGreaterThan(30);
        expect(elsewhere).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});

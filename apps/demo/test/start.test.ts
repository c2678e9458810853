import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What `pnpm start` prints (server/main.ts): the console's URL and the demo account's API key, enough for a
// newcomer to open the console. The demo runs as `pnpm start` runs it, in its own process, on free ports.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

describe.skipIf(!HAS_CHROMIUM)('the demo’s start-up output', () => {
  let child: ChildProcess | undefined;
  let dataDir: string;
  let browser: Browser | undefined;
  let output = '';
  let exited: Promise<number | null>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'acme-crm-start-'));
    // As `pnpm start` runs it: node with tsx's loader, no wrapper process.
    child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@inlay/source', 'server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DEMO_PORT: '0',
        DEMO_INLAY_PORT: '0',
        DEMO_SANDBOX_PORT: '0',
        DEMO_DATA_DIR: dataDir,
        LOG_LEVEL: 'error',
        // The shared test database's signing keys are sealed with the test suite's master key.
        ...(process.env.DATABASE_URL ? { INLAY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((r) => child!.once('exit', (code) => r(code)));
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    // Printed once everything listens and the account is seeded.
    const end = Date.now() + 100_000;
    while (!output.includes('Ctrl-C to stop.')) {
      if (child.exitCode !== null) throw new Error(`the demo exited (${child.exitCode}):\n${output}`);
      if (Date.now() > end) throw new Error(`the demo printed no start-up summary:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    // Should the test have failed before stopping it: the process this file started, by its id.
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the console URL and the account’s key, which sign in to the console; Ctrl-C stops it', async () => {
    const consoleUrl = /^\s*Console\s+(\S+)/m.exec(output)?.[1];
    const apiKey = /^\s*API key\s+(\S+)/m.exec(output)?.[1];
    expect(consoleUrl, output).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console$/);
    expect(apiKey, output).toMatch(/^inlay_(live|test)_/);
    expect(output).toContain('sign in with the API key below');

    // The key is the seeded account's: its users are alice and bob.
    const base = new URL(consoleUrl!).origin;
    const users = await fetch(`${base}/users`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(users.status).toBe(200);
    expect(((await users.json()) as { data: { username: string }[] }).data.map((u) => u.username)).toEqual(
      expect.arrayContaining(['alice', 'bob']),
    );

    // A newcomer opens the URL and pastes the key (keyboard only), and is in: the Overview, then the users.
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(consoleUrl!);
    const field = page.getByLabel('API key');
    await field.waitFor();
    await page.keyboard.press('Tab');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.insertText(apiKey!);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.goto(`${consoleUrl}/users`);
    await expect
      .poll(() => page.getByRole('table').locator('tbody tr td:first-child').allTextContents())
      .toEqual(expect.arrayContaining(['alice', 'bob']));
    expect(errors).toEqual([]);
    await context.close();

    // Ctrl-C (SIGINT) closes everything and exits cleanly.
    child!.kill('SIGINT');
    expect(await exited).toBe(0);
    // One line says so, nothing else follows.
    expect(output.trimEnd().endsWith('Ctrl-C to stop.\n  Stopped.')).toBe(true);
  });
});

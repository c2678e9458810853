import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Service, sharedService, startService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedConsoleDir } from '../../src/console/installed-console.ts';

const PAGE = '<!doctype html><title>console</title>';

describe('the console’s files at /console', () => {
  let shared: Service;
  let withConsole: Service;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inlay-console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), PAGE);
    writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log(1)');
    shared = await sharedService();
    // Its own service: its configuration names a console folder, which the shared one has not.
    withConsole = await startService({ env: { INLAY_CONSOLE_DIR: dir } });
  });
  afterAll(async () => {
    await withConsole?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 saying how to set it up when no console folder is configured', async () => {
    for (const path of ['/console', '/console/workflows']) {
      const r = await fetch(`${shared.url}${path}`);
      expect(r.status, path).toBe(503);
      expect(r.headers.get('content-type')).toContain('text/plain');
      expect(await r.text()).toContain('INLAY_CONSOLE_DIR');
    }
    // The console's sign-in is part of the API, with or without its files.
    const session = await fetch(`${shared.url}/console/session`);
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual({ data: null });
  });

  it('serves the folder INLAY_CONSOLE_DIR names: its page for every route, its assets immutable', async () => {
    const page = await fetch(`${withConsole.url}/console/workflows/abc`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(PAGE);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const asset = await fetch(`${withConsole.url}/console/assets/app-1a2b.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log(1)');
  });
});

describe('installedConsoleDir', () => {
  it('finds the built files of @inlay/console where it is installed', () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const found = installedConsoleDir(root);
    expect(found && realpathSync(found)).toBe(realpathSync(join(root, 'packages/console/dist')));
    expect(installedConsoleDir(new URL('../../../../apps/demo/server/demo.ts', import.meta.url).href)).toBe(
      found,
    );
  });
});

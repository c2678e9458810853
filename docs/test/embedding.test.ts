// docs/embedding.md, run as a reader would: packs the tarballs once, writes the page's host app (Express 5 +
// Vite + React 19) into two folders outside the workspace, installs the tarballs from those files with pnpm in
// one and with npm (`npm install ./inlay/*.tgz`) in the other, builds both and type-checks both strictly with
// skipLibCheck off, then runs the packed service (PGlite) behind the pnpm host and, in
// Chromium, installs a Stripe workflow with an API key against a fake Stripe, fires a run from the host's
// backend and sees it appear in <ExecutionLogs> without a click. Packaging does not depend on the database, so
// the PostgreSQL pass of CI skips it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { titledBlocks } from './code-blocks.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = process.env.DATABASE_URL
  ? 'DATABASE_URL is set: packaging is checked once, in the PGlite pass'
  : existsSync(CHROMIUM)
    ? undefined
    : `no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`;
if (skip) console.warn(`embedding.test.ts: skipped, ${skip}`);

/** The tarballs the page's app installs; `pnpm pack:packages` writes @inlay/next's too (a Next.js host's). */
const PACKAGES = ['client', 'connectors', 'contract', 'express', 'react', 'server', 'service'];
const PACKED = [...PACKAGES, 'next'].sort();
const API_KEY = 'inlay_test_embedding0123456789';
const STRIPE_KEY = 'sk_test_embedding';
const WORKFLOW = 'Look up the buyer in Stripe';

/**
 * The environment of the host's commands: this test's own (PATH, HOME, the pnpm store) without what the
 * workspace's `pnpm test` and vitest add, so the host app installs and builds as it would on a developer's
 * machine, and the service uses PGlite.
 */
const hostEnv = (extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(npm_|pnpm_|VITEST|NODE_OPTIONS$|NODE_ENV$|TEST$|DATABASE_URL$|INLAY_|PORT$)/i.test(k),
    ),
  ),
  ...extra,
});

const exec = promisify(execFile);
async function run(cmd: string, args: string[], cwd: string) {
  try {
    await exec(cmd, args, { cwd, env: hostEnv(), maxBuffer: 64 * 1024 * 1024, timeout: 480_000 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`,
    );
  }
}

/** Starts a long-running command of the host app and resolves with the output line that says it is ready. */
function start(cmd: string, args: string[], cwd: string, env: Record<string, string>, ready: RegExp) {
  const child = spawn(cmd, args, { cwd, env: hostEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise<RegExpMatchArray>((ok, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = ready.exec(output);
      if (m) ok(m);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => fail(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}

const listen = async (server: Server) => {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** A Stripe stand-in: `/account` checks the key (the connection test), `/customers` finds the buyer. */
function fakeStripe(seen: { path: string; auth: string | undefined }[]) {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ path: `${url.pathname}${url.search}`, auth: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== `Bearer ${STRIPE_KEY}`) {
      res.statusCode = 401;
      return res.end(
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key' } }),
      );
    }
    if (url.pathname === '/account')
      return res.end(JSON.stringify({ id: 'acct_1', email: 'billing@host.test' }));
    if (url.pathname === '/customers')
      return res.end(
        JSON.stringify({
          object: 'list',
          has_more: false,
          data: [
            { id: 'cus_1', email: url.searchParams.get('email'), name: 'Globex', created: 1_700_000_000 },
          ],
        }),
      );
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: 'no such route' } }));
  });
}

/** Mutation hooks type their error as InlayError, exactly (not `unknown`, not `Error`). */
const TYPE_CHECKS = `import type { InlayError } from '@inlay/client';
import type { useInstall, useRerun, useToggleWorkflow, useUninstall } from '@inlay/react';

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type ErrorOf<H extends (...args: never[]) => { error: unknown }> = ReturnType<H>['error'];
export const mutationErrors: [
  Equals<ErrorOf<typeof useInstall>, InlayError | null>,
  Equals<ErrorOf<typeof useRerun>, InlayError | null>,
  Equals<ErrorOf<typeof useToggleWorkflow>, InlayError | null>,
  Equals<ErrorOf<typeof useUninstall>, InlayError | null>,
] = [true, true, true, true];
`;

/** Classic resolution (no \`exports\`): the top-level \`types\` of each package. */
const CLASSIC = `import { createServerClient } from '@inlay/client';
import { catalog } from '@inlay/connectors';
import { WorkflowDefinition } from '@inlay/contract';
import { inlay } from '@inlay/express';
import { InlayProvider } from '@inlay/react';
import { createApp } from '@inlay/service';

export const entries = [createServerClient, catalog, WorkflowDefinition, inlay, InlayProvider, createApp];
`;
const CLASSIC_TSCONFIG = {
  compilerOptions: {
    module: 'CommonJS',
    moduleResolution: 'Node10',
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  },
  files: ['classic.ts'],
};

/** The backend's entries without the DOM: `lib` is ES2022 alone, and every declaration is checked. */
const NO_DOM = `import { createServerClient, InlayError, verifyWebhook } from '@inlay/client/server';
import { inlay } from '@inlay/express';

export const backend = [createServerClient, InlayError, verifyWebhook, inlay];
`;
const NO_DOM_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
  files: ['no-dom.ts'],
};

/** The declaration files `entry` reaches through relative imports (`./x.ts` is `./x.d.ts`), itself included. */
function reachableDeclarations(entry: string): Map<string, string> {
  const found = new Map<string, string>();
  const queue = [entry];
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (found.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    found.set(file, text);
    for (const m of text.matchAll(/(?:from\s+|import\()'(\.\.?\/[^']+)'/g))
      queue.push(join(dirname(file), (m[1] ?? '').replace(/\.(d\.ts|ts|js)$/, '.d.ts')));
  }
  return found;
}

/** `dependencies` of the page's package.json: what `npm install ./inlay/*.tgz` must write for the npm app. */
const pageManifest = () =>
  JSON.parse(
    titledBlocks(join(repo, 'docs/embedding.md')).find((f) => f.path === 'package.json')?.code ?? '{}',
  ) as { dependencies: Record<string, string>; pnpm?: unknown };

const children: ChildProcess[] = [];
const servers: Server[] = [];
let dir: string;
let app: string;
/** The same page's app, installed with npm. */
let npmApp: string;
let browser: Browser | undefined;

beforeAll(async () => {
  if (skip) return;
  dir = await mkdtemp(join(tmpdir(), 'inlay-embedding-'));
  app = join(dir, 'my-host');
  npmApp = join(dir, 'my-npm-host');
  // Step 1 of the page: build and pack, once; the npm app gets copies of the same tarballs.
  // `pnpm test` has built every package once already (INLAY_BUILT): pack those builds.
  const noBuild = process.env.INLAY_BUILT ? ['--no-build'] : [];
  await run(
    process.execPath,
    [join(repo, 'scripts/pack-packages.mjs'), '--out', join(app, 'inlay'), ...noBuild],
    repo,
  );
  await cp(join(app, 'inlay'), join(npmApp, 'inlay'), { recursive: true });
  // Step 2 and 3: the page's files, written as shown into both apps.
  for (const f of titledBlocks(join(repo, 'docs/embedding.md')))
    for (const root of [app, npmApp]) {
      await mkdir(dirname(join(root, f.path)), { recursive: true });
      await writeFile(join(root, f.path), f.code);
    }
  // The npm app starts without the tarballs in its package.json (nor pnpm's overrides): the page's
  // `npm install ./inlay/*.tgz` adds them.
  const { dependencies, pnpm: _, ...manifest } = pageManifest();
  await writeFile(
    join(npmApp, 'package.json'),
    JSON.stringify({
      ...manifest,
      dependencies: Object.fromEntries(
        Object.entries(dependencies).filter(([n]) => !n.startsWith('@inlay/')),
      ),
    }),
  );
  const tarballs = PACKAGES.map((p) => `./inlay/inlay-${p}-0.1.0.tgz`);
  // Both installs at once: they mostly wait on the network and the disk.
  await Promise.all([
    run('pnpm', ['install', '--prefer-offline', '--no-frozen-lockfile', '--reporter=silent'], app),
    run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs],
      npmApp,
    ),
  ]);
}, 720_000);

afterAll(async () => {
  await browser?.close();
  for (const c of children)
    if (c.exitCode === null) {
      const gone = new Promise((ok) => c.once('exit', ok));
      c.kill('SIGTERM');
      await gone;
    }
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((ok) => s.close(ok));
  }
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

// Cheap, so on every pass: the committed copies (which `pnpm pack:packages` refreshes) match the root LICENSE,
// the console's (not packed) too.
it("each package's LICENSE is the root LICENSE", () => {
  const license = readFileSync(join(repo, 'LICENSE'), 'utf8');
  for (const p of [...PACKED, 'console'])
    expect(readFileSync(join(repo, 'packages', p, 'LICENSE'), 'utf8'), p).toBe(license);
});

describe.skipIf(skip)('embedding from outside the repository (docs/embedding.md)', () => {
  it('packs eight tarballs, each with its built output, README and LICENSE, and real versions', async () => {
    const files = (await readdir(join(app, 'inlay'))).sort();
    expect(files).toEqual(PACKED.map((p) => `inlay-${p}-0.1.0.tgz`));
    const license = readFileSync(join(repo, 'LICENSE'), 'utf8');
    for (const p of PACKED) {
      const tgz = join(app, 'inlay', `inlay-${p}-0.1.0.tgz`);
      const { stdout } = await exec('tar', ['tzf', tgz]);
      const entries = stdout.split('\n');
      expect(entries).toEqual(
        expect.arrayContaining([
          'package/package.json',
          'package/README.md',
          'package/LICENSE',
          'package/dist/index.js',
          'package/dist/index.d.ts',
        ]),
      );
      const read = async (entry: string) => (await exec('tar', ['xzOf', tgz, entry])).stdout;
      expect(await read('package/LICENSE')).toBe(license);
      const manifest = JSON.parse(await read('package/package.json'));
      expect(JSON.stringify(manifest.dependencies ?? {})).not.toContain('workspace:');
      expect(manifest).toMatchObject({ main: './dist/index.js', types: './dist/index.d.ts', license: 'MIT' });
    }
    // What the page says the tarballs bring: the styles and their declaration, the service's CLI.
    const react = (await exec('tar', ['tzf', join(app, 'inlay/inlay-react-0.1.0.tgz')])).stdout;
    expect(react).toContain('package/dist/styles.css\n');
    expect(react).toContain('package/dist/styles.css.d.ts\n');
    expect(existsSync(join(app, 'node_modules/.bin/inlay'))).toBe(true);
  });

  it('builds with Vite', async () => {
    await run('pnpm', ['run', 'build'], app);
    expect(readFileSync(join(app, 'dist/index.html'), 'utf8')).toContain('<script type="module"');
  }, 180_000);

  it('type-checks strictly with skipLibCheck off: the browser without Node, the backend without the DOM', async () => {
    // Besides the page's files: the "Types" the page promises, each a compile error if it did not hold.
    await writeFile(join(app, 'src/inlay-types.ts'), TYPE_CHECKS);
    await writeFile(join(app, 'classic.ts'), CLASSIC);
    await writeFile(join(app, 'tsconfig.classic.json'), JSON.stringify(CLASSIC_TSCONFIG));
    await run('pnpm', ['run', 'typecheck'], app);
    await run(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.classic.json'], app);
  }, 480_000);

  it('the backend entries need no DOM: they type-check under lib ES2022 alone and never name Window', async () => {
    await writeFile(join(app, 'no-dom.ts'), NO_DOM);
    await writeFile(join(app, 'tsconfig.no-dom.json'), JSON.stringify(NO_DOM_TSCONFIG));
    await run(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.no-dom.json'], app);
    for (const entry of ['@inlay/client/dist/index.server.d.ts', '@inlay/express/dist/index.d.ts']) {
      const files = reachableDeclarations(join(app, 'node_modules', entry));
      expect(files.size, entry).toBeGreaterThan(entry.includes('client') ? 5 : 0);
      for (const [file, text] of files)
        expect(text, file).not.toMatch(/\b(Window|Document|HTMLElement)\b|lib="dom"/);
    }
    // The browser entry does reach them (its OAuth popup takes a Window): the scan above can see one.
    const browser = reachableDeclarations(join(app, 'node_modules/@inlay/client/dist/index.d.ts'));
    expect([...browser.values()].some((t) => /\bWindow\b/.test(t))).toBe(true);
  }, 180_000);

  it("installs into an npm app with `npm install ./inlay/*.tgz`: the page's dependencies, one copy of each", async () => {
    const written = JSON.parse(readFileSync(join(npmApp, 'package.json'), 'utf8'));
    expect(written.dependencies).toEqual(pageManifest().dependencies);
    // Each package's dependency on a sibling (`"@inlay/contract": "0.1.0"`) is met by the tarball at the top,
    // not by a copy fetched from a registry.
    const lock = JSON.parse(readFileSync(join(npmApp, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string; version?: string }>;
    };
    const inlayPaths = Object.keys(lock.packages).filter((k) => k.includes('node_modules/@inlay/'));
    expect(inlayPaths.sort()).toEqual(PACKAGES.map((p) => `node_modules/@inlay/${p}`));
    for (const p of PACKAGES)
      expect(lock.packages[`node_modules/@inlay/${p}`]).toMatchObject({
        version: '0.1.0',
        resolved: `file:inlay/inlay-${p}-0.1.0.tgz`,
      });
    expect(existsSync(join(npmApp, 'node_modules/.bin/inlay'))).toBe(true);
  });

  it('builds and type-checks strictly (skipLibCheck off) in the npm app too', async () => {
    await writeFile(join(npmApp, 'src/inlay-types.ts'), TYPE_CHECKS);
    await writeFile(join(npmApp, 'no-dom.ts'), NO_DOM);
    await writeFile(join(npmApp, 'tsconfig.no-dom.json'), JSON.stringify(NO_DOM_TSCONFIG));
    await run('npm', ['run', 'build'], npmApp);
    expect(readFileSync(join(npmApp, 'dist/index.html'), 'utf8')).toContain('<script type="module"');
    await run('npm', ['run', 'typecheck'], npmApp);
    await run(join(npmApp, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.no-dom.json'], npmApp);
  }, 480_000);

  it('runs the packed service behind the host: install with an API key, a backend run shows up live', async () => {
    const seen: { path: string; auth: string | undefined }[] = [];
    const stripe = fakeStripe(seen);
    servers.push(stripe);
    const stripeUrl = await listen(stripe);

    // The service from the tarball's `inlay` CLI, on a port picked here so its public URL is known up front.
    const probe = createServer();
    const port = new URL(await listen(probe)).port;
    await new Promise((ok) => probe.close(ok));
    const serviceUrl = `http://127.0.0.1:${port}`;
    await start(
      join(app, 'node_modules/.bin/inlay'),
      ['serve'],
      app,
      {
        PORT: port,
        INLAY_HOST: '127.0.0.1',
        INLAY_PUBLIC_URL: serviceUrl,
        INLAY_DATA_DIR: join(dir, 'inlay-data'),
        INLAY_BOOTSTRAP_API_KEY: API_KEY,
        INLAY_CONNECTOR_STRIPE_BASE_URL: stripeUrl,
        // Its "inlay listening" line says it is ready, whatever level the CI's environment asks for.
        LOG_LEVEL: 'info',
      },
      /inlay listening/,
    );

    // The operator's part, with the account's API key: an integration and a workflow listening for deal.won.
    const call = async (path: string, body: unknown) => {
      const res = await fetch(serviceUrl + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as Record<string, string>;
    };
    const { integrationId } = await call('/integrations', { name: 'Billing', connector: 'stripe' });
    const { workflowId } = await call('/workflows', {
      integrationId,
      name: WORKFLOW,
      definition: {
        trigger: { type: 'event', event: 'deal.won' },
        summary: 'Deal {{ trigger.name }}',
        steps: [
          {
            id: '6f1c2a50-9d3e-4b7a-8c21-0d5e4f3a2b10',
            name: 'Find the buyer',
            connector: 'stripe',
            action: 'find_customers',
            input: { email: '{{ trigger.email }}' },
          },
        ],
        config: [],
      },
    });

    const [, host] = await start(
      join(app, 'node_modules/.bin/tsx'),
      ['server.ts'],
      app,
      { PORT: '0', INLAY_URL: serviceUrl, INLAY_API_KEY: API_KEY },
      /host on (http:\/\/127\.0\.0\.1:\d+)/,
    );

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
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('pageerror', (e) => failed.push(e.message));

    // The user installs the workflow, connecting Stripe with an API key the fake checks.
    await page.goto(`${host}/`);
    await page.getByRole('button', { name: `Install: ${WORKFLOW}` }).click();
    const dialog = page.getByRole('dialog', { name: `Install ${WORKFLOW}` });
    await dialog.getByRole('heading', { name: /Step 1 of 2/ }).waitFor();
    await dialog.getByLabel(/Secret or restricted key/).fill(STRIPE_KEY);
    await dialog.getByRole('button', { name: 'Save and connect' }).click();
    await dialog
      .getByRole('radio', { name: /^Stripe/ })
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('heading', { name: /Step 2 of 2/ }).waitFor();
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: `Run history: ${WORKFLOW}` }).waitFor();
    expect(seen).toContainEqual({ path: '/account', auth: `Bearer ${STRIPE_KEY}` });

    // The run history, freshly mounted; then the host's backend fires the event with the server client.
    await page.goto(`${host}/?logs=${workflowId}`);
    await page.getByText('No runs yet.').waitFor();
    const fired = await fetch(`${host}/api/deals/won`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Globex' }),
    });
    expect(fired.status).toBe(200);
    expect(((await fired.json()) as { executionIds: string[] }).executionIds).toHaveLength(1);

    // No click: the run appears, finished, with what started it.
    const row = page.locator('tr', { hasText: 'Deal Globex' });
    await row.filter({ hasText: 'Succeeded' }).waitFor({ timeout: 20_000 });
    expect(seen).toContainEqual({
      path: expect.stringMatching(/^\/customers\?.*email=buyer%40globex\.test/),
      auth: `Bearer ${STRIPE_KEY}`,
    });
    expect(failed).toEqual([]);
  }, 180_000);
});

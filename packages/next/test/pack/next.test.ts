// A real Next.js host: `next build` and `next start` of a minimal App Router app (test/pack/app) whose catch-all
// route is @inlay/next's inlayRoute and whose page renders the widget, built from the packages' built output (the
// pack tier builds them once). Against the real service: the route's API through Next's own server, then the
// widget rendering and installing a workflow in Chromium.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Service, startService } from '@inlay/test-kit/service';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const APP = join(here, 'app');
const NEXT = join(here, '../../node_modules/.bin/next');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = process.env.DATABASE_URL
  ? 'DATABASE_URL is set: the Next.js build is checked once, in the PGlite pass'
  : existsSync(join(here, '../../dist/index.js'))
    ? undefined
    : '@inlay/next is not built (pnpm build)';
if (skip) console.warn(`next.test.ts: skipped, ${skip}`);
const hasChromium = existsSync(CHROMIUM);
if (!skip && !hasChromium)
  console.warn(`next.test.ts: the Chromium part skipped, no Chromium at ${CHROMIUM}`);

const STRIPE_KEY = 'sk_test_next';
const WORKFLOW = 'Look up the buyer in Stripe';

/** The environment of Next's commands: this test's own, without what vitest and `pnpm test` add. */
const nextEnv = (extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(npm_|pnpm_|VITEST|NODE_OPTIONS$|NODE_ENV$|TEST$|INLAY_|PORT$|__NEXT)/i.test(k),
    ),
  ),
  NEXT_TELEMETRY_DISABLED: '1',
  ...extra,
});

const children: ChildProcess[] = [];
const servers: Server[] = [];

/** Runs `next <args>` in the app; resolves with its output once `ready` matches (or it exits 0 without one). */
function next(args: string[], env: Record<string, string>, ready?: RegExp): Promise<string> {
  const child = spawn(NEXT, args, { cwd: APP, env: nextEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((ok, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready?.test(output)) ok(output);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 && !ready
        ? ok(output)
        : fail(new Error(`next ${args.join(' ')} exited with ${code}:\n${output}`)),
    );
  });
}

const listen = async (server: Server) => {
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** A Stripe stand-in: `/account` checks the key (the connection test). */
function fakeStripe(seen: string[]) {
  return createServer((req, res) => {
    seen.push(`${req.url} ${req.headers.authorization}`);
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== `Bearer ${STRIPE_KEY}`) {
      res.statusCode = 401;
      return res.end(
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key' } }),
      );
    }
    res.end(JSON.stringify({ id: 'acct_1', email: 'billing@host.test', object: 'list', data: [] }));
  });
}

let svc: Service;
let host: string;
let apiKey: string;
const stripeSeen: string[] = [];
let browser: Browser | undefined;

beforeAll(async () => {
  if (skip) return;
  const stripeUrl = await listen(fakeStripe(stripeSeen));
  svc = await startService({
    env: { INLAY_CONNECTOR_STRIPE_BASE_URL: stripeUrl, INLAY_EGRESS_ALLOW: new URL(stripeUrl).host },
  });
  ({ apiKey } = await svc.account('next-host'));
  const integration = await svc.call('POST', '/integrations', {
    auth: apiKey,
    body: { name: 'Billing', connector: 'stripe' },
  });
  expect(integration.status, integration.text).toBe(201);
  const workflow = await svc.call('POST', '/workflows', {
    auth: apiKey,
    body: {
      integrationId: integration.body.integrationId,
      name: WORKFLOW,
      definition: {
        trigger: { type: 'event', event: 'deal.won' },
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
    },
  });
  expect(workflow.status, workflow.text).toBe(201);

  rmSync(join(APP, '.next'), { recursive: true, force: true });
  await next(['build'], {});
  // A port picked here, so the host's URL is known up front.
  const probe = createServer();
  const port = new URL(await listen(probe)).port;
  servers.splice(servers.indexOf(probe), 1);
  await new Promise((ok) => probe.close(ok));
  await next(
    ['start', '-H', '127.0.0.1', '-p', port],
    { INLAY_URL: svc.url, INLAY_API_KEY: apiKey },
    /Ready in|started server on/i,
  );
  host = `http://127.0.0.1:${port}`;
}, 480_000);

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
  await svc?.close();
}, 60_000);

describe.skipIf(skip)('a Next.js App Router host (next build, next start)', () => {
  it('answers the token, proxies as the user, and refuses a form post, through Next’s own server', async () => {
    const token = await fetch(`${host}/api/inlay/token`);
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toContain('no-store');
    const { token: jwt } = (await token.json()) as { token: string };
    expect(jwt.split('.')).toHaveLength(3);

    const workflows = await fetch(`${host}/api/inlay/workflows`);
    expect(workflows.status).toBe(200);
    const list = (await workflows.json()) as { data: { name: string; installed: boolean }[] };
    expect(list.data).toContainEqual(expect.objectContaining({ name: WORKFLOW, installed: false }));

    const problem = await fetch(`${host}/api/inlay/workflows/not-a-uuid`);
    expect(problem.status).toBe(400);
    expect(problem.headers.get('content-type')).toContain('application/problem+json');
    await problem.text();

    const form = await fetch(`${host}/api/inlay/run/event`, {
      method: 'POST',
      body: new URLSearchParams({ event: 'deal.won' }),
    });
    expect(form.status).toBe(403);
    expect(((await form.json()) as { errors: { field: string }[] }).errors[0]?.field).toBe(
      'header.x-inlay-client',
    );
    const foreign = await fetch(`${host}/api/inlay/run/event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-inlay-client': '1', origin: 'https://evil.example' },
      body: JSON.stringify({ event: 'deal.won', data: {} }),
    });
    expect(foreign.status).toBe(403);
    await foreign.text();

    const icon = await fetch(`${host}/api/inlay/connectors/stripe/icon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    await icon.text();
  });

  it.skipIf(!hasChromium)(
    'renders the widget and installs a workflow in Chromium',
    async () => {
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
      expect(stripeSeen).toContain(`/account Bearer ${STRIPE_KEY}`);
      expect(failed).toEqual([]);
    },
    120_000,
  );
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServerClient, isInlayError, type ServerClient } from '@inlay/client';
import { inlay } from '@inlay/express';
import { createApp, type InlayApp, installedConsoleDir, loadConfig } from '@inlay/service';
import express, { type Express } from 'express';
import { type SandboxState, sandboxEnv, sandboxRouter, sandboxState } from './sandbox.ts';
import { DEMO_USERS, seed } from './seed.ts';
import { Sessions } from './session.ts';
import { startingServer } from './starting.ts';
import { type Deal, DemoStore } from './store.ts';
import { HostWebhooks } from './webhooks.ts';

const APP_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface DemoOptions {
  /** Inlay's PGlite folder and the demo's own JSON data (default `apps/demo/.inlay-data`). */
  dataDir?: string;
  /** 0 picks a free port. Defaults: 3000 (demo), 3001 (Inlay), 3002 (sandbox). */
  port?: number;
  servicePort?: number;
  sandboxPort?: number;
  host?: string;
  /** Serve the frontend through Vite's dev middleware instead of the built `dist/`. */
  dev?: boolean;
  /** Settles once the built frontend in `dist/` is current (a build running meanwhile); awaited before serving it. */
  frontend?: Promise<unknown>;
  /** Extra service environment (DATABASE_URL, LOG_LEVEL, ...); `process.env` is not read. */
  env?: Record<string, string | undefined>;
}

export interface Demo {
  url: string;
  dataDir: string;
  serviceUrl: string;
  /** The account's console (served by the service) and the demo account's API key to sign in with. */
  consoleUrl: string;
  apiKey: string;
  sandboxUrl: string;
  sandbox: SandboxState;
  service: InlayApp;
  client: ServerClient;
  /** Account webhooks Acme CRM received from Inlay and verified. */
  webhooks: HostWebhooks;
  seeded: boolean;
  close(): Promise<void>;
}

async function listenOn(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  return (server.address() as AddressInfo).port;
}

const closeServer = (s: Server) =>
  new Promise<void>((ok) => {
    s.close(() => ok());
    s.closeAllConnections();
  });

/** Starts the sandbox, the Inlay service (in-process) and Acme CRM, each on its own 127.0.0.1 port. */
export async function startDemo(opts: DemoOptions = {}): Promise<Demo> {
  const host = opts.host ?? '127.0.0.1';
  const dataDir = resolve(opts.dataDir ?? join(APP_ROOT, '.inlay-data'));
  const servers: Server[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const s of servers.reverse()) await closeServer(s);
    for (const fn of cleanups.reverse()) await fn();
  };

  try {
    // 1. The sandbox first: the service's connector overrides need its address.
    const sandboxFile = join(dataDir, 'sandbox.json');
    mkdirSync(dataDir, { recursive: true });
    const sandbox: SandboxState = existsSync(sandboxFile)
      ? { ...sandboxState(), ...(JSON.parse(readFileSync(sandboxFile, 'utf8')) as Partial<SandboxState>) }
      : sandboxState();
    const sandboxApp = express();
    // Saved after each change, so the tokens behind the users' connections outlive a restart.
    sandboxApp.use(sandboxRouter(sandbox, () => writeFileSync(sandboxFile, JSON.stringify(sandbox))));
    const sandboxServer = createServer(sandboxApp);
    servers.push(sandboxServer);
    const sandboxUrl = `http://${host}:${await listenOn(sandboxServer, opts.sandboxPort ?? 3002, host)}`;

    // 2. Acme CRM's port is bound now: Inlay's egress policy must open it for the account webhooks.
    // Until its handler exists it answers 503 with Retry-After: a reload during startup never hangs.
    const demoPort = startingServer('Acme CRM');
    const demoServer = demoPort.server;
    servers.push(demoServer);
    const url = `http://${host}:${await listenOn(demoServer, opts.port ?? 3000, host)}`;

    // 3. Inlay. The port is bound before the app exists, because its public URL is part of its config.
    const store = new DemoStore(dataDir);
    const inlayPort = startingServer('Inlay');
    const serviceServer = inlayPort.server;
    servers.push(serviceServer);
    const servicePort = await listenOn(serviceServer, opts.servicePort ?? 3001, host);
    const serviceUrl = `http://${host}:${servicePort}`;
    const config = loadConfig(
      {
        LOG_LEVEL: 'warn',
        // The seeded polling workflow asks the sandbox every few seconds, and due polls are looked for every
        // second, so a contact added in the sandbox starts its run within seconds rather than minutes.
        INLAY_POLL_MIN_INTERVAL_MS: '5000',
        INLAY_SCHEDULER_INTERVAL_MS: '1000',
        ...Object.fromEntries(Object.entries(opts.env ?? {}).filter(([, v]) => v !== undefined)),
        ...sandboxEnv(sandboxUrl),
        // A private address is closed to outbound requests unless the operator opens it.
        INLAY_EGRESS_ALLOW: [opts.env?.INLAY_EGRESS_ALLOW, new URL(url).host].filter(Boolean).join(','),
        PORT: String(servicePort),
        INLAY_PUBLIC_URL: serviceUrl,
        INLAY_DATA_DIR: join(dataDir, 'inlay'),
        // A new data folder after the first (another DEMO_DATA_DIR, or the old one deleted) copies the database
        // migrated the first time instead of setting PGlite up again.
        INLAY_PGLITE_TEMPLATE_DIR: join(APP_ROOT, 'node_modules/.cache/inlay'),
        INLAY_BOOTSTRAP_API_KEY: store.apiKey,
        INLAY_BOOTSTRAP_ACCOUNT_NAME: 'Acme CRM',
      },
      { warn: () => {} },
    );
    // The console the demo depends on (@inlay/console, built by `pnpm install`), served by the service at /console.
    const service = await createApp(config, { consoleDir: installedConsoleDir(import.meta.url) });
    cleanups.push(() => service.close());
    inlayPort.ready(service);

    const client = createServerClient({ baseUrl: serviceUrl, apiKey: store.apiKey });
    const { seeded } = await seed(client);
    const webhooks = new HostWebhooks(store, client);
    await webhooks.register(`${url}/webhooks/inlay`);

    // 4. Acme CRM itself.
    const sessions = new Sessions();
    const app = createHostApp({ store, sessions, client, serviceUrl, sandboxUrl, webhooks });
    if (opts.dev) {
      const { createServer: createVite } = await import('vite');
      const vite = await createVite({
        root: APP_ROOT,
        configFile: join(APP_ROOT, 'vite.config.ts'),
        server: { middlewareMode: true, hmr: { server: demoServer } },
        appType: 'spa',
      });
      cleanups.push(() => vite.close());
      app.use(vite.middlewares);
    } else {
      await opts.frontend;
      const dist = join(APP_ROOT, 'dist');
      if (!existsSync(join(dist, 'index.html')))
        throw new Error(
          `The frontend is not built: run "pnpm --filter @inlay/demo build" (looked in ${dist})`,
        );
      app.use(express.static(dist, { index: false }));
      app.get(/^(?!\/api\/).*/, (_req, res) => res.sendFile(join(dist, 'index.html')));
    }
    demoPort.ready(app);
    return {
      url,
      dataDir,
      serviceUrl,
      consoleUrl: `${serviceUrl}/console`,
      apiKey: store.apiKey,
      sandboxUrl,
      sandbox,
      service,
      client,
      webhooks,
      seeded,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

interface HostDeps {
  store: DemoStore;
  sessions: Sessions;
  client: ServerClient;
  serviceUrl: string;
  sandboxUrl: string;
  webhooks: HostWebhooks;
}

/** Acme CRM's backend: login, deals, and `@inlay/express` mounted at `/api/inlay`. */
function createHostApp({ store, sessions, client, serviceUrl, sandboxUrl, webhooks }: HostDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Inlay's account webhooks, verified on the raw body (before any parser).
  app.use(webhooks.router());
  // Like many Express apps, Acme CRM parses forms ahead of everything. @inlay/express refuses the writes
  // such a parser turns into objects (a cross-site <form> is not the widget), so this is safe.
  app.use(express.urlencoded({ extended: true, limit: '100kb' }));

  // The widget's API: a user JWT for the signed-in user, and a proxy that can only act as that user.
  app.use(
    '/api/inlay',
    inlay({
      serviceUrl,
      apiKey: store.apiKey,
      userId: (req) => sessions.user(req) ?? null,
      autoCreateUsers: {
        username: (req) => sessions.user(req)!,
        fullName: (req) => DEMO_USERS.find((u) => u.username === sessions.user(req))?.fullName,
      },
    }),
  );

  const api = express.Router();
  api.use(express.json({ limit: '100kb' }));
  api.get('/config', (_req, res) => {
    res.json({ serviceUrl, sandboxUrl });
  });
  api.post('/login', (req, res) => {
    const { username, password } = (req.body ?? {}) as { username?: string; password?: string };
    if (!sessions.login(res, String(username ?? ''), String(password ?? ''))) {
      res.status(401).json({ message: 'Wrong username or password' });
      return;
    }
    res.json(userInfo(String(username)));
  });
  api.post('/logout', (req, res) => {
    sessions.logout(req, res);
    res.json({ ok: true });
  });
  api.get('/me', sessions.required, (req, res) => {
    res.json(userInfo(sessions.user(req)!));
  });

  // What the host did with the account webhooks it received for this user (the "emails" it sent).
  api.get('/notices', sessions.required, (req, res) => {
    res.json({ data: webhooks.of(sessions.user(req)!) });
  });

  api.get('/deals', sessions.required, (req, res) => {
    res.json({ data: store.deals(sessions.user(req)!) });
  });
  api.post('/deals', sessions.required, async (req, res) => {
    const owner = sessions.user(req)!;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const input = {
      name: String(b.name ?? '').trim(),
      company: String(b.company ?? '').trim(),
      amount: Number(b.amount ?? 0),
      contactName: String(b.contactName ?? '').trim(),
      contactEmail: String(b.contactEmail ?? '').trim(),
    };
    if (!input.name || !input.company || !Number.isFinite(input.amount) || input.amount < 0) {
      res.status(400).json({ message: 'A deal needs a name, a company and a non-negative amount' });
      return;
    }
    if (input.contactEmail && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input.contactEmail)) {
      res.status(400).json({ message: 'The contact email is not valid' });
      return;
    }
    const deal = store.addDeal(owner, input);
    const runs = [await fire(owner, 'deal.created', dealEvent(deal))];
    if (deal.contactEmail && !store.knowsContact(owner, deal.contactEmail, deal.id)) {
      const [firstname, ...rest] = deal.contactName.split(/\s+/);
      runs.push(
        await fire(owner, 'contact.created', {
          email: deal.contactEmail,
          firstname: firstname ?? '',
          lastname: rest.join(' '),
          company: deal.company,
        }),
      );
    }
    res.status(201).json({ data: deal, runs });
  });
  api.post('/deals/:id/:outcome', sessions.required, async (req, res) => {
    const owner = sessions.user(req)!;
    const outcome = req.params.outcome;
    if (outcome !== 'won' && outcome !== 'lost') {
      res.status(404).json({ message: 'Not found' });
      return;
    }
    const deal = store.setStage(owner, String(req.params.id), outcome);
    if (!deal) {
      res.status(404).json({ message: 'Not found' });
      return;
    }
    res.json({ data: deal, runs: [await fire(owner, `deal.${outcome}`, dealEvent(deal))] });
  });

  // Privacy: the host deletes the user's run history with its API key.
  api.delete('/privacy/run-history', sessions.required, async (req, res) => {
    try {
      await client.users.deleteLogs(sessions.user(req)!);
      res.json({ ok: true });
    } catch (err) {
      res.status(502).json({ message: isInlayError(err) ? err.message : 'Inlay could not be reached' });
    }
  });

  api.use((_req, res) => {
    res.status(404).json({ message: 'Not found' });
  });
  app.use('/api', api);

  /** Tells Inlay what happened; workflows listening for the event run. A failure never loses the deal. */
  async function fire(userId: string, event: string, data: Record<string, unknown>) {
    try {
      const r = await client.runs.event({ event, userId, data });
      return { event, executionIds: r.executionIds };
    } catch (err) {
      // The user has no Inlay account yet (never opened Integrations): nothing is installed, nothing runs.
      if (isInlayError(err) && err.status === 404) return { event, executionIds: [] };
      return { event, executionIds: [], error: isInlayError(err) ? err.message : String(err) };
    }
  }

  return app;
}

function userInfo(username: string) {
  const u = DEMO_USERS.find((x) => x.username === username)!;
  return { username: u.username, fullName: u.fullName };
}

function dealEvent(d: Deal): Record<string, unknown> {
  return {
    id: d.id,
    name: d.name,
    company: d.company,
    amount: d.amount,
    stage: d.stage,
    contactName: d.contactName,
    contactEmail: d.contactEmail,
  };
}

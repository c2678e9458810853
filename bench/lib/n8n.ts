import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pool, type Side, wallMs } from './side.ts';

const run = promisify(execFile);

export interface N8nInstall {
  dir: string;
  node: string;
  n8nBin: string;
  n8nVersion: string;
  nodeVersion: string;
  cleanup(): Promise<void>;
}

const writeJson = (file: string, value: unknown) =>
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

async function npm(cwd: string, args: string[], env: NodeJS.ProcessEnv, log: (s: string) => void) {
  log(`npm ${args.join(' ')} in ${cwd} (minutes the first time)`);
  try {
    await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`npm ${args[0]} in ${cwd} failed: ${(e.stderr ?? e.message).slice(-4000)}`);
  }
}

/**
 * Installs Node and n8n from the npm registry into `dir` (a new temporary folder, removed afterwards, unless
 * given; a given folder that already holds them is reused). Node first, from the `node` package, so that n8n's
 * install scripts and native modules (sqlite3) are built for the Node that runs them, with its headers.
 */
export async function installN8n(o: {
  dir?: string;
  n8nVersion: string;
  nodeVersion: string;
  log: (s: string) => void;
}): Promise<N8nInstall> {
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'inlay-bench-n8n-'));
  mkdirSync(join(dir, 'node'), { recursive: true });
  const nodeDir = join(dir, 'node');
  const node = join(nodeDir, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(node)) {
    writeJson(join(nodeDir, 'package.json'), {
      name: 'inlay-bench-node',
      private: true,
      dependencies: { node: o.nodeVersion },
    });
    await npm(nodeDir, ['install'], process.env, o.log);
  }
  const nodeVersion = (await run(node, ['--version'])).stdout.trim();
  const nodeBin = join(nodeDir, 'node_modules', 'node', 'bin');
  // The `node` package's platform package holds a Node install: bin/, include/node (headers for node-gyp).
  const prefix = join(nodeDir, 'node_modules', `node-linux-${process.arch}`);

  const n8nDir = join(dir, 'n8n');
  mkdirSync(n8nDir, { recursive: true });
  const n8nBin = join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n');
  const env = {
    ...process.env,
    // A dependency's install script reports the install to Scarf unless told not to.
    SCARF_ANALYTICS: 'false',
    DO_NOT_TRACK: '1',
    // npm, its install scripts and node-gyp run on the Node that will run n8n.
    PATH: `${nodeBin}:${process.env.PATH}`,
    ...(existsSync(join(prefix, 'include', 'node')) ? { npm_config_nodedir: prefix } : {}),
  };
  if (!existsSync(n8nBin)) {
    writeJson(join(n8nDir, 'package.json'), {
      name: 'inlay-bench-n8n',
      private: true,
      dependencies: { n8n: o.n8nVersion },
      // n8n depends on xlsx from SheetJS's own CDN, which is not the npm registry; the registry's last
      // release of it is 0.18.5.
      overrides: { xlsx: '0.18.5' },
    });
    // Without install scripts, then the one native module the comparison needs (SQLite, n8n's database): other
    // scripts build modules the workflow never loads, and some cannot build here (n8n 2.40's Kafka client
    // fetches its binary from GitHub, else compiles librdkafka, which needs libcurl's headers); others only
    // report the install (Scarf).
    await npm(n8nDir, ['install', '--ignore-scripts'], env, o.log);
  }
  if (!existsSync(join(n8nDir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node')))
    await npm(n8nDir, ['rebuild', 'sqlite3'], env, o.log);
  const n8nVersion = JSON.parse(
    readFileSync(join(n8nDir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
  ).version;
  return {
    dir,
    node,
    n8nBin,
    n8nVersion,
    nodeVersion,
    cleanup: async () => {
      if (!o.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as { port: number }).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

const WORKFLOW_ID = 'inlayBench000001';

/** The same workflow in n8n: Webhook (answers with the last node's output) → HTTP Request → Set. */
function workflow(echoUrl: string) {
  return {
    id: WORKFLOW_ID,
    name: 'Webhook, echo, reshape',
    versionId: randomUUID(),
    active: false,
    settings: { executionOrder: 'v1' },
    nodes: [
      {
        id: randomUUID(),
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: randomUUID(),
        parameters: { httpMethod: 'POST', path: 'bench', responseMode: 'lastNode', options: {} },
      },
      {
        id: randomUUID(),
        name: 'echo',
        type: 'n8n-nodes-base.httpRequest',
        typeVersion: 4.2,
        position: [220, 0],
        parameters: {
          method: 'POST',
          url: `${echoUrl}/echo`,
          sendBody: true,
          specifyBody: 'json',
          jsonBody: '={{ JSON.stringify({ n: $json.body.n }) }}',
          options: { response: { response: { fullResponse: true } } },
        },
      },
      {
        id: randomUUID(),
        name: 'reshape',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [440, 0],
        parameters: {
          assignments: {
            assignments: [
              { id: randomUUID(), name: 'n', value: '={{ $json.body.body.n }}', type: 'number' },
              { id: randomUUID(), name: 'status', value: '={{ $json.statusCode }}', type: 'number' },
            ],
          },
          options: {},
        },
      },
    ],
    connections: {
      Webhook: { main: [[{ node: 'echo', type: 'main', index: 0 }]] },
      echo: { main: [[{ node: 'reshape', type: 'main', index: 0 }]] },
    },
  };
}

/**
 * Imports and publishes the workflow with n8n's CLI, then starts n8n on 127.0.0.1 (SQLite, its default), with
 * telemetry, version checks and templates off, and waits until the production webhook answers.
 */
export async function startN8n(
  install: N8nInstall,
  echoUrl: string,
  log: (s: string) => void,
): Promise<Side> {
  const port = await freePort();
  const home = join(install.dir, 'home');
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const env = {
    ...process.env,
    N8N_USER_FOLDER: home,
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    WEBHOOK_URL: `http://127.0.0.1:${port}/`,
    N8N_ENCRYPTION_KEY: 'inlay-bench-not-a-secret',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_SECURE_COOKIE: 'false',
    N8N_LOG_LEVEL: 'warn',
    DB_TYPE: 'sqlite',
  };
  const file = join(home, 'workflow.json');
  writeFileSync(file, JSON.stringify(workflow(echoUrl)));
  const cli = async (...args: string[]) => {
    try {
      await run(install.node, [install.n8nBin, ...args], { env, maxBuffer: 16 * 1024 * 1024 });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      throw new Error(`n8n ${args[0]} failed: ${(e.stderr || e.stdout || e.message).slice(-3000)}`);
    }
  };
  log('n8n: import:workflow, publish:workflow');
  await cli('import:workflow', `--input=${file}`);
  await cli('publish:workflow', `--id=${WORKFLOW_ID}`);

  const proc = spawn(install.node, [install.n8nBin, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d).slice(-4000));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const hook = `http://127.0.0.1:${port}/webhook/bench`;
  const call = async (n: number) => {
    const res = await fetch(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`n8n webhook answered ${res.status}: ${text.slice(0, 300)}`);
    const out = JSON.parse(text) as { n?: number; status?: number };
    if (out.n !== n || out.status !== 200) throw new Error(`n8n answered ${text.slice(0, 300)}`);
  };
  const until = Date.now() + 300_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`n8n exited with ${proc.exitCode}: ${output}`);
    try {
      await call(0);
      break;
    } catch (err) {
      if (Date.now() > until)
        throw new Error(`n8n did not serve the webhook: ${(err as Error).message}\n${output}`);
      await new Promise((ok) => setTimeout(ok, 500));
    }
  }
  return {
    name: 'n8n',
    pid: proc.pid!,
    async throughput(n, c) {
      const t0 = wallMs();
      await pool(n, c, call);
      return n / ((wallMs() - t0) / 1000);
    },
    async once(i) {
      const t0 = wallMs();
      await call(i);
      return wallMs() - t0;
    },
    stop: () =>
      new Promise<void>((done) => {
        if (proc.exitCode !== null) return done();
        proc.once('exit', () => done());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

// Starts ONE real service for every test file in a child process (test/serve.ts), and hands its address
// and seeded ids to the tests through `inject('inlay')`. Each test file works as its own user, so files
// never see each other's installs.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

export interface Seed {
  url: string;
  providerUrl: string;
  apiKey: string;
  workflowId: string;
  discordWorkflowId: string;
  stripeWorkflowId: string;
  fieldsWorkflowId: string;
  acmeWorkflowId: string;
  /** "Check deals": a summary, a named step, one succeeded and one failed run for `runs`. */
  runsWorkflowId: string;
  /** "Welcome new customers", started by Stripe's `new_customer` app trigger. */
  appTriggerWorkflowId: string;
  /** The Acme (OAuth) credential of `reoauth-*`, installed with the Acme workflow, revoked at the provider. */
  reoauth: Record<'reoauth-light' | 'reoauth-dark', string>;
  users: Record<
    | 'market'
    | 'install'
    | 'logs'
    | 'refresh'
    | 'browser'
    | 'keyboard'
    | 'keyboard-dark'
    | 'dark'
    | 'oauth'
    | 'oauth-dark'
    | 'redirect'
    | 'redirect-dark'
    | 'live'
    | 'live-event'
    | 'connections'
    | 'connections-dark'
    | 'connections-keyboard'
    | 'runs'
    | 'trigger'
    | 'reoauth-light'
    | 'reoauth-dark'
    | 'modal-blocked-en'
    | 'modal-blocked-ja'
    | `${'wait' | 'blocked' | 'card'}-${'light' | 'dark'}-${1280 | 375}-${'en' | 'ja'}`,
    string
  >;
  executions: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    inlay: Seed;
  }
}

export default async function setup(project: TestProject) {
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@inlay/source', 'test/serve.ts'], {
    cwd,
    env: process.env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`test/serve.ts exited with ${code}`)));
  });
  project.provide('inlay', JSON.parse(line) as Seed);
  return async () => {
    const gone = new Promise((r) => child.once('exit', r));
    child.stdin!.end();
    await gone;
  };
}

import { buildIfStale } from './build-if-stale.ts';
import { startDemo } from './demo.ts';
import { DEMO_USERS } from './seed.ts';

const port = (name: string, dflt: number) => {
  const v = process.env[name];
  const n = v === undefined ? dflt : Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    process.stderr.write(`acme-crm: ${name} must be a port number\n`);
    process.exit(2);
  }
  return n;
};

const dev = process.argv.includes('--dev');
try {
  // The frontend builds (when its sources changed) while the service starts.
  const frontend = dev ? undefined : buildIfStale();
  frontend?.catch(() => {});
  const demo = await startDemo({
    dev,
    frontend,
    port: port('DEMO_PORT', 3000),
    servicePort: port('DEMO_INLAY_PORT', 3001),
    sandboxPort: port('DEMO_SANDBOX_PORT', 3002),
    dataDir: process.env.DEMO_DATA_DIR,
    env: {
      DATABASE_URL: process.env.DATABASE_URL,
      INLAY_MASTER_KEY: process.env.INLAY_MASTER_KEY,
      LOG_LEVEL: process.env.LOG_LEVEL,
    },
  });
  const logins = DEMO_USERS.map((u) => `${u.username} / ${u.password}`).join('   ');
  process.stdout.write(
    [
      '',
      `  Acme CRM (Inlay demo)${dev ? ' — dev mode' : ''}`,
      '',
      `  Open      ${demo.url}`,
      `  Log in    ${logins}`,
      '',
      `  Inlay     ${demo.serviceUrl}   (API and OAuth callback)`,
      `  Console   ${demo.consoleUrl}   (the SaaS team's view: sign in with the API key below)`,
      `  API key   ${demo.apiKey}   (the demo account's; local to this machine)`,
      `  Sandbox   ${demo.sandboxUrl}   (stand-in Slack, HubSpot, GitHub and a support desk: see what they received)`,
      `  Data      ${demo.dataDir}   (delete it to start over)`,
      ...(demo.seeded
        ? ['  Seeded the demo account: 4 integrations, 7 workflows, users alice and bob.']
        : []),
      '',
      '  Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  // Ctrl-C reaches every process of the terminal's group, and pnpm passes it on once more: this one stops once,
  // says so in one line and exits 0 whatever else arrives meanwhile.
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await demo.close();
    process.stdout.write('  Stopped.\n');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE')
    process.stderr.write(
      `acme-crm: a port is already in use (${e.message}). Stop the other process or set DEMO_PORT, DEMO_INLAY_PORT, DEMO_SANDBOX_PORT.\n`,
    );
  else if (e.name === 'StoreLockedError' || e.name === 'ConfigError')
    process.stderr.write(`acme-crm: ${e.message}\n`);
  else process.stderr.write(`acme-crm: ${e.stack ?? e}\n`);
  process.exit(1);
}

// Run by the global setup with `tsx --conditions=@inlay/source` (the service cannot load inside vitest's
// module runner or jsdom): starts the real service and a fake Discord, seeds them, prints the seed as one
// JSON line and keeps serving until stdin closes.

import { randomUUID } from 'node:crypto';
import { TestBrowser } from '@inlay/test-kit/browser';
import { eventually } from '@inlay/test-kit/eventually';
import {
  providerConnectors,
  providerEgress,
  startProvider as startOAuthProvider,
} from '@inlay/test-kit/providers';
import {
  createUser,
  insertExecutions,
  installDirect,
  seedWidget,
  startDiscord,
  startService,
} from './helpers.ts';

const discord = await startDiscord();
// A real OAuth 2.0 provider (`acme`, PKCE) next to the built-in catalog, for the popup and redirect flows.
const acme = await startOAuthProvider();
const svc = await startService({
  // The operator's base-URL override opens Discord's address; acme's definitions name it, so it is opened
  // the way an operator would open an internal provider.
  env: { INLAY_CONNECTOR_DISCORD_BASE_URL: discord.url, ...providerEgress(acme) },
  connectors: providerConnectors(acme.url),
});
const s = await seedWidget(svc);
const call = async (method: string, path: string, body: unknown) => {
  const r = await svc.call(method, path, { auth: s.apiKey, body });
  if (r.status >= 300) throw new Error(r.text);
  return r.body;
};
await call('PUT', '/connectors/acme/oauth-app', { clientId: acme.clientId, clientSecret: acme.clientSecret });
const acmeIntegration = (await call('POST', '/integrations', { name: 'Acme sync', connector: 'acme' }))
  .integrationId;
const acmeWorkflowId = (
  await call('POST', '/workflows', {
    integrationId: acmeIntegration,
    name: 'Sync Acme projects',
    definition: {
      trigger: { type: 'manual' },
      steps: [{ id: randomUUID(), connector: 'acme', action: 'list_projects', input: {} }],
      config: [],
    },
  })
).workflowId;
// Started by an event in Stripe (an app trigger): its card says so in a sentence.
const signupsIntegration = (
  await call('POST', '/integrations', { name: 'Stripe signups', connector: 'stripe' })
).integrationId;
const appTriggerWorkflowId = (
  await call('POST', '/workflows', {
    integrationId: signupsIntegration,
    name: 'Welcome new customers',
    definition: {
      trigger: { type: 'app', connector: 'stripe', trigger: 'new_customer', input: {} },
      steps: [
        {
          id: randomUUID(),
          connector: 'transform',
          action: 'map',
          input: { expression: '{"email": trigger.email}' },
        },
      ],
      config: [],
    },
  })
).workflowId;
const users: Record<string, string> = {};
for (const name of [
  'market',
  'install',
  'logs',
  'refresh',
  'browser',
  'keyboard',
  'keyboard-dark',
  'dark',
  'oauth',
  'oauth-dark',
  'redirect',
  'redirect-dark',
  'live',
  'live-event',
  'connections',
  'connections-dark',
  'connections-keyboard',
  'runs',
  'trigger',
  'reoauth-light',
  'reoauth-dark',
  // The standalone <InstallModal>'s blocked-popup check in surfaces.test.ts, one per locale.
  'modal-blocked-en',
  'modal-blocked-ja',
  // One per scheme × width × locale of the OAuth-state and trigger-card browser tests.
  ...['light', 'dark'].flatMap((scheme) =>
    [1280, 375].flatMap((width) =>
      ['en', 'ja'].flatMap((locale) =>
        ['wait', 'blocked', 'card'].map((what) => `${what}-${scheme}-${width}-${locale}`),
      ),
    ),
  ),
])
  users[name] = await createUser(svc, s.apiKey, name);
// An Acme (OAuth) account that installs the Acme workflow, then is revoked at the provider: Reconnect on the
// card and in <Connections> goes through the OAuth popup (the reconnect browser tests). Before any other Acme
// account exists, since the provider revokes every token it issued.
const reoauth: Record<string, string> = {};
for (const name of ['reoauth-light', 'reoauth-dark']) {
  const userId = users[name]!;
  const started = await call('POST', '/credentials/oauth', { userId, connector: 'acme', origin: svc.url });
  const res = await new TestBrowser().connect(started.authorizeUrl);
  if (res.status >= 400) throw new Error(`Acme consent for ${name}: ${res.status}`);
  await call('POST', '/installations', {
    userId,
    workflowIds: [acmeWorkflowId],
    credentialIds: { acme: started.credentialId },
    values: [],
  });
  reoauth[name] = started.credentialId;
}
acme.revokeAll();
for (const [name, credentialId] of Object.entries(reoauth))
  await call('POST', `/credentials/${credentialId}/test?userId=${users[name]}`, {});
await installDirect(svc.db, { ...s, userId: users.market! }, { active: false });
await installDirect(svc.db, { ...s, userId: users.logs! });
await installDirect(svc.db, { ...s, userId: users.browser! });
await installDirect(svc.db, { ...s, userId: users.live! });
await installDirect(svc.db, { ...s, userId: users['live-event']! });
const executions = await insertExecutions(svc.db, { ...s, userId: users.logs! }, 12);
await insertExecutions(svc.db, { ...s, userId: users.browser! }, 3);

// Real runs of a workflow with a summary and a named step: one that succeeds and one that fails.
const runsWorkflowId = (
  await call('POST', '/workflows', {
    integrationId: s.integrationId,
    name: 'Check deals',
    definition: {
      trigger: { type: 'manual' },
      summary: 'Deal {{ trigger.name }}',
      steps: [
        {
          id: randomUUID(),
          name: 'Check the amount',
          connector: 'transform',
          action: 'map',
          input: {
            expression:
              'trigger.amount > 0 ? {"deal": trigger.name, "amount": trigger.amount} : $error("Amount must be positive")',
          },
        },
      ],
      config: [],
    },
  })
).workflowId as string;
await installDirect(svc.db, { ...s, workflowId: runsWorkflowId, userId: users.runs! });
for (const [i, data] of [
  { name: 'Globex', amount: 100 },
  { name: 'Initech', amount: 0 },
].entries()) {
  await call('POST', '/run/workflow', { workflowId: runsWorkflowId, userId: users.runs, data });
  // One after the other, so the order of their start times is known.
  await eventually(`run ${i + 1} of the runs workflow finished`, async () => {
    const logs = await svc.call('GET', `/workflows/${runsWorkflowId}/logs?userId=${users.runs}`, {
      auth: s.apiKey,
    });
    const runs = logs.body.data as { status: string }[];
    return runs.length === i + 1 && runs.every((l) => l.status === 'succeeded' || l.status === 'failed');
  });
}

process.stdout.write(
  `${JSON.stringify({
    url: svc.url,
    providerUrl: discord.url,
    apiKey: s.apiKey,
    workflowId: s.workflowId,
    discordWorkflowId: s.discordWorkflowId,
    stripeWorkflowId: s.stripeWorkflowId,
    fieldsWorkflowId: s.fieldsWorkflowId,
    acmeWorkflowId,
    runsWorkflowId,
    appTriggerWorkflowId,
    reoauth,
    users,
    executions,
  })}\n`,
);
process.stdin.resume();
process.stdin.on('end', async () => {
  await svc.close();
  await discord.close();
  await acme.close();
  process.exit(0);
});

// Run by custom-connector.test.ts with `tsx --conditions=@inlay/source` (the service cannot load inside
// vitest's module runner): a fake CRM on 127.0.0.1 and a service of its own (a private database on
// PostgreSQL, so no other test's engine picks up its runs), with one account and one user and nothing else.
// Prints `{url, apiKey, userId, providerUrl, workspace, key}` (the last two: the credential the CRM takes) as
// one JSON line and serves until stdin closes.
import { startUpstream, type Upstream } from '@inlay/test-kit/engine';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { createUser, startService } from '../helpers.ts';

/** What the CRM accepts: the workspace and the key, joined as the connector's `format` says. */
const WORKSPACE = 'ws-7';
const KEY = 'crm-key-5d1c';

// The requests the CRM received, for the test to read at `GET /__seen` (that request itself is not kept).
let provider: Upstream | undefined;
provider = await startUpstream((req) => {
  if (req.path === '/__seen') {
    provider!.seen.pop();
    return { body: provider!.seen };
  }
  if (req.headers['x-crm-key'] !== `${WORKSPACE}:${KEY}`)
    return { status: 401, body: { message: 'bad key' } };
  if (req.path === '/me') return { body: { email: 'ops@crm.test' } };
  if (req.path === `/workspaces/${WORKSPACE}/lists`)
    return {
      body: {
        lists: [
          { id: 'l-leads', name: 'Leads' },
          { id: 'l-vip', name: 'VIP customers' },
        ],
      },
    };
  if (req.path === '/contacts' && req.method === 'POST')
    return { status: 201, body: { contact: { id: 'c-1', ...req.body } } };
  return { status: 404, body: { message: 'no route' } };
});
const db = process.env.DATABASE_URL ? await privateDatabase('inlay_react_custom') : undefined;
const svc = await startService({
  env: { INLAY_EGRESS_ALLOW: new URL(provider.url).host, ...(db ? { DATABASE_URL: db.url } : {}) },
});
const { apiKey } = await svc.account('Custom CRM account');
const userId = await createUser(svc, apiKey, 'crm-user');

process.stdout.write(
  `${JSON.stringify({ url: svc.url, apiKey, userId, providerUrl: provider.url, workspace: WORKSPACE, key: KEY })}\n`,
);
process.stdin.resume();
process.stdin.on('end', async () => {
  await svc.close();
  await provider?.close();
  await db?.drop();
  process.exit(0);
});

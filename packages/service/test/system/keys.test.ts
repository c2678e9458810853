import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@inlay/test-kit/cli';
import { createUser } from '@inlay/test-kit/fixtures';
import { privateDatabase } from '@inlay/test-kit/private-database';
import {
  GOOD_KEY,
  type Provider,
  providerConnectors,
  providerEgress,
  startProvider,
} from '@inlay/test-kit/providers';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialAad } from '../../src/credentials/credential-service.ts';
import { oauthAppAad } from '../../src/credentials/oauth-apps.ts';
import { stateAad } from '../../src/credentials/oauth-states.ts';
import { keyIdOf, masterKeyId, Vault } from '../../src/credentials/vault.ts';
import { webhookAad } from '../../src/installations/installations.ts';
import {
  credentials,
  installations,
  oauthApps,
  oauthStates,
  signingKeys,
  webhookEndpoints,
} from '../../src/store/schema.ts';
import { signingKeyAad } from '../../src/tokens/signing-keys.ts';
import { endpointAad } from '../../src/webhooks/endpoints.ts';

const OLD = randomBytes(32);
const NEW = randomBytes(32);
const b64 = (k: Buffer) => k.toString('base64');

/**
 * Rotation rewrites every sealed value of the database, so it runs on a store of its own: a fresh
 * PostgreSQL database next to the shared one (dropped afterwards), or a PGlite folder.
 */
let store: Record<string, string>;
let cleanup: () => Promise<void>;
let provider: Provider;

beforeAll(async () => {
  provider = await startProvider();
  if (onPostgres) {
    const db = await privateDatabase('inlay_keys');
    store = { DATABASE_URL: db.url };
    cleanup = () => db.drop();
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'inlay-keys-'));
    store = { INLAY_DATA_DIR: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  await provider?.close();
  await cleanup?.();
});

const serve = (keys: Buffer[]) =>
  startService({
    connectors: providerConnectors(provider.url),
    env: {
      ...store,
      ...providerEgress(provider),
      INLAY_MASTER_KEY: b64(keys[0]!),
      ...(keys.length > 1 ? { INLAY_MASTER_KEY_PREVIOUS: keys.slice(1).map(b64).join(',') } : {}),
    },
  });

const cliEnv = () => ({
  ...store,
  DATABASE_URL: store.DATABASE_URL,
  INLAY_MASTER_KEY: b64(NEW),
  INLAY_MASTER_KEY_PREVIOUS: b64(OLD),
});

/** Every sealed value in the store with the associated data it opens with. */
async function sealedValues(svc: Service) {
  const db = svc.db;
  const out: { table: string; sealed: string; aad: string; keyId?: string | null }[] = [];
  for (const r of await db.select().from(credentials))
    if (r.sealed)
      out.push({
        table: 'credentials',
        sealed: r.sealed,
        aad: credentialAad(r.accountId, r.id),
        keyId: r.keyId,
      });
  for (const r of await db.select().from(oauthApps))
    out.push({ table: 'oauth_apps', sealed: r.clientSecretSealed, aad: oauthAppAad(r), keyId: r.keyId });
  for (const r of await db.select().from(oauthStates))
    out.push({
      table: 'oauth_states',
      sealed: r.sealed,
      aad: stateAad(r),
      keyId: r.keyId,
    });
  for (const r of await db.select().from(signingKeys))
    out.push({ table: 'signing_keys', sealed: r.privateJwkSealed, aad: signingKeyAad(r.kid) });
  for (const r of await db.select().from(installations))
    if (r.webhookSecretSealed)
      out.push({ table: 'installations', sealed: r.webhookSecretSealed, aad: webhookAad(r) });
  for (const r of await db.select().from(webhookEndpoints))
    out.push({ table: 'webhook_endpoints', sealed: r.secretSealed, aad: endpointAad(r), keyId: r.keyId });
  return out;
}

describe('inlay keys rotate', () => {
  it('re-encrypts every secret under the new key while the service keeps serving', {
    timeout: 180_000,
  }, async () => {
    // 1. A service on the old key holds credentials, an OAuth app, a pending OAuth state and a webhook secret.
    let svc = await serve([OLD]);
    const { apiKey } = await svc.account();
    const alice = await createUser(svc, apiKey, 'alice');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await svc.call('POST', '/credentials', {
        auth: apiKey,
        body: { userId: alice, connector: 'keyco', data: { apiKey: GOOD_KEY } },
      });
      ids.push(r.body.data.credentialId);
    }
    await svc.call('PUT', '/connectors/acme/oauth-app', {
      auth: apiKey,
      body: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    });
    const pending = await svc.call('POST', '/credentials/oauth', {
      auth: apiKey,
      body: { userId: alice, connector: 'acme', redirectUri: 'http://localhost:3000/done' },
    });
    const integration = await svc.call('POST', '/integrations', { auth: apiKey, body: { name: 'Hooks' } });
    const wf = await svc.call('POST', '/workflows', {
      auth: apiKey,
      body: {
        integrationId: integration.body.integrationId,
        name: 'On hook',
        definition: {
          trigger: { type: 'webhook' },
          steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '1' } }],
          config: [],
        },
      },
    });
    const inst = await svc.call('POST', '/installations', {
      auth: apiKey,
      body: { userId: alice, workflowIds: [wf.body.workflowId] },
    });
    expect(inst.status, inst.text).toBe(201);
    const webhookUrl = inst.body.data.webhookUrl;
    expect(webhookUrl).toMatch(/\/hooks\//);
    // An account webhook endpoint's signing secret (an event it never receives here: nothing is sent).
    const hook = await svc.call('POST', '/webhook-endpoints', {
      auth: apiKey,
      body: { url: 'https://hooks.example.com/inlay', events: ['credential.needs_reconnect'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const before = await sealedValues(svc);
    expect(new Set(before.map((v) => v.table))).toEqual(
      new Set([
        'credentials',
        'oauth_apps',
        'oauth_states',
        'signing_keys',
        'installations',
        'webhook_endpoints',
      ]),
    );
    expect(before.every((v) => keyIdOf(v.sealed) === masterKeyId(OLD))).toBe(true);
    await svc.close();

    // 2. The deployment moves to the new key and keeps the old one for reading.
    svc = await serve([NEW, OLD]);
    const use = () =>
      svc.call('GET', `/connectors/keyco/options/lists?userId=alice&credentialId=${ids[0]}`, {
        auth: apiKey,
      });
    expect((await use()).status).toBe(200);

    // 3. On PostgreSQL the rotation runs while the service serves requests that decrypt; PGlite allows one
    //    process per folder, so there the service stops for the rotation.
    const statuses: number[] = [];
    let result: Awaited<ReturnType<typeof runCli>>;
    if (onPostgres) {
      let rotating = true;
      const load = (async () => {
        while (rotating) {
          statuses.push((await use()).status);
          statuses.push((await svc.call('GET', `/users/${alice}/token`, { auth: apiKey })).status);
        }
      })();
      result = await runCli(['keys', 'rotate', '--batch-size', '2'], cliEnv());
      rotating = false;
      await load;
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200)).toBe(true);
    } else {
      await svc.close();
      result = await runCli(['keys', 'rotate', '--batch-size', '2'], cliEnv());
      svc = await serve([NEW, OLD]);
    }
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout.trim());
    expect(summary.keyId).toBe(masterKeyId(NEW));
    expect(summary.failures).toEqual([]);
    expect(summary.tables.credentials).toMatchObject({ resealed: 5, failed: 0, remaining: 0 });
    for (const t of ['oauth_apps', 'oauth_states', 'signing_keys', 'installations', 'webhook_endpoints'])
      expect(summary.tables[t]).toMatchObject({ failed: 0, remaining: 0 });
    expect(summary.tables.oauth_apps.resealed).toBe(1);
    expect(summary.tables.installations.resealed).toBe(1);

    // 4. Every value opens with the new key alone, and none still uses the old key id.
    const after = await sealedValues(svc);
    expect(after.length).toBe(before.length);
    const onlyNew = new Vault([NEW]);
    for (const v of after) {
      expect(keyIdOf(v.sealed)).toBe(masterKeyId(NEW));
      if (v.keyId !== undefined) expect(v.keyId).toBe(masterKeyId(NEW));
      expect(() => onlyNew.open(v.sealed, v.aad)).not.toThrow();
    }
    await svc.close();

    // 5. The old key can go: everything still works.
    svc = await serve([NEW]);
    try {
      expect((await use()).status).toBe(200);
      expect((await svc.call('GET', `/users/${alice}/token`, { auth: apiKey })).status).toBe(200);
      const again = await svc.call('GET', `/installations/${inst.body.data.installationId}`, {
        auth: apiKey,
      });
      // Each test service has its own port: the secret path is what must survive.
      expect(new URL(again.body.data.webhookUrl).pathname).toBe(new URL(webhookUrl).pathname);
      // The OAuth state sealed before the rotation is still readable (its callback lands on the old
      // service's URL here, so it is checked through the store).
      const [state] = await svc.db.select().from(oauthStates);
      expect(state!.credentialId).toBe(pending.body.credentialId);
      expect(
        new Vault([NEW]).openJson<{ codeVerifier: string }>(state!.sealed, stateAad(state!)).codeVerifier,
      ).toMatch(/^[\w-]{43}$/);
      // A second run has nothing left to do.
      if (onPostgres) {
        const second = await runCli(['keys', 'rotate'], cliEnv());
        expect(second.code, second.stderr).toBe(0);
        const sum = JSON.parse(second.stdout.trim());
        for (const t of Object.values(sum.tables) as { resealed: number; remaining: number }[])
          expect(t).toMatchObject({ resealed: 0, remaining: 0 });
      }
    } finally {
      await svc.close();
    }
  });

  it('exits 1 and says which key is missing when a value does not open', async () => {
    const other = randomBytes(32);
    const r = await runCli(['keys', 'rotate'], {
      ...cliEnv(),
      INLAY_MASTER_KEY: b64(other),
      INLAY_MASTER_KEY_PREVIOUS: '',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('INLAY_MASTER_KEY_PREVIOUS');
    const summary = JSON.parse(r.stdout.trim());
    expect(summary.failures.length).toBeGreaterThan(0);
    expect(summary.failures[0].error).toContain(masterKeyId(NEW));
    expect(r.stdout).not.toContain(GOOD_KEY);
  });

  it('rejects unknown subcommands and a bad --batch-size with a usage error', async () => {
    const a = await runCli(['keys', 'spin'], cliEnv());
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('keys rotate');
    const b = await runCli(['keys', 'rotate', '--batch-size', '0'], cliEnv());
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--batch-size');
  });
});

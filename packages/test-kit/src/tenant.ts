import { randomUUID } from 'node:crypto';
import { installations, webhookAad } from '@inlay/service/testing';
import { eq } from 'drizzle-orm';
import { createUser, insertExecutions, installDirect, seedAccount, tokenFor } from './fixtures.ts';
import type { Service } from './service.ts';

/** A declarative connector of an account's own (API key in a header), calling `baseUrl`. */
export const customConnector = (id: string, baseUrl: string, oauth = false) => ({
  id,
  name: `Custom ${id}`,
  description: 'Contacts',
  category: 'crm',
  icon: 'acme',
  baseUrl,
  auth: oauth
    ? {
        type: 'oauth2',
        authorizeUrl: `${baseUrl}/authorize`,
        tokenUrl: `${baseUrl}/token`,
        scopes: ['read'],
        pkce: true,
      }
    : {
        type: 'apiKey',
        in: 'header',
        name: 'x-acme-key',
        fields: [{ name: 'apiKey', label: 'API key', type: 'password', required: true, secret: true }],
      },
  test: { method: 'GET', path: '/me', label: 'email' },
  actions: [
    {
      id: 'get_contact',
      name: 'Get contact',
      description: 'Reads a contact',
      kind: 'read',
      input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      request: { method: 'GET', path: '/contacts/{{ input.id }}' },
    },
  ],
  sources: {
    lists: {
      description: 'Mailing lists',
      request: { method: 'GET', path: '/lists' },
      items: 'lists',
      value: 'id',
      label: '{{ item.name }}',
    },
  },
});

/** A one-operation OpenAPI document for `POST /connectors/import`. */
export const petstore = {
  openapi: '3.1.0',
  info: { title: 'Pet store', version: '1' },
  servers: [{ url: 'https://pets.example.com/v1' }],
  paths: {
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'ok' } },
      },
    },
  },
};

/**
 * One account with an object of every kind, each named after `label` so that a reply naming another tenant's
 * object is recognisable. `userId` has an installation and runs; `freshUserId` has nothing (routes that create
 * what `userId` already has).
 */
export async function seedTenant(svc: Service, label: string, baseUrl: string) {
  const s = await seedAccount(svc, { username: `user-${label}` });
  const ok = <T>(r: { status: number; text: string; body: T }, what: string) => {
    if (r.status >= 300) throw new Error(`seed ${label} ${what}: ${r.status} ${r.text}`);
    return r.body;
  };
  const freshUserId = await createUser(svc, s.apiKey, `fresh-${label}`);
  const installationId = await installDirect(svc.db, s);
  const executionIds = await insertExecutions(svc.db, s, 2);
  // The installation's webhook URL secret, sealed as installing a webhook workflow seals it.
  const hookSecret = `hook-${label}-`.padEnd(43, 'x');
  await svc.db
    .update(installations)
    .set({
      webhookSecretSealed: svc.ctx.vault.seal(
        hookSecret,
        webhookAad({ accountId: s.accountId, id: installationId }),
      ),
    })
    .where(eq(installations.id, installationId));
  const credential = await svc.ctx.credentials.create({
    accountId: s.accountId,
    userId: s.userId,
    connector: 'discord',
    name: `Discord ${label}`,
    type: 'apiKey',
    secrets: { fields: { botToken: `bot-token-${label}-0123456789` } },
  });
  const connector = `crm-${label}`;
  const created: any = ok(
    await svc.call('POST', '/connectors', { auth: s.apiKey, body: customConnector(connector, baseUrl) }),
    'connector',
  );
  const imported = `imp-${label}`;
  ok(
    await svc.call('POST', '/connectors/import?create=true', {
      auth: s.apiKey,
      body: { document: petstore, id: imported },
    }),
    'imported connector',
  );
  const customCredential = await svc.ctx.credentials.create({
    accountId: s.accountId,
    userId: s.userId,
    connector,
    name: `CRM ${label}`,
    type: 'apiKey',
    secrets: { fields: { apiKey: `crm-key-${label}` } },
  });
  const oauthConnector = `oauth-${label}`;
  ok(
    await svc.call('POST', '/connectors', {
      auth: s.apiKey,
      body: customConnector(oauthConnector, baseUrl, true),
    }),
    'oauth connector',
  );
  ok(
    await svc.call('PUT', `/connectors/${oauthConnector}/oauth-app`, {
      auth: s.apiKey,
      body: { clientId: `client-${label}`, clientSecret: `secret-${label}-0123456789` },
    }),
    'oauth app',
  );
  const mcp: any = ok(
    await svc.call('POST', '/mcp-servers', { auth: s.apiKey, body: { name: `mcp-${label}` } }),
    'mcp server',
  );
  const apiKey2: any = ok(
    await svc.call('POST', '/api-keys', { auth: s.apiKey, body: { name: `key-${label}` } }),
    'api key',
  );
  const endpoint: any = ok(
    await svc.call('POST', '/webhook-endpoints', {
      auth: s.apiKey,
      body: { url: `${baseUrl}/hooks-${label}`, events: ['execution.failed'] },
    }),
    'webhook endpoint',
  );
  // A console session of the account: a cookie that acts as its API key (writes with the CSRF header).
  const session = await svc.call('POST', '/console/session', { body: { apiKey: s.apiKey } });
  const cookie = session.headers.get('set-cookie')?.split(';')[0];
  if (session.status !== 201 || !cookie) throw new Error(`seed ${label} console session: ${session.text}`);
  return {
    ...s,
    label,
    console: { cookie, csrfToken: session.body.data.csrfToken as string },
    username: `user-${label}`,
    freshUserId,
    jwt: await tokenFor(svc, s.apiKey, s.userId),
    freshJwt: await tokenFor(svc, s.apiKey, freshUserId),
    installationId,
    hookSecret,
    executionIds,
    credentialId: credential.id,
    customCredentialId: customCredential.id,
    connector,
    /** A custom OAuth connector with the account's OAuth app. */
    oauthConnector,
    /** A custom connector imported from an OpenAPI document. */
    importedConnector: imported,
    iconKey: new URL(created.data.icon).searchParams.get('key') ?? randomUUID(),
    mcp: mcp as { serverId: string; accessToken: string; url: string },
    apiKeyId: apiKey2.data.apiKeyId as string,
    webhookEndpointId: endpoint.webhookEndpointId as string,
  };
}

export type Tenant = Awaited<ReturnType<typeof seedTenant>>;

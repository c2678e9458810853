import { randomUUID } from 'node:crypto';
import { type ConnectorDefinition, catalog } from '@inlay/connectors';
import { install, publish, waitForRuns } from '@inlay/test-kit/engine';
import { createUser, tokenFor } from '@inlay/test-kit/fixtures';
import { connectV2 } from '@inlay/test-kit/mcp';
import { type Service, startService } from '@inlay/test-kit/service';
import {
  connectionGuard,
  internalForms,
  loopbackForms,
  runSsrfMatrix,
  type SsrfEntryPoint,
  type SsrfForm,
  startCanary,
  startRedirector,
  testResolver,
} from '@inlay/test-kit/ssrf';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executionSteps } from '../../src/store/schema.ts';

/**
 * The SSRF matrix: every way a party Inlay does not trust can aim a request (an agent's MCP action with a
 * user JWT, an anonymous webhook running a workflow whose URL is a config value, an option source whose
 * host comes from the user's credential, the REST proxy and MCP's `proxy_request_inlay` toward such a host, a custom
 * connector's base URL) × every spelling of loopback and of internal addresses. The canary must see no
 * connection; internal addresses must see no attempt. To add an entry point, add one object to `entryPoints`.
 */

/** A self-hosted product: the user's credential says on which host and port it runs. */
const tenant: ConnectorDefinition = {
  id: 'tenant',
  name: 'Tenant',
  description: 'A self-hosted app whose address is part of the credential',
  category: 'developer',
  icon: 'tenant',
  baseUrl: 'http://{host}:{port}/api',
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    fields: [
      { name: 'apiKey', label: 'Key', type: 'password', required: true, secret: true },
      { name: 'host', label: 'Host', type: 'text', required: true, secret: false },
      { name: 'port', label: 'Port', type: 'text', required: true, secret: false },
    ],
  },
  actions: [
    {
      id: 'ping',
      name: 'Ping',
      description: 'Ping',
      kind: 'read',
      input: z.object({}),
      request: () => ({ method: 'GET', path: '/ping' }),
    },
  ],
  sources: {
    things: {
      description: 'Things',
      request: () => ({ method: 'GET', path: '/things' }),
      items: (b) => (b as { items: unknown[] }).items,
      option: (t: { id: string }) => ({ value: t.id, label: t.id }),
    },
  },
};

let svc: Service;
let canary: Awaited<ReturnType<typeof startCanary>>;
let redirector: Awaited<ReturnType<typeof startRedirector>>;
let guard: ReturnType<typeof connectionGuard>;
let apiKey: string;
let alice: string;
let jwt: string;
let mcp: Awaited<ReturnType<typeof connectV2>>;
let mcpTenant: Awaited<ReturnType<typeof connectV2>>;
let hook: { workflowId: string; stepId: string; installationId: string; path: string };
const counts: Record<string, number> = {};

beforeAll(async () => {
  guard = connectionGuard();
  canary = await startCanary();
  redirector = await startRedirector(`${canary.url}/stolen`);
  svc = await startService({
    connectors: [...catalog, tenant],
    // Only the redirector is opened: it stands for an allowed partner host that redirects to loopback.
    env: { INLAY_EGRESS_ALLOW: new URL(redirector.url).host },
    resolve: testResolver(),
  });
  ({ apiKey } = await svc.account());
  alice = await createUser(svc, apiKey, 'alice');
  jwt = await tokenFor(svc, apiKey, alice);
  const server = await svc.call('POST', '/mcp-servers', {
    auth: apiKey,
    body: { name: 'agent', restrictions: { connectors: { allow: ['http'] } } },
  });
  mcp = await connectV2(server.body.url, { authorization: `Bearer ${jwt}` });
  const tenantServer = await svc.call('POST', '/mcp-servers', {
    auth: apiKey,
    body: { name: 'tenant agent', restrictions: { connectors: { allow: ['tenant'] } } },
  });
  mcpTenant = await connectV2(tenantServer.body.url, { authorization: `Bearer ${jwt}` });
  const stepId = randomUUID();
  const workflowId = await publish(
    svc,
    apiKey,
    {
      trigger: { type: 'webhook' },
      steps: [
        {
          id: stepId,
          connector: 'http',
          action: 'request',
          input: { url: '{{ config.target }}' },
          retries: 0,
        },
      ],
      config: [{ stepId, name: 'target', displayName: 'Target URL', type: 'text', required: true }],
    },
    'forward',
  );
  const inst = await install(svc, apiKey, alice, [workflowId], {
    values: [{ workflowId, blockId: stepId, fields: [{ name: 'target', value: 'https://example.com/' }] }],
  });
  hook = {
    workflowId,
    stepId,
    installationId: inst.installationId,
    path: inst.webhookUrl!.slice(svc.url.length),
  };
}, 60_000);

afterAll(async () => {
  guard?.stop();
  await mcp?.close();
  await mcpTenant?.close();
  await Promise.all([svc?.close(), canary?.close(), redirector?.close()]);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(
    `SSRF matrix: ${total} cases (${Object.entries(counts)
      .map(([k, v]) => `${k}: ${v}`)
      .join(
        '; ',
      )}), all refused; canary connections: ${canary?.connections}; attempts at internal addresses: ${
      guard?.attempts.filter((a) => !a.address.startsWith('127.') && a.address !== '::1').length
    }`,
  );
});

const stepErrorOf = async (executionId: string) => {
  const [step] = await svc.db
    .select()
    .from(executionSteps)
    .where(eq(executionSteps.executionId, executionId));
  return step?.error as { code: string; message: string };
};

let customSeq = 0;
const entryPoints: SsrfEntryPoint[] = [
  {
    name: 'MCP execute_action_inlay http.request (user JWT only)',
    async attempt(form) {
      const r = (await mcp.callTool({
        name: 'execute_action_inlay',
        arguments: { connectorId: 'http', actionId: 'request', parameters: { url: form.url } },
      })) as { isError?: boolean; content: { text: string }[] };
      expect(r.isError, form.name).toBe(true);
      const text = r.content[0]!.text;
      const id = /executionId ([0-9a-f-]{36})/.exec(text)?.[1];
      if (!id) return { code: 'no_execution', message: text };
      return stepErrorOf(id);
    },
  },
  {
    name: 'anonymous webhook → workflow http step, URL from config',
    async attempt(form) {
      const values = [
        { workflowId: hook.workflowId, blockId: hook.stepId, fields: [{ name: 'target', value: form.url }] },
      ];
      const set = await svc.call('PATCH', `/installations/${hook.installationId}`, {
        auth: apiKey,
        body: { userId: alice, values },
      });
      expect(set.status, set.text).toBe(200);
      const fired = await svc.call('POST', hook.path, { body: { from: 'anyone' } });
      expect(fired.status, fired.text).toBe(200);
      const [run] = await waitForRuns(svc, fired.body.executionIds);
      expect(run!.status).toBe('failed');
      return stepErrorOf(run!.id);
    },
  },
  {
    name: 'option source, host from a crafted credential setting',
    async attempt(form) {
      const created = await svc.call('POST', '/credentials', {
        auth: jwt,
        body: {
          connector: 'tenant',
          data: { apiKey: 'k-0123456789', host: form.host, port: String(form.port) },
        },
      });
      if (created.status !== 201) return { code: created.body.code, message: created.body.message };
      const id = created.body.data.credentialId;
      const r = await svc.call('GET', `/connectors/tenant/options/things?credentialId=${id}`, { auth: jwt });
      expect(r.status, r.text).toBe(422);
      return { code: r.body.code, message: r.body.message };
    },
    // A setting is percent-encoded into the URL template: `[::1]` cannot become a host, and says so at once.
    expectedCode: (form: SsrfForm) => (form.host.startsWith('[') ? 'invalid_request' : 'egress_denied'),
  },
  {
    name: 'proxy, host from a crafted credential setting',
    async attempt(form) {
      const created = await svc.call('POST', '/credentials', {
        auth: jwt,
        body: {
          connector: 'tenant',
          data: { apiKey: 'k-0123456789', host: form.host, port: String(form.port) },
        },
      });
      if (created.status !== 201) return { code: created.body.code, message: created.body.message };
      const id = created.body.data.credentialId;
      const r = await svc.call('GET', '/connectors/tenant/proxy/ssrf', {
        auth: jwt,
        headers: { 'x-inlay-credential-id': id },
      });
      expect(r.status, r.text).toBe(422);
      return { code: r.body.code, message: r.body.message };
    },
    expectedCode: (form: SsrfForm) => (form.host.startsWith('[') ? 'invalid_request' : 'egress_denied'),
  },
  {
    name: 'MCP proxy_request_inlay, host from a crafted credential setting (user JWT only)',
    async attempt(form) {
      const created = await svc.call('POST', '/credentials', {
        auth: jwt,
        body: {
          connector: 'tenant',
          data: { apiKey: 'k-0123456789', host: form.host, port: String(form.port) },
        },
      });
      if (created.status !== 201) return { code: created.body.code, message: created.body.message };
      const r = (await mcpTenant.callTool({
        name: 'proxy_request_inlay',
        arguments: {
          connectorId: 'tenant',
          method: 'GET',
          path: '/ssrf',
          credentialId: created.body.data.credentialId,
        },
      })) as { isError?: boolean; content: { text: string }[] };
      expect(r.isError, form.name).toBe(true);
      const text = r.content[0]!.text;
      return { code: /egress/i.test(text) ? 'egress_denied' : 'other', message: text };
    },
    expectedCode: (form: SsrfForm) => (form.host.startsWith('[') ? 'invalid_request' : 'egress_denied'),
  },
  {
    name: "custom connector's baseUrl (POST /connectors), then the proxy",
    async attempt(form) {
      const id = `ssrf-${++customSeq}`;
      const created = await svc.call('POST', '/connectors', {
        auth: apiKey,
        body: {
          id,
          name: 'SSRF',
          description: 'Points inside',
          category: 'developer',
          icon: 'ssrf',
          baseUrl: form.url,
          auth: { type: 'none' },
          actions: [
            {
              id: 'read',
              name: 'Read',
              description: 'Reads',
              kind: 'read',
              input: { type: 'object' },
              request: { method: 'GET', path: '/' },
            },
          ],
        },
      });
      // A literal address is refused when the definition is stored; a name when the request connects.
      if (created.status !== 201) return { code: created.body.code, message: created.body.message };
      const r = await svc.call('GET', `/connectors/${id}/proxy/x`, { auth: jwt });
      expect(r.status, r.text).toBe(422);
      return { code: r.body.code, message: r.body.message };
    },
  },
];

describe('the SSRF matrix', () => {
  it.each(entryPoints.map((e) => [e.name, e] as const))(
    '%s: every loopback form is refused',
    async (name, entry) => {
      counts[`${name}, loopback`] = await runSsrfMatrix(entry, loopbackForms(canary.port, redirector.url), {
        canary,
        guard,
      });
      expect(redirector.hits).toBeGreaterThan(0);
    },
  );

  it.each(entryPoints.map((e) => [e.name, e] as const))(
    '%s: every internal address is refused before any connection is attempted',
    async (name, entry) => {
      counts[`${name}, internal`] = await runSsrfMatrix(entry, internalForms(), { canary, guard });
      for (const address of ['10.0.0.1', '169.254.169.254', '100.64.0.1'])
        expect(guard.attemptsAt(address)).toBe(0);
    },
  );
});

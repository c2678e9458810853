import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { TestBrowser } from '@inlay/test-kit/browser';
import { waitForRuns } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { connectV2 } from '@inlay/test-kit/mcp';
import { postgresBin } from '@inlay/test-kit/private-postgres';
import {
  BASIC_TOKEN,
  BASIC_USER,
  GOOD_KEY,
  type Provider,
  providerConnectors,
  providerEgress,
  startProvider,
} from '@inlay/test-kit/providers';
import { onPostgres, type Reply, type Service, startService, TEST_MASTER_KEY } from '@inlay/test-kit/service';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/accounts/api-keys.ts';

let provider: Provider;
let svc: Service;
const logs: string[] = [];
/** Every API response and MCP result of the flow, except the few designed to show a secret once. */
const seen: { what: string; text: string }[] = [];
/** Plaintext secret values used in the flow: none may appear anywhere it is scanned for. */
const secrets = new Map<string, string>();
let apiKey: string;
let mcpToken: string;
let credentialIds: Record<string, string> = {};
const exec = async (q: SQL) => (await svc.db.execute(q)) as unknown as { rows: any[] };

async function call(
  method: string,
  path: string,
  body?: unknown,
  opts: { showsSecret?: boolean; auth?: string } = {},
) {
  const r: Reply = await svc.call(method, path, { auth: opts.auth ?? apiKey, body });
  if (!opts.showsSecret) seen.push({ what: `${method} ${path} → ${r.status}`, text: r.text });
  return r;
}

beforeAll(async () => {
  provider = await startProvider();
  svc = await startService({
    connectors: providerConnectors(provider.url),
    env: providerEgress(provider),
    logs,
  });
  ({ apiKey } = await svc.account('secrets'));
  secrets.set('account API key', apiKey);
  secrets.set('OAuth client secret', provider.clientSecret);
  secrets.set('API-key credential', GOOD_KEY);
  secrets.set('basic credential token', BASIC_TOKEN);
  secrets.set('basic Authorization value', Buffer.from(`${BASIC_USER}:${BASIC_TOKEN}`).toString('base64'));
  secrets.set('master key', TEST_MASTER_KEY);
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await provider?.close();
});

describe('secrets after a full flow', () => {
  it('runs credentials of every auth type, OAuth, runs and MCP calls', { timeout: 120_000 }, async () => {
    expect((await call('POST', '/users', { username: 'alice', fullName: 'Alice' })).status).toBe(201);
    const jwt = (await call('GET', '/users/alice/token', undefined, { showsSecret: true })).body.token;
    secrets.set('user JWT', jwt);
    expect(
      (
        await call('PUT', '/connectors/acme/oauth-app', {
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
        })
      ).status,
    ).toBe(200);

    // API key and basic credentials, checked with the provider before they are stored.
    const key = await call('POST', '/credentials', {
      userId: 'alice',
      connector: 'keyco',
      data: { apiKey: GOOD_KEY },
    });
    expect(key.status, key.text).toBe(201);
    const basic = await call('POST', '/credentials', {
      userId: 'alice',
      connector: 'basicco',
      data: { email: BASIC_USER, token: BASIC_TOKEN },
    });
    expect(basic.status, basic.text).toBe(201);
    // A rejected key: the provider's error must not echo it back either.
    const wrongKey = `wrong-key-${randomUUID()}`;
    secrets.set('rejected API key', wrongKey);
    expect(
      (
        await call('POST', '/credentials', {
          userId: 'alice',
          connector: 'keyco',
          data: { apiKey: wrongKey },
        })
      ).status,
    ).toBe(422);

    // OAuth 2.0 with PKCE: start, consent at the provider, callback.
    const started = await call('POST', '/credentials/oauth', {
      userId: 'alice',
      connector: 'acme',
      origin: 'http://localhost:3000',
    });
    expect(started.status, started.text).toBe(201);
    const back = await new TestBrowser().connect(started.body.authorizeUrl);
    seen.push({ what: 'OAuth callback page', text: await back.text() });
    expect(back.status).toBe(200);
    credentialIds = {
      keyco: key.body.data.credentialId ?? key.body.data.id,
      basicco: basic.body.data.credentialId ?? basic.body.data.id,
      acme: started.body.credentialId,
    };
    // The issued access and refresh tokens, read back through the vault (test only) to know what to look for.
    const [row] = (
      await exec(
        sql`select id, account_id as "accountId", sealed from credentials where id = ${credentialIds.acme}`,
      )
    ).rows as any[];
    const oauth = svc.ctx.credentials.open(row).oauth!;
    expect(oauth.accessToken).toMatch(/^at_/);
    secrets.set('OAuth access token', oauth.accessToken);
    if (oauth.refreshToken) secrets.set('OAuth refresh token', oauth.refreshToken);

    for (const id of Object.values(credentialIds)) await call('GET', `/credentials/${id}?userId=alice`);
    await call('GET', '/credentials?userId=alice');
    await call('GET', `/connectors/acme/options/projects?userId=alice&credentialId=${credentialIds.acme}`);
    await call('GET', `/connectors/keyco/options/lists?userId=alice&credentialId=${credentialIds.keyco}`);

    // A workflow whose steps use the API-key and OAuth credentials; run it and read its logs.
    const integration = await call('POST', '/integrations', { name: 'Secrets flow' });
    const wf = await call('POST', '/workflows', {
      integrationId: integration.body.integrationId,
      name: 'Uses every credential',
      definition: {
        trigger: { type: 'manual' },
        steps: [
          { id: randomUUID(), connector: 'keyco', action: 'list_lists', input: {} },
          { id: randomUUID(), connector: 'acme', action: 'list_projects', input: {} },
          { id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '$keys(steps)' } },
        ],
      },
    });
    expect(wf.status, wf.text).toBe(201);
    const workflowId = wf.body.workflowId;
    const inst = await call('POST', '/installations', {
      userId: 'alice',
      workflowIds: [workflowId],
      credentialIds: { keyco: credentialIds.keyco, acme: credentialIds.acme },
      values: [],
    });
    expect(inst.status, inst.text).toBe(201);
    const run = await call('POST', '/run/workflow', { workflowId, userId: 'alice', data: { note: 'hello' } });
    expect(run.status, run.text).toBeLessThan(300);
    await eventually(
      'the run to finish',
      async () => {
        const entries: any[] = (
          await svc.call('GET', `/workflows/${workflowId}/logs?userId=alice`, { auth: apiKey })
        ).body.data;
        return entries.length > 0 && entries.every((e) => e.stoppedAt || e.finished);
      },
      { timeout: 10_000, interval: 100 },
    );
    const logsReply = await call('GET', `/workflows/${workflowId}/logs?userId=alice`);
    expect(logsReply.body.data.length).toBeGreaterThan(0);
    // The provider got the real credentials: the secrets were used, not just stored.
    expect(provider.apiRequests.some((r) => r.apiKey === GOOD_KEY)).toBe(true);
    expect(provider.apiRequests.some((r) => r.authorization === `Bearer ${oauth.accessToken}`)).toBe(true);
    await call('GET', '/installations');
    await call('GET', `/workflows?userId=alice`);
    await call('GET', `/workflows?userId=alice`, undefined, { auth: jwt });

    // MCP: server token shown once; tools that touch credentials and runs.
    const server = await call('POST', '/mcp-servers', { name: 'agent' }, { showsSecret: true });
    mcpToken = server.body.accessToken;
    secrets.set('MCP access token', mcpToken);
    await call('GET', '/mcp-servers');
    const client = await connectV2(server.body.url, {
      authorization: `Bearer ${apiKey}`,
      'x-inlay-userid': 'alice',
    });
    const mcpRuns: string[] = [];
    try {
      const tools = [
        ['list_connectors_inlay', {}],
        ['get_credentials_inlay', {}],
        ['get_credentials_inlay', { connectorId: 'acme' }],
        ['execute_action_inlay', { connectorId: 'keyco', actionId: 'list_lists', parameters: {} }],
        [
          'execute_action_inlay',
          {
            connectorId: 'acme',
            actionId: 'list_projects',
            parameters: {},
            credentialId: credentialIds.acme,
          },
        ],
        ['list_workflows_inlay', {}],
        ['run_workflow_inlay', { workflowId, data: { note: 'from mcp' } }],
        ['get_workflow_logs_inlay', { workflowId }],
        [
          'create_credential_inlay',
          { connectorId: 'keyco', authenticationType: 'apiKey', fields: { apiKey: GOOD_KEY } },
        ],
        [
          'create_credential_inlay',
          {
            connectorId: 'basicco',
            authenticationType: 'basic',
            fields: { email: BASIC_USER, token: BASIC_TOKEN },
          },
        ],
        ['create_credential_inlay', { connectorId: 'acme', authenticationType: 'oauth2' }],
      ] as const;
      for (const [name, args] of tools) {
        const r = await client.callTool({ name, arguments: args as Record<string, unknown> });
        seen.push({ what: `MCP ${name}`, text: JSON.stringify(r) });
        if (name !== 'create_credential_inlay')
          expect(r.isError, `${name}: ${JSON.stringify(r)}`).toBeFalsy();
        if (name === 'run_workflow_inlay')
          mcpRuns.push(...(r.structuredContent as { executionIds: string[] }).executionIds);
      }
      seen.push({ what: 'MCP tools/list', text: JSON.stringify(await client.listTools()) });
      seen.push({ what: 'MCP resources/list', text: JSON.stringify(await client.listResources()) });
    } finally {
      await client.close();
    }
    expect(mcpRuns).toHaveLength(1);
    // The run the MCP tool started is over before its log is read.
    await waitForRuns(svc, mcpRuns);
    await call('GET', `/workflows/${workflowId}/logs?userId=alice&limit=30`);
    expect(seen.length).toBeGreaterThan(25);
  });

  function scan(where: string, text: string): string[] {
    const found: string[] = [];
    for (const [name, value] of secrets) if (text.includes(value)) found.push(`${name} in ${where}`);
    return found;
  }

  it('finds no plaintext secret in any API response or MCP result', () => {
    const found = seen.flatMap((s) => scan(s.what, s.text));
    console.log(
      `secrets: ${secrets.size} secret values scanned for in ${seen.length} API responses and MCP results`,
    );
    expect(found).toEqual([]);
  });

  it('finds no plaintext secret in the service log output', () => {
    expect(logs.length).toBeGreaterThan(20);
    console.log(`secrets: ${logs.length} log lines (LOG_LEVEL=debug) scanned`);
    expect(scan('the service log', logs.join('\n'))).toEqual([]);
  });

  it('finds no plaintext secret in a dump of every table of every schema', async () => {
    const tables = (
      await exec(sql`
      select table_schema as s, table_name as t from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'`)
    ).rows as {
      s: string;
      t: string;
    }[];
    let dump = '';
    for (const { s, t } of tables) {
      const rows = (await exec(sql.raw(`select x::text as r from "${s}"."${t}" x`))).rows as {
        r: string;
      }[];
      dump += `${s}.${t}\n${rows.map((r) => r.r).join('\n')}\n`;
    }
    console.log(`secrets: ${tables.length} tables (${dump.length} bytes) scanned`);
    expect(tables.length).toBeGreaterThan(10);
    expect(scan('the database', dump)).toEqual([]);
    // And with pg_dump itself when the store is PostgreSQL.
    const bin = postgresBin();
    if (onPostgres && bin) {
      const out = execFileSync(`${bin}/pg_dump`, ['--data-only', process.env.DATABASE_URL!], {
        maxBuffer: 1 << 30,
      }).toString();
      expect(scan('pg_dump', out)).toEqual([]);
    }
  });

  it('keeps API keys and MCP tokens only as SHA-256 hashes', async () => {
    const key = (await exec(sql`select count(*)::int as n from api_keys where hash = ${sha256(apiKey)}`))
      .rows as { n: number }[];
    expect(key[0]!.n).toBe(1);
    const mcp = (
      await exec(sql`select count(*)::int as n from mcp_servers where token_hash = ${sha256(mcpToken)}`)
    ).rows as { n: number }[];
    expect(mcp[0]!.n).toBe(1);
  });
});

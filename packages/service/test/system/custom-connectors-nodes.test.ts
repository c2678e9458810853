import { privateDatabase } from '@inlay/test-kit/private-database';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const definition = (name: string, actions: string[]) => ({
  id: 'shared',
  name,
  description: 'Seen by every node',
  category: 'developer',
  icon: 'shared',
  baseUrl: 'https://api.shared.example',
  auth: { type: 'none' },
  actions: actions.map((id) => ({
    id,
    name: id,
    description: id,
    kind: 'read',
    input: { type: 'object' },
    request: { method: 'GET', path: `/${id}` },
  })),
});

describe.skipIf(!onPostgres)('custom connectors on two nodes (PostgreSQL change feed)', () => {
  const nodes: Service[] = [];
  let db: Awaited<ReturnType<typeof privateDatabase>>;
  let apiKey: string;

  beforeAll(async () => {
    db = await privateDatabase('inlay_custom_nodes');
    // One after the other: the first one migrates the database.
    for (let i = 0; i < 2; i++) nodes.push(await startService({ env: { DATABASE_URL: db.url } }));
    ({ apiKey } = await nodes[0]!.account('nodes'));
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) await n.close();
    await db?.drop();
  });

  const listedOn = async (n: Service) => {
    // Every change committed so far has reached this node's feed.
    await n.ctx.store.changes.sync();
    const r = await n.call('GET', '/connectors', { auth: apiKey });
    return r.body.data.find((c: { id: string }) => c.id === 'shared');
  };

  it('a connector created, published or deleted on one node is what the other node serves next', async () => {
    const [a, b] = [nodes[0]!, nodes[1]!];
    // Node B has read (and cached) the account's connectors before A writes.
    expect(await listedOn(b)).toBeUndefined();
    expect(await listedOn(b)).toBeUndefined();
    expect(
      (await a.call('POST', '/connectors', { auth: apiKey, body: definition('Shared', ['one']) })).status,
    ).toBe(201);
    expect(await listedOn(b)).toMatchObject({ name: 'Shared', version: 1, actions: [{ id: 'one' }] });
    expect(
      (
        await a.call('PUT', '/connectors/shared', {
          auth: apiKey,
          body: definition('Shared v2', ['one', 'two']),
        })
      ).status,
    ).toBe(200);
    expect(await listedOn(b)).toMatchObject({ name: 'Shared v2', version: 2 });
    expect((await b.call('GET', '/connectors/shared/actions', { auth: apiKey })).body.data).toHaveLength(2);
    expect((await a.call('DELETE', '/connectors/shared', { auth: apiKey })).status).toBe(200);
    expect(await listedOn(b)).toBeUndefined();
    expect(b.ctx.reads.hits).toBeGreaterThan(0);
  });
});

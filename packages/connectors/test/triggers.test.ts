import { readJsonFixture } from '@inlay/test-kit/fixture-files';
import { type Recorded, type Reply, startProvider } from '@inlay/test-kit/provider';
import { loadFixture, queryOf } from '@inlay/test-kit/suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectorRuntime,
  catalog,
  EgressPolicy,
  githubSignature,
  parseDeclarative,
  pollTrigger,
  pollTriggerPages,
  receiveTrigger,
  stripeSignature,
  subscribeTrigger,
  triggerInputProblem,
  unsubscribeTrigger,
  validateConnectors,
} from '../src/index.ts';

/** Stripe, GitHub and Slack also as declarative JSON: their trigger tests run against both forms. */
const jsonForms = [loadFixture('stripe.json'), loadFixture('github.json'), loadFixture('slack.json')];

/** One credential that every connector below can read its settings and secret from. */
const credential = {
  fields: {
    apiKey: 'sk_test_1',
    site: 'acme',
    subdomain: 'acme',
    email: 'a@acme.test',
    apiToken: 't',
    shop: 'acme',
  },
  oauth: { accessToken: 'tok_1' },
};

interface PollCase {
  connector: string;
  trigger: string;
  input: Record<string, unknown>;
  since?: string | number;
  pages: { reply: Reply; check: (r: Recorded) => void }[];
  /** Ids of the items, oldest first, and a field of the first item's run data. */
  ids: string[];
  first: Record<string, unknown>;
}

const iso = (s: number) => new Date(s * 1000).toISOString();

const cases: PollCase[] = [
  {
    connector: 'stripe',
    trigger: 'new_customer',
    input: {},
    since: '2025-01-02T10:00:00.000Z',
    pages: [
      {
        reply: {
          body: {
            has_more: true,
            data: [
              { id: 'cus_3', email: 'c@x.test', name: 'C', created: 1735812300 },
              { id: 'cus_2', email: 'b@x.test', name: 'B', created: 1735812200 },
            ],
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('GET /customers');
          expect(queryOf(r.query)).toEqual({ limit: '100', 'created[gte]': '1735812000' });
        },
      },
      {
        reply: {
          body: { has_more: false, data: [{ id: 'cus_1', email: null, name: null, created: 1735812100 }] },
        },
        check: (r) => expect(r.query.get('starting_after')).toBe('cus_2'),
      },
    ],
    ids: ['cus_1', 'cus_2', 'cus_3'],
    first: { id: 'cus_1', created: iso(1735812100) },
  },
  {
    connector: 'github',
    trigger: 'new_issue',
    input: { owner: 'acme', repo: 'api' },
    pages: [
      {
        reply: {
          body: [
            {
              id: 12,
              number: 2,
              title: 'PR',
              state: 'open',
              html_url: 'u',
              created_at: '2025-01-03T00:00:00Z',
              pull_request: {},
            },
            {
              id: 11,
              number: 1,
              title: 'Bug',
              state: 'open',
              html_url: 'u',
              created_at: '2025-01-02T00:00:00Z',
            },
          ],
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('GET /repos/acme/api/issues');
          expect(queryOf(r.query)).toEqual({
            state: 'all',
            sort: 'created',
            direction: 'desc',
            per_page: '100',
          });
        },
      },
    ],
    ids: ['11'],
    first: { number: 1, title: 'Bug' },
  },
  {
    connector: 'github',
    trigger: 'new_pull_request',
    input: { repo: 'acme/api' },
    pages: [
      {
        reply: {
          body: [
            {
              id: 21,
              number: 7,
              title: 'Fix',
              state: 'open',
              html_url: 'u',
              created_at: '2025-01-03T00:00:00Z',
              head: { ref: 'fix' },
              base: { ref: 'main' },
            },
          ],
        },
        check: (r) => expect(`${r.method} ${r.path}`).toBe('GET /repos/acme/api/pulls'),
      },
    ],
    ids: ['21'],
    first: { number: 7, head: 'fix', base: 'main' },
  },
  {
    connector: 'hubspot',
    trigger: 'new_contact',
    input: {},
    since: '2025-01-02T10:00:00.000Z',
    pages: [
      {
        reply: {
          body: {
            results: [{ id: '51', properties: { email: 'a@x.test' }, createdAt: '2025-01-02T11:00:00Z' }],
            paging: { next: { after: '1' } },
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('POST /crm/v3/objects/contacts/search');
          expect(r.body.filterGroups[0].filters[0]).toEqual({
            propertyName: 'createdate',
            operator: 'GTE',
            value: '1735812000000',
          });
          expect(r.body.sorts).toEqual([{ propertyName: 'createdate', direction: 'DESCENDING' }]);
        },
      },
      {
        reply: { body: { results: [{ id: '50', properties: {}, createdAt: '2025-01-02T10:30:00Z' }] } },
        check: (r) => expect(r.body.after).toBe('1'),
      },
    ],
    ids: ['50', '51'],
    first: { id: '50' },
  },
  {
    connector: 'slack',
    trigger: 'new_message',
    input: { channel: 'C0123' },
    since: '2025-01-02T10:00:00.000Z',
    pages: [
      {
        reply: {
          body: {
            ok: true,
            messages: [
              { ts: '1735812120.000300', text: 'reply', user: 'U2', thread_ts: '1735812060.000200' },
              { ts: '1735812060.000200', text: 'hi', user: 'U1' },
            ],
            response_metadata: { next_cursor: 'bmV4dA==' },
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('GET /conversations.history');
          expect(queryOf(r.query)).toEqual({
            channel: 'C0123',
            limit: '200',
            oldest: '1735812000.000000',
            inclusive: 'true',
          });
        },
      },
      {
        reply: {
          body: {
            ok: true,
            messages: [{ ts: '1735812030.000100', subtype: 'channel_join' }],
            response_metadata: { next_cursor: '' },
          },
        },
        check: (r) => {
          expect(r.query.get('cursor')).toBe('bmV4dA==');
          expect(r.query.get('oldest')).toBe('1735812000.000000');
        },
      },
    ],
    ids: ['1735812030.000100', '1735812060.000200', '1735812120.000300'],
    first: {
      ts: '1735812030.000100',
      text: '',
      user: null,
      threadTs: null,
      subtype: 'channel_join',
      postedAt: '2025-01-02T10:00:30.000Z',
    },
  },
  {
    connector: 'gmail',
    trigger: 'new_email',
    input: {},
    since: '2025-01-02T10:00:00.000Z',
    pages: [
      {
        reply: {
          body: {
            messages: [
              { id: 'm2', threadId: 't' },
              { id: 'm1', threadId: 't' },
            ],
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('GET /users/me/messages');
          expect(queryOf(r.query)).toEqual({ q: 'in:inbox after:1735812000', maxResults: '100' });
        },
      },
    ],
    ids: ['m1', 'm2'],
    first: { id: 'm1', threadId: 't' },
  },
  {
    connector: 'google-sheets',
    trigger: 'new_row',
    input: { spreadsheetId: '1AbCdEfGhIjKlMnOpQrStUvWxYz', sheet: 'Leads' },
    since: 4,
    pages: [
      {
        reply: {
          body: {
            valueRanges: [
              { range: "'Leads'!A1:B1", values: [['Name', 'Email']] },
              { range: "'Leads'!A5:ZZ1000", values: [['Ada', 'ada@x.test'], ['Bob']] },
            ],
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe(
            'GET /spreadsheets/1AbCdEfGhIjKlMnOpQrStUvWxYz/values:batchGet',
          );
          expect(r.query.getAll('ranges')).toEqual(["'Leads'!1:1", "'Leads'!A5:ZZ"]);
        },
      },
    ],
    ids: ['5', '6'],
    first: { row: 5, fields: { Name: 'Ada', Email: 'ada@x.test' } },
  },
  {
    connector: 'airtable',
    trigger: 'new_record',
    input: { baseId: 'appAbCdEfGhIjKlMn', table: 'Leads' },
    since: '2025-01-02T10:00:00.000Z',
    pages: [
      {
        reply: {
          body: {
            records: [{ id: 'rec1', createdTime: '2025-01-02T11:00:00.000Z', fields: { Name: 'Ada' } }],
            offset: 'o1',
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('GET /appAbCdEfGhIjKlMn/Leads');
          expect(r.query.get('filterByFormula')).toBe(
            "NOT(IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('2025-01-02T10:00:00.000Z')))",
          );
        },
      },
      {
        reply: { body: { records: [{ id: 'rec2', createdTime: '2025-01-02T12:00:00.000Z', fields: {} }] } },
        check: (r) => expect(r.query.get('offset')).toBe('o1'),
      },
    ],
    ids: ['rec1', 'rec2'],
    first: { id: 'rec1', fields: { Name: 'Ada' } },
  },
  {
    connector: 'jira',
    trigger: 'new_issue',
    input: { project: 'ENG' },
    since: '2025-01-02T10:00:00.000Z',
    pages: [
      {
        reply: {
          body: {
            issues: [
              {
                id: '10001',
                key: 'ENG-1',
                fields: { summary: 'S', created: '2025-01-02T10:05:00.000+0000' },
              },
            ],
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('GET /search/jql');
          expect(r.query.get('jql')).toBe(
            'project = "ENG" AND created >= "2025-01-02 10:00" ORDER BY created DESC',
          );
        },
      },
    ],
    ids: ['10001'],
    first: { key: 'ENG-1', summary: 'S' },
  },
  {
    connector: 'linear',
    trigger: 'new_issue',
    input: { teamId: 'team-1' },
    since: '2025-01-02T10:00:00.000Z',
    pages: [
      {
        reply: {
          body: {
            data: {
              issues: {
                nodes: [{ id: 'i1', identifier: 'ENG-1', createdAt: '2025-01-02T11:00:00.000Z' }],
                pageInfo: { hasNextPage: false, endCursor: null },
              },
            },
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('POST /graphql');
          expect(r.body.variables).toEqual({
            after: null,
            filter: { team: { id: { eq: 'team-1' } }, createdAt: { gte: '2025-01-02T10:00:00.000Z' } },
          });
        },
      },
    ],
    ids: ['i1'],
    first: { identifier: 'ENG-1' },
  },
  {
    connector: 'zendesk',
    trigger: 'new_ticket',
    input: {},
    pages: [
      {
        reply: {
          body: {
            tickets: [
              {
                id: 9,
                subject: 'Help',
                status: 'new',
                tags: [],
                created_at: '2025-01-02T11:00:00Z',
                updated_at: '2025-01-02T11:00:00Z',
              },
            ],
            meta: { has_more: false },
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('GET /tickets.json');
          expect(queryOf(r.query)).toEqual({ 'page[size]': '100', sort: '-id' });
        },
      },
    ],
    ids: ['9'],
    first: { id: 9, subject: 'Help' },
  },
  {
    connector: 'shopify',
    trigger: 'new_order',
    input: {},
    since: '2025-01-02T10:00:00.000Z',
    pages: [
      {
        reply: {
          body: {
            data: {
              orders: {
                nodes: [
                  {
                    id: 'gid://shopify/Order/1',
                    name: '#1001',
                    createdAt: '2025-01-02T11:00:00Z',
                    tags: [],
                    totalPriceSet: { shopMoney: { amount: '10.00', currencyCode: 'EUR' } },
                    lineItems: { nodes: [] },
                  },
                ],
                pageInfo: { hasNextPage: false, endCursor: null },
              },
            },
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('POST /graphql.json');
          expect(r.body.variables).toEqual({ after: null, query: "created_at:>='2025-01-02T10:00:00.000Z'" });
        },
      },
    ],
    ids: ['gid://shopify/Order/1'],
    first: { name: '#1001', total: '10.00', currency: 'EUR' },
  },
  {
    connector: 'notion',
    trigger: 'new_page',
    input: { databaseId: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' },
    pages: [
      {
        reply: {
          body: {
            results: [
              {
                id: 'p1',
                url: 'u',
                created_time: '2025-01-02T11:00:00.000Z',
                last_edited_time: '2025-01-02T11:00:00.000Z',
                properties: {},
              },
            ],
            has_more: false,
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('POST /databases/0f1e2d3c4b5a69788796a5b4c3d2e1f0/query');
          expect(r.body).toEqual({
            sorts: [{ timestamp: 'created_time', direction: 'descending' }],
            page_size: 100,
          });
        },
      },
    ],
    ids: ['p1'],
    first: { id: 'p1', createdTime: '2025-01-02T11:00:00.000Z' },
  },
  {
    connector: 'asana',
    trigger: 'new_task',
    input: { project: '1200000000000001' },
    since: '2025-01-02T10:00:00.000Z',
    pages: [
      {
        reply: {
          body: {
            data: [{ gid: '77', name: 'Call Ada', created_at: '2025-01-02T11:00:00.000Z' }],
            next_page: null,
          },
        },
        check: (r) => {
          expect(`${r.method} ${r.path}`).toBe('GET /tasks');
          expect(r.query.get('project')).toBe('1200000000000001');
          expect(r.query.get('modified_since')).toBe('2025-01-02T10:00:00.000Z');
        },
      },
    ],
    ids: ['77'],
    first: { gid: '77', name: 'Call Ada', createdAt: '2025-01-02T11:00:00.000Z' },
  },
];

let provider: Awaited<ReturnType<typeof startProvider>>;
let replies: Reply[] = [];
const env: Record<string, string> = {};
let runtime: ConnectorRuntime;
let runtimes: Record<'typescript' | 'json', ConnectorRuntime>;

beforeAll(async () => {
  provider = await startProvider({
    '*': () => replies.shift() ?? { status: 500, body: { message: 'extra request' } },
  });
  for (const c of catalog)
    env[`INLAY_CONNECTOR_${c.id.toUpperCase().replace(/-/g, '_')}_BASE_URL`] = provider.url;
  runtime = new ConnectorRuntime({ connectors: catalog, env });
  runtimes = { typescript: runtime, json: new ConnectorRuntime({ connectors: jsonForms, env }) };
});
afterAll(() => provider.close());

describe('trigger catalog', () => {
  it('has the fixed trigger ids', () => {
    const ids = catalog.flatMap((c) => (c.triggers ?? []).map((t) => `${c.id}.${t.id}:${t.kind}`));
    for (const id of [
      'stripe.new_customer:poll',
      'stripe.new_customer_webhook:webhook',
      'github.new_issue:poll',
      'github.new_pull_request:poll',
      'github.new_issue_webhook:webhook',
      'github.new_pull_request_webhook:webhook',
      'hubspot.new_contact:poll',
      'slack.new_message:poll',
      'gmail.new_email:poll',
      'google-sheets.new_row:poll',
      'airtable.new_record:poll',
      'jira.new_issue:poll',
      'linear.new_issue:poll',
      'zendesk.new_ticket:poll',
      'shopify.new_order:poll',
      'notion.new_page:poll',
      'asana.new_task:poll',
    ])
      expect(ids).toContain(id);
  });

  it('refuses a definition with two triggers of one id', () => {
    const stripe = catalog.find((c) => c.id === 'stripe')!;
    const twice = { ...stripe, triggers: [stripe.triggers![0]!, stripe.triggers![0]!] };
    expect(() => validateConnectors([twice])).toThrow(/triggers.1.id: duplicate trigger id new_customer/);
  });

  it('the JSON forms of Stripe, GitHub and Slack declare the same triggers as the TypeScript ones', () => {
    for (const json of jsonForms) {
      const ts = catalog.find((c) => c.id === json.id)!;
      const shape = (c: typeof ts) => c.triggers!.map((t) => [t.id, t.kind, t.name]);
      expect(shape(json)).toEqual(shape(ts));
    }
  });

  it('names the input field a trigger refuses', () => {
    const github = catalog.find((c) => c.id === 'github')!;
    expect(triggerInputProblem(github.triggers![0]!, { repo: 'a b' })).toMatch(/^repo: /);
    expect(triggerInputProblem(github.triggers![0]!, { owner: 'acme', repo: 'api' })).toBeUndefined();
  });
});

describe('poll triggers against local fakes', () => {
  const forms = (c: PollCase) =>
    jsonForms.some((j) => j.id === c.connector)
      ? (['typescript', 'json'] as const)
      : (['typescript'] as const);
  for (const c of cases)
    for (const form of forms(c))
      it(`${c.connector}.${c.trigger} (${form}): reads items oldest first across ${c.pages.length} page(s)`, async () => {
        replies = c.pages.map((p) => p.reply);
        const from = provider.requests.length;
        const items = await pollTrigger(runtimes[form], c.connector, c.trigger, c.input, {
          credential,
          since: c.since,
        });
        const sent = provider.requests.slice(from);
        expect(sent).toHaveLength(c.pages.length);
        for (const [i, p] of c.pages.entries()) p.check(sent[i]!);
        expect(items.map((i) => i.id)).toEqual(c.ids);
        expect(items[0]!.data).toMatchObject(c.first);
      });
});

describe.each(['typescript', 'json'] as const)('poll paging (%s form)', (form) => {
  it('stops paging a newest-first list at a page holding a seen item', async () => {
    replies = [
      {
        body: {
          has_more: true,
          data: [
            { id: 'cus_9', created: 1735812900 },
            { id: 'cus_8', created: 1735812800 },
          ],
        },
      },
    ];
    const from = provider.requests.length;
    const items = await pollTrigger(
      runtimes[form],
      'stripe',
      'new_customer',
      {},
      { credential, seen: (id) => id === 'cus_8' },
    );
    expect(provider.requests.length - from).toBe(1);
    expect(items.map((i) => i.id)).toEqual(['cus_8', 'cus_9']);
  });

  it('stops paging once a poll holds the cap', async () => {
    const page = (n: number) => ({
      body: {
        has_more: true,
        data: Array.from({ length: 3 }, (_, i) => ({
          id: `cus_${n}_${i}`,
          created: 1735812000 - n * 10 - i,
        })),
      },
    });
    replies = [page(0), page(1), page(2)];
    const items = await pollTrigger(
      runtimes[form],
      'stripe',
      'new_customer',
      {},
      {
        credential,
        maxItems: 4,
      },
    );
    // Whole pages: the second page crossed the cap, so the third is never asked for.
    expect(items).toHaveLength(6);
    expect(items.at(-1)!.id).toBe('cus_0_0');
    expect(replies).toHaveLength(1);
    replies = [];
  });
});

describe('a page past the cap', () => {
  it('a 200,000-item page is cut to the poll cap, without overflowing the stack', async () => {
    const huge = await startProvider({
      '*': () => ({
        body: Array.from({ length: 200_000 }, (_, i) => ({
          id: 200_000 - i,
          number: i,
          title: 't',
          state: 'open',
          html_url: 'u',
          created_at: new Date(Date.UTC(2025, 0, 1) - i * 1000).toISOString(),
          user: { login: 'x' },
          head: { ref: 'h' },
          base: { ref: 'b' },
        })),
      }),
    });
    try {
      // The built-in: its items are read in process (a data connector's go through the expression pool).
      const rt = new ConnectorRuntime({
        connectors: catalog,
        env: { INLAY_CONNECTOR_GITHUB_BASE_URL: huge.url },
        egress: new EgressPolicy({ allow: '127.0.0.1' }),
      });
      const items = await pollTrigger(
        rt,
        'github',
        'new_pull_request',
        { repo: 'o/r' },
        {
          credential,
        },
      );
      expect(items).toHaveLength(500);
      // Newest first: the poll keeps the newest 500 of the page, oldest of them first.
      expect(items.at(-1)!.id).toBe('200000');
      expect(items[0]!.id).toBe(String(200_000 - 499));
    } finally {
      await huge.close();
    }
  });
});

describe('oldest-first paging', () => {
  const page = (n: number, offset?: string) => ({
    body: {
      records: Array.from({ length: 3 }, (_, i) => ({
        id: `rec${n}${i}`,
        createdTime: iso(1735812000 + n * 10 + i),
        fields: {},
      })),
      ...(offset ? { offset } : {}),
    },
  });
  const input = { baseId: 'appAbCdEfGhIjKlMn', table: 'Leads' };

  it('reads to the end of the list and says nothing is left', async () => {
    replies = [page(0, 'o1'), page(1)];
    const r = await pollTriggerPages(runtime, 'airtable', 'new_record', input, {
      credential,
      // A seen item does not stop an oldest-first list: the newest items are on its last page.
      seen: (id) => id === 'rec00',
    });
    expect(r.items.map((i) => i.id)).toEqual(['rec00', 'rec01', 'rec02', 'rec10', 'rec11', 'rec12']);
    expect(r.more).toBe(false);
  });

  it('stopped at the cap with a page left, it says there is more', async () => {
    replies = [page(0, 'o1'), page(1, 'o2'), page(2)];
    const r = await pollTriggerPages(runtime, 'airtable', 'new_record', input, { credential, maxItems: 4 });
    expect(r.items.map((i) => i.id)).toEqual(['rec00', 'rec01', 'rec02', 'rec10', 'rec11', 'rec12']);
    expect(r.more).toBe(true);
    expect(replies).toHaveLength(1);
    replies = [];
  });

  it('a newest-first list cut at the cap has only older items left: never more', async () => {
    replies = [
      { body: { has_more: true, data: [{ id: 'cus_2', created: 1735812002 }] } },
      { body: { has_more: true, data: [{ id: 'cus_1', created: 1735812001 }] } },
    ];
    const r = await pollTriggerPages(runtime, 'stripe', 'new_customer', {}, { credential, maxItems: 1 });
    expect(r).toMatchObject({ items: [{ id: 'cus_2' }], more: false });
    replies = [];
  });
});

describe('poll input', () => {
  it('refuses bad input before sending anything', async () => {
    const from = provider.requests.length;
    await expect(
      pollTrigger(runtime, 'jira', 'new_issue', { project: 'eng' }, { credential }),
    ).rejects.toThrow(/Invalid trigger input: project/);
    expect(provider.requests.length).toBe(from);
  });
});

describe.each(['typescript', 'json'] as const)('webhook triggers (%s form)', (form) => {
  let runtime: ConnectorRuntime;
  beforeAll(() => {
    runtime = runtimes[form];
  });
  it('github: subscribes with Inlay’s URL and secret, verifies X-Hub-Signature-256, unsubscribes', async () => {
    replies = [{ status: 201, body: { id: 4242, active: true } }];
    const from = provider.requests.length;
    const hook = { url: 'https://inlay.example/hooks/x', secret: 's3cret' };
    const sub = await subscribeTrigger(runtime, 'github', 'new_issue_webhook', { repo: 'acme/api' }, hook, {
      credential,
    });
    expect(sub).toEqual({ id: '4242', secret: 's3cret' });
    const create = provider.requests[from]!;
    expect(`${create.method} ${create.path}`).toBe('POST /repos/acme/api/hooks');
    expect(create.body).toEqual({
      name: 'web',
      active: true,
      events: ['issues'],
      config: { url: hook.url, content_type: 'json', secret: 's3cret', insecure_ssl: '0' },
    });
    expect(create.headers.authorization).toBe('Bearer tok_1');

    const body = {
      action: 'opened',
      issue: {
        id: 5,
        number: 3,
        title: 'T',
        state: 'open',
        html_url: 'u',
        created_at: '2025-01-02T00:00:00Z',
      },
    };
    const rawBody = JSON.stringify(body);
    const delivery = (sig: string, event = 'issues') => ({
      headers: { 'x-hub-signature-256': sig, 'x-github-event': event },
      rawBody,
      body,
    });
    const items = await receiveTrigger(
      runtime,
      'github',
      'new_issue_webhook',
      delivery(githubSignature(rawBody, 's3cret')),
      's3cret',
    );
    expect(items?.map((i) => i.id)).toEqual(['5']);
    expect(items?.[0]?.data).toMatchObject({ number: 3, title: 'T' });
    expect(
      await receiveTrigger(
        runtime,
        'github',
        'new_issue_webhook',
        delivery(githubSignature(rawBody, 'other')),
        's3cret',
      ),
    ).toBeUndefined();
    expect(
      await receiveTrigger(runtime, 'github', 'new_issue_webhook', delivery('sha256=00'), 's3cret'),
    ).toBeUndefined();
    expect(
      await receiveTrigger(
        runtime,
        'github',
        'new_issue_webhook',
        delivery(githubSignature(rawBody, 's3cret'), 'ping'),
        's3cret',
      ),
    ).toEqual([]);

    replies = [{ status: 204 }];
    await unsubscribeTrigger(runtime, 'github', 'new_issue_webhook', { repo: 'acme/api' }, '4242', {
      credential,
    });
    const del = provider.requests.at(-1)!;
    expect(`${del.method} ${del.path}`).toBe('DELETE /repos/acme/api/hooks/4242');
    // A hook someone already removed counts as removed.
    replies = [{ status: 404, body: { message: 'Not Found' } }];
    await expect(
      unsubscribeTrigger(runtime, 'github', 'new_issue_webhook', { repo: 'acme/api' }, '4242', {
        credential,
      }),
    ).resolves.toBeUndefined();
  });

  it('stripe: keeps the signing secret Stripe issues and checks Stripe-Signature with its tolerance', async () => {
    replies = [{ body: { id: 'we_1', secret: 'whsec_abc' } }];
    const from = provider.requests.length;
    const sub = await subscribeTrigger(
      runtime,
      'stripe',
      'new_customer_webhook',
      {},
      { url: 'https://inlay.example/h', secret: 'ours' },
      { credential },
    );
    expect(sub).toEqual({ id: 'we_1', secret: 'whsec_abc' });
    const create = provider.requests[from]!;
    expect(`${create.method} ${create.path}`).toBe('POST /webhook_endpoints');
    expect(create.body).toMatchObject({
      url: 'https://inlay.example/h',
      'enabled_events[0]': 'customer.created',
    });

    const body = {
      id: 'evt_1',
      type: 'customer.created',
      data: { object: { id: 'cus_7', email: 'a@x.test', name: 'A', created: 1735812000 } },
    };
    const rawBody = JSON.stringify(body);
    const now = new Date('2025-01-02T10:00:00Z');
    const delivery = (sig: string) => ({ headers: { 'stripe-signature': sig }, rawBody, body });
    const ok = await receiveTrigger(
      runtime,
      'stripe',
      'new_customer_webhook',
      delivery(stripeSignature(rawBody, 'whsec_abc', now)),
      'whsec_abc',
      now,
    );
    expect(ok?.map((i) => i.id)).toEqual(['cus_7']);
    const stale = stripeSignature(rawBody, 'whsec_abc', new Date(now.getTime() - 301_000));
    expect(
      await receiveTrigger(runtime, 'stripe', 'new_customer_webhook', delivery(stale), 'whsec_abc', now),
    ).toBeUndefined();
    expect(
      await receiveTrigger(
        runtime,
        'stripe',
        'new_customer_webhook',
        delivery(stripeSignature(rawBody, 'whsec_x', now)),
        'whsec_abc',
        now,
      ),
    ).toBeUndefined();

    replies = [{ body: { id: 'we_1', deleted: true } }];
    await unsubscribeTrigger(runtime, 'stripe', 'new_customer_webhook', {}, 'we_1', { credential });
    expect(`${provider.requests.at(-1)!.method} ${provider.requests.at(-1)!.path}`).toBe(
      'DELETE /webhook_endpoints/we_1',
    );
  });
});

describe('declarative triggers', () => {
  it('a verified delivery whose items have no id is the provider’s failure, not a crash', async () => {
    const json = readJsonFixture<any>('github.json');
    for (const t of json.triggers) t.itemId = 'no_such_field';
    const rt = new ConnectorRuntime({ connectors: [parseDeclarative(json)], env });
    const body = { action: 'opened', issue: { id: 5 } };
    const rawBody = JSON.stringify(body);
    const delivery = {
      headers: { 'x-hub-signature-256': githubSignature(rawBody, 's'), 'x-github-event': 'issues' },
      rawBody,
      body,
    };
    await expect(receiveTrigger(rt, 'github', 'new_issue_webhook', delivery, 's')).rejects.toMatchObject({
      code: 'provider_error',
      message: 'an item has no id',
    });
  });

  it('omits a `since` parameter on the first poll and sends it on later ones', async () => {
    for (const since of [undefined, '2025-01-02T10:00:00.000Z']) {
      replies = [{ body: { has_more: false, data: [] } }];
      await pollTrigger(runtimes.json, 'stripe', 'new_customer', {}, { credential, since });
      expect(queryOf(provider.requests.at(-1)!.query)).toEqual(
        since ? { limit: '100', 'created[gte]': '1735812000' } : { limit: '100' },
      );
    }
  });
});

import { connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { ConnectorRuntime, catalog } from '../../src/index.ts';

const apiKey = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';
const basic = (key: string) => `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
const form = (pairs: [string, string][]) => new URLSearchParams(pairs).toString();

connectorSuite({
  id: 'mailgun',
  credential: { fields: { apiKey, region: 'eu' } },
  badCredential: { fields: { apiKey: 'key-revoked', region: 'eu' } },
  auth: { header: 'authorization', value: basic(apiKey) },
  test: {
    request: { method: 'GET', path: '/v4/domains', query: { limit: '1' } },
    ok: { body: { total_count: 1, items: [{ name: 'mg.acme.com', state: 'active' }] } },
    rejected: { status: 401, body: 'Forbidden' },
    label: 'mg.acme.com',
    reason: '401: Forbidden',
  },
  actions: [
    {
      name: 'sends to several recipients with repeated form keys, a reply-to and tags',
      action: 'send_email',
      input: {
        domain: 'mg.acme.com',
        from: 'Acme <hello@mg.acme.com>',
        to: ['ada@example.com', 'grace@example.com'],
        replyTo: 'support@acme.com',
        subject: 'Welcome',
        text: 'Hi!',
        htmlBody: '<p>Hi!</p>',
        tags: ['onboarding', 'welcome'],
      },
      reply: { body: { id: '<20250220100000.1.ABC@mg.acme.com>', message: 'Queued. Thank you.' } },
      request: {
        method: 'POST',
        path: '/v3/mg.acme.com/messages',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: form([
          ['from', 'Acme <hello@mg.acme.com>'],
          ['subject', 'Welcome'],
          ['to', 'ada@example.com'],
          ['to', 'grace@example.com'],
          ['h:Reply-To', 'support@acme.com'],
          ['text', 'Hi!'],
          ['html', '<p>Hi!</p>'],
          ['o:tag', 'onboarding'],
          ['o:tag', 'welcome'],
        ]),
      },
      output: { id: '<20250220100000.1.ABC@mg.acme.com>', message: 'Queued. Thank you.' },
    },
    {
      name: 'sends a stored template with JSON variables',
      action: 'send_email',
      input: {
        domain: 'mg.acme.com',
        from: 'hello@mg.acme.com',
        to: ['ada@example.com'],
        subject: 'Your invoice',
        template: 'invoice',
        variables: { first_name: 'Ada', total: 42 },
      },
      reply: { body: { id: '<2@mg.acme.com>', message: 'Queued. Thank you.' } },
      request: {
        method: 'POST',
        path: '/v3/mg.acme.com/messages',
        rawBody: form([
          ['from', 'hello@mg.acme.com'],
          ['subject', 'Your invoice'],
          ['to', 'ada@example.com'],
          ['template', 'invoice'],
          ['t:variables', '{"first_name":"Ada","total":42}'],
        ]),
      },
      output: { id: '<2@mg.acme.com>', message: 'Queued. Thank you.' },
    },
    {
      name: 'upserts a list member with variables',
      action: 'add_list_member',
      input: { list: 'news@mg.acme.com', address: 'ada@example.com', name: 'Ada', vars: { plan: 'pro' } },
      reply: {
        body: {
          member: { address: 'ada@example.com', name: 'Ada', subscribed: true, vars: { plan: 'pro' } },
          message: 'Mailing list member has been created',
        },
      },
      request: {
        method: 'POST',
        path: '/v3/lists/news%40mg.acme.com/members',
        body: {
          address: 'ada@example.com',
          name: 'Ada',
          vars: '{"plan":"pro"}',
          subscribed: 'yes',
          upsert: 'yes',
        },
      },
      output: { address: 'ada@example.com', name: 'Ada', subscribed: true, vars: { plan: 'pro' } },
    },
    {
      name: 'reads failures of a recipient since a date, as Unix seconds',
      action: 'list_events',
      input: {
        domain: 'mg.acme.com',
        event: 'failed',
        recipient: 'ada@example.com',
        begin: '2025-02-20T00:00:00Z',
        limit: 10,
      },
      reply: {
        body: {
          items: [
            {
              id: 'czsjqFATSlC3QtAK-C80nw',
              event: 'failed',
              timestamp: 1740045600,
              recipient: 'ada@example.com',
              severity: 'permanent',
              reason: 'bounce',
              'delivery-status': { code: 550, message: '5.1.1 The email account does not exist' },
              message: { headers: { 'message-id': '20250220100000.1.ABC@mg.acme.com', subject: 'Welcome' } },
              tags: ['welcome'],
            },
          ],
          paging: {
            next: 'https://api.eu.mailgun.net/v3/mg.acme.com/events/W3siYSI6IGZhbHNlLCAiYiI6ICIyMDI1',
          },
        },
      },
      request: {
        method: 'GET',
        path: '/v3/mg.acme.com/events',
        query: {
          event: 'failed',
          recipient: 'ada@example.com',
          begin: '1740009600',
          limit: '10',
          ascending: 'no',
        },
      },
      output: [
        {
          id: 'czsjqFATSlC3QtAK-C80nw',
          event: 'failed',
          at: '2025-02-20T10:00:00.000Z',
          recipient: 'ada@example.com',
          messageId: '20250220100000.1.ABC@mg.acme.com',
          subject: 'Welcome',
          reason: 'bounce',
          severity: 'permanent',
          deliveryMessage: '5.1.1 The email account does not exist',
          tags: ['welcome'],
        },
      ],
    },
  ],
  sources: [
    {
      source: 'domains',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/v4/domains',
            query: { limit: '100', skip: '0', state: 'active' },
          },
          reply: {
            body: {
              total_count: 101,
              items: Array.from({ length: 100 }, (_, i) => ({ name: `d${i}.acme.com` })),
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/v4/domains',
            query: { limit: '100', skip: '100', state: 'active' },
          },
          reply: { body: { total_count: 101, items: [{ name: 'mg.acme.com' }] } },
        },
      ],
      options: [
        ...Array.from({ length: 100 }, (_, i) => ({ value: `d${i}.acme.com`, label: `d${i}.acme.com` })),
        { value: 'mg.acme.com', label: 'mg.acme.com' },
      ],
    },
    {
      source: 'lists',
      pages: [
        {
          request: { method: 'GET', path: '/v3/lists/pages', query: { limit: '100' } },
          reply: {
            body: {
              items: [{ address: 'news@mg.acme.com', name: 'Newsletter' }],
              paging: {
                next: 'https://api.eu.mailgun.net/v3/lists/pages?page=next&address=news%40mg.acme.com&limit=100',
              },
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/v3/lists/pages',
            query: { page: 'next', address: 'news@mg.acme.com', limit: '100' },
          },
          reply: {
            body: {
              items: [],
              paging: { next: 'https://api.eu.mailgun.net/v3/lists/pages?page=next&address=x' },
            },
          },
        },
      ],
      options: [{ value: 'news@mg.acme.com', label: 'Newsletter <news@mg.acme.com>' }],
    },
  ],
  errors: [
    {
      name: 'an unverified domain keeps Mailgun’s message',
      action: 'send_email',
      input: { domain: 'mg.acme.com', from: 'x@mg.acme.com', to: ['a@example.com'], subject: 's', text: 't' },
      reply: {
        status: 403,
        body: {
          message: 'Domain mg.acme.com is not allowed to send: Free accounts are for test purposes only.',
        },
      },
      message: '403: Domain mg.acme.com is not allowed to send: Free accounts are for test purposes only.',
    },
  ],
});

describe('mailgun', () => {
  const runtime = new ConnectorRuntime({ connectors: catalog });
  const def = runtime.get('mailgun')!;

  it.each([
    ['us', 'https://api.mailgun.net'],
    ['EU', 'https://api.eu.mailgun.net'],
  ])('region %s picks its API host', (region, url) => {
    expect(runtime.baseUrl(def, runtime.settings(def, { fields: { apiKey, region } }))).toBe(url);
  });

  it('needs a body or a template', async () => {
    const err = await runtime
      .execute('mailgun', 'send_email', {
        domain: 'mg.acme.com',
        from: 'x@mg.acme.com',
        to: ['a@example.com'],
        subject: 's',
      })
      .catch((e) => e);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain('text: give text, htmlBody or template');
  });
});

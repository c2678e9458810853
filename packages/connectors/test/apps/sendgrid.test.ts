import { connectorSuite } from '@inlay/test-kit/suite';

const apiKey = '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';
const listId = 'ca7a3796-e8a8-4029-9ccb-df8937940562';

connectorSuite({
  id: 'sendgrid',
  credential: { fields: { apiKey } },
  badCredential: { fields: { apiKey: 'SG.revoked.key' } },
  auth: { header: 'authorization', value: `Bearer ${apiKey}` },
  test: {
    request: { method: 'GET', path: '/scopes' },
    ok: { body: { scopes: ['mail.send', 'marketing.read'] } },
    rejected: {
      status: 401,
      body: {
        errors: [
          { field: null, message: 'The provided authorization grant is invalid, expired, or revoked' },
        ],
      },
    },
    reason: '401: The provided authorization grant is invalid, expired, or revoked',
  },
  actions: [
    {
      name: 'sends text and HTML; the id comes from X-Message-Id',
      action: 'send_email',
      input: {
        from: 'hello@acme.test',
        fromName: 'Acme',
        to: ['ada@example.com'],
        bcc: ['audit@acme.test'],
        subject: 'Welcome',
        text: 'Hi Ada',
        html: '<p>Hi Ada</p>',
      },
      reply: { status: 202, headers: { 'x-message-id': 'W3kzE2BvRj2iZq8N1n5eYg' } },
      request: {
        method: 'POST',
        path: '/mail/send',
        body: {
          personalizations: [{ to: [{ email: 'ada@example.com' }], bcc: [{ email: 'audit@acme.test' }] }],
          from: { email: 'hello@acme.test', name: 'Acme' },
          subject: 'Welcome',
          content: [
            { type: 'text/plain', value: 'Hi Ada' },
            { type: 'text/html', value: '<p>Hi Ada</p>' },
          ],
        },
      },
      output: { accepted: true, messageId: 'W3kzE2BvRj2iZq8N1n5eYg' },
    },
    {
      name: 'sends a dynamic template',
      action: 'send_email',
      input: {
        from: 'hello@acme.test',
        to: ['ada@example.com'],
        templateId: 'd-0123456789abcdef0123456789abcdef',
        templateData: { first_name: 'Ada' },
      },
      reply: { status: 202, headers: { 'x-message-id': 'abc' } },
      request: {
        method: 'POST',
        path: '/mail/send',
        body: {
          personalizations: [
            { to: [{ email: 'ada@example.com' }], dynamic_template_data: { first_name: 'Ada' } },
          ],
          from: { email: 'hello@acme.test' },
          template_id: 'd-0123456789abcdef0123456789abcdef',
        },
      },
      output: { accepted: true, messageId: 'abc' },
    },
    {
      name: 'upserts contacts into a list and returns the job id',
      action: 'upsert_contacts',
      input: { listIds: [listId], contacts: [{ email: 'ada@example.com', first_name: 'Ada' }] },
      reply: { status: 202, body: { job_id: '2387e363-4104-4225-8960-4a5758492351' } },
      request: {
        method: 'PUT',
        path: '/marketing/contacts',
        body: { list_ids: [listId], contacts: [{ email: 'ada@example.com', first_name: 'Ada' }] },
      },
      output: { jobId: '2387e363-4104-4225-8960-4a5758492351' },
    },
    {
      name: 'looks contacts up by email, skipping the ones not found',
      action: 'get_contacts',
      input: { emails: ['ada@example.com', 'nobody@example.com'] },
      reply: {
        body: {
          result: {
            'ada@example.com': {
              contact: {
                id: '46fd6d55-d2f5-4e7c-8a2f-0e1f2a3b4c5d',
                email: 'ada@example.com',
                first_name: 'Ada',
                last_name: null,
                list_ids: [listId],
              },
            },
            'nobody@example.com': { error: 'contact not found' },
          },
        },
      },
      request: {
        method: 'POST',
        path: '/marketing/contacts/search/emails',
        body: { emails: ['ada@example.com', 'nobody@example.com'] },
      },
      output: [
        {
          id: '46fd6d55-d2f5-4e7c-8a2f-0e1f2a3b4c5d',
          email: 'ada@example.com',
          firstName: 'Ada',
          lastName: null,
          listIds: [listId],
        },
      ],
    },
  ],
  sources: [
    {
      source: 'senders',
      pages: [
        {
          request: { method: 'GET', path: '/verified_senders', query: { limit: '100' } },
          reply: {
            body: {
              results: [
                ...Array.from({ length: 99 }, (_, i) => ({
                  id: i + 1,
                  from_email: `u${i}@acme.test`,
                  verified: false,
                })),
                { id: 100, from_email: 'hello@acme.test', from_name: 'Acme', verified: true },
              ],
            },
          },
        },
        {
          request: { method: 'GET', path: '/verified_senders', query: { limit: '100', lastSeenID: '100' } },
          reply: { body: { results: [{ id: 101, from_email: 'billing@acme.test', verified: true }] } },
        },
      ],
      options: [
        { value: 'hello@acme.test', label: 'Acme <hello@acme.test>' },
        { value: 'billing@acme.test', label: 'billing@acme.test' },
      ],
    },
    {
      source: 'lists',
      pages: [
        {
          request: { method: 'GET', path: '/marketing/lists', query: { page_size: '100' } },
          reply: {
            body: {
              result: [{ id: listId, name: 'Customers', contact_count: 12 }],
              _metadata: {
                self: 'https://api.sendgrid.com/v3/marketing/lists?page_size=100',
                next: 'https://api.sendgrid.com/v3/marketing/lists?page_size=100&page_token=c2Vjb25k',
                count: 2,
              },
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/marketing/lists',
            query: { page_size: '100', page_token: 'c2Vjb25k' },
          },
          reply: {
            body: { result: [{ id: 'b5c6', name: 'Trials', contact_count: 3 }], _metadata: { count: 2 } },
          },
        },
      ],
      options: [
        { value: listId, label: 'Customers' },
        { value: 'b5c6', label: 'Trials' },
      ],
    },
  ],
  errors: [
    {
      name: 'every error entry is reported with its field',
      action: 'send_email',
      input: { from: 'nobody@acme.test', to: ['ada@example.com'], subject: 'x', text: 'y' },
      reply: {
        status: 403,
        body: {
          errors: [
            {
              message: 'The from address does not match a verified Sender Identity.',
              field: 'from',
              help: 'https://sendgrid.com/docs/for-developers/sending-email/sender-identity/',
            },
          ],
        },
      },
      message: '403: from: The from address does not match a verified Sender Identity.',
    },
  ],
});

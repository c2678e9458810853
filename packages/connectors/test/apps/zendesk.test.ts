import { connectorSuite } from '@inlay/test-kit/suite';

const apiToken = 'wZ3xY9kL2mN8pQ4rS6tU1vW7xY0zA5bC3dE9fG2h';
const fields = { subdomain: 'acme', email: 'agent@acme.test', apiToken };
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

const rawTicket = {
  id: 35436,
  url: 'https://acme.zendesk.com/api/v2/tickets/35436.json',
  subject: 'Printer on fire',
  status: 'new',
  priority: 'urgent',
  type: 'incident',
  tags: ['hardware'],
  requester_id: 20978392,
  assignee_id: null,
  group_id: 98738,
  created_at: '2025-01-02T10:00:00Z',
  updated_at: '2025-01-02T10:00:00Z',
};
const ticket = {
  id: 35436,
  subject: 'Printer on fire',
  status: 'new',
  priority: 'urgent',
  type: 'incident',
  tags: ['hardware'],
  requesterId: 20978392,
  assigneeId: null,
  groupId: 98738,
  createdAt: '2025-01-02T10:00:00Z',
  updatedAt: '2025-01-02T10:00:00Z',
};

connectorSuite({
  id: 'zendesk',
  credential: { fields },
  badCredential: { fields: { ...fields, apiToken: 'revoked-token-000' } },
  // Zendesk API tokens authenticate as "<email>/token" with the token as password.
  auth: { header: 'authorization', value: basic('agent@acme.test/token', apiToken) },
  test: {
    request: { method: 'GET', path: '/users/me.json' },
    ok: { body: { user: { id: 1, email: 'agent@acme.test', role: 'agent' } } },
    rejected: { status: 401, body: { error: "Couldn't authenticate you" } },
    label: 'agent@acme.test',
    reason: "401: Couldn't authenticate you",
  },
  actions: [
    {
      name: 'creates a ticket for a requester',
      action: 'create_ticket',
      input: {
        subject: 'Printer on fire',
        body: 'The smoke is very colorful.',
        requesterEmail: 'ada@example.com',
        requesterName: 'Ada',
        priority: 'urgent',
        type: 'incident',
        tags: ['hardware'],
        groupId: 98738,
      },
      reply: { status: 201, body: { ticket: rawTicket, audit: { id: 1 } } },
      request: {
        method: 'POST',
        path: '/tickets.json',
        body: {
          ticket: {
            subject: 'Printer on fire',
            comment: { body: 'The smoke is very colorful.' },
            requester: { email: 'ada@example.com', name: 'Ada' },
            priority: 'urgent',
            type: 'incident',
            tags: ['hardware'],
            group_id: 98738,
          },
        },
      },
      output: ticket,
    },
    {
      name: 'adds an internal note with PUT',
      action: 'add_comment',
      input: { ticketId: 35436, body: 'Called the customer', public: false },
      reply: { body: { ticket: { ...rawTicket, status: 'open' } } },
      request: {
        method: 'PUT',
        path: '/tickets/35436.json',
        body: { ticket: { comment: { body: 'Called the customer', public: false } } },
      },
      output: { ...ticket, status: 'open' },
    },
    {
      name: 'reads a ticket',
      action: 'get_ticket',
      input: { ticketId: 35436 },
      reply: { body: { ticket: rawTicket } },
      request: { method: 'GET', path: '/tickets/35436.json' },
      output: ticket,
    },
  ],
  sources: [
    {
      source: 'groups',
      pages: [
        {
          request: { method: 'GET', path: '/groups.json', query: { 'page[size]': '100' } },
          reply: {
            body: {
              groups: [{ id: 98738, name: 'Support' }],
              meta: { has_more: true, after_cursor: 'xc5Adsdfsd', before_cursor: null },
              links: {
                next: 'https://acme.zendesk.com/api/v2/groups.json?page%5Bafter%5D=xc5Adsdfsd&page%5Bsize%5D=100',
              },
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/groups.json',
            query: { 'page[size]': '100', 'page[after]': 'xc5Adsdfsd' },
          },
          reply: {
            body: { groups: [{ id: 98739, name: 'Billing' }], meta: { has_more: false, after_cursor: null } },
          },
        },
      ],
      options: [
        { value: '98738', label: 'Support' },
        { value: '98739', label: 'Billing' },
      ],
    },
  ],
  errors: [
    {
      name: 'RecordInvalid names each validation error',
      action: 'create_ticket',
      input: { subject: 'x', body: 'y', requesterEmail: 'ada@example.com' },
      reply: {
        status: 422,
        body: {
          error: 'RecordInvalid',
          description: 'Record validation errors',
          details: { requester: [{ description: 'Requester: Email is already being used by another user' }] },
        },
      },
      message: '422: Requester: Email is already being used by another user',
    },
    {
      name: 'an object error joins title and message',
      action: 'get_ticket',
      input: { ticketId: 1 },
      reply: {
        status: 403,
        body: { error: { title: 'Forbidden', message: 'You do not have access to this page.' } },
      },
      message: '403: Forbidden; You do not have access to this page.',
    },
  ],
});

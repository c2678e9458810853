import { connectorSuite } from '@inlay/test-kit/suite';

const apiKey = 'sFqWQG4Jm8xXzYbC2dEk';
const basic = (key: string) => `Basic ${Buffer.from(`${key}:X`).toString('base64')}`;

const ticket = {
  id: 1024,
  subject: 'Cannot log in',
  status: 2,
  priority: 3,
  type: 'Problem',
  requester_id: 77000123,
  responder_id: null,
  group_id: 77000009,
  tags: ['login'],
  due_by: '2025-02-22T10:00:00Z',
  created_at: '2025-02-20T10:00:00Z',
  updated_at: '2025-02-20T10:00:00Z',
  description_text: 'Password reset loops',
};
const mapped = {
  id: 1024,
  subject: 'Cannot log in',
  status: 'open',
  priority: 'high',
  type: 'Problem',
  requesterId: 77000123,
  requesterEmail: null,
  responderId: null,
  groupId: 77000009,
  tags: ['login'],
  dueBy: '2025-02-22T10:00:00Z',
  description: 'Password reset loops',
  createdAt: '2025-02-20T10:00:00Z',
  updatedAt: '2025-02-20T10:00:00Z',
};

connectorSuite({
  id: 'freshdesk',
  credential: { fields: { domain: 'acme', apiKey } },
  badCredential: { fields: { domain: 'acme', apiKey: 'revoked' } },
  auth: { header: 'authorization', value: basic(apiKey) },
  test: {
    request: { method: 'GET', path: '/agents/me' },
    ok: { body: { id: 77000001, contact: { name: 'Grace Hopper', email: 'grace@acme.test' } } },
    rejected: {
      status: 401,
      body: { code: 'invalid_credentials', message: 'You have to be logged in to perform this action.' },
    },
    label: 'grace@acme.test',
    reason: '401: You have to be logged in to perform this action.',
  },
  actions: [
    {
      name: 'creates a ticket with named status and priority mapped to numbers',
      action: 'create_ticket',
      input: {
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        subject: 'Cannot log in',
        description: '<p>Password reset loops</p>',
        priority: 'high',
        groupId: 77000009,
        tags: ['login'],
        customFields: { cf_plan: 'Pro' },
      },
      reply: { status: 201, body: ticket },
      request: {
        method: 'POST',
        path: '/tickets',
        body: {
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          subject: 'Cannot log in',
          description: '<p>Password reset loops</p>',
          status: 2,
          priority: 3,
          source: 2,
          group_id: 77000009,
          tags: ['login'],
          custom_fields: { cf_plan: 'Pro' },
        },
      },
      output: mapped,
    },
    {
      name: 'resolves and assigns a ticket',
      action: 'update_ticket',
      input: { ticketId: 1024, status: 'resolved', responderId: 77000001 },
      reply: { body: { ...ticket, status: 4, responder_id: 77000001 } },
      request: { method: 'PUT', path: '/tickets/1024', body: { status: 4, responder_id: 77000001 } },
      output: { ...mapped, status: 'resolved', responderId: 77000001 },
    },
    {
      name: 'replies to the requester',
      action: 'add_comment',
      input: { ticketId: 1024, body: '<p>Fixed, please retry.</p>' },
      reply: {
        status: 201,
        body: {
          id: 5001,
          ticket_id: 1024,
          body: '<p>Fixed, please retry.</p>',
          created_at: '2025-02-20T11:00:00Z',
        },
      },
      request: { method: 'POST', path: '/tickets/1024/reply', body: { body: '<p>Fixed, please retry.</p>' } },
      output: { id: 5001, ticketId: 1024, private: false, createdAt: '2025-02-20T11:00:00Z' },
    },
    {
      name: 'adds a private note',
      action: 'add_comment',
      input: { ticketId: 1024, body: 'Escalated to engineering', kind: 'note' },
      reply: {
        status: 201,
        body: { id: 5002, ticket_id: 1024, private: true, created_at: '2025-02-20T11:05:00Z' },
      },
      request: {
        method: 'POST',
        path: '/tickets/1024/notes',
        body: { body: 'Escalated to engineering', private: true },
      },
      output: { id: 5002, ticketId: 1024, private: true, createdAt: '2025-02-20T11:05:00Z' },
    },
    {
      name: 'reads a ticket with its requester',
      action: 'get_ticket',
      input: { ticketId: 1024 },
      reply: {
        body: { ...ticket, requester: { id: 77000123, name: 'Ada Lovelace', email: 'ada@example.com' } },
      },
      request: { method: 'GET', path: '/tickets/1024', query: { include: 'requester' } },
      output: { ...mapped, requesterEmail: 'ada@example.com' },
    },
  ],
  sources: [
    {
      source: 'groups',
      pages: [
        {
          request: { method: 'GET', path: '/groups', query: { per_page: '100' } },
          reply: {
            headers: { link: '<https://acme.freshdesk.com/api/v2/groups?per_page=100&page=2>; rel="next"' },
            body: [{ id: 77000009, name: 'Tier 1' }],
          },
        },
        {
          request: { method: 'GET', path: '/groups', query: { per_page: '100', page: '2' } },
          reply: { body: [{ id: 77000010, name: 'Billing' }] },
        },
      ],
      options: [
        { value: '77000009', label: 'Tier 1' },
        { value: '77000010', label: 'Billing' },
      ],
    },
    {
      source: 'agents',
      pages: [
        {
          request: { method: 'GET', path: '/agents', query: { per_page: '100' } },
          reply: { body: [{ id: 77000001, contact: { name: 'Grace Hopper', email: 'grace@acme.test' } }] },
        },
      ],
      options: [{ value: '77000001', label: 'Grace Hopper <grace@acme.test>' }],
    },
  ],
  errors: [
    {
      name: 'validation errors name the fields',
      action: 'create_ticket',
      input: { email: 'ada@example.com', subject: 's', description: 'd', type: 'Nope' },
      reply: {
        status: 400,
        body: {
          description: 'Validation failed',
          errors: [
            {
              field: 'type',
              message: "It should be one of these values: 'Question,Problem'",
              code: 'invalid_value',
            },
          ],
        },
      },
      message: "400: Validation failed: type: It should be one of these values: 'Question,Problem'",
    },
    {
      name: 'the hourly limit is transient',
      action: 'get_ticket',
      input: { ticketId: 1 },
      reply: {
        status: 429,
        headers: { 'retry-after': '60' },
        body: { message: 'You have exceeded the limit of requests per hour' },
      },
      message: '429: You have exceeded the limit of requests per hour',
      transient: true,
    },
  ],
});

import { connectorSuite } from '@inlay/test-kit/suite';

const token = 'dG9rOjRmMmE5YjNjXzFkN2VfNGE2Zl84YjJjXzNkOWUxZjBhNWI2YzoxOjA=';
const rawContact = {
  type: 'contact',
  id: '6762f0d51bb69f9f2193bb7f',
  workspace_id: 'ecahpwf5',
  role: 'user',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  phone: null,
  external_id: 'u_1',
  created_at: 1735812000,
  custom_attributes: { plan: 'pro' },
};
const contact = {
  id: '6762f0d51bb69f9f2193bb7f',
  role: 'user',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  phone: null,
  externalId: 'u_1',
  createdAt: '2025-01-02T10:00:00.000Z',
  customAttributes: { plan: 'pro' },
};

connectorSuite({
  id: 'intercom',
  credential: { fields: {}, oauth: { accessToken: token } },
  badCredential: { fields: {}, oauth: { accessToken: 'dG9rOnJldm9rZWQ=' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  headers: { 'intercom-version': '2.11' },
  test: {
    request: { method: 'GET', path: '/me' },
    ok: { body: { type: 'admin', id: '991267460', email: 'ada@acme.test' } },
    rejected: {
      status: 401,
      body: {
        type: 'error.list',
        request_id: 'req-1',
        errors: [{ code: 'unauthorized', message: 'Access Token Invalid' }],
      },
    },
    label: 'ada@acme.test',
    reason: '401: Access Token Invalid',
  },
  actions: [
    {
      name: 'creates a user with custom attributes',
      action: 'create_contact',
      input: {
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        external_id: 'u_1',
        custom_attributes: { plan: 'pro' },
      },
      reply: { body: rawContact },
      request: {
        method: 'POST',
        path: '/contacts',
        body: {
          role: 'user',
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          external_id: 'u_1',
          custom_attributes: { plan: 'pro' },
        },
      },
      output: contact,
    },
    {
      name: 'searches contacts by exact email',
      action: 'find_contact',
      input: { email: 'ada@example.com' },
      reply: { body: { type: 'list', data: [rawContact], total_count: 1 } },
      request: {
        method: 'POST',
        path: '/contacts/search',
        body: { query: { field: 'email', operator: '=', value: 'ada@example.com' } },
      },
      output: [contact],
    },
    {
      name: 'sends an email from an admin',
      action: 'send_message',
      input: {
        adminId: '991267460',
        contactId: rawContact.id,
        messageType: 'email',
        subject: 'Welcome',
        body: '<p>Hi Ada</p>',
      },
      reply: {
        body: {
          type: 'admin_message',
          id: '1234',
          message_type: 'email',
          created_at: 1735812000,
          conversation_id: '5678',
        },
      },
      request: {
        method: 'POST',
        path: '/messages',
        body: {
          message_type: 'email',
          subject: 'Welcome',
          body: '<p>Hi Ada</p>',
          template: 'plain',
          from: { type: 'admin', id: '991267460' },
          to: { type: 'user', id: rawContact.id },
        },
      },
      output: {
        id: '1234',
        messageType: 'email',
        conversationId: '5678',
        createdAt: '2025-01-02T10:00:00.000Z',
      },
    },
  ],
  sources: [
    {
      source: 'admins',
      pages: [
        {
          request: { method: 'GET', path: '/admins' },
          reply: {
            body: {
              type: 'admin.list',
              admins: [
                { type: 'admin', id: '991267460', name: 'Ada Lovelace', email: 'ada@acme.test' },
                { type: 'team', id: '814865', name: 'Support team' },
              ],
            },
          },
        },
      ],
      options: [{ value: '991267460', label: 'Ada Lovelace <ada@acme.test>' }],
    },
  ],
  errors: [
    {
      name: 'a conflict keeps Intercom’s message',
      action: 'create_contact',
      input: { email: 'ada@example.com' },
      reply: {
        status: 409,
        body: {
          type: 'error.list',
          errors: [
            {
              code: 'conflict',
              message: 'A contact matching those details already exists with id=6762f0d51bb69f9f2193bb7f',
            },
          ],
        },
      },
      message: '409: A contact matching those details already exists with id=6762f0d51bb69f9f2193bb7f',
    },
  ],
});

import { connectorSuite } from '@inlay/test-kit/suite';

const token =
  'CKXv8ZqxMhIHAAEAQAAAARjY8e4JIJDl3QEo6uQnMhRvVxEzqMWvHkFGH0uk8RgeeiLjYjoxAAAAQQAAAAAAAAAAAAAAAIAAAAAAAAAAAAAgAAAAAA';
const contact = {
  id: '512',
  properties: { email: 'ada@example.com', firstname: 'Ada', lastname: 'Lovelace', hs_object_id: '512' },
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
  archived: false,
};

connectorSuite({
  id: 'hubspot',
  credential: {
    fields: {},
    oauth: { accessToken: token, refreshToken: 'de6b1f7a-4d0c-4c2e-9b1a-2f7c1d9e0a11' },
  },
  badCredential: { fields: {}, oauth: { accessToken: 'CKXv8Zexpired' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  test: {
    request: { method: 'GET', path: '/account-info/v3/details' },
    ok: { body: { portalId: 4455667, timeZone: 'Europe/Berlin', companyCurrency: 'EUR' } },
    rejected: {
      status: 401,
      body: {
        status: 'error',
        message: 'Authentication credentials not found.',
        correlationId: 'c3a1b2d4-0000-4b0e-9f00-1a2b3c4d5e6f',
        category: 'INVALID_AUTHENTICATION',
      },
    },
    label: 'Portal 4455667',
    reason: '401: Authentication credentials not found.',
  },
  actions: [
    {
      name: 'posts the properties and returns the new contact',
      action: 'create_contact',
      input: {
        email: 'ada@example.com',
        firstname: 'Ada',
        lastname: 'Lovelace',
        properties: { lifecyclestage: 'lead' },
      },
      reply: { status: 201, body: contact },
      request: {
        method: 'POST',
        path: '/crm/v3/objects/contacts',
        body: {
          properties: {
            email: 'ada@example.com',
            firstname: 'Ada',
            lastname: 'Lovelace',
            lifecyclestage: 'lead',
          },
        },
      },
      output: {
        id: '512',
        properties: contact.properties,
        createdAt: '2025-01-02T10:00:00.000Z',
        updatedAt: '2025-01-02T10:00:00.000Z',
      },
    },
    {
      name: 'reads a contact by email with idProperty=email',
      action: 'get_contact',
      input: { email: 'ada@example.com', properties: ['email', 'firstname'] },
      reply: { body: contact },
      request: {
        method: 'GET',
        path: '/crm/v3/objects/contacts/ada%40example.com',
        query: { idProperty: 'email', properties: 'email,firstname' },
      },
      output: {
        id: '512',
        properties: contact.properties,
        createdAt: '2025-01-02T10:00:00.000Z',
        updatedAt: '2025-01-02T10:00:00.000Z',
      },
    },
    {
      name: 'creates a deal with string property values',
      action: 'create_deal',
      input: {
        dealname: 'Acme renewal',
        amount: 1200.5,
        pipeline: 'default',
        dealstage: 'appointmentscheduled',
      },
      reply: {
        status: 201,
        body: {
          id: '9001',
          properties: { dealname: 'Acme renewal', amount: '1200.5', dealstage: 'appointmentscheduled' },
          createdAt: '2025-01-03T09:00:00.000Z',
          updatedAt: '2025-01-03T09:00:00.000Z',
        },
      },
      request: {
        method: 'POST',
        path: '/crm/v3/objects/deals',
        body: {
          properties: {
            dealname: 'Acme renewal',
            amount: '1200.5',
            pipeline: 'default',
            dealstage: 'appointmentscheduled',
          },
        },
      },
      output: {
        id: '9001',
        properties: { dealname: 'Acme renewal', amount: '1200.5', dealstage: 'appointmentscheduled' },
        createdAt: '2025-01-03T09:00:00.000Z',
        updatedAt: '2025-01-03T09:00:00.000Z',
      },
    },
  ],
  sources: [
    {
      source: 'owners',
      pages: [
        {
          request: { method: 'GET', path: '/crm/v3/owners', query: { limit: '100', archived: 'false' } },
          reply: {
            body: {
              results: [{ id: '41', email: 'grace@acme.test', firstName: 'Grace', lastName: 'Hopper' }],
              paging: {
                next: { after: 'NDE%3D', link: 'https://api.hubapi.com/crm/v3/owners?after=NDE%3D' },
              },
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/crm/v3/owners',
            query: { limit: '100', archived: 'false', after: 'NDE%3D' },
          },
          reply: { body: { results: [{ id: '42', email: 'linus@acme.test' }] } },
        },
      ],
      options: [
        { value: '41', label: 'Grace Hopper' },
        { value: '42', label: 'linus@acme.test' },
      ],
    },
    {
      source: 'pipelines',
      pages: [
        {
          request: { method: 'GET', path: '/crm/v3/pipelines/deals' },
          reply: { body: { results: [{ id: 'default', label: 'Sales Pipeline', stages: [] }] } },
        },
      ],
      options: [{ value: 'default', label: 'Sales Pipeline' }],
    },
    {
      source: 'deal_stages',
      pages: [
        {
          request: { method: 'GET', path: '/crm/v3/pipelines/deals' },
          reply: {
            body: {
              results: [
                {
                  id: 'default',
                  label: 'Sales Pipeline',
                  stages: [
                    { id: 'appointmentscheduled', label: 'Appointment scheduled' },
                    { id: 'closedwon', label: 'Closed won' },
                  ],
                },
              ],
            },
          },
        },
      ],
      options: [
        { value: 'appointmentscheduled', label: 'Sales Pipeline: Appointment scheduled' },
        { value: 'closedwon', label: 'Sales Pipeline: Closed won' },
      ],
    },
  ],
  errors: [
    {
      name: 'a duplicate email is a non-transient 409 with HubSpot’s message',
      action: 'create_contact',
      input: { email: 'ada@example.com' },
      reply: {
        status: 409,
        body: { status: 'error', message: 'Contact already exists. Existing ID: 512', category: 'CONFLICT' },
      },
      message: '409: Contact already exists. Existing ID: 512',
    },
    {
      name: 'a 429 is transient',
      action: 'get_contact',
      input: { email: 'ada@example.com' },
      reply: {
        status: 429,
        headers: { 'retry-after': '10' },
        body: { status: 'error', message: 'You have reached your secondly limit.', errorType: 'RATE_LIMIT' },
      },
      message: '429: You have reached your secondly limit.',
      transient: true,
    },
  ],
});

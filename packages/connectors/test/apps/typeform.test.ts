import { bearer, connectorSuite } from '@inlay/test-kit/suite';

const token = 'tfp_8Hk2n4Pq7Rs9Tv1Wx3Yz5Ab7Cd9Ef1Gh3Ij5Kl7Mn9_3mB8x4Lp2Qr6St0Uv';

connectorSuite({
  id: 'typeform',
  ...bearer(token, 'tf-refresh'),
  test: {
    request: { method: 'GET', path: '/me' },
    ok: { body: { alias: 'Grace', email: 'grace@acme.test', language: 'en', user_id: '01HZX' } },
    rejected: {
      status: 401,
      body: {
        code: 'AUTHENTICATION_FAILED',
        description: 'Authentication credentials not found on the Request Headers',
      },
    },
    label: 'grace@acme.test',
    reason: '401: Authentication credentials not found on the Request Headers',
  },
  actions: [
    {
      name: 'lists completed responses with answers keyed by field ref',
      action: 'list_responses',
      input: { formId: 'lT4Z3j', since: '2025-02-01T00:00:00Z', pageSize: 2 },
      reply: {
        body: {
          total_items: 3,
          page_count: 2,
          items: [
            {
              response_id: 'a1b2c3',
              token: 'a1b2c3',
              landed_at: '2025-02-20T09:58:00Z',
              submitted_at: '2025-02-20T10:00:00Z',
              hidden: { utm_source: 'newsletter' },
              calculated: { score: 7 },
              answers: [
                { type: 'text', text: 'Ada', field: { id: 'f1', ref: 'first_name', type: 'short_text' } },
                { type: 'email', email: 'ada@example.com', field: { id: 'f2', ref: 'email', type: 'email' } },
                {
                  type: 'choice',
                  choice: { label: 'Enterprise' },
                  field: { id: 'f3', ref: 'plan', type: 'multiple_choice' },
                },
                {
                  type: 'choices',
                  choices: { labels: ['API', 'SSO'], other: 'SCIM' },
                  field: { id: 'f4', ref: 'needs', type: 'multiple_choice' },
                },
                { type: 'number', number: 250, field: { id: 'f5', ref: 'seats', type: 'number' } },
                { type: 'boolean', boolean: true, field: { id: 'f6', ref: 'consent', type: 'yes_no' } },
              ],
            },
            {
              response_id: 'd4e5f6',
              token: 'd4e5f6',
              landed_at: '2025-02-19T09:00:00Z',
              submitted_at: '2025-02-19T09:01:00Z',
              answers: null,
            },
          ],
        },
      },
      request: {
        method: 'GET',
        path: '/forms/lT4Z3j/responses',
        query: {
          since: '2025-02-01T00:00:00Z',
          page_size: '2',
          response_type: 'completed',
          sort: 'submitted_at,desc',
        },
      },
      output: {
        totalItems: 3,
        pageCount: 2,
        responses: [
          {
            responseId: 'a1b2c3',
            token: 'a1b2c3',
            landedAt: '2025-02-20T09:58:00Z',
            submittedAt: '2025-02-20T10:00:00Z',
            answers: {
              first_name: 'Ada',
              email: 'ada@example.com',
              plan: 'Enterprise',
              needs: ['API', 'SSO', 'SCIM'],
              seats: 250,
              consent: true,
            },
            hidden: { utm_source: 'newsletter' },
            score: 7,
          },
          {
            responseId: 'd4e5f6',
            token: 'd4e5f6',
            landedAt: '2025-02-19T09:00:00Z',
            submittedAt: '2025-02-19T09:01:00Z',
            answers: {},
            hidden: {},
            score: null,
          },
        ],
      },
    },
    {
      name: 'reads a form’s questions and refs',
      action: 'get_form',
      input: { formId: 'lT4Z3j' },
      reply: {
        body: {
          id: 'lT4Z3j',
          title: 'Demo request',
          _links: { display: 'https://acme.typeform.com/to/lT4Z3j' },
          fields: [
            {
              id: 'f1',
              ref: 'first_name',
              title: 'Your name?',
              type: 'short_text',
              validations: { required: true },
            },
            { id: 'f3', ref: 'plan', title: 'Plan?', type: 'multiple_choice' },
          ],
          hidden: ['utm_source'],
        },
      },
      request: { method: 'GET', path: '/forms/lT4Z3j' },
      output: {
        id: 'lT4Z3j',
        title: 'Demo request',
        url: 'https://acme.typeform.com/to/lT4Z3j',
        fields: [
          { id: 'f1', ref: 'first_name', title: 'Your name?', type: 'short_text', required: true },
          { id: 'f3', ref: 'plan', title: 'Plan?', type: 'multiple_choice', required: false },
        ],
        hidden: ['utm_source'],
      },
    },
    {
      name: 'puts a signed webhook on a form by tag',
      action: 'create_webhook',
      input: {
        formId: 'lT4Z3j',
        tag: 'inlay',
        url: 'https://hooks.acme.test/typeform',
        secret: 'whsec_0123456789',
      },
      reply: {
        body: {
          id: '01HZY',
          form_id: 'lT4Z3j',
          tag: 'inlay',
          url: 'https://hooks.acme.test/typeform',
          enabled: true,
          verify_ssl: true,
          created_at: '2025-02-20T10:00:00Z',
          updated_at: '2025-02-20T10:00:00Z',
        },
      },
      request: {
        method: 'PUT',
        path: '/forms/lT4Z3j/webhooks/inlay',
        body: {
          url: 'https://hooks.acme.test/typeform',
          enabled: true,
          secret: 'whsec_0123456789',
          verify_ssl: true,
        },
      },
      output: {
        id: '01HZY',
        formId: 'lT4Z3j',
        tag: 'inlay',
        url: 'https://hooks.acme.test/typeform',
        enabled: true,
        updatedAt: '2025-02-20T10:00:00Z',
      },
    },
  ],
  sources: [
    {
      source: 'forms',
      pages: [
        {
          request: { method: 'GET', path: '/forms', query: { page_size: '200', page: '1' } },
          reply: {
            body: { total_items: 201, page_count: 2, items: [{ id: 'lT4Z3j', title: 'Demo request' }] },
          },
        },
        {
          request: { method: 'GET', path: '/forms', query: { page_size: '200', page: '2' } },
          reply: { body: { total_items: 201, page_count: 2, items: [{ id: 'xY9', title: 'NPS' }] } },
        },
      ],
      options: [
        { value: 'lT4Z3j', label: 'Demo request' },
        { value: 'xY9', label: 'NPS' },
      ],
    },
  ],
  errors: [
    {
      name: 'an unknown form keeps Typeform’s description',
      action: 'get_form',
      input: { formId: 'nope' },
      reply: {
        status: 404,
        body: { code: 'FORM_NOT_FOUND', description: 'Non existing form with uid nope' },
      },
      message: '404: Non existing form with uid nope',
    },
    {
      name: 'validation details name the field',
      action: 'create_webhook',
      input: { formId: 'lT4Z3j', tag: 'inlay', url: 'https://hooks.acme.test/x' },
      reply: {
        status: 400,
        body: {
          code: 'VALIDATION_ERROR',
          description: 'The payload is invalid.',
          details: [{ code: 'INVALID', description: 'must be reachable', field: 'url' }],
        },
      },
      message: '400: The payload is invalid. url: must be reachable',
    },
  ],
});

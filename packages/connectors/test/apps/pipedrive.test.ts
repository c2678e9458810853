import { connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { ConnectorRuntime, catalog } from '../../src/index.ts';

const token = 'v1u:AQIBAHj+LzTNK2yuuuaLqifzhWb9crUNKTpk4FlQ9rjnXqp_6AEGm0ZmYmI5NzQ2NzE';

const deal = {
  id: 4711,
  title: 'Acme renewal',
  value: 1200,
  currency: 'EUR',
  status: 'open',
  pipeline_id: 1,
  stage_id: 3,
  person_id: 42,
  org_id: 7,
  owner_id: 13,
  expected_close_date: '2025-04-30',
  add_time: '2025-02-20T10:00:00Z',
  update_time: '2025-02-20T10:00:00Z',
};
const mappedDeal = {
  id: 4711,
  title: 'Acme renewal',
  value: 1200,
  currency: 'EUR',
  status: 'open',
  pipelineId: 1,
  stageId: 3,
  personId: 42,
  orgId: 7,
  ownerId: 13,
  expectedCloseDate: '2025-04-30',
  addedAt: '2025-02-20T10:00:00Z',
  updatedAt: '2025-02-20T10:00:00Z',
};

connectorSuite({
  id: 'pipedrive',
  credential: { fields: { company: 'acme' }, oauth: { accessToken: token, refreshToken: '9:13:refresh' } },
  badCredential: { fields: { company: 'acme' }, oauth: { accessToken: 'v1u:revoked' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  test: {
    request: { method: 'GET', path: '/v1/users/me' },
    ok: {
      body: {
        success: true,
        data: { id: 13, name: 'Grace Hopper', email: 'grace@acme.test', company_domain: 'acme' },
      },
    },
    rejected: {
      status: 401,
      body: {
        success: false,
        error: 'unauthorized access',
        errorCode: 401,
        error_info: 'Please check developers.pipedrive.com',
      },
    },
    label: 'grace@acme.test',
    reason: '401: unauthorized access',
  },
  actions: [
    {
      name: 'creates a person with a primary email and phone',
      action: 'create_person',
      input: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958', orgId: 7 },
      reply: {
        status: 201,
        body: {
          success: true,
          data: {
            id: 42,
            name: 'Ada Lovelace',
            emails: [{ value: 'ada@example.com', primary: true, label: 'work' }],
            phones: [{ value: '+44 20 7946 0958', primary: true, label: 'work' }],
            org_id: 7,
            owner_id: 13,
          },
        },
      },
      request: {
        method: 'POST',
        path: '/v2/persons',
        body: {
          name: 'Ada Lovelace',
          emails: [{ value: 'ada@example.com', primary: true, label: 'work' }],
          phones: [{ value: '+44 20 7946 0958', primary: true, label: 'work' }],
          org_id: 7,
        },
      },
      output: {
        id: 42,
        name: 'Ada Lovelace',
        emails: ['ada@example.com'],
        phones: ['+44 20 7946 0958'],
        orgId: 7,
        ownerId: 13,
      },
    },
    {
      name: 'searches people by exact email',
      action: 'find_persons',
      input: { term: 'ada@example.com', fields: ['email'], exactMatch: true },
      reply: {
        body: {
          success: true,
          data: {
            items: [
              {
                result_score: 1,
                item: {
                  id: 42,
                  type: 'person',
                  name: 'Ada Lovelace',
                  emails: ['ada@example.com'],
                  phones: [],
                  organization: { id: 7, name: 'Acme' },
                  owner: { id: 13 },
                },
              },
            ],
          },
          additional_data: { next_cursor: null },
        },
      },
      request: {
        method: 'GET',
        path: '/v2/persons/search',
        query: { term: 'ada@example.com', fields: 'email', exact_match: 'true', limit: '25' },
      },
      output: [
        { id: 42, name: 'Ada Lovelace', emails: ['ada@example.com'], phones: [], orgId: 7, ownerId: 13 },
      ],
    },
    {
      name: 'creates a deal in a stage for a person',
      action: 'create_deal',
      input: {
        title: 'Acme renewal',
        value: 1200,
        currency: 'EUR',
        personId: 42,
        orgId: 7,
        stageId: 3,
        expectedCloseDate: '2025-04-30',
      },
      reply: { status: 201, body: { success: true, data: deal } },
      request: {
        method: 'POST',
        path: '/v2/deals',
        body: {
          title: 'Acme renewal',
          value: 1200,
          currency: 'EUR',
          person_id: 42,
          org_id: 7,
          stage_id: 3,
          expected_close_date: '2025-04-30',
        },
      },
      output: mappedDeal,
    },
    {
      name: 'marks a deal lost with a reason',
      action: 'update_deal',
      input: { dealId: 4711, status: 'lost', lostReason: 'Budget' },
      reply: { body: { success: true, data: { ...deal, status: 'lost' } } },
      request: { method: 'PATCH', path: '/v2/deals/4711', body: { status: 'lost', lost_reason: 'Budget' } },
      output: { ...mappedDeal, status: 'lost' },
    },
  ],
  sources: [
    {
      source: 'pipelines',
      pages: [
        {
          request: { method: 'GET', path: '/v2/pipelines', query: { limit: '100' } },
          reply: {
            body: {
              success: true,
              data: [{ id: 1, name: 'Sales' }],
              additional_data: { next_cursor: 'eyJpZCI6MX0' },
            },
          },
        },
        {
          request: { method: 'GET', path: '/v2/pipelines', query: { limit: '100', cursor: 'eyJpZCI6MX0' } },
          reply: {
            body: {
              success: true,
              data: [{ id: 2, name: 'Partners' }],
              additional_data: { next_cursor: null },
            },
          },
        },
      ],
      options: [
        { value: '1', label: 'Sales' },
        { value: '2', label: 'Partners' },
      ],
    },
    {
      source: 'stages',
      pages: [
        {
          request: { method: 'GET', path: '/v2/pipelines', query: { limit: '100' } },
          reply: {
            body: {
              success: true,
              data: [
                { id: 1, name: 'Sales' },
                { id: 2, name: 'Partners' },
              ],
            },
          },
        },
        {
          request: { method: 'GET', path: '/v2/stages', query: { pipeline_id: '1', limit: '100' } },
          reply: {
            body: {
              success: true,
              data: [
                { id: 1, name: 'Qualified', pipeline_id: 1 },
                { id: 3, name: 'Proposal', pipeline_id: 1 },
              ],
            },
          },
        },
        {
          request: { method: 'GET', path: '/v2/stages', query: { pipeline_id: '2', limit: '100' } },
          reply: { body: { success: true, data: [{ id: 9, name: 'Intro', pipeline_id: 2 }] } },
        },
      ],
      options: [
        { value: '1', label: 'Sales › Qualified' },
        { value: '3', label: 'Sales › Proposal' },
        { value: '9', label: 'Partners › Intro' },
      ],
    },
    {
      source: 'users',
      pages: [
        {
          request: { method: 'GET', path: '/v1/users' },
          reply: {
            body: {
              success: true,
              data: [
                { id: 13, name: 'Grace Hopper', email: 'grace@acme.test', active_flag: true },
                { id: 14, name: 'Gone Person', email: 'gone@acme.test', active_flag: false },
              ],
            },
          },
        },
      ],
      options: [{ value: '13', label: 'Grace Hopper <grace@acme.test>' }],
    },
  ],
  errors: [
    {
      name: 'a validation failure keeps Pipedrive’s reason',
      action: 'create_deal',
      input: { title: 'x', stageId: 999 },
      reply: {
        status: 400,
        body: { success: false, error: 'Stage with id 999 does not exist', code: 'ERR_BAD_REQUEST' },
      },
      message: '400: Stage with id 999 does not exist',
    },
    {
      name: 'a rate limit is transient',
      action: 'find_persons',
      input: { term: 'ada' },
      reply: {
        status: 429,
        headers: { 'retry-after': '2' },
        body: { success: false, error: 'Request over limit' },
      },
      message: '429: Request over limit',
      transient: true,
    },
  ],
});

describe('pipedrive', () => {
  it('sends requests to the company’s own domain', () => {
    const runtime = new ConnectorRuntime({ connectors: catalog });
    const def = runtime.get('pipedrive')!;
    expect(runtime.baseUrl(def, runtime.settings(def, { fields: { company: 'acme' } }))).toBe(
      'https://acme.pipedrive.com/api',
    );
  });
});

import { connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { ConnectorRuntime, catalog } from '../../src/index.ts';

const token = '1000.8cb99d4b2f1e7a6c5d3b9e0f1a2b3c4d.9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e';
const details = {
  Modified_Time: '2025-02-20T10:00:00+00:00',
  Modified_By: { name: 'Grace Hopper', id: '554023000000235011' },
  Created_Time: '2025-02-20T10:00:00+00:00',
  id: '554023000000527002',
  Created_By: { name: 'Grace Hopper', id: '554023000000235011' },
};

connectorSuite({
  id: 'zoho-crm',
  credential: { fields: { region: 'eu' }, oauth: { accessToken: token, refreshToken: '1000.refresh' } },
  badCredential: { fields: { region: 'eu' }, oauth: { accessToken: '1000.expired' } },
  auth: { header: 'authorization', value: `Zoho-oauthtoken ${token}` },
  test: {
    request: { method: 'GET', path: '/users', query: { type: 'CurrentUser' } },
    ok: {
      body: { users: [{ id: '554023000000235011', full_name: 'Grace Hopper', email: 'grace@acme.test' }] },
    },
    rejected: {
      status: 401,
      body: { code: 'INVALID_TOKEN', details: {}, message: 'invalid oauth token', status: 'error' },
    },
    label: 'grace@acme.test',
    reason: '401: INVALID_TOKEN: invalid oauth token',
  },
  actions: [
    {
      name: 'creates a lead and returns its id',
      action: 'create_record',
      input: {
        module: 'Leads',
        fields: { Last_Name: 'Lovelace', Email: 'ada@example.com', Company: 'Acme' },
      },
      reply: {
        status: 201,
        body: { data: [{ code: 'SUCCESS', details, message: 'record added', status: 'success' }] },
      },
      request: {
        method: 'POST',
        path: '/Leads',
        body: { data: [{ Last_Name: 'Lovelace', Email: 'ada@example.com', Company: 'Acme' }] },
      },
      output: {
        id: '554023000000527002',
        message: 'record added',
        createdAt: '2025-02-20T10:00:00+00:00',
        modifiedAt: '2025-02-20T10:00:00+00:00',
      },
    },
    {
      name: 'updates a deal without running workflow rules',
      action: 'update_record',
      input: {
        module: 'Deals',
        recordId: '554023000000527002',
        fields: { Stage: 'Closed Won' },
        runWorkflows: false,
      },
      reply: { body: { data: [{ code: 'SUCCESS', details, message: 'record updated', status: 'success' }] } },
      request: {
        method: 'PUT',
        path: '/Deals/554023000000527002',
        body: { data: [{ Stage: 'Closed Won' }], trigger: [] },
      },
      output: {
        id: '554023000000527002',
        message: 'record updated',
        createdAt: '2025-02-20T10:00:00+00:00',
        modifiedAt: '2025-02-20T10:00:00+00:00',
      },
    },
    {
      name: 'upserts on Email and says it updated',
      action: 'upsert_record',
      input: {
        module: 'Contacts',
        fields: { Last_Name: 'Lovelace', Email: 'ada@example.com' },
        duplicateCheckFields: ['Email'],
      },
      reply: {
        body: {
          data: [
            {
              code: 'SUCCESS',
              duplicate_field: 'Email',
              action: 'update',
              details,
              message: 'record updated',
              status: 'success',
            },
          ],
        },
      },
      request: {
        method: 'POST',
        path: '/Contacts/upsert',
        body: {
          data: [{ Last_Name: 'Lovelace', Email: 'ada@example.com' }],
          duplicate_check_fields: ['Email'],
        },
      },
      output: {
        id: '554023000000527002',
        action: 'update',
        message: 'record updated',
        createdAt: '2025-02-20T10:00:00+00:00',
        modifiedAt: '2025-02-20T10:00:00+00:00',
      },
    },
    {
      name: 'searches by criteria',
      action: 'search_records',
      input: { module: 'Leads', criteria: '(Company:equals:Acme)', perPage: 10 },
      reply: {
        body: {
          data: [{ id: '554023000000527002', Last_Name: 'Lovelace', Company: 'Acme' }],
          info: { per_page: 10, count: 1, page: 1, more_records: false },
        },
      },
      request: {
        method: 'GET',
        path: '/Leads/search',
        query: { criteria: '(Company:equals:Acme)', per_page: '10', page: '1' },
      },
      output: {
        records: [{ id: '554023000000527002', Last_Name: 'Lovelace', Company: 'Acme' }],
        moreRecords: false,
      },
    },
    {
      name: 'no match is a 204 and an empty list',
      action: 'search_records',
      input: { module: 'Leads', email: 'nobody@example.com' },
      reply: { status: 204 },
      request: {
        method: 'GET',
        path: '/Leads/search',
        query: { email: 'nobody@example.com', per_page: '50', page: '1' },
      },
      output: { records: [], moreRecords: false },
    },
  ],
  sources: [
    {
      source: 'modules',
      pages: [
        {
          request: { method: 'GET', path: '/settings/modules' },
          reply: {
            body: {
              modules: [
                { api_name: 'Leads', plural_label: 'Leads', api_supported: true, creatable: true },
                { api_name: 'Home', plural_label: 'Home', api_supported: false, creatable: false },
                { api_name: 'Invoice__c', plural_label: 'Invoices', api_supported: true, creatable: true },
              ],
            },
          },
        },
      ],
      options: [
        { value: 'Leads', label: 'Leads' },
        { value: 'Invoice__c', label: 'Invoices' },
      ],
    },
    {
      source: 'users',
      pages: [
        {
          request: { method: 'GET', path: '/users', query: { type: 'ActiveUsers', per_page: '200' } },
          reply: {
            body: {
              users: [{ id: '1', full_name: 'Grace Hopper', email: 'grace@acme.test' }],
              info: { per_page: 200, count: 200, page: 1, more_records: true },
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/users',
            query: { type: 'ActiveUsers', per_page: '200', page: '2' },
          },
          reply: {
            body: {
              users: [{ id: '2', full_name: 'Ada Lovelace', email: 'ada@acme.test' }],
              info: { per_page: 200, count: 1, page: 2, more_records: false },
            },
          },
        },
      ],
      options: [
        { value: '1', label: 'Grace Hopper <grace@acme.test>' },
        { value: '2', label: 'Ada Lovelace <ada@acme.test>' },
      ],
    },
  ],
  errors: [
    {
      name: 'a missing mandatory field names the field',
      action: 'create_record',
      input: { module: 'Leads', fields: { Email: 'ada@example.com' } },
      reply: {
        status: 400,
        body: {
          data: [
            {
              code: 'MANDATORY_NOT_FOUND',
              details: { api_name: 'Last_Name', json_path: '$.data[0].Last_Name' },
              message: 'required field not found',
              status: 'error',
            },
          ],
        },
      },
      message: '400: MANDATORY_NOT_FOUND: required field not found (Last_Name)',
    },
    {
      name: 'a record error inside a 2xx fails the step',
      action: 'upsert_record',
      input: { module: 'Leads', fields: { Email: 'x' } },
      reply: {
        status: 202,
        body: {
          data: [
            {
              code: 'INVALID_DATA',
              details: { api_name: 'Email' },
              message: 'invalid data',
              status: 'error',
            },
          ],
        },
      },
      message: 'INVALID_DATA: invalid data (Email)',
    },
    {
      name: 'an unknown module keeps the top-level reason',
      action: 'search_records',
      input: { module: 'Nope', word: 'Acme' },
      reply: {
        status: 400,
        body: {
          code: 'INVALID_MODULE',
          details: {},
          message: 'the module name given seems to be invalid',
          status: 'error',
        },
      },
      message: '400: INVALID_MODULE: the module name given seems to be invalid',
    },
  ],
});

describe('zoho-crm data centres', () => {
  const runtime = new ConnectorRuntime({ connectors: catalog });
  const def = runtime.get('zoho-crm')!;

  it.each([
    ['eu', 'https://www.zohoapis.eu/crm/v8', 'https://accounts.zoho.eu/oauth/v2/auth'],
    ['CA', 'https://www.zohoapis.ca/crm/v8', 'https://accounts.zohocloud.ca/oauth/v2/auth'],
    ['au', 'https://www.zohoapis.com.au/crm/v8', 'https://accounts.zoho.com.au/oauth/v2/auth'],
    ['unknown', 'https://www.zohoapis.com/crm/v8', 'https://accounts.zoho.com/oauth/v2/auth'],
  ])('region %s reaches its own API and accounts servers', (region, api, authorize) => {
    const settings = runtime.settings(def, { fields: { region } });
    expect(runtime.baseUrl(def, settings)).toBe(api);
    expect(runtime.oauthEndpoints(def, settings)?.authorizeUrl).toBe(authorize);
  });

  it('searches by exactly one of email, phone, word or criteria', async () => {
    const err = await runtime
      .execute('zoho-crm', 'search_records', { module: 'Leads', email: 'a@example.com', word: 'Acme' })
      .catch((e) => e);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain('criteria: give exactly one of email, phone, word or criteria');
  });
});

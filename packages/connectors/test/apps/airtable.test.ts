import { connectorSuite } from '@inlay/test-kit/suite';

const token = 'oaaXk2z9Qm4RtY7uI1oP3aS5dF8gH0jK.v1.eyJ1c2VySWQiOiJ1c3JBQkMxMjMifQ.refreshable';
const base = 'appA1b2C3d4E5f6G7';
const rec = {
  id: 'recH8i9J0k1L2m3N4',
  createdTime: '2025-01-02T10:00:00.000Z',
  fields: { Name: 'Ada', Status: 'Lead' },
};

connectorSuite({
  id: 'airtable',
  credential: { fields: {}, oauth: { accessToken: token } },
  badCredential: { fields: {}, oauth: { accessToken: 'oaaExpired.v1.x' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  test: {
    request: { method: 'GET', path: '/meta/whoami' },
    ok: { body: { id: 'usrABC123', scopes: ['data.records:read'] } },
    rejected: {
      status: 401,
      body: { error: { type: 'AUTHENTICATION_REQUIRED', message: 'Authentication required' } },
    },
    label: 'usrABC123',
    reason: '401: Authentication required',
  },
  actions: [
    {
      name: 'creates a record in a table given by name',
      action: 'create_record',
      input: {
        baseId: base,
        table: 'Leads & Deals',
        fields: { Name: 'Ada', Status: 'Lead' },
        typecast: true,
      },
      reply: { body: rec },
      request: {
        method: 'POST',
        path: `/${base}/Leads%20%26%20Deals`,
        body: { fields: { Name: 'Ada', Status: 'Lead' }, typecast: true },
      },
      output: rec,
    },
    {
      name: 'patches only the given fields',
      action: 'update_record',
      input: { baseId: base, table: 'tblQ1w2E3r4T5y6U7', recordId: rec.id, fields: { Status: 'Customer' } },
      reply: { body: { ...rec, fields: { Name: 'Ada', Status: 'Customer' } } },
      request: {
        method: 'PATCH',
        path: `/${base}/tblQ1w2E3r4T5y6U7/${rec.id}`,
        body: { fields: { Status: 'Customer' }, typecast: false },
      },
      output: { ...rec, fields: { Name: 'Ada', Status: 'Customer' } },
    },
    {
      name: 'lists records with a formula and a sort',
      action: 'list_records',
      input: {
        baseId: base,
        table: 'Leads',
        filterByFormula: '{Status} = "Lead"',
        maxRecords: 20,
        sortField: 'Name',
      },
      reply: { body: { records: [rec], offset: 'itrX/recH8i9J0k1L2m3N4' } },
      request: {
        method: 'GET',
        path: `/${base}/Leads`,
        query: {
          filterByFormula: '{Status} = "Lead"',
          maxRecords: '20',
          pageSize: '20',
          'sort[0][field]': 'Name',
          'sort[0][direction]': 'asc',
        },
      },
      output: { records: [rec], offset: 'itrX/recH8i9J0k1L2m3N4' },
    },
  ],
  sources: [
    {
      source: 'bases',
      pages: [
        {
          request: { method: 'GET', path: '/meta/bases' },
          reply: {
            body: { bases: [{ id: base, name: 'CRM', permissionLevel: 'create' }], offset: 'itr1/app2' },
          },
        },
        {
          request: { method: 'GET', path: '/meta/bases', query: { offset: 'itr1/app2' } },
          reply: { body: { bases: [{ id: 'appZ9y8X7w6V5u4T3', name: 'Hiring', permissionLevel: 'read' }] } },
        },
      ],
      options: [
        { value: base, label: 'CRM' },
        { value: 'appZ9y8X7w6V5u4T3', label: 'Hiring' },
      ],
    },
  ],
  errors: [
    {
      name: 'an unknown field is reported with Airtable’s message',
      action: 'create_record',
      input: { baseId: base, table: 'Leads', fields: { Nmae: 'Ada' } },
      reply: {
        status: 422,
        body: { error: { type: 'UNKNOWN_FIELD_NAME', message: 'Unknown field name: "Nmae"' } },
      },
      message: '422: Unknown field name: "Nmae"',
    },
    {
      name: 'a 429 is transient',
      action: 'list_records',
      input: { baseId: base, table: 'Leads' },
      reply: {
        status: 429,
        body: { errors: [{ error: 'RATE_LIMIT_REACHED', message: 'Rate limit exceeded' }] },
      },
      message: '429: Rate limit exceeded',
      transient: true,
    },
  ],
});

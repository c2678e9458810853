import { connectorSuite } from '@inlay/test-kit/suite';

const token = '00D5g000004XyZa!AQ8AQJ7vXo0kGxXb3.q0d8Jm1y2W5rKfZcT4uP9nLbE6hVwR3sYtA1iO7eD2gH5jK8lM0nB';
const API = '/services/data/v62.0';
const leadId = '00Q5g00000AbCdEEAZ';
const attributes = (type: string, id: string) => ({ type, url: `${API}/sobjects/${type}/${id}` });

connectorSuite({
  id: 'salesforce',
  credential: { fields: { domain: 'acme' }, oauth: { accessToken: token } },
  badCredential: { fields: { domain: 'acme' }, oauth: { accessToken: '00D5g000004XyZa!expired' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  test: {
    request: { method: 'GET', path: '/services/oauth2/userinfo' },
    ok: { body: { user_id: '0055g00000FbcdeAAB', name: 'Ada Lovelace', email: 'ada@acme.test' } },
    rejected: {
      status: 401,
      body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }],
    },
    label: 'ada@acme.test',
    reason: '401: INVALID_SESSION_ID: Session expired or invalid',
  },
  actions: [
    {
      name: 'posts the fields to the object and returns the id',
      action: 'create_record',
      input: { sobject: 'Lead', fields: { LastName: 'Lovelace', Company: 'Acme', AnnualRevenue: 1000000 } },
      reply: { status: 201, body: { id: leadId, success: true, errors: [] } },
      request: {
        method: 'POST',
        path: `${API}/sobjects/Lead`,
        body: { LastName: 'Lovelace', Company: 'Acme', AnnualRevenue: 1000000 },
      },
      output: { id: leadId, success: true },
    },
    {
      name: 'patches the record; Salesforce answers 204',
      action: 'update_record',
      input: { sobject: 'Lead', id: leadId, fields: { Status: 'Working - Contacted' } },
      reply: { status: 204 },
      request: {
        method: 'PATCH',
        path: `${API}/sobjects/Lead/${leadId}`,
        body: { Status: 'Working - Contacted' },
      },
      output: { id: leadId, updated: true },
    },
    {
      name: 'reads the chosen fields without the attributes envelope',
      action: 'get_record',
      input: { sobject: 'Lead', id: leadId, fields: ['Id', 'LastName', 'Company'] },
      reply: {
        body: { attributes: attributes('Lead', leadId), Id: leadId, LastName: 'Lovelace', Company: 'Acme' },
      },
      request: {
        method: 'GET',
        path: `${API}/sobjects/Lead/${leadId}`,
        query: { fields: 'Id,LastName,Company' },
      },
      output: { Id: leadId, LastName: 'Lovelace', Company: 'Acme' },
    },
    {
      name: 'runs SOQL and returns plain records',
      action: 'query',
      input: { soql: "SELECT Id, Name FROM Account WHERE Name = 'Acme'" },
      reply: {
        body: {
          totalSize: 1,
          done: true,
          records: [
            {
              attributes: attributes('Account', '0015g00000XyZabAAB'),
              Id: '0015g00000XyZabAAB',
              Name: 'Acme',
            },
          ],
        },
      },
      request: {
        method: 'GET',
        path: `${API}/query`,
        query: { q: "SELECT Id, Name FROM Account WHERE Name = 'Acme'" },
      },
      output: { totalSize: 1, done: true, records: [{ Id: '0015g00000XyZabAAB', Name: 'Acme' }] },
    },
  ],
  sources: [
    {
      source: 'objects',
      pages: [
        {
          request: { method: 'GET', path: `${API}/sobjects` },
          reply: {
            body: {
              encoding: 'UTF-8',
              sobjects: [
                { name: 'Lead', label: 'Lead', createable: true },
                { name: 'LoginHistory', label: 'Login History', createable: false },
                { name: 'Invoice__c', label: 'Invoice', createable: true },
              ],
            },
          },
        },
      ],
      options: [
        { value: 'Lead', label: 'Lead' },
        { value: 'Invoice__c', label: 'Invoice' },
      ],
    },
    {
      source: 'users',
      pages: [
        {
          request: {
            method: 'GET',
            path: `${API}/query`,
            query: { q: 'SELECT Id, Name FROM User WHERE IsActive = true ORDER BY Name' },
          },
          reply: {
            body: {
              totalSize: 2,
              done: false,
              nextRecordsUrl: `${API}/query/01gD0000002HU6KIAW-2000`,
              records: [
                {
                  attributes: attributes('User', '0055g00000Aaaaa'),
                  Id: '0055g00000AaaaaAAA',
                  Name: 'Ada Lovelace',
                },
              ],
            },
          },
        },
        {
          request: { method: 'GET', path: `${API}/query/01gD0000002HU6KIAW-2000` },
          reply: {
            body: {
              totalSize: 2,
              done: true,
              records: [
                {
                  attributes: attributes('User', '0055g00000Bbbbb'),
                  Id: '0055g00000BbbbbAAA',
                  Name: 'Grace Hopper',
                },
              ],
            },
          },
        },
      ],
      options: [
        { value: '0055g00000AaaaaAAA', label: 'Ada Lovelace' },
        { value: '0055g00000BbbbbAAA', label: 'Grace Hopper' },
      ],
    },
  ],
  errors: [
    {
      name: 'a bare error array becomes "<code>: <message>"',
      action: 'create_record',
      input: { sobject: 'Lead', fields: { Company: 'Acme' } },
      reply: {
        status: 400,
        body: [
          {
            message: 'Required fields are missing: [LastName]',
            errorCode: 'REQUIRED_FIELD_MISSING',
            fields: ['LastName'],
          },
        ],
      },
      message: '400: REQUIRED_FIELD_MISSING: Required fields are missing: [LastName]',
    },
    {
      name: 'REQUEST_LIMIT_EXCEEDED (403) is not retried',
      action: 'query',
      input: { soql: 'SELECT Id FROM Lead' },
      reply: {
        status: 403,
        body: [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }],
      },
      message: '403: REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.',
    },
  ],
});

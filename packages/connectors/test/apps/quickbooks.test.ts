import { connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { ConnectorRuntime, catalog } from '../../src/index.ts';

const token = 'eyJlbmMiOiJBMTI4Q0JDLUhTMjU2IiwiYWxnIjoiZGlyIn0..qbo-access.token';
const realmId = '9130357766908716';
const mv = { minorversion: '75' };

const invoice = {
  Id: '130',
  DocNumber: '1037',
  TxnDate: '2025-02-20',
  DueDate: '2025-03-22',
  TotalAmt: 362.5,
  Balance: 362.5,
  CurrencyRef: { value: 'USD', name: 'United States Dollar' },
  CustomerRef: { value: '58', name: 'Acme Inc.' },
  EmailStatus: 'NeedToSend',
  BillEmail: { Address: 'ap@acme.test' },
  SyncToken: '0',
};
const mappedInvoice = {
  id: '130',
  docNumber: '1037',
  date: '2025-02-20',
  dueDate: '2025-03-22',
  total: 362.5,
  balance: 362.5,
  currency: 'USD',
  customerId: '58',
  customerName: 'Acme Inc.',
  emailStatus: 'NeedToSend',
  billEmail: 'ap@acme.test',
};
const page = (start: number) =>
  `select Id, DisplayName from Customer where Active = true orderby DisplayName startposition ${start} maxresults 1000`;

connectorSuite({
  id: 'quickbooks',
  credential: { fields: { realmId }, oauth: { accessToken: token, refreshToken: 'AB11refresh' } },
  badCredential: { fields: { realmId }, oauth: { accessToken: 'expired' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  test: {
    request: { method: 'GET', path: `/companyinfo/${realmId}`, query: mv },
    ok: { body: { CompanyInfo: { CompanyName: 'Acme Books', Email: { Address: 'books@acme.test' } } } },
    rejected: {
      status: 401,
      body: {
        fault: {
          error: [
            {
              message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401',
              detail: 'Token expired: eyJ...',
              code: '3200',
            },
          ],
          type: 'AUTHENTICATION',
        },
      },
    },
    label: 'Acme Books',
    reason: '401: message=AuthenticationFailed; errorCode=003200; statusCode=401: Token expired: eyJ...',
  },
  actions: [
    {
      name: 'creates a customer with email and phone objects',
      action: 'create_customer',
      input: {
        displayName: 'Acme Inc.',
        email: 'ap@acme.test',
        companyName: 'Acme Inc.',
        phone: '+1 555 0100',
      },
      reply: {
        body: {
          Customer: {
            Id: '58',
            SyncToken: '0',
            DisplayName: 'Acme Inc.',
            CompanyName: 'Acme Inc.',
            PrimaryEmailAddr: { Address: 'ap@acme.test' },
            Balance: 0,
            MetaData: { CreateTime: '2025-02-20T10:00:00-08:00' },
          },
          time: '2025-02-20T10:00:00.000-08:00',
        },
      },
      request: {
        method: 'POST',
        path: '/customer',
        query: mv,
        body: {
          DisplayName: 'Acme Inc.',
          PrimaryEmailAddr: { Address: 'ap@acme.test' },
          CompanyName: 'Acme Inc.',
          PrimaryPhone: { FreeFormNumber: '+1 555 0100' },
        },
      },
      output: {
        id: '58',
        displayName: 'Acme Inc.',
        companyName: 'Acme Inc.',
        email: 'ap@acme.test',
        balance: 0,
        createdAt: '2025-02-20T10:00:00-08:00',
      },
    },
    {
      name: 'creates an invoice with sales-item lines and rounded amounts',
      action: 'create_invoice',
      input: {
        customerId: '58',
        lines: [
          { itemId: '1', quantity: 3, unitPrice: 100.5, description: 'Seats' },
          { itemId: '2', unitPrice: 61 },
        ],
        dueDate: '2025-03-22',
        billEmail: 'ap@acme.test',
      },
      reply: { body: { Invoice: invoice } },
      request: {
        method: 'POST',
        path: '/invoice',
        query: mv,
        body: {
          CustomerRef: { value: '58' },
          Line: [
            {
              DetailType: 'SalesItemLineDetail',
              Amount: 301.5,
              Description: 'Seats',
              SalesItemLineDetail: { ItemRef: { value: '1' }, Qty: 3, UnitPrice: 100.5 },
            },
            {
              DetailType: 'SalesItemLineDetail',
              Amount: 61,
              SalesItemLineDetail: { ItemRef: { value: '2' }, Qty: 1, UnitPrice: 61 },
            },
          ],
          DueDate: '2025-03-22',
          BillEmail: { Address: 'ap@acme.test' },
        },
      },
      output: mappedInvoice,
    },
    {
      name: 'emails an invoice as application/octet-stream without a body',
      action: 'send_invoice',
      input: { invoiceId: '130', sendTo: 'cfo@acme.test' },
      reply: { body: { Invoice: { ...invoice, EmailStatus: 'EmailSent' } } },
      request: {
        method: 'POST',
        path: '/invoice/130/send',
        query: { sendTo: 'cfo@acme.test', ...mv },
        headers: { 'content-type': 'application/octet-stream' },
      },
      output: { ...mappedInvoice, emailStatus: 'EmailSent' },
    },
    {
      name: 'runs a query and finds the entity list in the answer',
      action: 'query',
      input: { query: "select * from Invoice where Balance > '0' maxresults 10" },
      reply: { body: { QueryResponse: { Invoice: [invoice], startPosition: 1, maxResults: 1 }, time: 'x' } },
      request: {
        method: 'GET',
        path: '/query',
        query: { query: "select * from Invoice where Balance > '0' maxresults 10", ...mv },
      },
      output: { entity: 'Invoice', rows: [invoice], totalCount: null, startPosition: 1 },
    },
  ],
  sources: [
    {
      source: 'customers',
      pages: [
        {
          request: { method: 'GET', path: '/query', query: { query: page(1), ...mv } },
          reply: {
            body: {
              QueryResponse: {
                Customer: Array.from({ length: 1000 }, (_, i) => ({
                  Id: String(i + 1),
                  DisplayName: `Customer ${i + 1}`,
                })),
                startPosition: 1,
                maxResults: 1000,
              },
            },
          },
        },
        {
          request: { method: 'GET', path: '/query', query: { query: page(1001), ...mv } },
          reply: {
            body: {
              QueryResponse: {
                Customer: [{ Id: '1001', DisplayName: 'Zeta' }],
                startPosition: 1001,
                maxResults: 1,
              },
            },
          },
        },
      ],
      options: [
        ...Array.from({ length: 1000 }, (_, i) => ({ value: String(i + 1), label: `Customer ${i + 1}` })),
        { value: '1001', label: 'Zeta' },
      ],
    },
    {
      source: 'items',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/query',
            query: {
              query:
                'select Id, Name from Item where Active = true orderby Name startposition 1 maxresults 1000',
              ...mv,
            },
          },
          // An empty result has no entity list at all.
          reply: { body: { QueryResponse: {}, time: 'x' } },
        },
      ],
      options: [],
    },
  ],
  errors: [
    {
      name: 'a validation fault joins message and detail',
      action: 'create_customer',
      input: { displayName: 'Acme Inc.' },
      reply: {
        status: 400,
        body: {
          Fault: {
            Error: [
              {
                Message: 'Duplicate Name Exists Error',
                Detail: 'The name supplied already exists. : Another customer is already using this name.',
                code: '6240',
              },
            ],
            type: 'ValidationFault',
          },
        },
      },
      message:
        '400: Duplicate Name Exists Error: The name supplied already exists. : Another customer is already using this name.',
    },
    {
      name: 'a fault inside HTTP 200 fails the step',
      action: 'query',
      input: { query: 'select * from Nope' },
      reply: {
        body: {
          Fault: {
            Error: [{ Message: 'QueryParserError', Detail: 'Invalid entity Nope' }],
            type: 'ValidationFault',
          },
        },
      },
      message: 'QueryParserError: Invalid entity Nope',
    },
  ],
});

describe('quickbooks', () => {
  it('refuses anything but a select in query', async () => {
    const runtime = new ConnectorRuntime({ connectors: catalog });
    const err = await runtime
      .execute('quickbooks', 'query', { query: 'delete from Customer' })
      .catch((e) => e);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain('query: must be a select statement');
  });
});

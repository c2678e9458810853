import { bearer, connectorSuite } from '@inlay/test-kit/suite';

const token =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6IjFDQUY4RTY2NzcyRDZEQzAyOEQ2NzI2RkQwMjYxNTgxNTcwRUZDMTkifQ.xero.sig';
const tenant = '70784a63-d24b-46a9-a4db-0e70a274b056';
const tenant2 = '4e8e2bd6-9c7d-4a2b-8f5e-6d7c8b9a0f12';
const contactId = 'bd2270c3-8706-4c11-9cfb-000b551c3f51';
const invoiceId = '243216c5-369e-4056-ac67-05388f86dc81';
const inTenant = { 'xero-tenant-id': tenant };

const connections = [
  {
    id: 'e1eede29-f875-4a5d-8470-17f6a29a88b1',
    tenantId: tenant,
    tenantType: 'ORGANISATION',
    tenantName: 'Acme Ltd',
  },
  {
    id: 'a2b3c4d5-0000-4000-8000-000000000001',
    tenantId: tenant2,
    tenantType: 'ORGANISATION',
    tenantName: 'Acme US',
  },
  {
    id: 'a2b3c4d5-0000-4000-8000-000000000002',
    tenantId: '11111111-2222-4333-8444-555555555555',
    tenantType: 'PRACTICEMANAGER',
    tenantName: 'Practice',
  },
];
const invoice = {
  Type: 'ACCREC',
  InvoiceID: invoiceId,
  InvoiceNumber: 'INV-0042',
  Reference: 'PO-77',
  Status: 'AUTHORISED',
  Contact: { ContactID: contactId, Name: 'Acme Customer' },
  Date: '/Date(1740009600000+0000)/',
  DateString: '2025-02-20T00:00:00',
  DueDateString: '2025-03-22T00:00:00',
  CurrencyCode: 'GBP',
  SubTotal: 300,
  TotalTax: 60,
  Total: 360,
  AmountDue: 360,
  AmountPaid: 0,
  SentToContact: false,
};
const mappedInvoice = {
  id: invoiceId,
  number: 'INV-0042',
  type: 'ACCREC',
  status: 'AUTHORISED',
  reference: 'PO-77',
  contactId,
  contactName: 'Acme Customer',
  date: '2025-02-20',
  dueDate: '2025-03-22',
  currency: 'GBP',
  subTotal: 300,
  totalTax: 60,
  total: 360,
  amountDue: 360,
  amountPaid: 0,
  sentToContact: false,
};

connectorSuite({
  id: 'xero',
  ...bearer(token, 'xero-refresh'),
  test: {
    request: { method: 'GET', path: '/connections' },
    ok: { body: connections },
    rejected: {
      status: 401,
      body: {
        Type: null,
        Title: 'Unauthorized',
        Status: 401,
        Detail: 'TokenExpired: token expired at 02/20/2025 10:00:00',
        Instance: 'f0c1',
        Extensions: {},
      },
    },
    label: 'Acme Ltd',
    reason: '401: Unauthorized; TokenExpired: token expired at 02/20/2025 10:00:00',
  },
  actions: [
    {
      name: 'creates a contact in the chosen organisation',
      action: 'create_contact',
      input: { tenantId: tenant, name: 'Acme Customer', email: 'ap@acme.test', firstName: 'Ada' },
      reply: {
        body: {
          Id: 'e8e2a',
          Status: 'OK',
          Contacts: [
            {
              ContactID: contactId,
              ContactStatus: 'ACTIVE',
              Name: 'Acme Customer',
              FirstName: 'Ada',
              EmailAddress: 'ap@acme.test',
            },
          ],
        },
      },
      request: {
        method: 'POST',
        path: '/Contacts',
        headers: inTenant,
        body: { Contacts: [{ Name: 'Acme Customer', EmailAddress: 'ap@acme.test', FirstName: 'Ada' }] },
      },
      output: {
        id: contactId,
        name: 'Acme Customer',
        email: 'ap@acme.test',
        firstName: 'Ada',
        lastName: null,
        status: 'ACTIVE',
      },
    },
    {
      name: 'creates an authorised sales invoice with coded lines',
      action: 'create_invoice',
      input: {
        tenantId: tenant,
        contactId,
        lines: [{ description: 'Seats', quantity: 3, unitAmount: 100, accountCode: '200' }],
        dueDate: '2025-03-22',
        reference: 'PO-77',
        status: 'AUTHORISED',
      },
      reply: { body: { Id: 'x', Status: 'OK', Invoices: [invoice] } },
      request: {
        method: 'POST',
        path: '/Invoices',
        headers: inTenant,
        body: {
          Invoices: [
            {
              Type: 'ACCREC',
              Contact: { ContactID: contactId },
              LineItems: [{ Description: 'Seats', Quantity: 3, UnitAmount: 100, AccountCode: '200' }],
              DueDate: '2025-03-22',
              Reference: 'PO-77',
              Status: 'AUTHORISED',
              LineAmountTypes: 'Exclusive',
            },
          ],
        },
      },
      output: mappedInvoice,
    },
    {
      name: 'emails an invoice (204)',
      action: 'email_invoice',
      input: { tenantId: tenant, invoiceId },
      reply: { status: 204 },
      request: { method: 'POST', path: `/Invoices/${invoiceId}/Email`, headers: inTenant, body: {} },
      output: { sent: true, invoiceId },
    },
    {
      name: 'finds unpaid invoices of a contact',
      action: 'find_invoices',
      input: { tenantId: tenant, statuses: ['AUTHORISED', 'SUBMITTED'], contactIds: [contactId] },
      reply: { body: { Invoices: [invoice] } },
      request: {
        method: 'GET',
        path: '/Invoices',
        headers: inTenant,
        query: {
          Statuses: 'AUTHORISED,SUBMITTED',
          ContactIDs: contactId,
          page: '1',
          summaryOnly: 'true',
          order: 'Date DESC',
        },
      },
      output: [mappedInvoice],
    },
  ],
  sources: [
    {
      source: 'tenants',
      pages: [{ request: { method: 'GET', path: '/connections' }, reply: { body: connections } }],
      options: [
        { value: tenant, label: 'Acme Ltd' },
        { value: tenant2, label: 'Acme US' },
      ],
    },
    {
      source: 'accounts',
      pages: [
        { request: { method: 'GET', path: '/connections' }, reply: { body: connections } },
        {
          request: {
            method: 'GET',
            path: '/Accounts',
            headers: inTenant,
            query: { where: 'Status=="ACTIVE"&&(Class=="REVENUE"||Class=="EXPENSE")' },
          },
          reply: { body: { Accounts: [{ Code: '200', Name: 'Sales' }, { Name: 'Uncoded bank fees' }] } },
        },
        {
          request: {
            method: 'GET',
            path: '/Accounts',
            headers: { 'xero-tenant-id': tenant2 },
            query: { where: 'Status=="ACTIVE"&&(Class=="REVENUE"||Class=="EXPENSE")' },
          },
          reply: { body: { Accounts: [{ Code: '4000', Name: 'Revenue' }] } },
        },
      ],
      options: [
        { value: '200', label: 'Acme Ltd › 200 Sales' },
        { value: '4000', label: 'Acme US › 4000 Revenue' },
      ],
    },
  ],
  errors: [
    {
      name: 'validation errors are listed',
      action: 'create_invoice',
      input: { tenantId: tenant, contactId, lines: [{ description: 'x', unitAmount: 1 }] },
      reply: {
        status: 400,
        body: {
          ErrorNumber: 10,
          Type: 'ValidationException',
          Message: 'A validation exception occurred',
          Elements: [
            {
              ValidationErrors: [
                { Message: 'Account code must be specified' },
                { Message: 'Due Date is required' },
              ],
            },
          ],
        },
      },
      message: '400: Account code must be specified; Due Date is required',
    },
    {
      name: 'emailing a draft keeps Xero’s message',
      action: 'email_invoice',
      input: { tenantId: tenant, invoiceId },
      reply: {
        status: 400,
        body: {
          ErrorNumber: 10,
          Type: 'ValidationException',
          Message: 'Invoice must be AUTHORISED to email',
        },
      },
      message: '400: Invoice must be AUTHORISED to email',
    },
    {
      name: 'the minute limit is transient',
      action: 'find_invoices',
      input: { tenantId: tenant },
      reply: {
        status: 429,
        headers: { 'retry-after': '30', 'x-rate-limit-problem': 'minute' },
        body: { Title: 'Too Many Requests', Status: 429 },
      },
      message: '429: Too Many Requests',
      transient: true,
    },
  ],
});

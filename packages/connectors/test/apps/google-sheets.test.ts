import { connectorSuite } from '@inlay/test-kit/suite';

const token =
  'ya29.a0AfB_byC3kR9vT2mQ8xW5nL1pZ7jH4sD6fG0aE-2uY3iO9kM5tR8wQ1zX4cV7bN0mL3kJ6hG9fD2sA5qW8eR1tY4uI7oP0';
const sheet = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';
const driveQuery = {
  q: "mimeType = 'application/vnd.google-apps.spreadsheet' and trashed = false",
  fields: 'nextPageToken, files(id, name)',
  orderBy: 'modifiedTime desc',
  pageSize: '100',
  includeItemsFromAllDrives: 'true',
  supportsAllDrives: 'true',
};

// Both hosts (sheets.googleapis.com and www.googleapis.com/drive/v3) go to the one override server.
connectorSuite({
  id: 'google-sheets',
  credential: {
    fields: {},
    oauth: { accessToken: token, refreshToken: '1//0gLq8rT3vX5nM7bK9-L9IrAbCdEfGhIjKlMnOpQrStUvWxYz' },
  },
  badCredential: { fields: {}, oauth: { accessToken: 'ya29.expired' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  test: {
    request: { method: 'GET', path: '/about', query: { fields: 'user(displayName,emailAddress)' } },
    ok: { body: { user: { displayName: 'Ada', emailAddress: 'ada@acme.test' } } },
    rejected: {
      status: 401,
      body: {
        error: {
          code: 401,
          message: 'Request had invalid authentication credentials. Expected OAuth 2 access token.',
          status: 'UNAUTHENTICATED',
        },
      },
    },
    label: 'ada@acme.test',
    reason: '401: Request had invalid authentication credentials.',
  },
  actions: [
    {
      name: 'appends a row with USER_ENTERED values',
      action: 'append_row',
      input: { spreadsheetId: sheet, range: 'Deals!A:C', row: ['Acme', 1200, true] },
      reply: {
        body: {
          spreadsheetId: sheet,
          tableRange: 'Deals!A1:C4',
          updates: {
            spreadsheetId: sheet,
            updatedRange: 'Deals!A5:C5',
            updatedRows: 1,
            updatedColumns: 3,
            updatedCells: 3,
          },
        },
      },
      request: {
        method: 'POST',
        path: `/spreadsheets/${sheet}/values/Deals!A%3AC:append`,
        query: { valueInputOption: 'USER_ENTERED', insertDataOption: 'INSERT_ROWS' },
        body: { range: 'Deals!A:C', majorDimension: 'ROWS', values: [['Acme', 1200, true]] },
      },
      output: { tableRange: 'Deals!A1:C4', updatedRange: 'Deals!A5:C5', updatedRows: 1 },
    },
    {
      name: 'overwrites a range, RAW',
      action: 'update_values',
      input: {
        spreadsheetId: sheet,
        range: "'Q1 Deals'!A2:B2",
        values: [['Acme', '=1+1']],
        valueInputOption: 'RAW',
      },
      reply: {
        body: {
          spreadsheetId: sheet,
          updatedRange: "'Q1 Deals'!A2:B2",
          updatedRows: 1,
          updatedColumns: 2,
          updatedCells: 2,
        },
      },
      request: {
        method: 'PUT',
        path: `/spreadsheets/${sheet}/values/'Q1%20Deals'!A2%3AB2`,
        query: { valueInputOption: 'RAW' },
        body: { range: "'Q1 Deals'!A2:B2", majorDimension: 'ROWS', values: [['Acme', '=1+1']] },
      },
      output: { updatedRange: "'Q1 Deals'!A2:B2", updatedRows: 1, updatedCells: 2 },
    },
    {
      name: 'reads rows as objects keyed by the header row',
      action: 'get_values',
      input: { spreadsheetId: sheet, range: 'Deals', headerRow: true },
      reply: {
        body: {
          range: 'Deals!A1:Z1000',
          majorDimension: 'ROWS',
          values: [['Name', 'Amount'], ['Acme', '1,200'], ['Globex']],
        },
      },
      request: {
        method: 'GET',
        path: `/spreadsheets/${sheet}/values/Deals`,
        query: { majorDimension: 'ROWS', valueRenderOption: 'FORMATTED_VALUE' },
      },
      output: {
        range: 'Deals!A1:Z1000',
        rows: [
          { Name: 'Acme', Amount: '1,200' },
          { Name: 'Globex', Amount: null },
        ],
      },
    },
  ],
  sources: [
    {
      source: 'spreadsheets',
      search: "Ada's",
      pages: [
        {
          request: {
            method: 'GET',
            path: '/files',
            query: { ...driveQuery, q: `${driveQuery.q} and name contains 'Ada\\'s'` },
          },
          reply: { body: { files: [{ id: sheet, name: "Ada's deals" }], nextPageToken: 'page-2' } },
        },
        {
          request: {
            method: 'GET',
            path: '/files',
            query: { ...driveQuery, q: `${driveQuery.q} and name contains 'Ada\\'s'`, pageToken: 'page-2' },
          },
          reply: { body: { files: [{ id: 'sheet-2', name: "Ada's budget" }] } },
        },
      ],
      options: [
        { value: sheet, label: "Ada's deals" },
        { value: 'sheet-2', label: "Ada's budget" },
      ],
    },
  ],
  errors: [
    {
      name: 'a bad range keeps Google’s message',
      action: 'get_values',
      input: { spreadsheetId: sheet, range: 'Nope!A1' },
      reply: {
        status: 400,
        body: { error: { code: 400, message: 'Unable to parse range: Nope!A1', status: 'INVALID_ARGUMENT' } },
      },
      message: '400: Unable to parse range: Nope!A1',
    },
  ],
});

import { connectorSuite } from '@inlay/test-kit/suite';

const token = 'secret_ntn_4g7Hk2LmP9qRsT3uVwXy5Z8aBcDeFgHiJkLmNoPqRsTuV';
const db = 'd9824bdc84454327be8b5b47500af6ce';
const pageId = '59833787-2cf9-4fdf-8782-e53db20768a5';
const rawPage = {
  object: 'page',
  id: pageId,
  url: 'https://www.notion.so/Acme-598337872cf94fdf8782e53db20768a5',
  created_time: '2025-01-02T10:00:00.000Z',
  last_edited_time: '2025-01-02T10:05:00.000Z',
  properties: {
    Name: { id: 'title', type: 'title', title: [{ plain_text: 'Acme ' }, { plain_text: 'renewal' }] },
    Status: { id: 's', type: 'status', status: { name: 'Won' } },
    Tags: { id: 't', type: 'multi_select', multi_select: [{ name: 'enterprise' }] },
    Amount: { id: 'a', type: 'number', number: 1200 },
    Close: { id: 'c', type: 'date', date: { start: '2025-02-01', end: null } },
    Owner: { id: 'o', type: 'people', people: [{ id: 'user-1' }] },
  },
};
const page = {
  id: pageId,
  url: rawPage.url,
  createdTime: '2025-01-02T10:00:00.000Z',
  lastEditedTime: '2025-01-02T10:05:00.000Z',
  properties: {
    Name: 'Acme renewal',
    Status: 'Won',
    Tags: ['enterprise'],
    Amount: 1200,
    Close: '2025-02-01',
    Owner: ['user-1'],
  },
};
const paragraph = (...texts: string[]) => ({
  object: 'block',
  type: 'paragraph',
  paragraph: { rich_text: texts.map((content) => ({ type: 'text', text: { content } })) },
});
const searchBody = { filter: { property: 'object', value: 'database' }, page_size: 100 };

connectorSuite({
  id: 'notion',
  credential: { fields: {}, oauth: { accessToken: token } },
  badCredential: { fields: {}, oauth: { accessToken: 'secret_ntn_revoked' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  headers: { 'notion-version': '2022-06-28' },
  test: {
    request: { method: 'GET', path: '/users/me' },
    ok: { body: { object: 'user', id: 'bot-1', type: 'bot' } },
    rejected: {
      status: 401,
      body: { object: 'error', status: 401, code: 'unauthorized', message: 'API token is invalid.' },
    },
    reason: '401: API token is invalid.',
  },
  actions: [
    {
      name: 'creates a page in the database with title, properties and body',
      action: 'create_database_item',
      input: {
        database_id: db,
        title: 'Acme renewal',
        properties: { Status: { status: { name: 'Won' } } },
        content: `Call Ada\n${'x'.repeat(2001)}`,
      },
      reply: { body: rawPage },
      request: {
        method: 'POST',
        path: '/pages',
        body: {
          parent: { database_id: db },
          properties: {
            Status: { status: { name: 'Won' } },
            Name: { title: [{ type: 'text', text: { content: 'Acme renewal' } }] },
          },
          children: [paragraph('Call Ada'), paragraph('x'.repeat(2000), 'x')],
        },
      },
      output: page,
    },
    {
      name: 'appends one paragraph per line',
      action: 'append_text',
      input: { page_id: pageId, text: 'one\n\ntwo' },
      reply: { body: { object: 'list', results: [{ id: 'b1' }, { id: 'b2' }, { id: 'b3' }] } },
      request: {
        method: 'PATCH',
        path: `/blocks/${pageId}/children`,
        body: { children: [paragraph('one'), paragraph(), paragraph('two')] },
      },
      output: { blockIds: ['b1', 'b2', 'b3'] },
    },
    {
      name: 'queries a database and flattens property values',
      action: 'query_database',
      input: { database_id: db, filter: { property: 'Status', status: { equals: 'Won' } }, page_size: 10 },
      reply: { body: { object: 'list', results: [rawPage], has_more: true, next_cursor: 'cursor-2' } },
      request: {
        method: 'POST',
        path: `/databases/${db}/query`,
        body: { filter: { property: 'Status', status: { equals: 'Won' } }, page_size: 10 },
      },
      output: { results: [page], hasMore: true, nextCursor: 'cursor-2' },
    },
    {
      name: 'reads a page',
      action: 'get_page',
      input: { page_id: pageId },
      reply: { body: rawPage },
      request: { method: 'GET', path: `/pages/${pageId}` },
      output: page,
    },
  ],
  sources: [
    {
      source: 'databases',
      pages: [
        {
          request: { method: 'POST', path: '/search', body: searchBody },
          reply: {
            body: {
              results: [{ object: 'database', id: db, title: [{ plain_text: 'Deals' }] }],
              has_more: true,
              next_cursor: 'cursor-2',
            },
          },
        },
        {
          request: { method: 'POST', path: '/search', body: { ...searchBody, start_cursor: 'cursor-2' } },
          reply: {
            body: {
              results: [{ object: 'database', id: 'db-2', title: [] }],
              has_more: false,
              next_cursor: null,
            },
          },
        },
      ],
      options: [
        { value: db, label: 'Deals' },
        { value: 'db-2', label: 'Untitled' },
      ],
    },
  ],
  errors: [
    {
      name: 'Notion’s validation message is kept',
      action: 'get_page',
      input: { page_id: pageId },
      reply: {
        status: 404,
        body: {
          object: 'error',
          status: 404,
          code: 'object_not_found',
          message: `Could not find page with ID: ${pageId}. Make sure the relevant pages and databases are shared with your integration.`,
        },
      },
      message: `404: Could not find page with ID: ${pageId}. Make sure the relevant pages and databases are shared with your integration.`,
    },
  ],
});

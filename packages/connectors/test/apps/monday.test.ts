import { connectorSuite, type Expected } from '@inlay/test-kit/suite';
import { expect } from 'vitest';

const token = 'eyJhbGciOiJIUzI1NiJ9.eyJ0aWQiOjMxNDE1OTI2NSwiYWlkIjoyNzE4MjgxOH0.monday-sig';

/** A GraphQL POST to /v2 whose document contains `operation`, with exactly these variables. */
const gql = (operation: string, variables: Record<string, unknown>): Expected => ({
  method: 'POST',
  path: '/v2',
  body: { query: expect.stringContaining(operation), variables },
});

const item = {
  id: '1234567890',
  name: 'Acme',
  url: 'https://acme.monday.com/boards/987654321/pulses/1234567890',
  group: { id: 'topics', title: 'New leads' },
};
const boardsPage = (fields: string, page: number) =>
  gql(`boards(limit: 100, page: $page, state: active, order_by: used_at) { id name type ${fields} }`, {
    page,
  });
const hundredBoards = Array.from({ length: 100 }, (_, i) => ({
  id: String(1000 + i),
  name: `Board ${i}`,
  type: 'board',
  groups: i === 0 ? [{ id: 'topics', title: 'New leads' }] : [],
}));

connectorSuite({
  id: 'monday',
  credential: { fields: {}, oauth: { accessToken: token } },
  badCredential: { fields: {}, oauth: { accessToken: 'eyJhbGciOiJIUzI1NiJ9.revoked' } },
  // monday takes the token without a scheme, and every request pins the API version.
  auth: { header: 'authorization', value: token },
  headers: { 'api-version': '2026-07' },
  test: {
    request: gql('me { id name email account { id name slug } }', {}),
    ok: {
      body: {
        data: {
          me: {
            id: '31415926',
            name: 'Grace Hopper',
            email: 'grace@acme.test',
            account: { id: '27182818', name: 'Acme', slug: 'acme' },
          },
        },
      },
    },
    rejected: {
      status: 401,
      body: {
        errors: [{ message: 'Not Authenticated', extensions: { code: 'UNAUTHORIZED', status_code: 401 } }],
      },
    },
    label: 'Acme',
    reason: '401: Not Authenticated',
  },
  actions: [
    {
      name: 'creates an item in a group with JSON-encoded column values',
      action: 'create_item',
      input: {
        boardId: 987654321,
        groupId: 'topics',
        name: 'Acme',
        columnValues: {
          status: { label: 'Working on it' },
          email: { email: 'ada@example.com', text: 'Ada' },
        },
      },
      reply: { body: { data: { create_item: item }, account_id: 27182818 } },
      request: gql(
        'create_item(board_id: $board, group_id: $group, item_name: $name, column_values: $values',
        {
          board: '987654321',
          group: 'topics',
          name: 'Acme',
          values: '{"status":{"label":"Working on it"},"email":{"email":"ada@example.com","text":"Ada"}}',
        },
      ),
      output: { id: '1234567890', name: 'Acme', url: item.url, group: item.group },
    },
    {
      name: 'changes several column values at once',
      action: 'update_item',
      input: { boardId: '987654321', itemId: '1234567890', columnValues: { status: { label: 'Done' } } },
      reply: { body: { data: { change_multiple_column_values: item } } },
      request: gql('change_multiple_column_values(board_id: $board, item_id: $item, column_values: $values', {
        board: '987654321',
        item: '1234567890',
        values: '{"status":{"label":"Done"}}',
      }),
      output: { id: '1234567890', name: 'Acme', url: item.url, group: item.group },
    },
    {
      name: 'posts an update on an item',
      action: 'add_update',
      input: { itemId: 1234567890, body: 'Contract <b>signed</b>' },
      reply: {
        body: {
          data: {
            create_update: {
              id: '3325555',
              body: '<p>Contract <b>signed</b></p>',
              created_at: '2025-02-21T09:00:00Z',
            },
          },
        },
      },
      request: gql('create_update(item_id: $item, body: $body)', {
        item: '1234567890',
        body: 'Contract <b>signed</b>',
      }),
      output: { id: '3325555', body: '<p>Contract <b>signed</b></p>', createdAt: '2025-02-21T09:00:00Z' },
    },
    {
      name: 'finds items by a column value and maps the column texts',
      action: 'find_items',
      input: { boardId: '987654321', columnId: 'email', values: ['ada@example.com'], limit: 10 },
      reply: {
        body: {
          data: {
            items_page_by_column_values: {
              cursor: null,
              items: [
                {
                  ...item,
                  column_values: [
                    { id: 'email', text: 'ada@example.com' },
                    { id: 'status', text: 'Done' },
                  ],
                },
              ],
            },
          },
        },
      },
      request: gql(
        'items_page_by_column_values(board_id: $board, limit: $limit, columns: [{ column_id: $column, column_values: $values }])',
        {
          board: '987654321',
          column: 'email',
          values: ['ada@example.com'],
          limit: 10,
        },
      ),
      output: {
        items: [
          {
            id: '1234567890',
            name: 'Acme',
            url: item.url,
            group: item.group,
            columns: { email: 'ada@example.com', status: 'Done' },
          },
        ],
        cursor: null,
      },
    },
  ],
  sources: [
    {
      source: 'boards',
      pages: [
        {
          request: boardsPage('', 1),
          reply: {
            body: {
              data: {
                boards: [
                  { id: '987654321', name: 'Leads', type: 'board' },
                  { id: '987654322', name: 'Subitems of Leads', type: 'sub_items_board' },
                ],
              },
            },
          },
        },
      ],
      options: [{ value: '987654321', label: 'Leads' }],
    },
    {
      source: 'groups',
      pages: [
        {
          request: boardsPage('groups { id title }', 1),
          reply: { body: { data: { boards: hundredBoards } } },
        },
        {
          request: boardsPage('groups { id title }', 2),
          reply: {
            body: {
              data: {
                boards: [
                  { id: '2000', name: 'Ops', type: 'board', groups: [{ id: 'new_group', title: 'Backlog' }] },
                ],
              },
            },
          },
        },
      ],
      options: [
        { value: 'topics', label: 'Board 0 › New leads' },
        { value: 'new_group', label: 'Ops › Backlog' },
      ],
    },
    {
      source: 'columns',
      pages: [
        {
          request: boardsPage('columns { id title type }', 1),
          reply: {
            body: {
              data: {
                boards: [
                  {
                    id: '987654321',
                    name: 'Leads',
                    type: 'board',
                    columns: [
                      { id: 'name', title: 'Name', type: 'name' },
                      { id: 'status', title: 'Status', type: 'status' },
                    ],
                  },
                ],
              },
            },
          },
        },
      ],
      options: [
        { value: 'name', label: 'Leads › Name (name)' },
        { value: 'status', label: 'Leads › Status (status)' },
      ],
    },
  ],
  errors: [
    {
      name: 'a GraphQL error answered with HTTP 200 fails the step',
      action: 'create_item',
      input: { boardId: 1, name: 'x' },
      reply: {
        body: {
          data: { create_item: null },
          errors: [
            { message: 'Board not found', extensions: { code: 'InvalidBoardIdException', status_code: 200 } },
          ],
        },
      },
      message: 'Board not found',
    },
    {
      name: 'an exhausted complexity budget is transient',
      action: 'find_items',
      input: { boardId: 1, columnId: 'email', values: ['a'] },
      reply: {
        status: 429,
        body: {
          errors: [
            {
              message: 'Complexity budget exhausted',
              extensions: { code: 'COMPLEXITY_BUDGET_EXHAUSTED', retry_in_seconds: 12 },
            },
          ],
        },
      },
      message: '429: Complexity budget exhausted',
      transient: true,
    },
    {
      name: 'a budget error inside HTTP 200 is transient too',
      action: 'add_update',
      input: { itemId: 1, body: 'x' },
      reply: {
        body: {
          errors: [
            { message: 'Complexity budget exhausted', extensions: { code: 'COMPLEXITY_BUDGET_EXHAUSTED' } },
          ],
        },
      },
      message: 'Complexity budget exhausted',
      transient: true,
    },
  ],
});

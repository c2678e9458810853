import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpRequestSpec, HttpResponse, OptionSource } from '../types.ts';
import { bodyLabel, graphql, graphqlError, withBody } from './helpers.ts';

const ENDPOINT = '/v2';
const PAGE = 100;

const boardId = z
  .union([z.number().int().positive(), z.string().regex(/^\d+$/)])
  .transform(String)
  .describe('Board id (boards option source)');
const itemId = z
  .union([z.number().int().positive(), z.string().regex(/^\d+$/)])
  .transform(String)
  .describe('Item id');
const columnValues = z
  .record(z.string(), z.unknown())
  .describe(
    'Values by column id (columns option source), in monday’s column formats, e.g. {"status":{"label":"Done"},"date4":{"date":"2025-03-01"},"text":"Hi"}',
  );

const ITEM = 'id name url group { id title }';
interface Item {
  id: string;
  name: string;
  url?: string;
  group?: { id: string; title: string } | null;
  column_values?: { id: string; text: string | null }[];
}
const item = (i: Item) => ({
  id: i.id,
  name: i.name,
  url: i.url ?? null,
  group: i.group ?? null,
  ...(i.column_values && { columns: Object.fromEntries(i.column_values.map((c) => [c.id, c.text])) }),
});
const data = <T>(res: HttpResponse) => (res.body as { data: T }).data;

interface Board {
  id: string;
  name: string;
  type?: string;
  groups?: { id: string; title: string }[];
  columns?: { id: string; title: string; type: string }[];
}

/** Active boards, a page of 100 per request (monday pages by number); subitem boards are left out. */
function boardSource(
  description: string,
  fields: string,
  entries: (b: Board) => unknown[],
  option: OptionSource['option'],
): OptionSource {
  return {
    description,
    request: () =>
      graphql(
        `query ($page: Int!) { boards(limit: ${PAGE}, page: $page, state: active, order_by: used_at) { id name type ${fields} } }`,
        { page: 1 },
        ENDPOINT,
      ),
    items: (body) =>
      ((body as { data?: { boards?: Board[] } }).data?.boards ?? [])
        .filter((b) => b.type === undefined || b.type === 'board')
        .flatMap(entries),
    option,
    paging: {
      next: (res: HttpResponse, req: HttpRequestSpec) => {
        const boards = (res.body as { data?: { boards?: unknown[] } }).data?.boards ?? [];
        const { variables } = req.body as { variables: { page: number } };
        return boards.length === PAGE
          ? withBody(req, { variables: { page: variables.page + 1 } })
          : undefined;
      },
    },
  };
}

/** monday.com platform API (GraphQL): https://developer.monday.com/api-reference/ */
export const monday: ConnectorDefinition = {
  id: 'monday',
  name: 'monday.com',
  description: 'Create and update items on monday.com boards, post updates, and find items by column value.',
  category: 'project-management',
  icon: 'mondaydotcom', // not in simple-icons 13.21.0: a monogram
  color: '6161FF',
  docs: 'https://developer.monday.com/api-reference/reference/items',
  baseUrl: 'https://api.monday.com',
  headers: { 'API-Version': '2026-07' },
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://auth.monday.com/oauth2/authorize',
    tokenUrl: 'https://auth.monday.com/oauth2/token',
    scopes: ['me:read', 'boards:read', 'boards:write', 'updates:write'],
    pkce: false,
    // monday reads the token from Authorization without a scheme.
    tokenHeader: { name: 'Authorization', format: '{accessToken}' },
  },
  test: {
    request: () => graphql('query { me { id name email account { id name slug } } }', {}, ENDPOINT),
    accountLabel: bodyLabel('data.me.account.name', 'data.me.email'),
  },
  // Errors come as GraphQL `errors`, mostly with HTTP 200; budget and rate limits are worth a retry.
  checkResponse: (res) =>
    graphqlError(res, [
      'COMPLEXITY_BUDGET_EXHAUSTED',
      'RATE_LIMIT_EXCEEDED',
      'ComplexityException',
      'maxConcurrencyExceeded',
    ]),
  // Older API versions answer {"error_message": "...", "error_code": "..."}.
  errorMessage: (res) => (res.body as { error_message?: string } | null)?.error_message,
  actions: [
    defineAction({
      id: 'create_item',
      name: 'Create an item',
      description: 'Adds an item to a board, optionally in a group and with column values (create_item).',
      kind: 'write',
      input: z.object({
        boardId,
        groupId: z
          .string()
          .max(255)
          .optional()
          .describe('Group id (groups option source); the top group when omitted'),
        name: z.string().min(1).max(255).describe('Item name'),
        columnValues: columnValues.optional(),
      }),
      request: (input) =>
        graphql(
          `mutation ($board: ID!, $group: String, $name: String!, $values: JSON) { create_item(board_id: $board, group_id: $group, item_name: $name, column_values: $values, create_labels_if_missing: true) { ${ITEM} } }`,
          {
            board: input.boardId,
            group: input.groupId,
            name: input.name,
            values: input.columnValues && JSON.stringify(input.columnValues),
          },
          ENDPOINT,
        ),
      output: (res) => item(data<{ create_item: Item }>(res).create_item),
    }),
    defineAction({
      id: 'update_item',
      name: 'Update an item',
      description: 'Changes column values of an item (change_multiple_column_values).',
      kind: 'write',
      input: z.object({ boardId, itemId, columnValues }),
      request: (input) =>
        graphql(
          `mutation ($board: ID!, $item: ID!, $values: JSON!) { change_multiple_column_values(board_id: $board, item_id: $item, column_values: $values, create_labels_if_missing: true) { ${ITEM} } }`,
          { board: input.boardId, item: input.itemId, values: JSON.stringify(input.columnValues) },
          ENDPOINT,
        ),
      output: (res) => item(data<{ change_multiple_column_values: Item }>(res).change_multiple_column_values),
    }),
    defineAction({
      id: 'add_update',
      name: 'Post an update',
      description: 'Posts an update (a comment) on an item (create_update).',
      kind: 'write',
      input: z.object({
        itemId,
        body: z.string().min(1).max(60_000).describe('Update text; simple HTML is kept'),
      }),
      request: (input) =>
        graphql(
          'mutation ($item: ID!, $body: String!) { create_update(item_id: $item, body: $body) { id body created_at } }',
          { item: input.itemId, body: input.body },
          ENDPOINT,
        ),
      output: (res) => {
        const u = data<{ create_update: { id: string; body: string; created_at: string } }>(
          res,
        ).create_update;
        return { id: u.id, body: u.body, createdAt: u.created_at };
      },
    }),
    defineAction({
      id: 'find_items',
      name: 'Find items by column value',
      description:
        'Lists items of a board whose column holds one of the given values (items_page_by_column_values).',
      kind: 'read',
      input: z.object({
        boardId,
        columnId: z
          .string()
          .min(1)
          .max(255)
          .describe('Column id (columns option source), e.g. email or name'),
        values: z
          .array(z.string().max(1000))
          .min(1)
          .max(100)
          .describe('Values to match, as shown in the column'),
        limit: z.number().int().min(1).max(500).default(25).describe('How many items'),
      }),
      request: (input) =>
        graphql(
          `query ($board: ID!, $column: String!, $values: [String]!, $limit: Int!) { items_page_by_column_values(board_id: $board, limit: $limit, columns: [{ column_id: $column, column_values: $values }]) { cursor items { ${ITEM} column_values { id text } } } }`,
          { board: input.boardId, column: input.columnId, values: input.values, limit: input.limit },
          ENDPOINT,
        ),
      output: (res) => {
        const page = data<{ items_page_by_column_values: { cursor: string | null; items: Item[] } }>(
          res,
        ).items_page_by_column_values;
        return { items: page.items.map(item), cursor: page.cursor };
      },
    }),
  ],
  sources: {
    boards: boardSource(
      'Active boards, most recently used first',
      '',
      (b) => [b],
      (b: Board) => ({
        value: b.id,
        label: b.name,
      }),
    ),
    groups: boardSource(
      'Groups of every active board',
      'groups { id title }',
      (b) => (b.groups ?? []).map((g) => ({ ...g, board: b.name })),
      (g: { id: string; title: string; board: string }) => ({
        value: g.id,
        label: `${g.board} › ${g.title}`,
      }),
    ),
    columns: boardSource(
      'Columns of every active board',
      'columns { id title type }',
      (b) => (b.columns ?? []).map((c) => ({ ...c, board: b.name })),
      (c: { id: string; title: string; type: string; board: string }) => ({
        value: c.id,
        label: `${c.board} › ${c.title} (${c.type})`,
      }),
    ),
  },
};

import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, path, withBody } from './helpers.ts';

const notionId = (what: string) =>
  z
    .string()
    .regex(/^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$/, `must be a Notion ${what} id`)
    .describe(`${what[0]!.toUpperCase()}${what.slice(1)} id (a UUID, with or without dashes)`);

const MAX_TEXT = 2000;
const paragraphs = z
  .string()
  .max(100 * MAX_TEXT)
  .refine(
    (t) => t.split('\n').length <= 100,
    'at most 100 lines (Notion appends at most 100 blocks at once)',
  );

/** Splits by code point, so no emoji is cut in half. */
function chunks(s: string, size: number): string[] {
  const points = Array.from(s);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

/** One paragraph block per line; Notion caps a rich-text item at 2,000 characters, so long lines are split. */
const toBlocks = (text: string) =>
  text.split(/\r?\n/).map((line) => ({
    object: 'block',
    type: 'paragraph',
    paragraph: { rich_text: chunks(line, MAX_TEXT).map((content) => ({ type: 'text', text: { content } })) },
  }));

type Prop = { type: string; [k: string]: any };

/** A property value as a plain JSON value: text as a string, selects as names, people and relations as ids. */
function plainValue(p: Prop): unknown {
  const v = p[p.type];
  switch (p.type) {
    case 'title':
    case 'rich_text':
      return (v as { plain_text: string }[]).map((t) => t.plain_text).join('');
    case 'select':
    case 'status':
      return v?.name ?? null;
    case 'multi_select':
      return (v as { name: string }[]).map((o) => o.name);
    case 'date':
      return v ? (v.end ? { start: v.start, end: v.end } : v.start) : null;
    case 'people':
    case 'relation':
      return (v as { id: string }[]).map((o) => o.id);
    case 'formula':
      return v?.[v.type] ?? null;
    case 'unique_id':
      return v ? `${v.prefix ? `${v.prefix}-` : ''}${v.number}` : null;
    case 'created_by':
    case 'last_edited_by':
      return v?.id ?? null;
    default:
      return v ?? null;
  }
}

interface Page {
  id: string;
  url: string;
  created_time: string;
  last_edited_time: string;
  properties: Record<string, Prop>;
}

const page = (p: Page) => ({
  id: p.id,
  url: p.url,
  createdTime: p.created_time,
  lastEditedTime: p.last_edited_time,
  properties: Object.fromEntries(Object.entries(p.properties ?? {}).map(([k, v]) => [k, plainValue(v)])),
});

/**
 * https://developers.notion.com/reference/post-database-query, newest first by creation, filtered to pages
 * created on or after the last poll.
 */
const newPage = definePollTrigger({
  id: 'new_page',
  name: 'New database item',
  description: 'A page is added to a database (polls POST /databases/{id}/query).',
  input: z.object({ databaseId: notionId('database') }),
  request: (input, _settings, since) => ({
    method: 'POST',
    path: path`/databases/${input.databaseId}/query`,
    body: {
      sorts: [{ timestamp: 'created_time', direction: 'descending' }],
      ...(typeof since === 'string' && {
        filter: { timestamp: 'created_time', created_time: { on_or_after: since } },
      }),
      page_size: 100,
    },
  }),
  items: (body) => (body as { results: Page[] }).results,
  itemId: (p: Page) => p.id,
  itemPosition: (p: Page) => p.created_time,
  output: page,
  paging: {
    next: (res, req) => {
      const b = res.body as { has_more?: boolean; next_cursor?: string | null };
      return b.has_more && b.next_cursor ? withBody(req, { start_cursor: b.next_cursor }) : undefined;
    },
  },
});

/** Notion API (version 2022-06-28): https://developers.notion.com/reference/intro */
export const notion: ConnectorDefinition = {
  id: 'notion',
  name: 'Notion',
  description: 'Add items to Notion databases, append text to pages, and query databases.',
  category: 'productivity',
  icon: 'notion',
  color: '000000',
  docs: 'https://developers.notion.com/reference/intro',
  baseUrl: 'https://api.notion.com/v1',
  headers: { 'notion-version': '2022-06-28' },
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://api.notion.com/v1/oauth/authorize',
    tokenUrl: 'https://api.notion.com/v1/oauth/token',
    // Access is granted per page in Notion's consent screen, not by scope.
    scopes: [],
    pkce: false,
    tokenAuth: 'basic',
    authorizeParams: { owner: 'user' },
  },
  test: {
    request: () => ({ method: 'GET', path: '/users/me' }),
    accountLabel: bodyLabel('bot.workspace_name', 'name'),
  },
  triggers: [newPage],
  actions: [
    defineAction({
      id: 'create_database_item',
      name: 'Add a database item',
      description:
        'Creates a page in a database (POST /pages), with a title, other properties and body text.',
      kind: 'write',
      input: z.object({
        database_id: notionId('database'),
        title: z.string().min(1).max(MAX_TEXT).describe('Value of the title property'),
        titleProperty: z.string().min(1).default('Name').describe('Name of the title property'),
        properties: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('More property values in Notion\'s format, e.g. {"Status":{"status":{"name":"Done"}}}'),
        content: paragraphs.optional().describe('Body text; one paragraph per line'),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/pages',
        body: {
          parent: { database_id: input.database_id },
          properties: {
            ...input.properties,
            [input.titleProperty]: { title: [{ type: 'text', text: { content: input.title } }] },
          },
          ...(input.content && { children: toBlocks(input.content) }),
        },
      }),
      output: (res) => page(res.body as Page),
    }),
    defineAction({
      id: 'append_text',
      name: 'Append text to a page',
      description: 'Appends paragraphs to a page (PATCH /blocks/{page_id}/children).',
      kind: 'write',
      input: z.object({
        page_id: notionId('page'),
        text: paragraphs.min(1).describe('Text; one paragraph per line'),
      }),
      request: (input) => ({
        method: 'PATCH',
        path: path`/blocks/${input.page_id}/children`,
        body: { children: toBlocks(input.text) },
      }),
      output: (res) => ({ blockIds: (res.body as { results: { id: string }[] }).results.map((b) => b.id) }),
    }),
    defineAction({
      id: 'query_database',
      name: 'Query a database',
      description: 'Lists database items, optionally filtered and sorted (POST /databases/{id}/query).',
      kind: 'read',
      input: z.object({
        database_id: notionId('database'),
        filter: z.record(z.string(), z.unknown()).optional().describe('Notion filter object'),
        sorts: z.array(z.record(z.string(), z.unknown())).optional().describe('Notion sort objects'),
        page_size: z.number().int().min(1).max(100).default(50).describe('Page size'),
        start_cursor: z.string().optional().describe('Cursor of a previous page'),
      }),
      request: ({ database_id, ...body }) => ({
        method: 'POST',
        path: path`/databases/${database_id}/query`,
        body,
      }),
      output: (res) => {
        const b = res.body as { results: Page[]; has_more: boolean; next_cursor: string | null };
        return { results: b.results.map(page), hasMore: b.has_more, nextCursor: b.next_cursor };
      },
    }),
    defineAction({
      id: 'get_page',
      name: 'Get a page',
      description: 'Reads a page and its property values (GET /pages/{id}).',
      kind: 'read',
      input: z.object({ page_id: notionId('page') }),
      request: (input) => ({ method: 'GET', path: path`/pages/${input.page_id}` }),
      output: (res) => page(res.body as Page),
    }),
  ],
  sources: {
    databases: {
      description: 'Databases shared with the integration',
      request: (_settings, search) => ({
        method: 'POST',
        path: '/search',
        body: {
          filter: { property: 'object', value: 'database' },
          page_size: 100,
          ...(search && { query: search }),
        },
      }),
      items: (body) => (body as { results?: unknown[] }).results ?? [],
      option: (d: { id: string; title?: { plain_text: string }[] }) => ({
        value: d.id,
        label: d.title?.map((t) => t.plain_text).join('') || 'Untitled',
      }),
      paging: {
        next: (res, req) => {
          const b = res.body as { has_more?: boolean; next_cursor?: string | null };
          return b.has_more && b.next_cursor ? withBody(req, { start_cursor: b.next_cursor }) : undefined;
        },
      },
    },
  },
};

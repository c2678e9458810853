import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, path, secretField } from './helpers.ts';

/** Trello ids are 24 hex characters (MongoDB ObjectIds). */
const trelloId = (what: string) =>
  z
    .string()
    .regex(/^[0-9a-f]{24}$/, `must be a Trello ${what} id`)
    .describe(`${what[0]!.toUpperCase()}${what.slice(1)} id`);
const ids = (what: string) => z.array(trelloId(what)).max(100);

const CARD_FIELDS =
  'name,desc,idList,idBoard,idMembers,idLabels,due,dueComplete,closed,url,shortUrl,dateLastActivity';

interface Card {
  id: string;
  name: string;
  desc: string;
  idList: string;
  idBoard: string;
  idMembers?: string[];
  idLabels?: string[];
  due: string | null;
  dueComplete?: boolean;
  closed?: boolean;
  url?: string;
  shortUrl?: string;
  dateLastActivity?: string;
}

const card = (c: Card) => ({
  id: c.id,
  name: c.name,
  description: c.desc,
  listId: c.idList,
  boardId: c.idBoard,
  memberIds: c.idMembers ?? [],
  labelIds: c.idLabels ?? [],
  due: c.due,
  dueComplete: c.dueComplete ?? false,
  closed: c.closed ?? false,
  url: c.shortUrl ?? c.url ?? null,
  lastActivity: c.dateLastActivity ?? null,
});
const cardOutput = (res: HttpResponse) => card(res.body as Card);

const cardFields = {
  name: z.string().max(16_384).describe('Card title'),
  description: z.string().max(16_384).describe('Description, Markdown'),
  due: z.iso.datetime({ offset: true }).describe('Due date, ISO 8601'),
  memberIds: ids('member').describe('Members to assign (their ids)'),
  labelIds: ids('label').describe('Labels to add (their ids)'),
};

/** Trello REST API 1: https://developer.atlassian.com/cloud/trello/rest/ */
export const trello: ConnectorDefinition = {
  id: 'trello',
  name: 'Trello',
  description: 'Create, move and update Trello cards, comment on them, and list a list’s cards.',
  category: 'project-management',
  icon: 'trello',
  color: '0052CC',
  docs: 'https://developer.atlassian.com/cloud/trello/rest/api-group-cards/',
  baseUrl: 'https://api.trello.com/1',
  auth: {
    type: 'apiKey',
    // Trello's header form of key + token, instead of `key` and `token` in every query string.
    in: 'header',
    name: 'Authorization',
    format: 'OAuth oauth_consumer_key="{apiKey}", oauth_token="{apiToken}"',
    fields: [
      secretField('apiKey', 'API key', {
        help: 'The API key of your Power-Up: trello.com/power-ups/admin → API key',
      }),
      secretField('apiToken', 'Token', {
        help: 'A user token authorised for that key (the "Token" link next to the key)',
      }),
    ],
  },
  test: {
    request: () => ({ method: 'GET', path: '/members/me', query: { fields: 'fullName,username,url' } }),
    accountLabel: bodyLabel('username', 'fullName'),
  },
  actions: [
    defineAction({
      id: 'create_card',
      name: 'Create a card',
      description: 'Adds a card to a list (POST /cards).',
      kind: 'write',
      input: z.object({
        listId: trelloId('list').describe('List to add the card to (lists option source)'),
        name: cardFields.name.min(1),
        description: cardFields.description.optional(),
        due: cardFields.due.optional(),
        memberIds: cardFields.memberIds.optional(),
        labelIds: cardFields.labelIds.optional(),
        position: z.enum(['top', 'bottom']).default('bottom').describe('Where in the list'),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/cards',
        query: {
          idList: input.listId,
          name: input.name,
          desc: input.description,
          due: input.due,
          idMembers: input.memberIds?.join(','),
          idLabels: input.labelIds?.join(','),
          pos: input.position,
        },
      }),
      output: cardOutput,
    }),
    defineAction({
      id: 'update_card',
      name: 'Update a card',
      description:
        'Renames, moves, archives or completes a card (PUT /cards/{id}); only given fields change.',
      kind: 'write',
      input: z.object({
        cardId: trelloId('card'),
        name: cardFields.name.min(1).optional(),
        description: cardFields.description.optional(),
        listId: trelloId('list').optional().describe('Move to this list (lists option source)'),
        due: cardFields.due.optional(),
        dueComplete: z.boolean().optional().describe('Mark the due date complete'),
        closed: z.boolean().optional().describe('Archive (true) or restore (false)'),
        memberIds: cardFields.memberIds.optional().describe('Members, replacing the current ones'),
      }),
      request: (input) => ({
        method: 'PUT',
        path: path`/cards/${input.cardId}`,
        query: {
          name: input.name,
          desc: input.description,
          idList: input.listId,
          due: input.due,
          dueComplete: input.dueComplete,
          closed: input.closed,
          idMembers: input.memberIds?.join(','),
        },
      }),
      output: cardOutput,
    }),
    defineAction({
      id: 'add_comment',
      name: 'Comment on a card',
      description: 'Adds a comment to a card (POST /cards/{id}/actions/comments).',
      kind: 'write',
      input: z.object({
        cardId: trelloId('card'),
        text: z.string().min(1).max(16_384).describe('Comment, Markdown'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/cards/${input.cardId}/actions/comments`,
        query: { text: input.text },
      }),
      output: (res) => {
        const a = res.body as { id: string; date: string; data: { text: string; card: { id: string } } };
        return { id: a.id, date: a.date, text: a.data.text, cardId: a.data.card.id };
      },
    }),
    defineAction({
      id: 'list_cards',
      name: 'List cards',
      description: 'Reads the open cards of a list (GET /lists/{id}/cards).',
      kind: 'read',
      input: z.object({ listId: trelloId('list').describe('List (lists option source)') }),
      request: (input) => ({
        method: 'GET',
        path: path`/lists/${input.listId}/cards`,
        query: { fields: CARD_FIELDS },
      }),
      output: (res) => (res.body as Card[]).map(card),
    }),
  ],
  sources: {
    boards: {
      description: 'Open boards of the user',
      request: () => ({
        method: 'GET',
        path: '/members/me/boards',
        query: { filter: 'open', fields: 'name' },
      }),
      items: (body) => body as unknown[],
      option: (b: { id: string; name: string }) => ({ value: b.id, label: b.name }),
    },
    lists: {
      description: 'Open lists of every open board',
      // One call: the boards with their lists nested.
      request: () => ({
        method: 'GET',
        path: '/members/me/boards',
        query: { filter: 'open', fields: 'name', lists: 'open', list_fields: 'name' },
      }),
      items: (body) =>
        (body as { name: string; lists?: { id: string; name: string }[] }[]).flatMap((b) =>
          (b.lists ?? []).map((l) => ({ ...l, board: b.name })),
        ),
      option: (l: { id: string; name: string; board: string }) => ({
        value: l.id,
        label: `${l.board} › ${l.name}`,
      }),
    },
  },
};

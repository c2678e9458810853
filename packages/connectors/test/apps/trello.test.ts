import { connectorSuite } from '@inlay/test-kit/suite';

const apiKey = '0123456789abcdef0123456789abcdef';
const apiToken = 'ATTA1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9';
const list = '5f1a2b3c4d5e6f7a8b9c0d1e';
const board = '5f1a2b3c4d5e6f7a8b9c0d00';
const cardId = '65a1b2c3d4e5f6a7b8c9d0e1';
const member = '5e0f1a2b3c4d5e6f7a8b9c0d';
const FIELDS =
  'name,desc,idList,idBoard,idMembers,idLabels,due,dueComplete,closed,url,shortUrl,dateLastActivity';

const card = {
  id: cardId,
  name: 'Onboard Acme',
  desc: 'Kick-off **Monday**',
  idList: list,
  idBoard: board,
  idMembers: [member],
  idLabels: [],
  due: '2025-03-03T09:00:00.000Z',
  dueComplete: false,
  closed: false,
  url: 'https://trello.com/c/AbCd1234/12-onboard-acme',
  shortUrl: 'https://trello.com/c/AbCd1234',
  dateLastActivity: '2025-02-20T10:00:00.000Z',
};
const mapped = {
  id: cardId,
  name: 'Onboard Acme',
  description: 'Kick-off **Monday**',
  listId: list,
  boardId: board,
  memberIds: [member],
  labelIds: [],
  due: '2025-03-03T09:00:00.000Z',
  dueComplete: false,
  closed: false,
  url: 'https://trello.com/c/AbCd1234',
  lastActivity: '2025-02-20T10:00:00.000Z',
};

connectorSuite({
  id: 'trello',
  credential: { fields: { apiKey, apiToken } },
  badCredential: { fields: { apiKey, apiToken: 'ATTArevoked' } },
  auth: { header: 'authorization', value: `OAuth oauth_consumer_key="${apiKey}", oauth_token="${apiToken}"` },
  test: {
    request: { method: 'GET', path: '/members/me', query: { fields: 'fullName,username,url' } },
    ok: {
      body: {
        id: member,
        fullName: 'Grace Hopper',
        username: 'gracehopper',
        url: 'https://trello.com/gracehopper',
      },
    },
    // Trello answers authentication failures in plain text.
    rejected: { status: 401, body: 'invalid token' },
    label: 'gracehopper',
    reason: '401: invalid token',
  },
  actions: [
    {
      name: 'adds a card at the top of a list with members',
      action: 'create_card',
      input: {
        listId: list,
        name: 'Onboard Acme',
        description: 'Kick-off **Monday**',
        due: '2025-03-03T09:00:00.000Z',
        memberIds: [member],
        position: 'top',
      },
      reply: { body: card },
      request: {
        method: 'POST',
        path: '/cards',
        query: {
          idList: list,
          name: 'Onboard Acme',
          desc: 'Kick-off **Monday**',
          due: '2025-03-03T09:00:00.000Z',
          idMembers: member,
          pos: 'top',
        },
      },
      output: mapped,
    },
    {
      name: 'moves and archives a card, sending only the given fields',
      action: 'update_card',
      input: { cardId, listId: '5f1a2b3c4d5e6f7a8b9c0d99', closed: true },
      reply: { body: { ...card, idList: '5f1a2b3c4d5e6f7a8b9c0d99', closed: true } },
      request: {
        method: 'PUT',
        path: `/cards/${cardId}`,
        query: { idList: '5f1a2b3c4d5e6f7a8b9c0d99', closed: 'true' },
      },
      output: { ...mapped, listId: '5f1a2b3c4d5e6f7a8b9c0d99', closed: true },
    },
    {
      name: 'comments on a card',
      action: 'add_comment',
      input: { cardId, text: 'Contract signed ✅' },
      reply: {
        body: {
          id: '65a1b2c3d4e5f6a7b8c9d0ff',
          type: 'commentCard',
          date: '2025-02-21T09:00:00.000Z',
          data: { text: 'Contract signed ✅', card: { id: cardId, name: 'Onboard Acme' } },
        },
      },
      request: {
        method: 'POST',
        path: `/cards/${cardId}/actions/comments`,
        query: { text: 'Contract signed ✅' },
      },
      output: {
        id: '65a1b2c3d4e5f6a7b8c9d0ff',
        date: '2025-02-21T09:00:00.000Z',
        text: 'Contract signed ✅',
        cardId,
      },
    },
    {
      name: 'lists the cards of a list',
      action: 'list_cards',
      input: { listId: list },
      reply: { body: [card] },
      request: { method: 'GET', path: `/lists/${list}/cards`, query: { fields: FIELDS } },
      output: [mapped],
    },
  ],
  sources: [
    {
      source: 'boards',
      pages: [
        {
          request: { method: 'GET', path: '/members/me/boards', query: { filter: 'open', fields: 'name' } },
          reply: { body: [{ id: board, name: 'Customers' }] },
        },
      ],
      options: [{ value: board, label: 'Customers' }],
    },
    {
      source: 'lists',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/members/me/boards',
            query: { filter: 'open', fields: 'name', lists: 'open', list_fields: 'name' },
          },
          reply: {
            body: [
              {
                id: board,
                name: 'Customers',
                lists: [
                  { id: list, name: 'To do' },
                  { id: '5f1a2b3c4d5e6f7a8b9c0d99', name: 'Done' },
                ],
              },
              { id: '5f1a2b3c4d5e6f7a8b9c0d01', name: 'Empty', lists: [] },
            ],
          },
        },
      ],
      options: [
        { value: list, label: 'Customers › To do' },
        { value: '5f1a2b3c4d5e6f7a8b9c0d99', label: 'Customers › Done' },
      ],
    },
  ],
  errors: [
    {
      name: 'a bad list id keeps Trello’s plain-text reason',
      action: 'create_card',
      input: { listId: list, name: 'x' },
      reply: { status: 400, body: 'invalid value for idList' },
      message: '400: invalid value for idList',
    },
    {
      name: 'a token over its rate limit is transient',
      action: 'list_cards',
      input: { listId: list },
      reply: {
        status: 429,
        body: { error: 'API_TOKEN_LIMIT_EXCEEDED', message: 'Rate limit exceeded for this token.' },
      },
      message: '429: Rate limit exceeded for this token.',
      transient: true,
    },
  ],
});

import { bearer, connectorSuite } from '@inlay/test-kit/suite';

const token = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzY29wZXMiOlsicHJvdmlzaW9uaW5nIl19.front-sig';
const error = (status: number, title: string, message: string) => ({ _error: { status, title, message } });

connectorSuite({
  id: 'front',
  ...bearer(token, 'front-refresh'),
  test: {
    request: { method: 'GET', path: '/me' },
    ok: { body: { _links: { self: 'https://api2.frontapp.com/me' }, name: 'Acme', id: 'cmp_1' } },
    rejected: { status: 401, body: error(401, 'Unauthenticated', 'Invalid token') },
    label: 'Acme',
    reason: '401: Invalid token',
  },
  actions: [
    {
      name: 'sends a new message from a channel as a teammate and archives it',
      action: 'send_message',
      input: {
        channelId: 'cha_1a2b3',
        to: ['ada@example.com'],
        cc: ['boss@acme.test'],
        subject: 'Your renewal',
        body: '<p>Hi Ada</p>',
        authorId: 'tea_9z8y',
        archive: true,
      },
      reply: { status: 202, body: { status: 'accepted', message_uid: '3b1q41d8' } },
      request: {
        method: 'POST',
        path: '/channels/cha_1a2b3/messages',
        body: {
          to: ['ada@example.com'],
          cc: ['boss@acme.test'],
          subject: 'Your renewal',
          body: '<p>Hi Ada</p>',
          author_id: 'tea_9z8y',
          options: { archive: true },
        },
      },
      output: { messageUid: '3b1q41d8', status: 202 },
    },
    {
      name: 'replies in a conversation',
      action: 'reply_to_conversation',
      input: { conversationId: 'cnv_55c8c149', body: 'Done, thanks!' },
      reply: { status: 202, body: { status: 'accepted', message_uid: '3b1q41d9' } },
      request: {
        method: 'POST',
        path: '/conversations/cnv_55c8c149/messages',
        body: { body: 'Done, thanks!', options: { archive: false } },
      },
      output: { messageUid: '3b1q41d9', status: 202 },
    },
    {
      name: 'adds an internal comment',
      action: 'add_comment',
      input: { conversationId: 'cnv_55c8c149', body: '@grace can you check?' },
      reply: {
        status: 201,
        body: {
          id: 'com_1ywg3f2',
          body: '@grace can you check?',
          posted_at: 1740045600.5,
          author: { id: 'tea_9z8y', email: 'ada@acme.test' },
        },
      },
      request: {
        method: 'POST',
        path: '/conversations/cnv_55c8c149/comments',
        body: { body: '@grace can you check?' },
      },
      output: {
        id: 'com_1ywg3f2',
        body: '@grace can you check?',
        postedAt: '2025-02-20T10:00:00.500Z',
        author: 'ada@acme.test',
      },
    },
    {
      name: 'reads a conversation',
      action: 'get_conversation',
      input: { conversationId: 'cnv_55c8c149' },
      reply: {
        body: {
          id: 'cnv_55c8c149',
          subject: 'Your renewal',
          status: 'assigned',
          assignee: { id: 'tea_9z8y', email: 'ada@acme.test', username: 'ada' },
          recipient: { handle: 'ada@example.com', role: 'to' },
          tags: [{ id: 'tag_1', name: 'renewal' }],
          created_at: 1740045600,
        },
      },
      request: { method: 'GET', path: '/conversations/cnv_55c8c149' },
      output: {
        id: 'cnv_55c8c149',
        subject: 'Your renewal',
        status: 'assigned',
        assignee: { id: 'tea_9z8y', email: 'ada@acme.test' },
        recipient: 'ada@example.com',
        tags: ['renewal'],
        createdAt: '2025-02-20T10:00:00.000Z',
      },
    },
  ],
  sources: [
    {
      source: 'channels',
      pages: [
        {
          request: { method: 'GET', path: '/channels' },
          reply: {
            body: {
              _pagination: { next: 'https://acme.api.frontapp.com/channels?page_token=abc' },
              _results: [{ id: 'cha_1a2b3', name: 'Support', address: 'support@acme.test', type: 'smtp' }],
            },
          },
        },
        {
          request: { method: 'GET', path: '/channels', query: { page_token: 'abc' } },
          reply: { body: { _pagination: { next: null }, _results: [{ id: 'cha_4d5e6', type: 'twilio' }] } },
        },
      ],
      options: [
        { value: 'cha_1a2b3', label: 'Support <support@acme.test>' },
        { value: 'cha_4d5e6', label: 'twilio cha_4d5e6' },
      ],
    },
    {
      source: 'teammates',
      pages: [
        {
          request: { method: 'GET', path: '/teammates' },
          reply: {
            body: {
              _pagination: { next: null },
              _results: [
                { id: 'tea_9z8y', email: 'ada@acme.test', first_name: 'Ada', last_name: 'Lovelace' },
                { id: 'tea_7x6w', email: 'bot@acme.test' },
              ],
            },
          },
        },
      ],
      options: [
        { value: 'tea_9z8y', label: 'Ada Lovelace' },
        { value: 'tea_7x6w', label: 'bot@acme.test' },
      ],
    },
  ],
  errors: [
    {
      name: 'an unknown conversation keeps Front’s message',
      action: 'get_conversation',
      input: { conversationId: 'cnv_nope' },
      reply: { status: 404, body: error(404, 'Not found', 'Unknown conversation cnv_nope') },
      message: '404: Unknown conversation cnv_nope',
    },
    {
      name: 'the rate limit is transient',
      action: 'add_comment',
      input: { conversationId: 'cnv_55c8c149', body: 'x' },
      reply: {
        status: 429,
        headers: { 'retry-after': '20' },
        body: error(429, 'Too many requests', 'Rate limit exceeded'),
      },
      message: '429: Rate limit exceeded',
      transient: true,
    },
  ],
});

import { connectorSuite } from '@inlay/test-kit/suite';

const botToken = 'MTE4NTk2MzQ1Njc4OTAxMjM0NQ.GaBcDe.f1G2h3I4j5K6l7M8n9O0p1Q2r3S4t5U6v7W8x9';
const guildId = '1185963456789012300';
const channel = '1185963456789012345';
const rawMessage = {
  id: '1186000000000000001',
  channel_id: channel,
  content: 'New deal: Acme',
  timestamp: '2025-01-02T10:00:00.000000+00:00',
  author: { id: '1185963456789012345', username: 'Inlay', bot: true, avatar: null },
  mentions: [],
};
const message = {
  id: '1186000000000000001',
  channelId: channel,
  content: 'New deal: Acme',
  timestamp: '2025-01-02T10:00:00.000000+00:00',
  author: { id: '1185963456789012345', username: 'Inlay', bot: true },
};
const guild = (n: number) => ({ id: String(1185963456789012000n + BigInt(n)), name: `Server ${n}` });
const firstPage = Array.from({ length: 200 }, (_, i) => guild(i));

connectorSuite({
  id: 'discord',
  credential: { fields: { botToken, guildId } },
  badCredential: { fields: { botToken: 'MTE4.revoked.token', guildId } },
  auth: { header: 'authorization', value: `Bot ${botToken}` },
  test: {
    request: { method: 'GET', path: '/users/@me' },
    ok: { body: { id: '1185963456789012345', username: 'Inlay', bot: true } },
    rejected: { status: 401, body: { message: '401: Unauthorized', code: 0 } },
    label: 'Inlay',
    reason: '401: 401: Unauthorized',
  },
  actions: [
    {
      name: 'posts a message with mentions disabled',
      action: 'send_message',
      input: { channelId: channel, content: 'New deal: Acme' },
      reply: { body: rawMessage },
      request: {
        method: 'POST',
        path: `/channels/${channel}/messages`,
        body: { content: 'New deal: Acme', allowed_mentions: { parse: [] } },
      },
      output: message,
    },
    {
      name: 'replies with mentions allowed',
      action: 'send_message',
      input: {
        channelId: channel,
        content: '@here deal won',
        allowMentions: true,
        replyTo: '1186000000000000001',
      },
      reply: { body: { ...rawMessage, content: '@here deal won' } },
      request: {
        method: 'POST',
        path: `/channels/${channel}/messages`,
        body: {
          content: '@here deal won',
          allowed_mentions: { parse: ['users', 'roles', 'everyone'] },
          message_reference: { message_id: '1186000000000000001', fail_if_not_exists: false },
        },
      },
      output: { ...message, content: '@here deal won' },
    },
    {
      name: 'reads channel history',
      action: 'list_messages',
      input: { channelId: channel, limit: 10 },
      reply: { body: [rawMessage] },
      request: { method: 'GET', path: `/channels/${channel}/messages`, query: { limit: '10' } },
      output: [message],
    },
  ],
  sources: [
    {
      source: 'channels',
      pages: [
        {
          request: { method: 'GET', path: `/guilds/${guildId}/channels` },
          reply: {
            body: [
              { id: '2', type: 0, name: 'sales', position: 2 },
              { id: '3', type: 2, name: 'Voice', position: 0 },
              { id: '1', type: 5, name: 'announcements', position: 1 },
              { id: '4', type: 4, name: 'Category', position: 3 },
            ],
          },
        },
      ],
      options: [
        { value: '1', label: '#announcements' },
        { value: '2', label: '#sales' },
      ],
    },
    {
      source: 'guilds',
      pages: [
        {
          request: { method: 'GET', path: '/users/@me/guilds', query: { limit: '200' } },
          reply: { body: firstPage },
        },
        {
          request: {
            method: 'GET',
            path: '/users/@me/guilds',
            query: { limit: '200', after: guild(199).id },
          },
          reply: { body: [guild(200)] },
        },
      ],
      options: [...firstPage, guild(200)].map((g) => ({ value: g.id, label: g.name })),
    },
  ],
  errors: [
    {
      name: 'a missing permission keeps Discord’s message',
      action: 'send_message',
      input: { channelId: channel, content: 'x' },
      reply: { status: 403, body: { message: 'Missing Permissions', code: 50013 } },
      message: '403: Missing Permissions',
    },
    {
      name: 'a 429 is transient',
      action: 'list_messages',
      input: { channelId: channel },
      reply: {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { message: 'You are being rate limited.', retry_after: 0.64, global: false },
      },
      message: '429: You are being rate limited.',
      transient: true,
    },
  ],
});

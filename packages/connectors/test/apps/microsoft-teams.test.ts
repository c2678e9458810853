import { bearer, connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { ConnectorRuntime, catalog } from '../../src/index.ts';

const token =
  'eyJ0eXAiOiJKV1QiLCJub25jZSI6IlRlYW1zIn0.eyJhdWQiOiJodHRwczovL2dyYXBoLm1pY3Jvc29mdC5jb20ifQ.sig';
const team = '02bd9fd6-8f93-4758-87c3-1fb73740a315';
const team2 = '8090c93e-ba7c-433e-9f39-08c7ba07c0b3';
const channel = '19:09fc54a3141a45d0bc769cf506d2e079@thread.tacv2';
const channelPath = `/teams/${team}/channels/${encodeURIComponent(channel)}`;

const posted = {
  id: '1616965872395',
  replyToId: null,
  createdDateTime: '2025-03-30T20:57:52.395Z',
  subject: 'Deal won',
  webUrl: `https://teams.microsoft.com/l/message/${channel}/1616965872395`,
  body: { contentType: 'html', content: '<b>Acme</b> signed' },
  from: { user: { id: '8ea0e38b-efb3-4757-924a-5f94061cf8c2', displayName: 'Grace Hopper' } },
};
const mapped = {
  id: '1616965872395',
  createdAt: '2025-03-30T20:57:52.395Z',
  subject: 'Deal won',
  url: `https://teams.microsoft.com/l/message/${channel}/1616965872395`,
  replyToId: null,
  contentType: 'html',
  content: '<b>Acme</b> signed',
  from: { id: '8ea0e38b-efb3-4757-924a-5f94061cf8c2', name: 'Grace Hopper' },
};
const graphError = (code: string, message: string) => ({
  error: { code, message, innerError: { date: '2025-03-30T20:57:52', 'request-id': 'b7a0-…' } },
});

connectorSuite({
  id: 'microsoft-teams',
  ...bearer(token, '0.AXoA-refresh'),
  test: {
    request: { method: 'GET', path: '/me', query: { $select: 'id,displayName,userPrincipalName' } },
    ok: { body: { id: '8ea0e38b', displayName: 'Grace Hopper', userPrincipalName: 'grace@acme.test' } },
    rejected: {
      status: 401,
      body: graphError('InvalidAuthenticationToken', 'Access token has expired or is not yet valid.'),
    },
    label: 'grace@acme.test',
    reason: '401: Access token has expired or is not yet valid.',
  },
  actions: [
    {
      name: 'posts HTML with a subject to the channel named by "teamId/channelId"',
      action: 'send_channel_message',
      input: { channelId: `${team}/${channel}`, subject: 'Deal won', text: '<b>Acme</b> signed', html: true },
      reply: { status: 201, body: posted },
      request: {
        method: 'POST',
        path: `${channelPath}/messages`,
        body: { subject: 'Deal won', body: { contentType: 'html', content: '<b>Acme</b> signed' } },
      },
      output: mapped,
    },
    {
      name: 'replies in a thread with teamId and channelId apart',
      action: 'reply_to_message',
      input: { teamId: team, channelId: channel, messageId: '1616965872395', text: 'Congrats!' },
      reply: {
        status: 201,
        body: {
          ...posted,
          id: '1616965890001',
          replyToId: '1616965872395',
          subject: null,
          body: { contentType: 'text', content: 'Congrats!' },
        },
      },
      request: {
        method: 'POST',
        path: `${channelPath}/messages/1616965872395/replies`,
        body: { body: { contentType: 'text', content: 'Congrats!' } },
      },
      output: {
        ...mapped,
        id: '1616965890001',
        replyToId: '1616965872395',
        subject: null,
        contentType: 'text',
        content: 'Congrats!',
      },
    },
    {
      name: 'sends a chat message',
      action: 'send_chat_message',
      input: { chatId: '19:2da4c29f6d7041eca70b638b43d45437@thread.v2', text: 'Hi team' },
      reply: {
        status: 201,
        body: { ...posted, subject: null, body: { contentType: 'text', content: 'Hi team' } },
      },
      request: {
        method: 'POST',
        path: '/chats/19%3A2da4c29f6d7041eca70b638b43d45437%40thread.v2/messages',
        body: { body: { contentType: 'text', content: 'Hi team' } },
      },
      output: { ...mapped, subject: null, contentType: 'text', content: 'Hi team' },
    },
    {
      name: 'reads the latest channel messages',
      action: 'list_channel_messages',
      input: { channelId: `${team}/${channel}`, top: 5 },
      reply: { body: { '@odata.count': 1, value: [posted] } },
      request: { method: 'GET', path: `${channelPath}/messages`, query: { $top: '5' } },
      output: [mapped],
    },
  ],
  sources: [
    {
      source: 'channels',
      pages: [
        {
          request: { method: 'GET', path: '/me/joinedTeams' },
          reply: {
            body: {
              value: [{ id: team, displayName: 'Sales' }],
              '@odata.nextLink': 'https://graph.microsoft.com/v1.0/me/joinedTeams?$skiptoken=X2Tk',
            },
          },
        },
        {
          request: { method: 'GET', path: '/me/joinedTeams', query: { $skiptoken: 'X2Tk' } },
          reply: { body: { value: [{ id: team2, displayName: 'Support' }] } },
        },
        {
          request: { method: 'GET', path: `/teams/${team}/channels` },
          reply: {
            body: {
              value: [
                { id: '19:general@thread.tacv2', displayName: 'General' },
                { id: channel, displayName: 'Wins' },
              ],
            },
          },
        },
        {
          request: { method: 'GET', path: `/teams/${team2}/channels` },
          reply: { body: { value: [{ id: '19:general2@thread.tacv2', displayName: 'General' }] } },
        },
      ],
      options: [
        { value: `${team}/19:general@thread.tacv2`, label: 'Sales › General' },
        { value: `${team}/${channel}`, label: 'Sales › Wins' },
        { value: `${team2}/19:general2@thread.tacv2`, label: 'Support › General' },
      ],
    },
    {
      source: 'chats',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/me/chats',
            query: { $top: '50', $expand: 'members', $orderby: 'lastMessagePreview/createdDateTime desc' },
          },
          reply: {
            body: {
              value: [
                { id: '19:a@thread.v2', topic: 'Launch crew', chatType: 'group', members: [] },
                {
                  id: '19:b@unq.gbl.spaces',
                  topic: null,
                  chatType: 'oneOnOne',
                  members: [{ displayName: 'Grace Hopper' }, { displayName: 'Ada Lovelace' }],
                },
              ],
              '@odata.nextLink':
                'https://graph.microsoft.com/v1.0/me/chats?$top=50&$expand=members&$orderby=lastMessagePreview%2FcreatedDateTime+desc&$skiptoken=c2',
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/me/chats',
            query: {
              $top: '50',
              $expand: 'members',
              $orderby: 'lastMessagePreview/createdDateTime desc',
              $skiptoken: 'c2',
            },
          },
          reply: {
            body: { value: [{ id: '19:c@thread.v2', topic: null, chatType: 'meeting', members: [] }] },
          },
        },
      ],
      options: [
        { value: '19:a@thread.v2', label: 'Launch crew' },
        { value: '19:b@unq.gbl.spaces', label: 'Grace Hopper, Ada Lovelace' },
        { value: '19:c@thread.v2', label: 'meeting' },
      ],
    },
  ],
  errors: [
    {
      name: 'a missing permission is a 403 with Graph’s message',
      action: 'list_channel_messages',
      input: { channelId: `${team}/${channel}` },
      reply: { status: 403, body: graphError('Forbidden', 'Missing role permissions on the request.') },
      message: '403: Missing role permissions on the request.',
    },
    {
      name: 'throttling is transient',
      action: 'send_chat_message',
      input: { chatId: '19:a@thread.v2', text: 'x' },
      reply: {
        status: 429,
        headers: { 'retry-after': '3' },
        body: graphError('TooManyRequests', 'Too many requests.'),
      },
      message: '429: Too many requests.',
      transient: true,
    },
  ],
});

describe('microsoft-teams input', () => {
  const runtime = new ConnectorRuntime({ connectors: catalog });

  it.each([
    ['neither a teamId nor "teamId/channelId"', { channelId: channel, text: 'x' }],
    ['both a teamId and "teamId/channelId"', { teamId: team, channelId: `${team}/${channel}`, text: 'x' }],
  ])('refuses %s', async (_case, input) => {
    const err = await runtime.execute('microsoft-teams', 'send_channel_message', input).catch((e) => e);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain('channelId: give teamId and channelId, or channelId as "teamId/channelId"');
  });
});

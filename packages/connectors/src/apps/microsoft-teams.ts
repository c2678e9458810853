import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, path, treeSource } from './helpers.ts';
import { GRAPH, itemBody, microsoftOAuth, odataNext, odataValue } from './microsoft.ts';

const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** `teamId` + `channelId`, or `channelId` as "teamId/channelId" (the value of the channels option source). */
const channelInput = {
  teamId: z
    .string()
    .regex(new RegExp(`^${GUID}$`), 'must be a team id (a GUID)')
    .optional()
    .describe('Team id; omit when channelId is "teamId/channelId"'),
  channelId: z
    .string()
    .min(1)
    .max(512)
    .describe(
      'Channel (channels option source): "teamId/channelId", or a channel id such as 19:…@thread.tacv2 with teamId',
    ),
};
const hasTeam = (i: { teamId?: string; channelId: string }) =>
  Boolean(i.teamId) !== new RegExp(`^${GUID}/`).test(i.channelId);
const teamMessage = {
  message: 'give teamId and channelId, or channelId as "teamId/channelId"',
  path: ['channelId'],
};

function channelPath(i: { teamId?: string; channelId: string }): string {
  const [team, channel] = i.teamId
    ? [i.teamId, i.channelId]
    : [i.channelId.slice(0, 36), i.channelId.slice(37)];
  return path`/teams/${team}/channels/${channel}`;
}

const content = {
  text: z.string().min(1).max(28_000).describe('Message text, or HTML when html is true'),
  html: z.boolean().default(false).describe('Send text as HTML (Teams renders a safe subset)'),
};

interface ChatMessage {
  id: string;
  createdDateTime: string;
  subject?: string | null;
  webUrl?: string | null;
  replyToId?: string | null;
  body: { contentType: string; content: string };
  from?: { user?: { id: string; displayName?: string | null } | null } | null;
}

const message = (m: ChatMessage) => ({
  id: m.id,
  createdAt: m.createdDateTime,
  subject: m.subject ?? null,
  url: m.webUrl ?? null,
  replyToId: m.replyToId ?? null,
  contentType: m.body.contentType,
  content: m.body.content,
  from: m.from?.user ? { id: m.from.user.id, name: m.from.user.displayName ?? null } : null,
});
const messageOutput = (res: HttpResponse) => message(res.body as ChatMessage);

/** Microsoft Teams through Microsoft Graph: https://learn.microsoft.com/graph/api/resources/teams-api-overview */
export const microsoftTeams: ConnectorDefinition = {
  id: 'microsoft-teams',
  name: 'Microsoft Teams',
  description: 'Post to Teams channels and chats, reply in threads, and read channel messages.',
  category: 'communication',
  icon: 'microsoftteams', // not in simple-icons 13.21.0 (removed at Microsoft's request): a monogram
  color: '6264A7',
  docs: 'https://learn.microsoft.com/graph/api/channel-post-messages',
  baseUrl: GRAPH,
  auth: {
    ...microsoftOAuth,
    scopes: [
      'offline_access',
      'User.Read',
      'Team.ReadBasic.All',
      'Channel.ReadBasic.All',
      'ChannelMessage.Send',
      'ChannelMessage.Read.All',
      'Chat.ReadBasic',
      'ChatMessage.Send',
    ],
  },
  test: {
    request: () => ({ method: 'GET', path: '/me', query: { $select: 'id,displayName,userPrincipalName' } }),
    accountLabel: bodyLabel('userPrincipalName', 'displayName'),
  },
  actions: [
    defineAction({
      id: 'send_channel_message',
      name: 'Post to a channel',
      description:
        'Starts a new conversation in a channel (POST /teams/{teamId}/channels/{channelId}/messages).',
      kind: 'write',
      input: z
        .object({
          ...channelInput,
          subject: z.string().max(255).optional().describe('Subject line of the conversation'),
          ...content,
        })
        .refine(hasTeam, teamMessage),
      request: (input) => ({
        method: 'POST',
        path: `${channelPath(input)}/messages`,
        body: { subject: input.subject, body: itemBody(input.text, input.html) },
      }),
      output: messageOutput,
    }),
    defineAction({
      id: 'reply_to_message',
      name: 'Reply in a channel thread',
      description:
        'Replies to a channel message (POST /teams/{teamId}/channels/{channelId}/messages/{messageId}/replies).',
      kind: 'write',
      input: z
        .object({
          ...channelInput,
          messageId: z
            .string()
            .regex(/^\d+$/, 'must be a message id')
            .describe('Id of the message to reply to'),
          ...content,
        })
        .refine(hasTeam, teamMessage),
      request: (input) => ({
        method: 'POST',
        path: `${channelPath(input)}${path`/messages/${input.messageId}/replies`}`,
        body: { body: itemBody(input.text, input.html) },
      }),
      output: messageOutput,
    }),
    defineAction({
      id: 'send_chat_message',
      name: 'Send a chat message',
      description: 'Sends a message in a one-on-one, group or meeting chat (POST /chats/{chatId}/messages).',
      kind: 'write',
      input: z.object({
        chatId: z.string().min(1).max(512).describe('Chat id (chats option source), e.g. 19:…@thread.v2'),
        ...content,
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/chats/${input.chatId}/messages`,
        body: { body: itemBody(input.text, input.html) },
      }),
      output: messageOutput,
    }),
    defineAction({
      id: 'list_channel_messages',
      name: 'List channel messages',
      description:
        'Reads the latest top-level messages of a channel (GET /teams/{teamId}/channels/{channelId}/messages); needs admin consent for ChannelMessage.Read.All.',
      kind: 'read',
      input: z
        .object({
          ...channelInput,
          top: z.number().int().min(1).max(50).default(20).describe('How many messages'),
        })
        .refine(hasTeam, teamMessage),
      request: (input) => ({
        method: 'GET',
        path: `${channelPath(input)}/messages`,
        query: { $top: input.top },
      }),
      output: (res) => (odataValue(res.body) as ChatMessage[]).map(message),
    }),
  ],
  sources: {
    channels: treeSource({
      description: 'Channels of every team the user is in',
      root: {
        request: () => ({ method: 'GET', path: '/me/joinedTeams' }),
        items: odataValue,
        next: odataNext,
        children: [
          {
            request: (team: { id: string }) => ({ method: 'GET', path: path`/teams/${team.id}/channels` }),
            items: odataValue,
            next: odataNext,
          },
        ],
      },
      option: (c: { id: string; displayName: string }, [team]: { id: string; displayName: string }[]) => ({
        value: `${team!.id}/${c.id}`,
        label: `${team!.displayName} › ${c.displayName}`,
      }),
    }),
    chats: {
      description: 'Chats the user is in, most recent first',
      request: () => ({
        method: 'GET',
        path: '/me/chats',
        query: { $top: 50, $expand: 'members', $orderby: 'lastMessagePreview/createdDateTime desc' },
      }),
      items: odataValue,
      option: (c: {
        id: string;
        topic?: string | null;
        chatType: string;
        members?: { displayName?: string | null }[];
      }) => ({
        value: c.id,
        label:
          c.topic ||
          (c.members ?? [])
            .map((m) => m.displayName)
            .filter(Boolean)
            .join(', ') ||
          c.chatType,
      }),
      paging: { next: odataNext },
    },
  },
};

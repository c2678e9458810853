import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, path, withQuery } from './helpers.ts';

const snowflake = (what: string) =>
  z
    .string()
    .regex(/^\d{15,21}$/, `must be a ${what} id`)
    .describe(`${what} id`);

/** Text and announcement channels accept messages. */
const MESSAGE_CHANNELS = new Set([0, 5]);
const GUILDS_PAGE = 200;

interface Message {
  id: string;
  channel_id: string;
  content: string;
  timestamp: string;
  author: { id: string; username: string; bot?: boolean };
}

const message = (m: Message) => ({
  id: m.id,
  channelId: m.channel_id,
  content: m.content,
  timestamp: m.timestamp,
  author: { id: m.author.id, username: m.author.username, bot: m.author.bot ?? false },
});

/** Discord API v10 with a bot token: https://discord.com/developers/docs/reference */
export const discord: ConnectorDefinition = {
  id: 'discord',
  name: 'Discord',
  description: 'Post messages to Discord channels as a bot and read channel history.',
  category: 'communication',
  icon: 'discord',
  color: '5865F2',
  docs: 'https://discord.com/developers/docs/resources/message',
  baseUrl: 'https://discord.com/api/v10',
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    format: 'Bot {botToken}',
    fields: [
      {
        name: 'botToken',
        label: 'Bot token',
        type: 'password',
        required: true,
        secret: true,
        help: 'Developer Portal → your application → Bot → Reset Token',
      },
      {
        name: 'guildId',
        label: 'Server id',
        type: 'text',
        required: true,
        secret: false,
        help: 'Right-click the server with Developer Mode on → Copy Server ID; channels are listed from it',
      },
    ],
  },
  test: { request: () => ({ method: 'GET', path: '/users/@me' }), accountLabel: bodyLabel('username') },
  actions: [
    defineAction({
      id: 'send_message',
      name: 'Send a message',
      description: 'Posts a message to a channel (POST /channels/{id}/messages).',
      kind: 'write',
      input: z.object({
        channelId: snowflake('channel').describe('Channel id (channels option source)'),
        content: z.string().min(1).max(2000).describe('Message text, Discord Markdown'),
        allowMentions: z
          .boolean()
          .default(false)
          .describe(
            'Let @everyone, @here, role and user mentions ping; off so data cannot ping a whole server',
          ),
        replyTo: snowflake('message').optional().describe('Reply to this message'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/channels/${input.channelId}/messages`,
        body: {
          content: input.content,
          allowed_mentions: { parse: input.allowMentions ? ['users', 'roles', 'everyone'] : [] },
          ...(input.replyTo && {
            message_reference: { message_id: input.replyTo, fail_if_not_exists: false },
          }),
        },
      }),
      output: (res) => message(res.body as Message),
    }),
    defineAction({
      id: 'list_messages',
      name: 'List messages',
      description: 'Reads the latest messages of a channel, newest first (GET /channels/{id}/messages).',
      kind: 'read',
      input: z.object({
        channelId: snowflake('channel'),
        limit: z.number().int().min(1).max(100).default(50).describe('How many messages'),
        before: snowflake('message').optional().describe('Only messages older than this one'),
      }),
      request: (input) => ({
        method: 'GET',
        path: path`/channels/${input.channelId}/messages`,
        query: { limit: input.limit, before: input.before },
      }),
      output: (res) => (res.body as Message[]).map(message),
    }),
  ],
  sources: {
    channels: {
      description: 'Text channels of the server',
      request: (settings) => ({ method: 'GET', path: path`/guilds/${settings.guildId ?? ''}/channels` }),
      items: (body) =>
        (body as { type: number; position?: number }[])
          .filter((c) => MESSAGE_CHANNELS.has(c.type))
          .sort((a, b) => (a.position ?? 0) - (b.position ?? 0)),
      option: (c: { id: string; name: string }) => ({ value: c.id, label: `#${c.name}` }),
    },
    guilds: {
      description: 'Servers the bot is in',
      request: () => ({ method: 'GET', path: '/users/@me/guilds', query: { limit: GUILDS_PAGE } }),
      items: (body) => body as unknown[],
      option: (g: { id: string; name: string }) => ({ value: g.id, label: g.name }),
      paging: {
        // A full page may have a successor; `after` is the last id seen.
        next: (res, req) => {
          const page = res.body as { id: string }[];
          return page.length === GUILDS_PAGE ? withQuery(req, { after: page.at(-1)!.id }) : undefined;
        },
      },
    },
  },
};

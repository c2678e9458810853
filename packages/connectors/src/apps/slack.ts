import { z } from 'zod';
import { definePollTrigger } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel } from './helpers.ts';

const nextCursor = (res: HttpResponse) =>
  (res.body as { response_metadata?: { next_cursor?: string } })?.response_metadata?.next_cursor || undefined;

/** Errors that mean the token itself is refused: refresh it, else the user reconnects. */
const SLACK_AUTH_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'account_inactive',
]);

interface SlackMessage {
  ts: string;
  text?: string;
  user?: string;
  thread_ts?: string;
  subtype?: string;
}
const tsTime = (ts: string) => new Date(Number(ts) * 1000).toISOString();

/** https://api.slack.com/methods/conversations.history: newest first; `oldest` bounds it by the last poll. */
const newMessage = definePollTrigger({
  id: 'new_message',
  name: 'New message',
  description: 'A message is posted in a channel (polls conversations.history).',
  input: z.object({ channel: z.string().min(1).describe('Channel id, e.g. C0123456') }),
  request: (input, _settings, since) => ({
    method: 'GET',
    path: '/conversations.history',
    query: {
      channel: input.channel,
      limit: 200,
      ...(typeof since === 'string' && { oldest: (Date.parse(since) / 1000).toFixed(6), inclusive: true }),
    },
  }),
  items: (body) => (body as { messages: SlackMessage[] }).messages,
  // A message's ts is unique within its channel.
  itemId: (m: SlackMessage) => m.ts,
  itemPosition: (m: SlackMessage) => tsTime(m.ts),
  output: (m: SlackMessage) => ({
    ts: m.ts,
    text: m.text ?? '',
    user: m.user ?? null,
    threadTs: m.thread_ts ?? null,
    subtype: m.subtype ?? null,
    postedAt: tsTime(m.ts),
  }),
  paging: {
    next: (res, req) => {
      const cursor = nextCursor(res);
      return cursor ? { ...req, query: { ...req.query, cursor } } : undefined;
    },
  },
});

/** Slack Web API: https://api.slack.com/methods */
export const slack: ConnectorDefinition = {
  id: 'slack',
  name: 'Slack',
  description: 'Post messages to channels and read them.',
  category: 'communication',
  icon: 'slack',
  color: '4A154B',
  docs: 'https://api.slack.com/methods',
  baseUrl: 'https://slack.com/api',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://slack.com/oauth/v2/authorize',
    tokenUrl: 'https://slack.com/api/oauth.v2.access',
    scopes: ['chat:write', 'channels:read', 'channels:history'],
    scopeSeparator: ',',
    pkce: false,
  },
  test: { request: () => ({ method: 'POST', path: '/auth.test' }), accountLabel: bodyLabel('team', 'user') },
  // Slack answers HTTP 200 with `ok:false` for most failures.
  checkResponse: (res) => {
    const b = res.body as { ok?: boolean; error?: string } | null;
    if (!b) return undefined;
    if (b.ok !== false) return undefined;
    const error = b.error ?? 'Slack reported an error';
    return SLACK_AUTH_ERRORS.has(error) ? { message: error, auth: true } : error;
  },
  triggers: [newMessage],
  actions: [
    {
      id: 'post_message',
      name: 'Post a message',
      description: 'Sends a message to a channel (chat.postMessage).',
      kind: 'write',
      input: z.object({
        channel: z.string().min(1).describe('Channel id, e.g. C0123456'),
        text: z.string().min(1).max(40_000).describe('Message text, Slack mrkdwn'),
        thread_ts: z.string().optional().describe('Timestamp of the parent message, to reply in its thread'),
      }),
      request: (input) => ({ method: 'POST', path: '/chat.postMessage', body: input }),
    },
    {
      id: 'list_messages',
      name: 'List messages',
      description: 'Reads the latest messages of a channel (conversations.history).',
      kind: 'read',
      input: z.object({
        channel: z.string().min(1).describe('Channel id, e.g. C0123456'),
        limit: z.number().int().min(1).max(1000).default(20).describe('How many messages, newest first'),
      }),
      request: (input) => ({
        method: 'GET',
        path: '/conversations.history',
        query: { channel: input.channel, limit: input.limit },
      }),
      output: (res) => (res.body as { messages?: unknown[] }).messages ?? [],
    },
  ],
  sources: {
    channels: {
      description: 'Public channels',
      request: () => ({
        method: 'GET',
        path: '/conversations.list',
        query: { limit: 200, exclude_archived: true, types: 'public_channel' },
      }),
      items: (body) => (body as { channels?: unknown[] }).channels ?? [],
      option: (c: { id: string; name: string }) => ({ value: c.id, label: `#${c.name}` }),
      paging: {
        next: (res, req) => {
          const cursor = nextCursor(res);
          return cursor ? { ...req, query: { ...req.query, cursor } } : undefined;
        },
      },
    },
  },
};

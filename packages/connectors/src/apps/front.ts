import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpRequestSpec, HttpResponse } from '../types.ts';
import { bodyLabel, emailEnvelope, joinMessages, nextFromUrl, path } from './helpers.ts';

/** Front ids carry a type prefix: cnv_ conversations, cha_ channels, tea_ teammates. */
const frontId = (prefix: string, what: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[a-z0-9]+$`), `must be a ${what} id (${prefix}_…)`)
    .describe(`${what[0]!.toUpperCase()}${what.slice(1)} id (${prefix}_…)`);
const conversationId = frontId('cnv', 'conversation');
const authorId = frontId('tea', 'teammate')
  .optional()
  .describe('Teammate the message is sent as (teammates option source)');

/** Lists page with `_pagination.next`, an absolute URL. */
const nextPage = (res: HttpResponse, req: HttpRequestSpec) =>
  nextFromUrl(req, (res.body as { _pagination?: { next?: string | null } })._pagination?.next);
const results = (body: unknown) => (body as { _results?: unknown[] })._results ?? [];

/** Sends are queued: Front answers 202 with the message's future uid. */
const queued = (res: HttpResponse) => ({
  messageUid: (res.body as { message_uid: string }).message_uid,
  status: res.status,
});

/** Front Core API: https://dev.frontapp.com/reference/introduction */
export const front: ConnectorDefinition = {
  id: 'front',
  name: 'Front',
  description: 'Send messages from Front channels, reply to and comment on conversations, and read them.',
  category: 'support',
  icon: 'front', // not in simple-icons 13.21.0: a monogram
  color: 'A857F1',
  docs: 'https://dev.frontapp.com/reference/introduction',
  baseUrl: 'https://api2.frontapp.com',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://app.frontapp.com/oauth/authorize',
    tokenUrl: 'https://app.frontapp.com/oauth/token',
    // Scopes are chosen on the app in Front's developer settings, not in the authorize URL.
    scopes: [],
    pkce: false,
    tokenAuth: 'basic',
  },
  test: { request: () => ({ method: 'GET', path: '/me' }), accountLabel: bodyLabel('name') },
  // {"_error":{"status":404,"title":"Not found","message":"Unknown conversation cnv_x","details":[…]}}
  errorMessage: (res) => {
    const e = (res.body as { _error?: { title?: string; message?: string; details?: unknown[] } } | null)
      ?._error;
    return e ? joinMessages([e.message ?? e.title, ...(e.details ?? [])]) : undefined;
  },
  actions: [
    defineAction({
      id: 'send_message',
      name: 'Send a message',
      description:
        'Starts a new conversation by sending from a channel, e.g. a shared inbox address (POST /channels/{id}/messages).',
      kind: 'write',
      input: z
        .object({
          channelId: frontId('cha', 'channel').describe('Channel to send from (channels option source)'),
          ...emailEnvelope(100),
          body: z.string().min(1).max(1_000_000).describe('Message body, HTML'),
          authorId,
          archive: z.boolean().default(false).describe('Archive the conversation after sending'),
        })
        .omit({ replyTo: true, html: true }),
      request: (i) => ({
        method: 'POST',
        path: path`/channels/${i.channelId}/messages`,
        body: {
          to: i.to,
          cc: i.cc,
          bcc: i.bcc,
          subject: i.subject,
          body: i.body,
          author_id: i.authorId,
          options: { archive: i.archive },
        },
      }),
      output: queued,
    }),
    defineAction({
      id: 'reply_to_conversation',
      name: 'Reply to a conversation',
      description: 'Replies in a conversation through its channel (POST /conversations/{id}/messages).',
      kind: 'write',
      input: z.object({
        conversationId,
        body: z.string().min(1).max(1_000_000).describe('Reply body, HTML'),
        authorId,
        archive: z.boolean().default(false).describe('Archive the conversation after replying'),
      }),
      request: (i) => ({
        method: 'POST',
        path: path`/conversations/${i.conversationId}/messages`,
        body: { body: i.body, author_id: i.authorId, options: { archive: i.archive } },
      }),
      output: queued,
    }),
    defineAction({
      id: 'add_comment',
      name: 'Add an internal comment',
      description:
        'Adds a comment teammates see, not the customer; @mentions notify (POST /conversations/{id}/comments).',
      kind: 'write',
      input: z.object({
        conversationId,
        body: z.string().min(1).max(100_000).describe('Comment, Markdown'),
        authorId,
      }),
      request: (i) => ({
        method: 'POST',
        path: path`/conversations/${i.conversationId}/comments`,
        body: { body: i.body, author_id: i.authorId },
      }),
      output: (res) => {
        const c = res.body as {
          id: string;
          body: string;
          posted_at: number;
          author?: { email?: string } | null;
        };
        return {
          id: c.id,
          body: c.body,
          postedAt: new Date(c.posted_at * 1000).toISOString(),
          author: c.author?.email ?? null,
        };
      },
    }),
    defineAction({
      id: 'get_conversation',
      name: 'Get a conversation',
      description:
        'Reads a conversation’s subject, status, assignee, recipient and tags (GET /conversations/{id}).',
      kind: 'read',
      input: z.object({ conversationId }),
      request: (i) => ({ method: 'GET', path: path`/conversations/${i.conversationId}` }),
      output: (res) => {
        const c = res.body as {
          id: string;
          subject: string;
          status: string;
          assignee?: { id: string; email: string } | null;
          recipient?: { handle: string; role?: string } | null;
          tags?: { name: string }[];
          created_at: number;
          _links?: { self?: string };
        };
        return {
          id: c.id,
          subject: c.subject,
          status: c.status,
          assignee: c.assignee ? { id: c.assignee.id, email: c.assignee.email } : null,
          recipient: c.recipient?.handle ?? null,
          tags: (c.tags ?? []).map((t) => t.name),
          createdAt: new Date(c.created_at * 1000).toISOString(),
        };
      },
    }),
  ],
  sources: {
    channels: {
      description: 'Channels messages can be sent from',
      request: () => ({ method: 'GET', path: '/channels' }),
      items: results,
      option: (c: { id: string; name?: string; address?: string; type: string }) => ({
        value: c.id,
        label: [c.name, c.address && `<${c.address}>`].filter(Boolean).join(' ') || `${c.type} ${c.id}`,
      }),
      paging: { next: nextPage },
    },
    teammates: {
      description: 'Teammates, to send or comment as',
      request: () => ({ method: 'GET', path: '/teammates' }),
      items: results,
      option: (t: { id: string; email: string; first_name?: string; last_name?: string }) => ({
        value: t.id,
        label: [t.first_name, t.last_name].filter(Boolean).join(' ') || t.email,
      }),
      paging: { next: nextPage },
    },
  },
};

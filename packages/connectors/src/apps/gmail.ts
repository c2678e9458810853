import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { googleOAuth } from './google.ts';
import { bodyLabel, emailEnvelope, path } from './helpers.ts';

/** RFC 2047 encoded-word, so a subject may hold any Unicode. */
const encodeHeader = (v: string) =>
  /^[\x20-\x7e]*$/.test(v) ? v : `=?UTF-8?B?${Buffer.from(v).toString('base64')}?=`;

/** An RFC 5322 message with a base64 UTF-8 body, as Gmail's `raw` field wants it (base64url). */
export function mimeMessage(m: {
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  subject: string;
  body: string;
  html: boolean;
}): string {
  const headers = [
    `To: ${m.to.join(', ')}`,
    m.cc?.length ? `Cc: ${m.cc.join(', ')}` : undefined,
    m.bcc?.length ? `Bcc: ${m.bcc.join(', ')}` : undefined,
    m.replyTo ? `Reply-To: ${m.replyTo}` : undefined,
    `Subject: ${encodeHeader(m.subject)}`,
    'MIME-Version: 1.0',
    `Content-Type: text/${m.html ? 'html' : 'plain'}; charset="UTF-8"`,
    'Content-Transfer-Encoding: base64',
  ].filter(Boolean);
  const body = Buffer.from(m.body).toString('base64').replace(/.{76}/g, '$&\r\n');
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

interface Part {
  mimeType?: string;
  headers?: { name: string; value: string }[];
  body?: { data?: string };
  parts?: Part[];
}

/** The first text/plain part of a message, decoded. */
function plainText(part: Part | undefined): string | null {
  if (!part) return null;
  if (part.mimeType === 'text/plain' && part.body?.data)
    return Buffer.from(part.body.data, 'base64url').toString('utf8');
  for (const p of part.parts ?? []) {
    const text = plainText(p);
    if (text !== null) return text;
  }
  return null;
}

const METADATA = ['From', 'To', 'Cc', 'Subject', 'Date'];

/**
 * https://developers.google.com/workspace/gmail/api/reference/rest/v1/users.messages/list: ids only, newest
 * first; `after:` (seconds) bounds it by the last poll. A step reads the message with get_message.
 */
const newEmail = definePollTrigger({
  id: 'new_email',
  name: 'New email',
  description: 'An email arrives in the inbox (polls GET /users/me/messages).',
  input: z.object({
    query: z
      .string()
      .max(500)
      .default('in:inbox')
      .describe('Gmail search, e.g. in:inbox from:billing@acme.com'),
  }),
  request: (input, _settings, since) => ({
    method: 'GET',
    path: '/users/me/messages',
    query: {
      q:
        typeof since === 'string'
          ? `${input.query} after:${Math.floor(Date.parse(since) / 1000)}`
          : input.query,
      maxResults: 100,
    },
  }),
  items: (body) => (body as { messages?: { id: string; threadId: string }[] }).messages ?? [],
  itemId: (m: { id: string }) => m.id,
  output: (m: { id: string; threadId: string }) => ({ id: m.id, threadId: m.threadId }),
  paging: {
    next: (res, req) => {
      const pageToken = (res.body as { nextPageToken?: string }).nextPageToken;
      return pageToken ? { ...req, query: { ...req.query, pageToken } } : undefined;
    },
  },
});

/** Gmail API v1: https://developers.google.com/gmail/api/reference/rest */
export const gmail: ConnectorDefinition = {
  id: 'gmail',
  name: 'Gmail',
  description: 'Send email from a Gmail account and read its messages and labels.',
  category: 'communication',
  icon: 'gmail',
  color: 'EA4335',
  docs: 'https://developers.google.com/gmail/api/reference/rest',
  baseUrl: 'https://gmail.googleapis.com/gmail/v1',
  auth: {
    ...googleOAuth,
    scopes: ['https://www.googleapis.com/auth/gmail.send', 'https://www.googleapis.com/auth/gmail.readonly'],
  },
  test: {
    request: () => ({ method: 'GET', path: '/users/me/profile' }),
    accountLabel: bodyLabel('emailAddress'),
  },
  triggers: [newEmail],
  actions: [
    defineAction({
      id: 'send_email',
      name: 'Send an email',
      description: 'Sends an email as the connected account (POST /users/me/messages/send).',
      kind: 'write',
      input: z.object({
        ...emailEnvelope(100),
        body: z.string().max(5_000_000).describe('Message text'),
        threadId: z.string().optional().describe('Add the message to this thread'),
      }),
      request: ({ threadId, ...message }) => ({
        method: 'POST',
        path: '/users/me/messages/send',
        body: { raw: Buffer.from(mimeMessage(message)).toString('base64url'), ...(threadId && { threadId }) },
      }),
      output: (res) => {
        const b = res.body as { id: string; threadId: string; labelIds?: string[] };
        return { id: b.id, threadId: b.threadId, labelIds: b.labelIds ?? [] };
      },
    }),
    defineAction({
      id: 'list_messages',
      name: 'Find messages',
      description: 'Lists message ids matching a Gmail search (GET /users/me/messages).',
      kind: 'read',
      input: z.object({
        q: z.string().max(2000).optional().describe('Gmail search, e.g. from:ada@example.com is:unread'),
        labelIds: z.array(z.string()).optional().describe('Only messages with all of these labels'),
        maxResults: z.number().int().min(1).max(500).default(20).describe('Page size'),
        pageToken: z.string().optional().describe('Token of a previous page'),
      }),
      request: (input) => ({ method: 'GET', path: '/users/me/messages', query: input }),
      output: (res) => {
        const b = res.body as { messages?: { id: string; threadId: string }[]; nextPageToken?: string };
        return { messages: b.messages ?? [], nextPageToken: b.nextPageToken ?? null };
      },
    }),
    defineAction({
      id: 'get_message',
      name: 'Get a message',
      description: 'Reads a message: headers, snippet and plain-text body (GET /users/me/messages/{id}).',
      kind: 'read',
      input: z.object({
        id: z
          .string()
          .regex(/^[A-Za-z0-9]+$/)
          .describe('Message id'),
      }),
      request: (input) => ({
        method: 'GET',
        path: path`/users/me/messages/${input.id}`,
        query: { format: 'full' },
      }),
      output: (res) => {
        const m = res.body as {
          id: string;
          threadId: string;
          labelIds?: string[];
          snippet?: string;
          payload?: Part;
        };
        const header = (name: string) =>
          m.payload?.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value ?? null;
        return {
          id: m.id,
          threadId: m.threadId,
          labelIds: m.labelIds ?? [],
          ...Object.fromEntries(METADATA.map((h) => [h.toLowerCase(), header(h)])),
          snippet: m.snippet ?? '',
          text: plainText(m.payload),
        };
      },
    }),
  ],
  sources: {
    labels: {
      description: 'Labels of the mailbox',
      request: () => ({ method: 'GET', path: '/users/me/labels' }),
      items: (body) => (body as { labels?: unknown[] }).labels ?? [],
      option: (l: { id: string; name: string }) => ({ value: l.id, label: l.name }),
    },
  },
};

import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, emailEnvelope, path } from './helpers.ts';
import { GRAPH, itemBody, microsoftOAuth, odataNext, odataValue } from './microsoft.ts';

const recipients = (list?: string[]) => list?.map((address) => ({ emailAddress: { address } }));
const messageId = z.string().min(1).max(512).describe('Message id');

const SUMMARY =
  'id,subject,from,toRecipients,receivedDateTime,isRead,hasAttachments,bodyPreview,webLink,conversationId';

interface Recipient {
  emailAddress: { name?: string; address?: string };
}
interface Message {
  id: string;
  subject?: string | null;
  from?: Recipient | null;
  toRecipients?: Recipient[];
  ccRecipients?: Recipient[];
  receivedDateTime?: string;
  isRead?: boolean;
  hasAttachments?: boolean;
  bodyPreview?: string;
  body?: { contentType: string; content: string };
  webLink?: string;
  conversationId?: string;
}

const who = (r?: Recipient | null) =>
  r?.emailAddress ? { name: r.emailAddress.name ?? null, address: r.emailAddress.address ?? null } : null;

const summary = (m: Message) => ({
  id: m.id,
  subject: m.subject ?? null,
  from: who(m.from),
  to: (m.toRecipients ?? []).map(who),
  receivedAt: m.receivedDateTime ?? null,
  isRead: m.isRead ?? false,
  hasAttachments: m.hasAttachments ?? false,
  preview: m.bodyPreview ?? '',
  url: m.webLink ?? null,
  conversationId: m.conversationId ?? null,
});

/** Outlook mail through Microsoft Graph: https://learn.microsoft.com/graph/api/resources/mail-api-overview */
export const outlook: ConnectorDefinition = {
  id: 'outlook',
  name: 'Outlook',
  description: 'Send, reply to, find and read email in Outlook and Microsoft 365 mailboxes.',
  category: 'communication',
  icon: 'microsoftoutlook', // not in simple-icons 13.21.0: a monogram
  color: '0078D4',
  docs: 'https://learn.microsoft.com/graph/api/user-sendmail',
  baseUrl: GRAPH,
  auth: { ...microsoftOAuth, scopes: ['offline_access', 'User.Read', 'Mail.ReadWrite', 'Mail.Send'] },
  test: {
    request: () => ({
      method: 'GET',
      path: '/me',
      query: { $select: 'id,displayName,mail,userPrincipalName' },
    }),
    accountLabel: bodyLabel('mail', 'userPrincipalName', 'displayName'),
  },
  actions: [
    defineAction({
      id: 'send_email',
      name: 'Send an email',
      description: 'Sends an email from the mailbox and keeps it in Sent Items (POST /me/sendMail).',
      kind: 'write',
      input: z.object({
        ...emailEnvelope(500),
        body: z.string().max(4_000_000).describe('Message text, or HTML when html is true'),
        importance: z.enum(['low', 'normal', 'high']).default('normal').describe('Importance flag'),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/me/sendMail',
        body: {
          message: {
            subject: input.subject,
            body: itemBody(input.body, input.html),
            toRecipients: recipients(input.to),
            ccRecipients: recipients(input.cc),
            bccRecipients: recipients(input.bcc),
            replyTo: input.replyTo ? recipients([input.replyTo]) : undefined,
            importance: input.importance,
          },
          saveToSentItems: true,
        },
      }),
      // 202 Accepted without a body: Graph queues the message.
      output: (res) => ({ accepted: res.status === 202 }),
    }),
    defineAction({
      id: 'reply_to_message',
      name: 'Reply to an email',
      description:
        'Replies to the sender, or to everyone, keeping the thread (POST /me/messages/{id}/reply).',
      kind: 'write',
      input: z.object({
        messageId,
        comment: z.string().min(1).max(4_000_000).describe('Reply text, above the quoted message'),
        replyAll: z.boolean().default(false).describe('Reply to all recipients'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/me/messages/${input.messageId}/${input.replyAll ? 'replyAll' : 'reply'}`,
        body: { comment: input.comment },
      }),
      output: (res) => ({ accepted: res.status === 202 }),
    }),
    defineAction({
      id: 'list_messages',
      name: 'Find emails',
      description:
        'Lists messages of a folder, newest first, filtered by OData $filter or a $search phrase (GET /me/mailFolders/{folder}/messages).',
      kind: 'read',
      input: z.object({
        folder: z
          .string()
          .min(1)
          .max(512)
          .default('inbox')
          .describe(
            'Folder id (mail_folders option source) or a well-known name: inbox, sentitems, drafts, archive',
          ),
        filter: z
          .string()
          .max(2000)
          .optional()
          .describe("OData filter, e.g. isRead eq false and from/emailAddress/address eq 'ada@example.com'"),
        search: z
          .string()
          .max(500)
          .refine((v) => !v.includes('"'), 'cannot contain double quotes')
          .optional()
          .describe('Search phrase over subject, body and people; results are then by relevance'),
        top: z.number().int().min(1).max(1000).default(25).describe('How many messages'),
      }),
      request: (input) => ({
        method: 'GET',
        path: path`/me/mailFolders/${input.folder}/messages`,
        query: {
          $select: SUMMARY,
          $top: input.top,
          $filter: input.filter,
          // Graph refuses $orderby together with $search.
          ...(input.search ? { $search: `"${input.search}"` } : { $orderby: 'receivedDateTime desc' }),
        },
      }),
      output: (res) => ({
        messages: (odataValue(res.body) as Message[]).map(summary),
        hasMore: Boolean((res.body as { '@odata.nextLink'?: string })['@odata.nextLink']),
      }),
    }),
    defineAction({
      id: 'get_message',
      name: 'Get an email',
      description: 'Reads a message with its body as plain text (GET /me/messages/{id}).',
      kind: 'read',
      input: z.object({ messageId }),
      request: (input) => ({
        method: 'GET',
        path: path`/me/messages/${input.messageId}`,
        query: { $select: `${SUMMARY},ccRecipients,body` },
        headers: { Prefer: 'outlook.body-content-type="text"' },
      }),
      output: (res) => {
        const m = res.body as Message;
        return { ...summary(m), cc: (m.ccRecipients ?? []).map(who), text: m.body?.content ?? '' };
      },
    }),
  ],
  sources: {
    mail_folders: {
      description: 'Top-level mail folders',
      request: () => ({ method: 'GET', path: '/me/mailFolders', query: { $top: 100 } }),
      items: odataValue,
      option: (f: { id: string; displayName: string }) => ({ value: f.id, label: f.displayName }),
      paging: { next: odataNext },
    },
  },
};

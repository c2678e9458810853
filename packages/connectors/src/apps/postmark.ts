import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, emailEnvelope, emailSender, secretField, withQuery } from './helpers.ts';

const PAGE = 100;

/** `{"ErrorCode":300,"Message":"Invalid 'From' address"}`; ErrorCode 0 means success. */
function postmarkError(res: HttpResponse): string | undefined {
  const b = res.body as { ErrorCode?: number; Message?: string } | null;
  if (!b || typeof b !== 'object' || !b.ErrorCode) return undefined;
  return `${b.Message ?? 'Postmark error'} (ErrorCode ${b.ErrorCode})`;
}

const sending = {
  from: emailSender('Sender signature or an address of a verified domain, e.g. "Acme <hello@acme.com>"'),
  ...emailEnvelope(50),
  tag: z.string().max(1000).optional().describe('Tag, for statistics and searches'),
  messageStream: z
    .string()
    .max(100)
    .default('outbound')
    .describe('Message stream (message_streams option source); "outbound" is the default transactional one'),
  metadata: z.record(z.string(), z.string()).optional().describe('Key-value metadata kept with the message'),
};
const envelope = (i: {
  from: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  tag?: string;
  messageStream: string;
  metadata?: Record<string, string>;
}) => ({
  From: i.from,
  To: i.to.join(', '),
  Cc: i.cc?.join(', '),
  Bcc: i.bcc?.join(', '),
  ReplyTo: i.replyTo,
  Tag: i.tag,
  MessageStream: i.messageStream,
  Metadata: i.metadata,
});
const sent = (res: HttpResponse) => {
  const b = res.body as { MessageID: string; SubmittedAt: string; To: string };
  return { messageId: b.MessageID, submittedAt: b.SubmittedAt, to: b.To };
};

/** Postmark API: https://postmarkapp.com/developer/api/overview */
export const postmark: ConnectorDefinition = {
  id: 'postmark',
  name: 'Postmark',
  description: 'Send transactional email, plain or from templates, and search sent messages in Postmark.',
  category: 'marketing',
  icon: 'postmark', // not in simple-icons 13.21.0: a monogram
  color: 'FFDE00',
  docs: 'https://postmarkapp.com/developer/api/email-api',
  baseUrl: 'https://api.postmarkapp.com',
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Postmark-Server-Token',
    format: '{serverToken}',
    fields: [secretField('serverToken', 'Server API token', { help: 'Postmark: your server → API Tokens' })],
  },
  test: { request: () => ({ method: 'GET', path: '/server' }), accountLabel: bodyLabel('Name') },
  errorMessage: postmarkError,
  checkResponse: postmarkError,
  actions: [
    defineAction({
      id: 'send_email',
      name: 'Send an email',
      description: 'Sends one email (POST /email).',
      kind: 'write',
      input: z.object({
        ...sending,
        body: z.string().max(5_000_000).describe('Message text, or HTML when html is true'),
        trackOpens: z.boolean().optional().describe('Track opens (HTML only)'),
      }),
      request: (i) => ({
        method: 'POST',
        path: '/email',
        body: {
          ...envelope(i),
          Subject: i.subject,
          [i.html ? 'HtmlBody' : 'TextBody']: i.body,
          TrackOpens: i.trackOpens,
        },
      }),
      output: sent,
    }),
    defineAction({
      id: 'send_email_with_template',
      name: 'Send a template email',
      description: 'Sends an email from a stored template filled with a model (POST /email/withTemplate).',
      kind: 'write',
      input: z
        .object({
          ...sending,
          template: z
            .union([z.number().int().positive(), z.string().min(1).max(255)])
            .describe('Template (templates option source): its numeric id or its alias'),
          model: z
            .record(z.string(), z.unknown())
            .default({})
            .describe('Template model, e.g. {"name":"Ada"}'),
        })
        .omit({ subject: true, html: true }),
      request: ({ template, model, ...i }) => ({
        method: 'POST',
        path: '/email/withTemplate',
        body: {
          ...envelope(i),
          ...(typeof template === 'number' || /^\d+$/.test(template)
            ? { TemplateId: Number(template) }
            : { TemplateAlias: template }),
          TemplateModel: model,
        },
      }),
      output: sent,
    }),
    defineAction({
      id: 'search_messages',
      name: 'Search sent messages',
      description: 'Finds sent messages by recipient, tag or status, newest first (GET /messages/outbound).',
      kind: 'read',
      input: z.object({
        recipient: z.email().optional().describe('Only messages to this address'),
        tag: z.string().max(1000).optional().describe('Only messages with this tag'),
        status: z.enum(['queued', 'sent']).optional().describe('Only queued or sent messages'),
        messageStream: z.string().max(100).optional().describe('Only this message stream'),
        count: z.number().int().min(1).max(500).default(50).describe('How many messages'),
        offset: z.number().int().min(0).max(10_000).default(0).describe('How many to skip'),
      }),
      request: (i) => ({ method: 'GET', path: '/messages/outbound', query: i }),
      output: (res) => {
        const b = res.body as {
          TotalCount: number;
          Messages: {
            MessageID: string;
            Subject: string;
            Status: string;
            ReceivedAt: string;
            Tag?: string;
            To?: { Email: string }[];
            MessageStream?: string;
          }[];
        };
        return {
          total: b.TotalCount,
          messages: b.Messages.map((m) => ({
            messageId: m.MessageID,
            subject: m.Subject,
            status: m.Status,
            receivedAt: m.ReceivedAt,
            tag: m.Tag || null,
            to: (m.To ?? []).map((t) => t.Email),
            messageStream: m.MessageStream ?? null,
          })),
        };
      },
    }),
  ],
  sources: {
    templates: {
      description: 'Active templates of the server',
      request: () => ({
        method: 'GET',
        path: '/templates',
        query: { count: PAGE, offset: 0, TemplateType: 'Standard' },
      }),
      items: (body) =>
        ((body as { Templates?: { Active?: boolean }[] }).Templates ?? []).filter((t) => t.Active !== false),
      option: (t: { TemplateId: number; Name: string; Alias?: string | null }) => ({
        value: t.Alias || String(t.TemplateId),
        label: t.Name,
      }),
      paging: {
        next: (res, req) => {
          const offset = Number(req.query?.offset ?? 0) + PAGE;
          return offset < ((res.body as { TotalCount?: number }).TotalCount ?? 0)
            ? withQuery(req, { offset })
            : undefined;
        },
      },
    },
    message_streams: {
      description: 'Message streams of the server',
      request: () => ({
        method: 'GET',
        path: '/message-streams',
        query: { MessageStreamType: 'All', IncludeArchivedStreams: false },
      }),
      items: (body) =>
        ((body as { MessageStreams?: { MessageStreamType: string }[] }).MessageStreams ?? []).filter(
          (s) => s.MessageStreamType !== 'Inbound',
        ),
      option: (s: { ID: string; Name: string; MessageStreamType: string }) => ({
        value: s.ID,
        label: `${s.Name} (${s.MessageStreamType})`,
      }),
    },
  },
};

import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, path } from './helpers.ts';

const account = (settings: Record<string, string>) => path`/2010-04-01/Accounts/${settings.accountSid ?? ''}`;
const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number such as +14155550123');

interface Message {
  sid: string;
  status: string;
  to: string;
  from: string | null;
  body: string;
  direction: string;
  num_segments: string;
  date_created: string;
  error_code: number | null;
  error_message: string | null;
}

const message = (m: Message) => ({
  sid: m.sid,
  status: m.status,
  to: m.to,
  from: m.from,
  body: m.body,
  direction: m.direction,
  segments: Number(m.num_segments),
  dateCreated: m.date_created,
  errorCode: m.error_code,
  errorMessage: m.error_message,
});

/** Twilio repeats `MediaUrl` once per file, which an object body cannot express. */
function smsForm(m: {
  to: string;
  from?: string;
  messagingServiceSid?: string;
  body: string;
  mediaUrl?: string[];
}) {
  const form = new URLSearchParams({ To: m.to, Body: m.body });
  if (m.from) form.set('From', m.from);
  if (m.messagingServiceSid) form.set('MessagingServiceSid', m.messagingServiceSid);
  for (const url of m.mediaUrl ?? []) form.append('MediaUrl', url);
  return form;
}

/** Twilio Programmable Messaging: https://www.twilio.com/docs/messaging/api/message-resource */
export const twilio: ConnectorDefinition = {
  id: 'twilio',
  name: 'Twilio',
  description: 'Send SMS and MMS with Twilio and read message history.',
  category: 'communication',
  icon: 'twilio',
  color: 'F22F46',
  docs: 'https://www.twilio.com/docs/messaging/api/message-resource',
  baseUrl: 'https://api.twilio.com',
  auth: {
    type: 'basic',
    username: '{accountSid}',
    password: '{authToken}',
    fields: [
      {
        name: 'accountSid',
        label: 'Account SID',
        type: 'text',
        required: true,
        secret: false,
        placeholder: 'AC…',
      },
      { name: 'authToken', label: 'Auth token', type: 'password', required: true, secret: true },
    ],
  },
  test: {
    request: (settings) => ({ method: 'GET', path: `${account(settings)}.json` }),
    accountLabel: bodyLabel('friendly_name', 'sid'),
  },
  actions: [
    defineAction({
      id: 'send_sms',
      name: 'Send an SMS',
      description: 'Sends a text message, or an MMS with media (POST /Accounts/{sid}/Messages.json).',
      kind: 'write',
      input: z
        .object({
          to: e164.describe('Recipient, E.164'),
          from: e164.optional().describe('Sending number (phone_numbers option source)'),
          messagingServiceSid: z
            .string()
            .regex(/^MG[0-9a-f]{32}$/)
            .optional()
            .describe('Send through a Messaging Service instead of one number'),
          body: z.string().min(1).max(1600).describe('Message text'),
          mediaUrl: z
            .array(z.url({ protocol: /^https?$/ }))
            .max(10)
            .optional()
            .describe('Public media URLs (MMS)'),
        })
        .refine((m) => m.from || m.messagingServiceSid, {
          message: 'give from or messagingServiceSid',
          path: ['from'],
        }),
      request: (input, settings) => ({
        method: 'POST',
        path: `${account(settings)}/Messages.json`,
        bodyType: 'form',
        body: smsForm(input),
      }),
      output: (res) => message(res.body as Message),
    }),
    defineAction({
      id: 'get_message',
      name: 'Get a message',
      description: 'Reads a message and its delivery status (GET /Accounts/{sid}/Messages/{sid}.json).',
      kind: 'read',
      input: z.object({
        sid: z
          .string()
          .regex(/^(SM|MM)[0-9a-f]{32}$/)
          .describe('Message SID'),
      }),
      request: (input, settings) => ({
        method: 'GET',
        path: `${account(settings)}${path`/Messages/${input.sid}.json`}`,
      }),
      output: (res) => message(res.body as Message),
    }),
    defineAction({
      id: 'list_messages',
      name: 'List messages',
      description:
        'Lists recent messages, newest first, optionally to or from a number (GET /Accounts/{sid}/Messages.json).',
      kind: 'read',
      input: z.object({
        to: e164.optional().describe('Only messages to this number'),
        from: e164.optional().describe('Only messages from this number'),
        pageSize: z.number().int().min(1).max(1000).default(50).describe('How many'),
      }),
      request: (input, settings) => ({
        method: 'GET',
        path: `${account(settings)}/Messages.json`,
        query: { To: input.to, From: input.from, PageSize: input.pageSize },
      }),
      output: (res) => (res.body as { messages: Message[] }).messages.map(message),
    }),
  ],
  sources: {
    phone_numbers: {
      description: 'Phone numbers of the account',
      request: (settings) => ({
        method: 'GET',
        path: `${account(settings)}/IncomingPhoneNumbers.json`,
        query: { PageSize: 100 },
      }),
      items: (body) => (body as { incoming_phone_numbers?: unknown[] }).incoming_phone_numbers ?? [],
      option: (n: { phone_number: string; friendly_name: string }) => ({
        value: n.phone_number,
        label:
          n.friendly_name && n.friendly_name !== n.phone_number
            ? `${n.friendly_name} (${n.phone_number})`
            : n.phone_number,
      }),
      paging: {
        // `next_page_uri` is a path with its query, e.g. /2010-04-01/Accounts/AC…/IncomingPhoneNumbers.json?Page=1&PageToken=PN…
        next: (res) => {
          const next = (res.body as { next_page_uri?: string | null }).next_page_uri;
          return next?.startsWith('/2010-04-01/') ? { method: 'GET', path: next } : undefined;
        },
      },
    },
  },
};

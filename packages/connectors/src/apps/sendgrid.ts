import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { joinMessages, nextFromUrl, withQuery } from './helpers.ts';

const addresses = z.array(z.email()).max(1000);
const SENDERS_PAGE = 100;

interface Contact {
  id: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  list_ids?: string[];
  created_at?: string;
}

/** Twilio SendGrid v3 API: https://www.twilio.com/docs/sendgrid/api-reference */
export const sendgrid: ConnectorDefinition = {
  id: 'sendgrid',
  name: 'SendGrid',
  description: 'Send transactional email and manage Marketing Campaigns contacts with Twilio SendGrid.',
  category: 'marketing',
  icon: 'sendgrid',
  color: '51A9E3',
  docs: 'https://www.twilio.com/docs/sendgrid/api-reference',
  baseUrl: 'https://api.sendgrid.com/v3',
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    format: 'Bearer {apiKey}',
    fields: [
      {
        name: 'apiKey',
        label: 'API key',
        type: 'password',
        required: true,
        secret: true,
        placeholder: 'SG.…',
        help: 'Settings → API Keys; needs Mail Send and Marketing access',
      },
    ],
  },
  test: { request: () => ({ method: 'GET', path: '/scopes' }) },
  // {"errors":[{"message":"...","field":"from.email"}]}: every entry matters.
  errorMessage: (res) => {
    const errors = (res.body as { errors?: { message?: string; field?: string | null }[] } | null)?.errors;
    return Array.isArray(errors)
      ? joinMessages(errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)))
      : undefined;
  },
  actions: [
    defineAction({
      id: 'send_email',
      name: 'Send an email',
      description: 'Sends an email, from text/HTML or a dynamic template (POST /mail/send).',
      kind: 'write',
      input: z
        .object({
          from: z.email().describe('Verified sender address (senders option source)'),
          fromName: z.string().max(256).optional().describe('Sender name'),
          to: addresses.min(1).describe('Recipients; each sees the others'),
          cc: addresses.optional().describe('Copy addresses'),
          bcc: addresses.optional().describe('Blind-copy addresses'),
          replyTo: z.email().optional().describe('Reply-To address'),
          subject: z.string().max(998).optional().describe('Subject; a template may set it'),
          text: z.string().optional().describe('Plain-text body'),
          html: z.string().optional().describe('HTML body'),
          templateId: z
            .string()
            .regex(/^d-[0-9a-f]{32}$/)
            .optional()
            .describe('Dynamic template id (d-…)'),
          templateData: z
            .record(z.string(), z.unknown())
            .optional()
            .describe('Data for the dynamic template'),
          categories: z.array(z.string().max(255)).max(10).optional().describe('Categories for statistics'),
        })
        .refine((m) => m.templateId || ((m.text || m.html) && m.subject), {
          message: 'give subject with text or html, or a templateId',
          path: ['text'],
        }),
      request: (input) => ({
        method: 'POST',
        path: '/mail/send',
        body: {
          personalizations: [
            {
              to: input.to.map((email) => ({ email })),
              ...(input.cc?.length && { cc: input.cc.map((email) => ({ email })) }),
              ...(input.bcc?.length && { bcc: input.bcc.map((email) => ({ email })) }),
              ...(input.templateData && { dynamic_template_data: input.templateData }),
            },
          ],
          from: { email: input.from, ...(input.fromName && { name: input.fromName }) },
          ...(input.replyTo && { reply_to: { email: input.replyTo } }),
          ...(input.subject && { subject: input.subject }),
          ...((input.text || input.html) && {
            content: [
              ...(input.text ? [{ type: 'text/plain', value: input.text }] : []),
              ...(input.html ? [{ type: 'text/html', value: input.html }] : []),
            ],
          }),
          ...(input.templateId && { template_id: input.templateId }),
          ...(input.categories && { categories: input.categories }),
        },
      }),
      // 202 with an empty body; the id to look the message up by comes in a header.
      output: (res) => ({ accepted: res.status === 202, messageId: res.headers['x-message-id'] ?? null }),
    }),
    defineAction({
      id: 'upsert_contacts',
      name: 'Add or update contacts',
      description:
        'Adds or updates Marketing contacts, optionally into lists; runs as a job (PUT /marketing/contacts).',
      kind: 'write',
      input: z.object({
        listIds: z.array(z.uuid()).optional().describe('Lists to add the contacts to (lists option source)'),
        contacts: z
          .array(
            z.object({
              email: z.email().describe('Email address'),
              first_name: z.string().max(50).optional().describe('First name'),
              last_name: z.string().max(50).optional().describe('Last name'),
            }),
          )
          .min(1)
          .max(30_000)
          .describe('Contacts; existing ones are matched by email'),
      }),
      request: (input) => ({
        method: 'PUT',
        path: '/marketing/contacts',
        body: { ...(input.listIds && { list_ids: input.listIds }), contacts: input.contacts },
      }),
      output: (res) => ({ jobId: (res.body as { job_id: string }).job_id }),
    }),
    defineAction({
      id: 'get_contacts',
      name: 'Find contacts by email',
      description: 'Looks up Marketing contacts by email (POST /marketing/contacts/search/emails).',
      kind: 'read',
      input: z.object({ emails: z.array(z.email()).min(1).max(100).describe('Email addresses') }),
      request: (input) => ({ method: 'POST', path: '/marketing/contacts/search/emails', body: input }),
      output: (res) =>
        Object.values((res.body as { result?: Record<string, { contact?: Contact }> }).result ?? {})
          .flatMap((r) => (r.contact ? [r.contact] : []))
          .map((c) => ({
            id: c.id,
            email: c.email,
            firstName: c.first_name ?? null,
            lastName: c.last_name ?? null,
            listIds: c.list_ids ?? [],
          })),
    }),
  ],
  sources: {
    senders: {
      description: 'Verified sender identities',
      request: () => ({ method: 'GET', path: '/verified_senders', query: { limit: SENDERS_PAGE } }),
      items: (body) =>
        ((body as { results?: { verified?: boolean }[] }).results ?? []).filter((s) => s.verified),
      option: (s: { from_email: string; from_name?: string; nickname?: string }) => ({
        value: s.from_email,
        label: s.from_name ? `${s.from_name} <${s.from_email}>` : s.from_email,
      }),
      paging: {
        next: (res, req) => {
          const page = (res.body as { results?: { id: number }[] }).results ?? [];
          return page.length === SENDERS_PAGE ? withQuery(req, { lastSeenID: page.at(-1)!.id }) : undefined;
        },
      },
    },
    lists: {
      description: 'Marketing contact lists',
      request: () => ({ method: 'GET', path: '/marketing/lists', query: { page_size: 100 } }),
      items: (body) => (body as { result?: unknown[] }).result ?? [],
      option: (l: { id: string; name: string; contact_count?: number }) => ({ value: l.id, label: l.name }),
      paging: {
        next: (res, req) => nextFromUrl(req, (res.body as { _metadata?: { next?: string } })._metadata?.next),
      },
    },
  },
};

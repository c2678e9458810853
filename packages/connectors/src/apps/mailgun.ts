import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import {
  bodyLabel,
  emailEnvelope,
  emailSender,
  nextFromUrl,
  path,
  secretField,
  settingField,
  withQuery,
} from './helpers.ts';

const PAGE = 100;
/** US accounts use api.mailgun.net, EU ones api.eu.mailgun.net. */
const REGIONS: Record<string, string> = { us: '', eu: '.eu' };

const domain = z
  .string()
  .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'must be a sending domain such as mg.acme.com')
  .describe('Sending domain (domains option source), e.g. mg.acme.com');
const listAddress = z.email().describe('Mailing list address (lists option source), e.g. news@mg.acme.com');

/** `next` links of Mailgun's cursor lists keep the path; only their query matters. */
const pagingNext = (res: HttpResponse, req: Parameters<typeof nextFromUrl>[0]) => {
  const b = res.body as { items?: unknown[]; paging?: { next?: string } };
  return b.items?.length ? nextFromUrl(req, b.paging?.next) : undefined;
};

interface MailEvent {
  id: string;
  event: string;
  timestamp: number;
  recipient?: string;
  reason?: string;
  severity?: string;
  'delivery-status'?: { code?: number; message?: string; description?: string };
  message?: { headers?: { 'message-id'?: string; subject?: string; from?: string } };
  tags?: string[];
}

/** Mailgun API: https://documentation.mailgun.com/docs/mailgun/api-reference/ */
export const mailgun: ConnectorDefinition = {
  id: 'mailgun',
  name: 'Mailgun',
  description:
    'Send email (plain or from templates) through Mailgun, manage mailing lists, and read delivery events.',
  category: 'marketing',
  icon: 'mailgun',
  color: 'F06B66',
  docs: 'https://documentation.mailgun.com/docs/mailgun/api-reference/',
  baseUrl: 'https://api{zone}.mailgun.net',
  auth: {
    type: 'basic',
    // Mailgun takes the literal user "api" and the key as the password.
    username: 'api',
    password: '{apiKey}',
    fields: [
      secretField('apiKey', 'API key', {
        help: 'Mailgun: API Security → Mailgun API keys (not a sending key)',
      }),
      settingField('region', 'Region', {
        placeholder: 'us',
        help: 'us, or eu for accounts in the EU region',
      }),
    ],
  },
  settings: (f) => ({ zone: REGIONS[(f.region ?? 'us').trim().toLowerCase()] ?? '' }),
  test: {
    request: () => ({ method: 'GET', path: '/v4/domains', query: { limit: 1 } }),
    accountLabel: bodyLabel('items.0.name'),
  },
  actions: [
    defineAction({
      id: 'send_email',
      name: 'Send an email',
      description:
        'Sends an email from a domain, as text, HTML or a stored template with variables (POST /v3/{domain}/messages).',
      kind: 'write',
      input: z
        .object({
          domain,
          from: emailSender('Sender, e.g. "Acme <hello@mg.acme.com>"'),
          ...emailEnvelope(1000),
          text: z.string().max(10_000_000).optional().describe('Plain-text body'),
          htmlBody: z.string().max(10_000_000).optional().describe('HTML body'),
          template: z.string().max(255).optional().describe('Name of a stored template, instead of a body'),
          variables: z
            .record(z.string(), z.unknown())
            .optional()
            .describe('Template variables, e.g. {"first_name":"Ada"}'),
          tags: z.array(z.string().min(1).max(128)).max(10).optional().describe('Tags, for analytics'),
        })
        .omit({ html: true })
        .refine((i) => i.text || i.htmlBody || i.template, {
          message: 'give text, htmlBody or template',
          path: ['text'],
        }),
      request: (i) => {
        // Repeated keys (several recipients, tags) need URLSearchParams.
        const form = new URLSearchParams({ from: i.from, subject: i.subject });
        for (const to of i.to) form.append('to', to);
        for (const cc of i.cc ?? []) form.append('cc', cc);
        for (const bcc of i.bcc ?? []) form.append('bcc', bcc);
        if (i.replyTo) form.set('h:Reply-To', i.replyTo);
        if (i.text) form.set('text', i.text);
        if (i.htmlBody) form.set('html', i.htmlBody);
        if (i.template) form.set('template', i.template);
        if (i.variables) form.set('t:variables', JSON.stringify(i.variables));
        for (const tag of i.tags ?? []) form.append('o:tag', tag);
        return { method: 'POST', path: path`/v3/${i.domain}/messages`, body: form, bodyType: 'form' };
      },
      output: (res) => {
        const b = res.body as { id: string; message: string };
        return { id: b.id, message: b.message };
      },
    }),
    defineAction({
      id: 'add_list_member',
      name: 'Add to a mailing list',
      description: 'Adds or updates a member of a mailing list (POST /v3/lists/{list}/members).',
      kind: 'write',
      input: z.object({
        list: listAddress,
        address: z.email().describe('Member email address'),
        name: z.string().max(255).optional().describe('Member name'),
        vars: z.record(z.string(), z.unknown()).optional().describe('Custom variables, e.g. {"plan":"pro"}'),
        subscribed: z.boolean().default(true).describe('Subscribed (true) or unsubscribed'),
      }),
      request: (i) => ({
        method: 'POST',
        path: path`/v3/lists/${i.list}/members`,
        bodyType: 'form',
        body: {
          address: i.address,
          name: i.name,
          vars: i.vars && JSON.stringify(i.vars),
          subscribed: i.subscribed ? 'yes' : 'no',
          upsert: 'yes',
        },
      }),
      output: (res) => {
        const m = (
          res.body as { member: { address: string; name: string; subscribed: boolean; vars: object } }
        ).member;
        return { address: m.address, name: m.name || null, subscribed: m.subscribed, vars: m.vars };
      },
    }),
    defineAction({
      id: 'list_events',
      name: 'List delivery events',
      description:
        'Reads delivery events of a domain, e.g. failures or opens for a recipient, newest first (GET /v3/{domain}/events).',
      kind: 'read',
      input: z.object({
        domain,
        event: z
          .enum([
            'accepted',
            'delivered',
            'failed',
            'opened',
            'clicked',
            'unsubscribed',
            'complained',
            'stored',
          ])
          .optional()
          .describe('Only this kind of event'),
        recipient: z.email().optional().describe('Only events of this recipient'),
        begin: z.iso.datetime({ offset: true }).optional().describe('Events at or after, ISO 8601'),
        limit: z.number().int().min(1).max(300).default(50).describe('How many events'),
      }),
      request: (i) => ({
        method: 'GET',
        path: path`/v3/${i.domain}/events`,
        query: {
          event: i.event,
          recipient: i.recipient,
          // Mailgun reads RFC 2822 dates or Unix seconds here.
          begin: i.begin && Date.parse(i.begin) / 1000,
          limit: i.limit,
          ascending: 'no',
        },
      }),
      output: (res) =>
        ((res.body as { items?: MailEvent[] }).items ?? []).map((e) => ({
          id: e.id,
          event: e.event,
          at: new Date(e.timestamp * 1000).toISOString(),
          recipient: e.recipient ?? null,
          messageId: e.message?.headers?.['message-id'] ?? null,
          subject: e.message?.headers?.subject ?? null,
          reason: e.reason ?? null,
          severity: e.severity ?? null,
          deliveryMessage: e['delivery-status']?.message || e['delivery-status']?.description || null,
          tags: e.tags ?? [],
        })),
    }),
  ],
  sources: {
    domains: {
      description: 'Active sending domains',
      request: () => ({
        method: 'GET',
        path: '/v4/domains',
        query: { limit: PAGE, skip: 0, state: 'active' },
      }),
      items: (body) => (body as { items?: unknown[] }).items ?? [],
      option: (d: { name: string }) => ({ value: d.name, label: d.name }),
      paging: {
        next: (res, req) =>
          ((res.body as { items?: unknown[] }).items?.length ?? 0) === PAGE
            ? withQuery(req, { skip: Number(req.query?.skip ?? 0) + PAGE })
            : undefined,
      },
    },
    lists: {
      description: 'Mailing lists',
      request: () => ({ method: 'GET', path: '/v3/lists/pages', query: { limit: PAGE } }),
      items: (body) => (body as { items?: unknown[] }).items ?? [],
      option: (l: { address: string; name?: string }) => ({
        value: l.address,
        label: l.name ? `${l.name} <${l.address}>` : l.address,
      }),
      paging: { next: pagingNext },
    },
  },
};

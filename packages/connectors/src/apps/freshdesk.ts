import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, detailedMessage, linkHeaderNext, path, secretField, settingField } from './helpers.ts';

const STATUS = { open: 2, pending: 3, resolved: 4, closed: 5 } as const;
const PRIORITY = { low: 1, medium: 2, high: 3, urgent: 4 } as const;
const nameOf = <T extends Record<string, number>>(map: T, n: number) =>
  (Object.keys(map) as (keyof T & string)[]).find((k) => map[k] === n) ?? String(n);

const ticketId = z.number().int().positive().describe('Ticket number');
const id = (what: string) => z.number().int().positive().describe(what);
const status = z.enum(['open', 'pending', 'resolved', 'closed']).describe('Status');
const priority = z.enum(['low', 'medium', 'high', 'urgent']).describe('Priority');
const customFields = z
  .record(z.string().regex(/^cf_[a-z0-9_]+$/), z.unknown())
  .optional()
  .describe('Custom fields by name, e.g. {"cf_plan":"Pro"}');

interface Ticket {
  id: number;
  subject: string;
  status: number;
  priority: number;
  type: string | null;
  requester_id: number;
  responder_id: number | null;
  group_id: number | null;
  tags?: string[];
  due_by?: string | null;
  created_at: string;
  updated_at: string;
  description_text?: string;
  requester?: { email?: string; name?: string };
}
const ticket = (t: Ticket) => ({
  id: t.id,
  subject: t.subject,
  status: nameOf(STATUS, t.status),
  priority: nameOf(PRIORITY, t.priority),
  type: t.type,
  requesterId: t.requester_id,
  requesterEmail: t.requester?.email ?? null,
  responderId: t.responder_id,
  groupId: t.group_id,
  tags: t.tags ?? [],
  dueBy: t.due_by ?? null,
  description: t.description_text ?? null,
  createdAt: t.created_at,
  updatedAt: t.updated_at,
});
const ticketOutput = (res: HttpResponse) => ticket(res.body as Ticket);

/** Freshdesk API v2: https://developers.freshdesk.com/api/ */
export const freshdesk: ConnectorDefinition = {
  id: 'freshdesk',
  name: 'Freshdesk',
  description: 'Create, update and read Freshdesk tickets, and reply to them or add notes.',
  category: 'support',
  icon: 'freshdesk', // not in simple-icons 13.21.0: a monogram
  color: '25C16F',
  docs: 'https://developers.freshdesk.com/api/#tickets',
  baseUrl: 'https://{domain}.freshdesk.com/api/v2',
  auth: {
    type: 'basic',
    // The API key is the user name; the password is any placeholder.
    username: '{apiKey}',
    password: 'X',
    fields: [
      settingField('domain', 'Helpdesk domain', {
        placeholder: 'acme',
        help: 'The part before .freshdesk.com',
      }),
      secretField('apiKey', 'API key', {
        help: 'Freshdesk: your profile picture → Profile settings → API key',
      }),
    ],
  },
  test: {
    request: () => ({ method: 'GET', path: '/agents/me' }),
    accountLabel: bodyLabel('contact.email', 'contact.name'),
  },
  // {"description":"Validation failed","errors":[{"field":"email","message":"…","code":"invalid_value"}]}
  errorMessage: (res) => {
    const b = res.body as { description?: string; errors?: { field?: string; message?: string }[] } | null;
    return detailedMessage(b?.description, b?.errors);
  },
  actions: [
    defineAction({
      id: 'create_ticket',
      name: 'Create a ticket',
      description: 'Creates a ticket for a requester by email (POST /tickets).',
      kind: 'write',
      input: z.object({
        email: z.email().describe('Requester email; a contact is created when new'),
        name: z.string().max(255).optional().describe('Requester name, for a new contact'),
        subject: z.string().min(1).max(255).describe('Subject'),
        description: z.string().min(1).max(100_000).describe('First message, HTML'),
        status: status.default('open'),
        priority: priority.default('low'),
        type: z.string().max(255).optional().describe('Ticket type, as configured in the helpdesk'),
        groupId: id('Group (groups option source)').optional(),
        responderId: id('Agent to assign (agents option source)').optional(),
        tags: z.array(z.string().min(1).max(32)).max(50).optional().describe('Tags'),
        ccEmails: z.array(z.email()).max(50).optional().describe('Addresses copied on the ticket'),
        customFields,
      }),
      request: (i) => ({
        method: 'POST',
        path: '/tickets',
        body: {
          email: i.email,
          name: i.name,
          subject: i.subject,
          description: i.description,
          status: STATUS[i.status],
          priority: PRIORITY[i.priority],
          // 2: created through the portal/API rather than by email, phone or chat.
          source: 2,
          type: i.type,
          group_id: i.groupId,
          responder_id: i.responderId,
          tags: i.tags,
          cc_emails: i.ccEmails,
          custom_fields: i.customFields,
        },
      }),
      output: ticketOutput,
    }),
    defineAction({
      id: 'update_ticket',
      name: 'Update a ticket',
      description:
        'Changes the status, priority, assignment, type, tags or fields of a ticket (PUT /tickets/{id}).',
      kind: 'write',
      input: z.object({
        ticketId,
        status: status.optional(),
        priority: priority.optional(),
        type: z.string().max(255).optional().describe('Ticket type'),
        groupId: id('Group (groups option source)').optional(),
        responderId: id('Agent to assign (agents option source)').optional(),
        tags: z
          .array(z.string().min(1).max(32))
          .max(50)
          .optional()
          .describe('Tags, replacing the current ones'),
        customFields,
      }),
      request: (i) => ({
        method: 'PUT',
        path: path`/tickets/${i.ticketId}`,
        body: {
          status: i.status && STATUS[i.status],
          priority: i.priority && PRIORITY[i.priority],
          type: i.type,
          group_id: i.groupId,
          responder_id: i.responderId,
          tags: i.tags,
          custom_fields: i.customFields,
        },
      }),
      output: ticketOutput,
    }),
    defineAction({
      id: 'add_comment',
      name: 'Reply or add a note',
      description:
        'Emails a reply to the requester (POST /tickets/{id}/reply) or adds a private or public note (POST /tickets/{id}/notes).',
      kind: 'write',
      input: z.object({
        ticketId,
        body: z.string().min(1).max(100_000).describe('Message, HTML'),
        kind: z
          .enum(['reply', 'note'])
          .default('reply')
          .describe('reply emails the requester; note stays in the helpdesk'),
        private: z.boolean().default(true).describe('For a note: visible to agents only'),
      }),
      request: (i) =>
        i.kind === 'reply'
          ? { method: 'POST', path: path`/tickets/${i.ticketId}/reply`, body: { body: i.body } }
          : {
              method: 'POST',
              path: path`/tickets/${i.ticketId}/notes`,
              body: { body: i.body, private: i.private },
            },
      output: (res) => {
        const c = res.body as { id: number; ticket_id: number; private?: boolean; created_at: string };
        return { id: c.id, ticketId: c.ticket_id, private: c.private ?? false, createdAt: c.created_at };
      },
    }),
    defineAction({
      id: 'get_ticket',
      name: 'Get a ticket',
      description: 'Reads a ticket with its requester (GET /tickets/{id}?include=requester).',
      kind: 'read',
      input: z.object({ ticketId }),
      request: (i) => ({
        method: 'GET',
        path: path`/tickets/${i.ticketId}`,
        query: { include: 'requester' },
      }),
      output: ticketOutput,
    }),
  ],
  sources: {
    groups: {
      description: 'Agent groups',
      request: () => ({ method: 'GET', path: '/groups', query: { per_page: 100 } }),
      items: (body) => body as unknown[],
      option: (g: { id: number; name: string }) => ({ value: String(g.id), label: g.name }),
      paging: { next: linkHeaderNext },
    },
    agents: {
      description: 'Agents',
      request: () => ({ method: 'GET', path: '/agents', query: { per_page: 100 } }),
      items: (body) => body as unknown[],
      option: (a: { id: number; contact: { name: string; email: string } }) => ({
        value: String(a.id),
        label: `${a.contact.name} <${a.contact.email}>`,
      }),
      paging: { next: linkHeaderNext },
    },
  },
};

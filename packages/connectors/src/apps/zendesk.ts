import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, joinMessages, path, withQuery } from './helpers.ts';

const ticketId = z.number().int().positive().describe('Ticket number');

interface Ticket {
  id: number;
  subject: string | null;
  status: string;
  priority: string | null;
  type: string | null;
  tags: string[];
  requester_id: number;
  assignee_id: number | null;
  group_id: number | null;
  created_at: string;
  updated_at: string;
}

const ticket = (t: Ticket) => ({
  id: t.id,
  subject: t.subject,
  status: t.status,
  priority: t.priority,
  type: t.type,
  tags: t.tags,
  requesterId: t.requester_id,
  assigneeId: t.assignee_id,
  groupId: t.group_id,
  createdAt: t.created_at,
  updatedAt: t.updated_at,
});

/**
 * Zendesk answers in several shapes: `{"error":"Couldn't authenticate you"}`, `{"error":{"title","message"}}`,
 * and `{"error":"RecordInvalid","description":"...","details":{"base":[{"description":"..."}]}}`.
 */
function zendeskError(res: HttpResponse): string | undefined {
  const b = res.body as {
    error?: string | { title?: string; message?: string };
    description?: string;
    details?: Record<string, { description?: string }[]>;
  } | null;
  if (!b || typeof b !== 'object') return undefined;
  if (b.error && typeof b.error === 'object') return joinMessages([b.error.title, b.error.message]);
  const details = Object.values(b.details ?? {}).flatMap((list) => list.map((d) => d.description));
  return joinMessages(details.length ? details : [b.description ?? b.error]);
}

/**
 * https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#list-tickets with cursor paging,
 * newest first by id (ids grow with creation).
 */
const newTicket = definePollTrigger({
  id: 'new_ticket',
  name: 'New ticket',
  description: 'A ticket is created (polls GET /tickets.json).',
  input: z.object({}),
  request: () => ({ method: 'GET', path: '/tickets.json', query: { 'page[size]': 100, sort: '-id' } }),
  items: (body) => (body as { tickets: Ticket[] }).tickets,
  itemId: (t: Ticket) => String(t.id),
  itemPosition: (t: Ticket) => new Date(t.created_at).toISOString(),
  output: ticket,
  paging: {
    next: (res, req) => {
      const meta = (res.body as { meta?: { has_more?: boolean; after_cursor?: string | null } }).meta;
      return meta?.has_more && meta.after_cursor
        ? withQuery(req, { 'page[after]': meta.after_cursor })
        : undefined;
    },
  },
});

/** Zendesk Support API: https://developer.zendesk.com/api-reference/ticketing/introduction/ */
export const zendesk: ConnectorDefinition = {
  id: 'zendesk',
  name: 'Zendesk',
  description: 'Create Zendesk Support tickets, comment on them and read them.',
  category: 'support',
  icon: 'zendesk',
  color: '03363D',
  docs: 'https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/',
  baseUrl: 'https://{subdomain}.zendesk.com/api/v2',
  auth: {
    type: 'basic',
    username: '{email}/token',
    password: '{apiToken}',
    fields: [
      {
        name: 'subdomain',
        label: 'Subdomain',
        type: 'text',
        required: true,
        secret: false,
        placeholder: 'acme',
        help: 'The part before .zendesk.com',
      },
      { name: 'email', label: 'Agent email', type: 'text', required: true, secret: false },
      {
        name: 'apiToken',
        label: 'API token',
        type: 'password',
        required: true,
        secret: true,
        help: 'Admin Center → Apps and integrations → Zendesk API',
      },
    ],
  },
  test: {
    request: () => ({ method: 'GET', path: '/users/me.json' }),
    accountLabel: bodyLabel('user.email', 'user.name'),
  },
  errorMessage: zendeskError,
  triggers: [newTicket],
  actions: [
    defineAction({
      id: 'create_ticket',
      name: 'Create a ticket',
      description: 'Creates a ticket on behalf of a requester (POST /tickets.json).',
      kind: 'write',
      input: z.object({
        subject: z.string().min(1).max(255).describe('Subject'),
        body: z.string().min(1).max(65_535).describe('First comment, plain text'),
        requesterEmail: z.email().optional().describe('Requester email; the agent when omitted'),
        requesterName: z.string().max(255).optional().describe('Requester name, for a new requester'),
        priority: z.enum(['urgent', 'high', 'normal', 'low']).optional().describe('Priority'),
        type: z.enum(['problem', 'incident', 'question', 'task']).optional().describe('Ticket type'),
        tags: z
          .array(z.string().regex(/^[^\s,]+$/, 'tags cannot contain spaces or commas'))
          .optional()
          .describe('Tags'),
        groupId: z.number().int().positive().optional().describe('Group to assign (groups option source)'),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/tickets.json',
        body: {
          ticket: {
            subject: input.subject,
            comment: { body: input.body },
            ...(input.requesterEmail && {
              requester: {
                email: input.requesterEmail,
                ...(input.requesterName && { name: input.requesterName }),
              },
            }),
            priority: input.priority,
            type: input.type,
            tags: input.tags,
            group_id: input.groupId,
          },
        },
      }),
      output: (res) => ticket((res.body as { ticket: Ticket }).ticket),
    }),
    defineAction({
      id: 'add_comment',
      name: 'Comment on a ticket',
      description: 'Adds a public reply or an internal note to a ticket (PUT /tickets/{id}.json).',
      kind: 'write',
      input: z.object({
        ticketId,
        body: z.string().min(1).max(65_535).describe('Comment, plain text'),
        public: z.boolean().default(true).describe('false for an internal note'),
      }),
      request: (input) => ({
        method: 'PUT',
        path: path`/tickets/${input.ticketId}.json`,
        body: { ticket: { comment: { body: input.body, public: input.public } } },
      }),
      output: (res) => ticket((res.body as { ticket: Ticket }).ticket),
    }),
    defineAction({
      id: 'get_ticket',
      name: 'Get a ticket',
      description: 'Reads a ticket (GET /tickets/{id}.json).',
      kind: 'read',
      input: z.object({ ticketId }),
      request: (input) => ({ method: 'GET', path: path`/tickets/${input.ticketId}.json` }),
      output: (res) => ticket((res.body as { ticket: Ticket }).ticket),
    }),
  ],
  sources: {
    groups: {
      description: 'Agent groups',
      request: () => ({ method: 'GET', path: '/groups.json', query: { 'page[size]': 100 } }),
      items: (body) => (body as { groups?: unknown[] }).groups ?? [],
      option: (g: { id: number; name: string }) => ({ value: String(g.id), label: g.name }),
      paging: {
        next: (res, req) => {
          const meta = (res.body as { meta?: { has_more?: boolean; after_cursor?: string | null } }).meta;
          return meta?.has_more && meta.after_cursor
            ? withQuery(req, { 'page[after]': meta.after_cursor })
            : undefined;
        },
      },
    },
  },
};

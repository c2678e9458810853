import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel } from './helpers.ts';

interface Contact {
  id: string;
  role: 'user' | 'lead';
  email: string | null;
  name: string | null;
  phone: string | null;
  external_id: string | null;
  created_at: number;
  custom_attributes?: Record<string, unknown>;
}

const contact = (c: Contact) => ({
  id: c.id,
  role: c.role,
  email: c.email,
  name: c.name,
  phone: c.phone,
  externalId: c.external_id,
  createdAt: new Date(c.created_at * 1000).toISOString(),
  customAttributes: c.custom_attributes ?? {},
});

/** Intercom REST API 2.11: https://developers.intercom.com/docs/references/2.11/rest-api/api.intercom.io/ */
export const intercom: ConnectorDefinition = {
  id: 'intercom',
  name: 'Intercom',
  description: 'Create and find Intercom contacts and message them as an admin.',
  category: 'support',
  icon: 'intercom',
  color: '6AFDEF',
  docs: 'https://developers.intercom.com/docs/references/2.11/rest-api/api.intercom.io/',
  baseUrl: 'https://api.intercom.io',
  headers: { 'intercom-version': '2.11' },
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://app.intercom.com/oauth',
    tokenUrl: 'https://api.intercom.io/auth/eagle/token',
    // Permissions are set on the app in the Developer Hub; the authorize URL takes no scope.
    scopes: [],
    pkce: false,
  },
  test: { request: () => ({ method: 'GET', path: '/me' }), accountLabel: bodyLabel('app.name', 'email') },
  actions: [
    defineAction({
      id: 'create_contact',
      name: 'Create a contact',
      description: 'Creates a user or lead (POST /contacts).',
      kind: 'write',
      input: z
        .object({
          role: z.enum(['user', 'lead']).default('user').describe('user (signed up) or lead'),
          email: z.email().optional().describe('Email address'),
          external_id: z.string().max(255).optional().describe('Your own id of the user'),
          name: z.string().max(255).optional().describe('Full name'),
          phone: z.string().max(64).optional().describe('Phone number'),
          custom_attributes: z
            .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
            .optional()
            .describe('Values of custom data attributes that exist in the workspace'),
        })
        .refine((c) => c.role === 'lead' || c.email || c.external_id, {
          message: 'a user needs an email or an external_id',
          path: ['email'],
        }),
      request: (input) => ({ method: 'POST', path: '/contacts', body: input }),
      output: (res) => contact(res.body as Contact),
    }),
    defineAction({
      id: 'find_contact',
      name: 'Find contacts by email',
      description: 'Searches contacts with an exact email (POST /contacts/search).',
      kind: 'read',
      input: z.object({ email: z.email().describe('Email address') }),
      request: (input) => ({
        method: 'POST',
        path: '/contacts/search',
        body: { query: { field: 'email', operator: '=', value: input.email } },
      }),
      output: (res) => (res.body as { data: Contact[] }).data.map(contact),
    }),
    defineAction({
      id: 'send_message',
      name: 'Send a message',
      description: 'Sends an in-app message or an email from an admin to a contact (POST /messages).',
      kind: 'write',
      input: z
        .object({
          adminId: z.string().regex(/^\d+$/).describe('Sending admin (admins option source)'),
          contactId: z.string().min(1).describe('Contact id'),
          contactRole: z.enum(['user', 'lead']).default('user').describe('Role of the contact'),
          messageType: z.enum(['inapp', 'email']).default('inapp').describe('Channel'),
          subject: z.string().max(255).optional().describe('Subject; required for email'),
          body: z.string().min(1).max(65_535).describe('Message text; HTML allowed'),
        })
        .refine((m) => m.messageType !== 'email' || m.subject, {
          message: 'an email needs a subject',
          path: ['subject'],
        }),
      request: (input) => ({
        method: 'POST',
        path: '/messages',
        body: {
          message_type: input.messageType,
          ...(input.subject && { subject: input.subject }),
          body: input.body,
          template: 'plain',
          from: { type: 'admin', id: input.adminId },
          to: { type: input.contactRole, id: input.contactId },
        },
      }),
      output: (res) => {
        const m = res.body as {
          id: string;
          message_type: string;
          created_at: number;
          conversation_id?: string;
        };
        return {
          id: m.id,
          messageType: m.message_type,
          conversationId: m.conversation_id ?? null,
          createdAt: new Date(m.created_at * 1000).toISOString(),
        };
      },
    }),
  ],
  sources: {
    admins: {
      description: 'Teammates who can send messages',
      request: () => ({ method: 'GET', path: '/admins' }),
      items: (body) =>
        ((body as { admins?: { type?: string }[] }).admins ?? []).filter((a) => a.type !== 'team'),
      option: (a: { id: string; name: string; email?: string }) => ({
        value: String(a.id),
        label: a.email ? `${a.name} <${a.email}>` : a.name,
      }),
    },
  },
};

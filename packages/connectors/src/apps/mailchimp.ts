import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, joinMessages, path, withQuery } from './helpers.ts';

/** Members are addressed by the MD5 of the lower-cased email address. */
export const subscriberHash = (email: string) => createHash('md5').update(email.toLowerCase()).digest('hex');

const listId = z
  .string()
  .regex(/^[a-z0-9]+$/, 'must be an audience id')
  .describe('Audience id (lists option source)');
const email = z.email().describe('Email address');

interface Member {
  id: string;
  email_address: string;
  status: string;
  merge_fields: Record<string, unknown>;
  tags?: { name: string }[];
  last_changed: string;
}

const member = (m: Member) => ({
  id: m.id,
  email: m.email_address,
  status: m.status,
  mergeFields: m.merge_fields,
  tags: (m.tags ?? []).map((t) => t.name),
  lastChanged: m.last_changed,
});

/** Mailchimp Marketing API 3.0: https://mailchimp.com/developer/marketing/api/ */
export const mailchimp: ConnectorDefinition = {
  id: 'mailchimp',
  name: 'Mailchimp',
  description: 'Add or update audience members, tag them, and read them.',
  category: 'marketing',
  icon: 'mailchimp',
  color: 'FFE01B',
  docs: 'https://mailchimp.com/developer/marketing/api/',
  baseUrl: 'https://{dc}.api.mailchimp.com/3.0',
  auth: {
    type: 'basic',
    // Mailchimp ignores the user name; the key is the password.
    username: 'anystring',
    password: '{apiKey}',
    fields: [
      {
        name: 'apiKey',
        label: 'API key',
        type: 'password',
        required: true,
        secret: true,
        placeholder: '0123456789abcdef0123456789abcdef-us21',
        help: 'Account → Extras → API keys',
      },
    ],
  },
  // The data centre is the key's suffix: ...-us21 -> us21.api.mailchimp.com
  settings: (fields) => ({ dc: /-([a-z]+\d+)$/.exec(fields.apiKey ?? '')?.[1] ?? 'us1' }),
  // The API root works with any key and names the account (`/ping` would prove the key but not whose it is).
  test: {
    request: () => ({ method: 'GET', path: '/', query: { fields: 'account_name,login_id' } }),
    accountLabel: bodyLabel('account_name'),
  },
  // Problem details, with field errors in `errors`.
  errorMessage: (res) => {
    const b = res.body as {
      title?: string;
      detail?: string;
      errors?: { field?: string; message?: string }[];
    } | null;
    if (!b || typeof b !== 'object' || !(b.detail || b.title)) return undefined;
    const fields = joinMessages(
      (b.errors ?? []).map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)),
    );
    return joinMessages([b.title, fields ?? b.detail]);
  },
  actions: [
    defineAction({
      id: 'upsert_member',
      name: 'Add or update a member',
      description: 'Adds a contact to an audience, or updates it (PUT /lists/{id}/members/{hash}).',
      kind: 'write',
      input: z.object({
        listId,
        email,
        status: z
          .enum(['subscribed', 'pending', 'unsubscribed', 'transactional'])
          .default('subscribed')
          .describe('Status of a new member; pending sends a double opt-in email'),
        mergeFields: z
          .record(z.string().regex(/^[A-Z0-9_]+$/), z.union([z.string(), z.number()]))
          .optional()
          .describe('Merge fields by tag, e.g. {"FNAME":"Ada","LNAME":"Lovelace"}'),
      }),
      request: (input) => ({
        method: 'PUT',
        path: path`/lists/${input.listId}/members/${subscriberHash(input.email)}`,
        body: { email_address: input.email, status_if_new: input.status, merge_fields: input.mergeFields },
      }),
      output: (res) => member(res.body as Member),
    }),
    defineAction({
      id: 'tag_member',
      name: 'Tag a member',
      description: 'Adds or removes tags of an audience member (POST /lists/{id}/members/{hash}/tags).',
      kind: 'write',
      input: z.object({
        listId,
        email,
        add: z.array(z.string().min(1).max(100)).default([]).describe('Tags to add'),
        remove: z.array(z.string().min(1).max(100)).default([]).describe('Tags to remove'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/lists/${input.listId}/members/${subscriberHash(input.email)}/tags`,
        body: {
          tags: [
            ...input.add.map((name) => ({ name, status: 'active' })),
            ...input.remove.map((name) => ({ name, status: 'inactive' })),
          ],
        },
      }),
      output: (_res, input) => ({ email: input.email, added: input.add, removed: input.remove }),
    }),
    defineAction({
      id: 'get_member',
      name: 'Get a member',
      description: 'Reads an audience member by email (GET /lists/{id}/members/{hash}).',
      kind: 'read',
      input: z.object({ listId, email }),
      request: (input) => ({
        method: 'GET',
        path: path`/lists/${input.listId}/members/${subscriberHash(input.email)}`,
      }),
      output: (res) => member(res.body as Member),
    }),
  ],
  sources: {
    lists: {
      description: 'Audiences',
      request: () => ({
        method: 'GET',
        path: '/lists',
        query: { count: 100, offset: 0, fields: 'lists.id,lists.name,total_items' },
      }),
      items: (body) => (body as { lists?: unknown[] }).lists ?? [],
      option: (l: { id: string; name: string }) => ({ value: l.id, label: l.name }),
      paging: {
        next: (res, req) => {
          const b = res.body as { lists: unknown[]; total_items: number };
          const offset = Number(req.query?.offset ?? 0) + b.lists.length;
          return b.lists.length > 0 && offset < b.total_items ? withQuery(req, { offset }) : undefined;
        },
      },
    },
  },
};

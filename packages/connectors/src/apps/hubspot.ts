import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, path, withQuery } from './helpers.ts';

interface CrmObject {
  id: string;
  properties: Record<string, string | null>;
  createdAt?: string;
  updatedAt?: string;
  archived?: boolean;
}

const crmObject = (res: HttpResponse) => {
  const o = res.body as CrmObject;
  return { id: o.id, properties: o.properties, createdAt: o.createdAt, updatedAt: o.updatedAt };
};

/** `paging.next.after` of HubSpot's CRM v3 lists. */
const after = (res: HttpResponse) =>
  (res.body as { paging?: { next?: { after?: string } } }).paging?.next?.after;

const extraProperties = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .optional()
  .describe('More properties by internal name, e.g. {"lifecyclestage":"lead"}');

const CONTACT_PROPS = ['email', 'firstname', 'lastname', 'phone', 'company', 'createdate'];

/**
 * https://developers.hubspot.com/docs/api/crm/search: newest first by `createdate`. Each sort is an object,
 * `{propertyName, direction}`, as that guide shows it; HubSpot's generated reference types `sorts` as strings,
 * and the guide, which matches what the API accepts, decides.
 */
const newContact = definePollTrigger({
  id: 'new_contact',
  name: 'New contact',
  description: 'A contact is created in HubSpot (polls POST /crm/v3/objects/contacts/search).',
  input: z.object({}),
  request: (_input, _settings, since) => ({
    method: 'POST',
    path: '/crm/v3/objects/contacts/search',
    body: {
      filterGroups:
        typeof since === 'string'
          ? [{ filters: [{ propertyName: 'createdate', operator: 'GTE', value: String(Date.parse(since)) }] }]
          : [],
      sorts: [{ propertyName: 'createdate', direction: 'DESCENDING' }],
      properties: CONTACT_PROPS,
      limit: 100,
    },
  }),
  items: (body) => (body as { results: CrmObject[] }).results,
  itemId: (o: CrmObject) => o.id,
  itemPosition: (o: CrmObject) => o.createdAt,
  output: (o: CrmObject) => ({ id: o.id, properties: o.properties, createdAt: o.createdAt }),
  paging: {
    next: (res, req) => {
      const a = after(res);
      return a ? { ...req, body: { ...(req.body as object), after: a } } : undefined;
    },
  },
});

/** HubSpot CRM API v3: https://developers.hubspot.com/docs/api/crm/contacts */
export const hubspot: ConnectorDefinition = {
  id: 'hubspot',
  name: 'HubSpot',
  description: 'Create and look up CRM contacts and deals.',
  category: 'crm',
  icon: 'hubspot',
  color: 'FF7A59',
  docs: 'https://developers.hubspot.com/docs/api/crm/contacts',
  baseUrl: 'https://api.hubapi.com',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
    tokenUrl: 'https://api.hubapi.com/oauth/v1/token',
    scopes: [
      'oauth',
      'crm.objects.contacts.read',
      'crm.objects.contacts.write',
      'crm.objects.deals.read',
      'crm.objects.deals.write',
      'crm.objects.owners.read',
    ],
    pkce: false,
  },
  test: {
    request: () => ({ method: 'GET', path: '/account-info/v3/details' }),
    accountLabel: (res) => {
      const id = bodyLabel('portalId')(res);
      return id ? `Portal ${id}` : undefined;
    },
  },
  triggers: [newContact],
  actions: [
    defineAction({
      id: 'create_contact',
      name: 'Create a contact',
      description:
        'Creates a CRM contact (POST /crm/v3/objects/contacts). Fails with 409 if the email exists.',
      kind: 'write',
      input: z.object({
        email: z.email().describe('Primary email address'),
        firstname: z.string().max(255).optional().describe('First name'),
        lastname: z.string().max(255).optional().describe('Last name'),
        phone: z.string().max(64).optional().describe('Phone number'),
        company: z.string().max(255).optional().describe('Company name'),
        properties: extraProperties,
      }),
      request: ({ properties, ...fields }) => ({
        method: 'POST',
        path: '/crm/v3/objects/contacts',
        body: { properties: { ...properties, ...fields } },
      }),
      output: crmObject,
    }),
    defineAction({
      id: 'get_contact',
      name: 'Find a contact by email',
      description:
        'Reads a contact by its email address (GET /crm/v3/objects/contacts/{email}?idProperty=email).',
      kind: 'read',
      input: z.object({
        email: z.email().describe('Email address of the contact'),
        properties: z
          .array(z.string().min(1))
          .default(['email', 'firstname', 'lastname', 'phone', 'company'])
          .describe('Properties to return'),
      }),
      request: (input) => ({
        method: 'GET',
        path: path`/crm/v3/objects/contacts/${input.email}`,
        query: { idProperty: 'email', properties: input.properties.join(',') },
      }),
      output: crmObject,
    }),
    defineAction({
      id: 'create_deal',
      name: 'Create a deal',
      description:
        'Creates a deal (POST /crm/v3/objects/deals), optionally in a pipeline stage and for an owner.',
      kind: 'write',
      input: z.object({
        dealname: z.string().min(1).max(255).describe('Deal name'),
        amount: z.number().nonnegative().optional().describe('Deal amount in the account currency'),
        pipeline: z
          .string()
          .optional()
          .describe('Pipeline id (pipelines source); the default pipeline when omitted'),
        dealstage: z.string().optional().describe('Stage id (deal_stages source); pass its pipeline too'),
        hubspot_owner_id: z.string().optional().describe('Owner id, from the owners option source'),
        closedate: z.iso.datetime().optional().describe('Expected close date, ISO 8601'),
        properties: extraProperties,
      }),
      request: ({ properties, ...fields }) => ({
        method: 'POST',
        path: '/crm/v3/objects/deals',
        body: {
          properties: {
            ...properties,
            ...Object.fromEntries(
              Object.entries(fields)
                .filter(([, v]) => v !== undefined)
                .map(([k, v]) => [k, String(v)]),
            ),
          },
        },
      }),
      output: crmObject,
    }),
  ],
  sources: {
    owners: {
      description: 'Users who can own records',
      request: () => ({ method: 'GET', path: '/crm/v3/owners', query: { limit: 100, archived: false } }),
      items: (body) => (body as { results?: unknown[] }).results ?? [],
      option: (o: { id: string; email?: string; firstName?: string; lastName?: string }) => ({
        value: o.id,
        label: [o.firstName, o.lastName].filter(Boolean).join(' ') || o.email || o.id,
      }),
      paging: {
        next: (res, req) => {
          const cursor = after(res);
          return cursor ? withQuery(req, { after: cursor }) : undefined;
        },
      },
    },
    pipelines: {
      description: 'Deal pipelines',
      request: () => ({ method: 'GET', path: '/crm/v3/pipelines/deals' }),
      items: (body) => (body as { results?: unknown[] }).results ?? [],
      option: (p: { id: string; label: string }) => ({ value: p.id, label: p.label }),
    },
    deal_stages: {
      description: 'Deal stages of every pipeline',
      request: () => ({ method: 'GET', path: '/crm/v3/pipelines/deals' }),
      items: (body) =>
        (
          (body as { results?: { label: string; stages?: { id: string; label: string }[] }[] }).results ?? []
        ).flatMap((p) => (p.stages ?? []).map((s) => ({ ...s, pipeline: p.label }))),
      option: (s: { id: string; label: string; pipeline: string }) => ({
        value: s.id,
        label: `${s.pipeline}: ${s.label}`,
      }),
    },
  },
};

import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpRequestSpec, HttpResponse } from '../types.ts';
import { bodyLabel, path, settingField, treeSource, withQuery } from './helpers.ts';

const id = (what: string) => z.number().int().positive().describe(what);

/** API v2 lists page with `additional_data.next_cursor`. */
const nextCursor = (res: HttpResponse, req: HttpRequestSpec) => {
  const cursor = (res.body as { additional_data?: { next_cursor?: string | null } }).additional_data
    ?.next_cursor;
  return cursor ? withQuery(req, { cursor }) : undefined;
};
const dataOf = (body: unknown) => (body as { data?: unknown[] | null }).data ?? [];

interface Person {
  id: number;
  name: string;
  emails?: ({ value: string; primary?: boolean } | string)[];
  phones?: ({ value: string; primary?: boolean } | string)[];
  org_id?: number | null;
  organization?: { id: number; name: string } | null;
  owner_id?: number;
  owner?: { id: number };
  add_time?: string;
}
const values = (list?: ({ value: string } | string)[]) =>
  (list ?? []).map((v) => (typeof v === 'string' ? v : v.value));
const person = (p: Person) => ({
  id: p.id,
  name: p.name,
  emails: values(p.emails),
  phones: values(p.phones),
  orgId: p.org_id ?? p.organization?.id ?? null,
  ownerId: p.owner_id ?? p.owner?.id ?? null,
});

interface Deal {
  id: number;
  title: string;
  value: number | null;
  currency: string;
  status: string;
  pipeline_id: number;
  stage_id: number;
  person_id: number | null;
  org_id: number | null;
  owner_id: number;
  expected_close_date: string | null;
  add_time: string;
  update_time: string;
}
const deal = (res: HttpResponse) => {
  const d = (res.body as { data: Deal }).data;
  return {
    id: d.id,
    title: d.title,
    value: d.value,
    currency: d.currency,
    status: d.status,
    pipelineId: d.pipeline_id,
    stageId: d.stage_id,
    personId: d.person_id,
    orgId: d.org_id,
    ownerId: d.owner_id,
    expectedCloseDate: d.expected_close_date,
    addedAt: d.add_time,
    updatedAt: d.update_time,
  };
};

const dealFields = {
  value: z.number().nonnegative().describe('Deal value'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .describe('ISO 4217 currency, e.g. EUR; the company default when omitted'),
  personId: id('Contact person id'),
  orgId: id('Organization id'),
  stageId: id('Stage id (stages option source); sets the pipeline too'),
  ownerId: id('Owner user id (users option source)'),
  expectedCloseDate: z.iso.date().describe('Expected close date, YYYY-MM-DD'),
};
const dealBody = (i: {
  value?: number;
  currency?: string;
  personId?: number;
  orgId?: number;
  stageId?: number;
  ownerId?: number;
  expectedCloseDate?: string;
}) => ({
  value: i.value,
  currency: i.currency,
  person_id: i.personId,
  org_id: i.orgId,
  stage_id: i.stageId,
  owner_id: i.ownerId,
  expected_close_date: i.expectedCloseDate,
});

/** Pipedrive API v2 (v1 where v2 has no equivalent): https://developers.pipedrive.com/docs/api/v1 */
export const pipedrive: ConnectorDefinition = {
  id: 'pipedrive',
  name: 'Pipedrive',
  description: 'Create people and deals, move deals through stages, and find people in Pipedrive.',
  category: 'crm',
  icon: 'pipedrive', // not in simple-icons 13.21.0: a monogram
  color: '017737',
  docs: 'https://developers.pipedrive.com/docs/api/v1/Deals',
  // OAuth tokens are used against the company's own domain (the token response's `api_domain`).
  baseUrl: 'https://{company}.pipedrive.com/api',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://oauth.pipedrive.com/oauth/authorize',
    tokenUrl: 'https://oauth.pipedrive.com/oauth/token',
    // Scopes are chosen on the app in Pipedrive's Developer Hub, not in the authorize URL.
    scopes: [],
    pkce: false,
    tokenAuth: 'basic',
    fields: [
      settingField('company', 'Company domain', {
        placeholder: 'acme',
        help: 'The part before .pipedrive.com in your Pipedrive address',
      }),
    ],
  },
  test: {
    request: () => ({ method: 'GET', path: '/v1/users/me' }),
    accountLabel: bodyLabel('data.company_name', 'data.email'),
  },
  actions: [
    defineAction({
      id: 'create_person',
      name: 'Create a person',
      description: 'Creates a contact person (POST /api/v2/persons).',
      kind: 'write',
      input: z.object({
        name: z.string().min(1).max(255).describe('Full name'),
        email: z.email().optional().describe('Primary work email'),
        phone: z.string().max(64).optional().describe('Primary work phone'),
        orgId: id('Organization id').optional(),
        ownerId: id('Owner user id (users option source)').optional(),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/v2/persons',
        body: {
          name: input.name,
          emails: input.email ? [{ value: input.email, primary: true, label: 'work' }] : undefined,
          phones: input.phone ? [{ value: input.phone, primary: true, label: 'work' }] : undefined,
          org_id: input.orgId,
          owner_id: input.ownerId,
        },
      }),
      output: (res) => person((res.body as { data: Person }).data),
    }),
    defineAction({
      id: 'find_persons',
      name: 'Find people',
      description: 'Searches people by name, email or phone (GET /api/v2/persons/search).',
      kind: 'read',
      input: z.object({
        term: z.string().min(2).max(255).describe('Search text, at least 2 characters'),
        fields: z
          .array(z.enum(['name', 'email', 'phone', 'notes', 'custom_fields']))
          .optional()
          .describe('Fields to search; all when omitted'),
        exactMatch: z.boolean().default(false).describe('Only exact, case-insensitive matches'),
        limit: z.number().int().min(1).max(500).default(25).describe('How many people'),
      }),
      request: (input) => ({
        method: 'GET',
        path: '/v2/persons/search',
        query: {
          term: input.term,
          fields: input.fields?.join(','),
          exact_match: input.exactMatch,
          limit: input.limit,
        },
      }),
      output: (res) => {
        const items = (res.body as { data?: { items?: { item: Person }[] } }).data?.items ?? [];
        return items.map((i) => person(i.item));
      },
    }),
    defineAction({
      id: 'create_deal',
      name: 'Create a deal',
      description:
        'Creates a deal, optionally in a stage and linked to a person or organization (POST /api/v2/deals).',
      kind: 'write',
      input: z.object({
        title: z.string().min(1).max(255).describe('Deal title'),
        value: dealFields.value.optional(),
        currency: dealFields.currency.optional(),
        personId: dealFields.personId.optional(),
        orgId: dealFields.orgId.optional(),
        stageId: dealFields.stageId.optional(),
        ownerId: dealFields.ownerId.optional(),
        expectedCloseDate: dealFields.expectedCloseDate.optional(),
      }),
      request: ({ title, ...rest }) => ({
        method: 'POST',
        path: '/v2/deals',
        body: { title, ...dealBody(rest) },
      }),
      output: deal,
    }),
    defineAction({
      id: 'update_deal',
      name: 'Update a deal',
      description:
        'Moves a deal to a stage, wins or loses it, or changes its fields (PATCH /api/v2/deals/{id}).',
      kind: 'write',
      input: z.object({
        dealId: id('Deal id'),
        title: z.string().min(1).max(255).optional().describe('Deal title'),
        value: dealFields.value.optional(),
        currency: dealFields.currency.optional(),
        stageId: dealFields.stageId.optional(),
        ownerId: dealFields.ownerId.optional(),
        status: z.enum(['open', 'won', 'lost']).optional().describe('Open, won or lost'),
        lostReason: z.string().max(255).optional().describe('Why it was lost (status lost)'),
        expectedCloseDate: dealFields.expectedCloseDate.optional(),
      }),
      request: ({ dealId, title, status, lostReason, ...rest }) => ({
        method: 'PATCH',
        path: path`/v2/deals/${dealId}`,
        body: { title, status, lost_reason: lostReason, ...dealBody(rest) },
      }),
      output: deal,
    }),
  ],
  sources: {
    pipelines: {
      description: 'Deal pipelines',
      request: () => ({ method: 'GET', path: '/v2/pipelines', query: { limit: 100 } }),
      items: dataOf,
      option: (p: { id: number; name: string }) => ({ value: String(p.id), label: p.name }),
      paging: { next: nextCursor },
    },
    stages: treeSource({
      description: 'Stages of every pipeline',
      root: {
        request: () => ({ method: 'GET', path: '/v2/pipelines', query: { limit: 100 } }),
        items: dataOf,
        next: nextCursor,
        children: [
          {
            request: (p: { id: number }) => ({
              method: 'GET',
              path: '/v2/stages',
              query: { pipeline_id: p.id, limit: 100 },
            }),
            items: dataOf,
            next: nextCursor,
          },
        ],
      },
      option: (s: { id: number; name: string }, [p]: { name: string }[]) => ({
        value: String(s.id),
        label: `${p!.name} › ${s.name}`,
      }),
    }),
    users: {
      description: 'Active users of the company',
      request: () => ({ method: 'GET', path: '/v1/users' }),
      items: (body) => (dataOf(body) as { active_flag?: boolean }[]).filter((u) => u.active_flag !== false),
      option: (u: { id: number; name: string; email: string }) => ({
        value: String(u.id),
        label: `${u.name} <${u.email}>`,
      }),
    },
  },
};

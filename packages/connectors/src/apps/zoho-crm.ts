import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpRequestSpec, HttpResponse } from '../types.ts';
import { bodyLabel, path, settingField, withQuery } from './helpers.ts';

/** Zoho's data centres: API domain suffix and accounts (OAuth) domain. https://www.zoho.com/crm/developer/docs/api/v8/multi-dc.html */
const REGIONS: Record<string, { dc: string; accounts: string }> = {
  us: { dc: 'com', accounts: 'zoho.com' },
  eu: { dc: 'eu', accounts: 'zoho.eu' },
  in: { dc: 'in', accounts: 'zoho.in' },
  au: { dc: 'com.au', accounts: 'zoho.com.au' },
  jp: { dc: 'jp', accounts: 'zoho.jp' },
  ca: { dc: 'ca', accounts: 'zohocloud.ca' },
  cn: { dc: 'com.cn', accounts: 'zoho.com.cn' },
  sa: { dc: 'sa', accounts: 'zoho.sa' },
};

const moduleName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must be a module API name such as Leads or Deals')
  .describe('Module API name (modules option source), e.g. Leads, Contacts, Deals');
const recordId = z
  .string()
  .regex(/^\d{1,20}$/, 'must be a record id')
  .describe('Record id');
const fields = z
  .record(z.string().regex(/^[A-Za-z$][A-Za-z0-9_$]*$/), z.unknown())
  .describe(
    'Field values by API name, e.g. {"Last_Name":"Lovelace","Email":"ada@example.com","Company":"Acme"}',
  );
const runWorkflows = z
  .boolean()
  .default(true)
  .describe('Run the workflow, approval and blueprint rules of the module');

interface Outcome {
  code: string;
  status: 'success' | 'error';
  message: string;
  action?: 'insert' | 'update';
  details?: { id?: string; api_name?: string; Created_Time?: string; Modified_Time?: string };
}

/** Errors come per record in `data[]`, or for the whole request at the top level; both carry `status: "error"`. */
function zohoError(res: HttpResponse): string | undefined {
  const b = res.body as { data?: unknown } | null;
  const e = (Array.isArray(b?.data) ? b.data[0] : b) as Outcome | undefined;
  if (!e || typeof e !== 'object' || e.status !== 'error') return undefined;
  return `${e.code}: ${e.message}${e.details?.api_name ? ` (${e.details.api_name})` : ''}`;
}

const outcome = (res: HttpResponse) => {
  const o = (res.body as { data: Outcome[] }).data[0]!;
  return {
    id: o.details?.id ?? null,
    ...(o.action && { action: o.action }),
    message: o.message,
    createdAt: o.details?.Created_Time ?? null,
    modifiedAt: o.details?.Modified_Time ?? null,
  };
};
const triggers = (run: boolean) => (run ? {} : { trigger: [] });

/** Pages numbered from 1 while `info.more_records` is true. */
const nextPage = (res: HttpResponse, req: HttpRequestSpec) => {
  const b = res.body as { info?: { more_records?: boolean; page?: number } } | null;
  return b?.info?.more_records ? withQuery(req, { page: (b.info.page ?? 1) + 1 }) : undefined;
};

/** Zoho CRM REST API v8: https://www.zoho.com/crm/developer/docs/api/v8/ */
export const zohoCrm: ConnectorDefinition = {
  id: 'zoho-crm',
  name: 'Zoho CRM',
  description: 'Create, update, upsert and search records in any Zoho CRM module.',
  category: 'crm',
  icon: 'zoho',
  color: 'E42527',
  docs: 'https://www.zoho.com/crm/developer/docs/api/v8/',
  baseUrl: 'https://www.zohoapis.{dc}/crm/v8',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://accounts.{accounts}/oauth/v2/auth',
    tokenUrl: 'https://accounts.{accounts}/oauth/v2/token',
    scopes: ['ZohoCRM.modules.ALL', 'ZohoCRM.settings.modules.READ', 'ZohoCRM.users.READ'],
    scopeSeparator: ',',
    pkce: false,
    // A refresh token only comes with offline access and a fresh consent.
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
    tokenHeader: { name: 'Authorization', format: 'Zoho-oauthtoken {accessToken}' },
    fields: [
      settingField('region', 'Data centre', {
        placeholder: 'us',
        help: 'Where the Zoho account lives: us, eu, in, au, jp, ca, cn or sa (the domain you sign in at)',
      }),
    ],
  },
  // An unknown region falls back to the US data centre, whose sign-in then names the right one.
  settings: (f) => REGIONS[(f.region ?? '').trim().toLowerCase()] ?? REGIONS.us!,
  test: {
    request: () => ({ method: 'GET', path: '/users', query: { type: 'CurrentUser' } }),
    accountLabel: bodyLabel('users.0.email', 'users.0.full_name'),
  },
  errorMessage: zohoError,
  // A record can fail inside a 2xx (multi-record answers).
  checkResponse: zohoError,
  actions: [
    defineAction({
      id: 'create_record',
      name: 'Create a record',
      description: 'Creates a record in a module (POST /{module}).',
      kind: 'write',
      input: z.object({ module: moduleName, fields, runWorkflows }),
      request: (input) => ({
        method: 'POST',
        path: path`/${input.module}`,
        body: { data: [input.fields], ...triggers(input.runWorkflows) },
      }),
      output: outcome,
    }),
    defineAction({
      id: 'update_record',
      name: 'Update a record',
      description: 'Changes the given fields of a record (PUT /{module}/{id}).',
      kind: 'write',
      input: z.object({ module: moduleName, recordId, fields, runWorkflows }),
      request: (input) => ({
        method: 'PUT',
        path: path`/${input.module}/${input.recordId}`,
        body: { data: [input.fields], ...triggers(input.runWorkflows) },
      }),
      output: outcome,
    }),
    defineAction({
      id: 'upsert_record',
      name: 'Create or update a record',
      description:
        'Updates the record that matches on the duplicate-check fields, or creates one (POST /{module}/upsert); the output says which.',
      kind: 'write',
      input: z.object({
        module: moduleName,
        fields,
        duplicateCheckFields: z
          .array(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/))
          .max(10)
          .optional()
          .describe('Fields to match on, e.g. ["Email"]; the module’s unique fields when omitted'),
        runWorkflows,
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/${input.module}/upsert`,
        body: {
          data: [input.fields],
          duplicate_check_fields: input.duplicateCheckFields,
          ...triggers(input.runWorkflows),
        },
      }),
      output: outcome,
    }),
    defineAction({
      id: 'search_records',
      name: 'Search records',
      description:
        'Finds records by email, phone, a word or criteria such as ((Last_Name:equals:Lovelace)and(City:equals:London)) (GET /{module}/search).',
      kind: 'read',
      input: z
        .object({
          module: moduleName,
          email: z.email().optional().describe('Match any email field'),
          phone: z.string().max(64).optional().describe('Match any phone field'),
          word: z.string().min(2).max(255).optional().describe('Match any text field'),
          criteria: z.string().max(2000).optional().describe('Criteria, e.g. (Email:equals:ada@example.com)'),
          perPage: z.number().int().min(1).max(200).default(50).describe('Records per page'),
          page: z.number().int().min(1).default(1).describe('Page number'),
        })
        .refine((i) => [i.email, i.phone, i.word, i.criteria].filter(Boolean).length === 1, {
          message: 'give exactly one of email, phone, word or criteria',
          path: ['criteria'],
        }),
      request: ({ module, perPage, page, ...by }) => ({
        method: 'GET',
        path: path`/${module}/search`,
        query: { ...by, per_page: perPage, page },
      }),
      // No match is a 204 without a body.
      output: (res) => {
        const b = res.body as { data?: Record<string, unknown>[]; info?: { more_records?: boolean } } | null;
        return { records: b?.data ?? [], moreRecords: b?.info?.more_records ?? false };
      },
    }),
  ],
  sources: {
    modules: {
      description: 'Modules records can be created in',
      request: () => ({ method: 'GET', path: '/settings/modules' }),
      items: (body) =>
        ((body as { modules?: { api_supported?: boolean; creatable?: boolean }[] }).modules ?? []).filter(
          (m) => m.api_supported !== false && m.creatable !== false,
        ),
      option: (m: { api_name: string; plural_label?: string; module_name?: string }) => ({
        value: m.api_name,
        label: m.plural_label ?? m.module_name ?? m.api_name,
      }),
    },
    users: {
      description: 'Active users, to own records',
      request: () => ({ method: 'GET', path: '/users', query: { type: 'ActiveUsers', per_page: 200 } }),
      items: (body) => (body as { users?: unknown[] }).users ?? [],
      option: (u: { id: string; full_name: string; email: string }) => ({
        value: u.id,
        label: `${u.full_name} <${u.email}>`,
      }),
      paging: { next: nextPage },
    },
  },
};

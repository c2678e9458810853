import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, detailedMessage, path, withQuery } from './helpers.ts';

const formId = z
  .string()
  .regex(/^[A-Za-z0-9]+$/, 'must be a form id (the part after /to/ in its link)')
  .describe('Form id (forms option source)');

interface Answer {
  type: string;
  field: { id: string; ref: string; type: string };
  text?: string;
  email?: string;
  url?: string;
  file_url?: string;
  phone_number?: string;
  number?: number;
  boolean?: boolean;
  date?: string;
  choice?: { label?: string; other?: string };
  choices?: { labels?: string[]; other?: string };
  payment?: { amount: string; last4: string; name: string; success: boolean };
}
/** The value of an answer, whatever its type. */
function answerValue(a: Answer): unknown {
  switch (a.type) {
    case 'choice':
      return a.choice?.label ?? a.choice?.other ?? null;
    case 'choices':
      return [...(a.choices?.labels ?? []), ...(a.choices?.other ? [a.choices.other] : [])];
    default:
      return (a as unknown as Record<string, unknown>)[a.type] ?? null;
  }
}

interface FormResponse {
  response_id: string;
  token: string;
  landed_at: string;
  submitted_at: string;
  answers?: Answer[] | null;
  hidden?: Record<string, string>;
  calculated?: { score?: number };
  metadata?: { referer?: string; platform?: string };
}
const formResponse = (r: FormResponse) => ({
  responseId: r.response_id,
  token: r.token,
  landedAt: r.landed_at,
  submittedAt: r.submitted_at,
  // Keyed by the field's `ref`, which stays stable when questions are reworded.
  answers: Object.fromEntries((r.answers ?? []).map((a) => [a.field.ref, answerValue(a)])),
  hidden: r.hidden ?? {},
  score: r.calculated?.score ?? null,
});

/** Typeform Create and Responses APIs: https://www.typeform.com/developers/ */
export const typeform: ConnectorDefinition = {
  id: 'typeform',
  name: 'Typeform',
  description: 'Read form responses and questions, and register webhooks that push new responses.',
  category: 'marketing',
  icon: 'typeform',
  color: '262627',
  docs: 'https://www.typeform.com/developers/responses/reference/retrieve-responses/',
  // EU data-centre accounts use https://api.typeform.eu: set INLAY_CONNECTOR_TYPEFORM_BASE_URL.
  baseUrl: 'https://api.typeform.com',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://api.typeform.com/oauth/authorize',
    tokenUrl: 'https://api.typeform.com/oauth/token',
    scopes: ['accounts:read', 'forms:read', 'responses:read', 'webhooks:read', 'webhooks:write', 'offline'],
    pkce: false,
  },
  test: { request: () => ({ method: 'GET', path: '/me' }), accountLabel: bodyLabel('email', 'alias') },
  // {"code":"FORM_NOT_FOUND","description":"…","details":[{"code","description","field"}]}
  errorMessage: (res) => {
    const b = res.body as {
      description?: string;
      details?: { field?: string; description?: string }[];
    } | null;
    return detailedMessage(
      b?.description,
      b?.details?.map((d) => ({ field: d.field, message: d.description })),
    );
  },
  actions: [
    defineAction({
      id: 'list_responses',
      name: 'List responses',
      description:
        'Reads the newest submitted responses of a form, answers keyed by field ref (GET /forms/{formId}/responses).',
      kind: 'read',
      input: z.object({
        formId,
        since: z.iso.datetime({ offset: true }).optional().describe('Submitted at or after'),
        until: z.iso.datetime({ offset: true }).optional().describe('Submitted at or before'),
        query: z.string().max(255).optional().describe('Only responses containing this text'),
        pageSize: z.number().int().min(1).max(1000).default(25).describe('How many responses'),
        before: z.string().optional().describe('Token of the last response of a previous page, to go on'),
      }),
      request: (i) => ({
        method: 'GET',
        path: path`/forms/${i.formId}/responses`,
        query: {
          since: i.since,
          until: i.until,
          query: i.query,
          page_size: i.pageSize,
          before: i.before,
          response_type: 'completed',
          sort: 'submitted_at,desc',
        },
      }),
      output: (res) => {
        const b = res.body as { total_items: number; page_count: number; items: FormResponse[] };
        return { totalItems: b.total_items, pageCount: b.page_count, responses: b.items.map(formResponse) };
      },
    }),
    defineAction({
      id: 'get_form',
      name: 'Get a form',
      description:
        'Reads a form’s title, link and questions, with the refs responses are keyed by (GET /forms/{formId}).',
      kind: 'read',
      input: z.object({ formId }),
      request: (i) => ({ method: 'GET', path: path`/forms/${i.formId}` }),
      output: (res) => {
        const f = res.body as {
          id: string;
          title: string;
          _links?: { display?: string };
          fields?: {
            id: string;
            ref: string;
            title: string;
            type: string;
            validations?: { required?: boolean };
          }[];
          hidden?: string[];
        };
        return {
          id: f.id,
          title: f.title,
          url: f._links?.display ?? null,
          fields: (f.fields ?? []).map((q) => ({
            id: q.id,
            ref: q.ref,
            title: q.title,
            type: q.type,
            required: q.validations?.required ?? false,
          })),
          hidden: f.hidden ?? [],
        };
      },
    }),
    defineAction({
      id: 'create_webhook',
      name: 'Create or update a webhook',
      description:
        'Makes Typeform POST every new response of a form to a URL, signed with the secret (PUT /forms/{formId}/webhooks/{tag}).',
      kind: 'write',
      input: z.object({
        formId,
        tag: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ only')
          .describe('Name of the webhook on the form; the same tag updates it'),
        url: z.url({ protocol: /^https$/ }).describe('HTTPS URL that receives the responses'),
        secret: z
          .string()
          .min(8)
          .max(256)
          .optional()
          .describe('Secret Typeform signs each delivery with (Typeform-Signature)'),
        enabled: z.boolean().default(true).describe('Deliver responses'),
      }),
      request: (i) => ({
        method: 'PUT',
        path: path`/forms/${i.formId}/webhooks/${i.tag}`,
        body: { url: i.url, enabled: i.enabled, secret: i.secret, verify_ssl: true },
      }),
      // The secret is not echoed back.
      output: (res: HttpResponse) => {
        const w = res.body as {
          id: string;
          form_id: string;
          tag: string;
          url: string;
          enabled: boolean;
          updated_at?: string;
        };
        return {
          id: w.id,
          formId: w.form_id,
          tag: w.tag,
          url: w.url,
          enabled: w.enabled,
          updatedAt: w.updated_at ?? null,
        };
      },
    }),
  ],
  sources: {
    forms: {
      description: 'Forms of the account, newest first',
      request: () => ({ method: 'GET', path: '/forms', query: { page_size: 200, page: 1 } }),
      items: (body) => (body as { items?: unknown[] }).items ?? [],
      option: (f: { id: string; title: string }) => ({ value: f.id, label: f.title }),
      paging: {
        next: (res, req) => {
          const page = Number(req.query?.page ?? 1);
          return page < ((res.body as { page_count?: number }).page_count ?? 0)
            ? withQuery(req, { page: page + 1 })
            : undefined;
        },
      },
    },
  },
};

import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, joinMessages, path } from './helpers.ts';

const API = '/services/data/v62.0';

const sobject = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must be an object API name such as Lead or Invoice__c')
  .describe('Object API name, e.g. Lead, Contact, Opportunity, Invoice__c');
const recordId = z
  .string()
  .regex(/^[A-Za-z0-9]{15}([A-Za-z0-9]{3})?$/, 'must be a 15- or 18-character record id')
  .describe('Record id');
const fieldValues = z
  .record(
    z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/),
    z.union([z.string(), z.number(), z.boolean(), z.null()]),
  )
  .describe('Field values by API name, e.g. {"LastName":"Lovelace","Company":"Acme"}');

/** Drops the `attributes` envelope Salesforce adds to every record. */
const plain = (r: Record<string, unknown>) => {
  const { attributes: _, ...fields } = r;
  return fields;
};

interface QueryResult {
  totalSize: number;
  done: boolean;
  records: Record<string, unknown>[];
  nextRecordsUrl?: string;
}

/** Salesforce REST API: https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/ */
export const salesforce: ConnectorDefinition = {
  id: 'salesforce',
  name: 'Salesforce',
  description: 'Create, read and query Salesforce records (leads, contacts, opportunities, custom objects).',
  category: 'crm',
  icon: 'salesforce',
  color: '00A1E0',
  docs: 'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/',
  // The org's My Domain serves both the login flow and the REST API.
  baseUrl: 'https://{domain}.my.salesforce.com',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://{domain}.my.salesforce.com/services/oauth2/authorize',
    tokenUrl: 'https://{domain}.my.salesforce.com/services/oauth2/token',
    scopes: ['api', 'refresh_token'],
    pkce: true,
    fields: [
      {
        name: 'domain',
        label: 'My Domain name',
        type: 'text',
        required: true,
        secret: false,
        placeholder: 'acme',
        help: 'The part before .my.salesforce.com; for a sandbox e.g. acme--uat.sandbox',
      },
    ],
  },
  test: {
    request: () => ({ method: 'GET', path: '/services/oauth2/userinfo' }),
    accountLabel: bodyLabel('preferred_username', 'email'),
  },
  // REST errors are a bare array: [{"message": "...", "errorCode": "..."}].
  errorMessage: (res) =>
    Array.isArray(res.body)
      ? joinMessages(
          res.body.map((e: { message?: string; errorCode?: string }) =>
            e.errorCode && e.message ? `${e.errorCode}: ${e.message}` : e.message,
          ),
        )
      : undefined,
  actions: [
    defineAction({
      id: 'create_record',
      name: 'Create a record',
      description: 'Creates a record of any object (POST /sobjects/{object}); returns its id.',
      kind: 'write',
      input: z.object({ sobject, fields: fieldValues }),
      request: (input) => ({
        method: 'POST',
        path: API + path`/sobjects/${input.sobject}`,
        body: input.fields,
      }),
      output: (res) => {
        const b = res.body as { id: string; success: boolean };
        return { id: b.id, success: b.success };
      },
    }),
    defineAction({
      id: 'update_record',
      name: 'Update a record',
      description: 'Updates fields of a record (PATCH /sobjects/{object}/{id}).',
      kind: 'write',
      input: z.object({ sobject, id: recordId, fields: fieldValues }),
      request: (input) => ({
        method: 'PATCH',
        path: API + path`/sobjects/${input.sobject}/${input.id}`,
        body: input.fields,
      }),
      output: (_res, input) => ({ id: input.id, updated: true }),
    }),
    defineAction({
      id: 'get_record',
      name: 'Get a record',
      description: 'Reads a record by id (GET /sobjects/{object}/{id}).',
      kind: 'read',
      input: z.object({
        sobject,
        id: recordId,
        fields: z
          .array(z.string().min(1))
          .optional()
          .describe('Fields to return; all readable fields when omitted'),
      }),
      request: (input) => ({
        method: 'GET',
        path: API + path`/sobjects/${input.sobject}/${input.id}`,
        query: { fields: input.fields?.join(',') },
      }),
      output: (res) => plain(res.body as Record<string, unknown>),
    }),
    defineAction({
      id: 'query',
      name: 'Run a SOQL query',
      description: 'Runs a SOQL query (GET /query) and returns the first batch of records.',
      kind: 'read',
      input: z.object({
        soql: z
          .string()
          .min(1)
          .max(100_000)
          .describe("SOQL, e.g. SELECT Id, Name FROM Account WHERE Name = 'Acme'"),
      }),
      request: (input) => ({ method: 'GET', path: `${API}/query`, query: { q: input.soql } }),
      output: (res) => {
        const b = res.body as QueryResult;
        return { totalSize: b.totalSize, done: b.done, records: b.records.map(plain) };
      },
    }),
  ],
  sources: {
    objects: {
      description: 'Objects a record can be created in',
      request: () => ({ method: 'GET', path: `${API}/sobjects` }),
      items: (body) =>
        ((body as { sobjects?: { createable?: boolean }[] }).sobjects ?? []).filter((o) => o.createable),
      option: (o: { name: string; label: string }) => ({ value: o.name, label: o.label }),
    },
    users: {
      description: 'Active users (record owners)',
      request: () => ({
        method: 'GET',
        path: `${API}/query`,
        query: { q: 'SELECT Id, Name FROM User WHERE IsActive = true ORDER BY Name' },
      }),
      items: (body) => (body as QueryResult).records ?? [],
      option: (u: { Id: string; Name: string }) => ({ value: u.Id, label: u.Name }),
      paging: {
        // `nextRecordsUrl` is a path on the same instance, e.g. /services/data/v62.0/query/01g...-2000.
        next: (res) => {
          const next = (res.body as QueryResult).nextRecordsUrl;
          return next?.startsWith('/services/data/') ? { method: 'GET', path: next } : undefined;
        },
      },
    },
  },
};

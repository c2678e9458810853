import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, path, withQuery } from './helpers.ts';

const baseId = z
  .string()
  .regex(/^app[A-Za-z0-9]{14}$/, 'must be a base id such as appXXXXXXXXXXXXXX')
  .describe('Base id (bases option source)');
const table = z.string().min(1).max(255).describe('Table id (tblXXXXXXXXXXXXXX) or name');
const fields = z
  .record(z.string(), z.unknown())
  .describe('Cell values by field name or id, e.g. {"Name":"Ada","Email":"ada@example.com"}');
const typecast = z
  .boolean()
  .default(false)
  .describe('Convert strings to the field types (creates select options)');

interface AirtableRecord {
  id: string;
  createdTime: string;
  fields: Record<string, unknown>;
}
const record = (r: AirtableRecord) => ({ id: r.id, createdTime: r.createdTime, fields: r.fields });

/**
 * https://airtable.com/developers/web/api/list-records, filtered by `CREATED_TIME()` from the high-water mark
 * on and read oldest first.
 */
const newRecord = definePollTrigger({
  id: 'new_record',
  name: 'New record',
  description: 'A record is created in a table (polls GET /{baseId}/{table}).',
  input: z.object({ baseId, table }),
  order: 'oldest',
  request: (input, _settings, since) => ({
    method: 'GET',
    path: path`/${input.baseId}/${input.table}`,
    query: {
      pageSize: 100,
      // Not before (rather than after) the mark: CREATED_TIME() counts whole seconds, and a record created in the
      // same second as the last one seen must come back; the seen-set drops the ones already read.
      ...(typeof since === 'string' && {
        filterByFormula: `NOT(IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('${since.replace(/[^0-9TZ:.-]/g, '')}')))`,
      }),
    },
  }),
  items: (body) => (body as { records: AirtableRecord[] }).records,
  itemId: (r: AirtableRecord) => r.id,
  itemPosition: (r: AirtableRecord) => r.createdTime,
  output: record,
  paging: {
    next: (res, req) => {
      const offset = (res.body as { offset?: string }).offset;
      return offset ? withQuery(req, { offset }) : undefined;
    },
  },
});

/** Airtable Web API: https://airtable.com/developers/web/api/introduction */
export const airtable: ConnectorDefinition = {
  id: 'airtable',
  name: 'Airtable',
  description: 'Create, update and list records in Airtable bases.',
  category: 'data',
  icon: 'airtable',
  color: '18BFFF',
  docs: 'https://airtable.com/developers/web/api/introduction',
  baseUrl: 'https://api.airtable.com/v0',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://airtable.com/oauth2/v1/authorize',
    tokenUrl: 'https://airtable.com/oauth2/v1/token',
    scopes: ['data.records:read', 'data.records:write', 'schema.bases:read'],
    pkce: true,
    tokenAuth: 'basic',
  },
  test: { request: () => ({ method: 'GET', path: '/meta/whoami' }), accountLabel: bodyLabel('email', 'id') },
  triggers: [newRecord],
  actions: [
    defineAction({
      id: 'create_record',
      name: 'Create a record',
      description: 'Creates a record in a table (POST /{baseId}/{table}).',
      kind: 'write',
      input: z.object({ baseId, table, fields, typecast }),
      request: (input) => ({
        method: 'POST',
        path: path`/${input.baseId}/${input.table}`,
        body: { fields: input.fields, typecast: input.typecast },
      }),
      output: (res) => record(res.body as AirtableRecord),
    }),
    defineAction({
      id: 'update_record',
      name: 'Update a record',
      description:
        'Changes the given fields of a record, leaving the others (PATCH /{baseId}/{table}/{recordId}).',
      kind: 'write',
      input: z.object({
        baseId,
        table,
        recordId: z
          .string()
          .regex(/^rec[A-Za-z0-9]{14}$/, 'must be a record id such as recXXXXXXXXXXXXXX')
          .describe('Record id'),
        fields,
        typecast,
      }),
      request: (input) => ({
        method: 'PATCH',
        path: path`/${input.baseId}/${input.table}/${input.recordId}`,
        body: { fields: input.fields, typecast: input.typecast },
      }),
      output: (res) => record(res.body as AirtableRecord),
    }),
    defineAction({
      id: 'list_records',
      name: 'List records',
      description: 'Lists records of a table, optionally filtered by a formula (GET /{baseId}/{table}).',
      kind: 'read',
      input: z.object({
        baseId,
        table,
        filterByFormula: z.string().max(10_000).optional().describe('Formula, e.g. {Status} = "Done"'),
        view: z.string().optional().describe('View name or id; its filters and order apply'),
        maxRecords: z.number().int().min(1).max(1000).default(100).describe('At most this many records'),
        sortField: z.string().optional().describe('Field to sort by'),
        sortDirection: z.enum(['asc', 'desc']).default('asc').describe('Sort direction'),
        offset: z.string().optional().describe('Offset of a previous page'),
      }),
      request: (input) => ({
        method: 'GET',
        path: path`/${input.baseId}/${input.table}`,
        query: {
          filterByFormula: input.filterByFormula,
          view: input.view,
          maxRecords: input.maxRecords,
          pageSize: Math.min(input.maxRecords, 100),
          offset: input.offset,
          ...(input.sortField && {
            'sort[0][field]': input.sortField,
            'sort[0][direction]': input.sortDirection,
          }),
        },
      }),
      output: (res) => {
        const b = res.body as { records: AirtableRecord[]; offset?: string };
        return { records: b.records.map(record), offset: b.offset ?? null };
      },
    }),
  ],
  sources: {
    bases: {
      description: 'Bases the user granted access to',
      request: () => ({ method: 'GET', path: '/meta/bases' }),
      items: (body) => (body as { bases?: unknown[] }).bases ?? [],
      option: (b: { id: string; name: string }) => ({ value: b.id, label: b.name }),
      paging: {
        next: (res, req) => {
          const offset = (res.body as { offset?: string }).offset;
          return offset ? withQuery(req, { offset }) : undefined;
        },
      },
    },
  },
};

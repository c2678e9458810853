import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { driveFileSource, googleOAuth } from './google.ts';
import { bodyLabel, path } from './helpers.ts';

const spreadsheetId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{20,}$/, 'must be a spreadsheet id (the long part of its URL)')
  .describe('Spreadsheet id (spreadsheets option source)');
const range = (example: string) =>
  z
    .string()
    .min(1)
    .max(500)
    .describe(`A1 notation, e.g. ${example}; a sheet name alone means the whole sheet`);
const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const valueInputOption = z
  .enum(['USER_ENTERED', 'RAW'])
  .default('USER_ENTERED')
  .describe('USER_ENTERED parses numbers, dates and formulas as if typed; RAW stores strings as they are');

/** Rows as objects keyed by the first row (the header). */
function asObjects(values: unknown[][]): Record<string, unknown>[] {
  const [header = [], ...rows] = values;
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [String(h), row[i] ?? null])));
}

interface SheetRow {
  row: number;
  values: unknown[];
  header: unknown[];
}

/**
 * https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/get: a row's position is its
 * number, so each poll reads only the header and the rows after the last one seen.
 */
const newRow = definePollTrigger({
  id: 'new_row',
  name: 'New row',
  description: 'A row is added at the bottom of a sheet (polls GET /spreadsheets/{id}/values/{range}).',
  input: z.object({
    spreadsheetId,
    sheet: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[^'!]+$/, 'must be a sheet name without quotes or !')
      .describe('Sheet (tab) name; its first row is the header'),
  }),
  order: 'oldest',
  request: (input, _settings, since) => ({
    method: 'GET',
    path: path`/spreadsheets/${input.spreadsheetId}/values:batchGet`,
    query: {
      ranges: [`'${input.sheet}'!1:1`, `'${input.sheet}'!A${typeof since === 'number' ? since + 1 : 2}:ZZ`],
      majorDimension: 'ROWS',
    },
  }),
  items: (body) => {
    const [head, rows] = (body as { valueRanges: { range: string; values?: unknown[][] }[] }).valueRanges;
    const first = Number(/![A-Z]*(\d+)/.exec(rows?.range ?? '')?.[1] ?? 2);
    return (rows?.values ?? []).map((values, i) => ({
      row: first + i,
      values,
      header: head?.values?.[0] ?? [],
    }));
  },
  itemId: (r: SheetRow) => String(r.row),
  itemPosition: (r: SheetRow) => r.row,
  output: (r: SheetRow) => ({
    row: r.row,
    values: r.values,
    fields: Object.fromEntries(r.header.map((h, i) => [String(h), r.values[i] ?? null])),
  }),
});

/** Google Sheets API v4 (and Drive v3 to list spreadsheets): https://developers.google.com/sheets/api/reference/rest */
export const googleSheets: ConnectorDefinition = {
  id: 'google-sheets',
  name: 'Google Sheets',
  description: 'Append, update and read rows of Google Sheets spreadsheets.',
  category: 'productivity',
  icon: 'googlesheets',
  color: '34A853',
  docs: 'https://developers.google.com/sheets/api/reference/rest',
  baseUrl: 'https://sheets.googleapis.com/v4',
  apis: { drive: 'https://www.googleapis.com/drive/v3' },
  auth: {
    ...googleOAuth,
    scopes: [
      'https://www.googleapis.com/auth/spreadsheets',
      'https://www.googleapis.com/auth/drive.metadata.readonly',
    ],
  },
  test: {
    request: () => ({
      api: 'drive',
      method: 'GET',
      path: '/about',
      query: { fields: 'user(displayName,emailAddress)' },
    }),
    accountLabel: bodyLabel('user.emailAddress', 'user.displayName'),
  },
  triggers: [newRow],
  actions: [
    defineAction({
      id: 'append_row',
      name: 'Append a row',
      description:
        'Adds a row after the last row of a table (POST /spreadsheets/{id}/values/{range}:append).',
      kind: 'write',
      input: z.object({
        spreadsheetId,
        range: range('Sheet1 or Sheet1!A:D').default('Sheet1'),
        row: z.array(cell).min(1).max(18_278).describe('Cell values, left to right'),
        valueInputOption,
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/spreadsheets/${input.spreadsheetId}/values/${input.range}:append`,
        query: { valueInputOption: input.valueInputOption, insertDataOption: 'INSERT_ROWS' },
        body: { range: input.range, majorDimension: 'ROWS', values: [input.row] },
      }),
      output: (res) => {
        const b = res.body as { tableRange?: string; updates: { updatedRange: string; updatedRows: number } };
        return {
          tableRange: b.tableRange ?? null,
          updatedRange: b.updates.updatedRange,
          updatedRows: b.updates.updatedRows,
        };
      },
    }),
    defineAction({
      id: 'update_values',
      name: 'Update cells',
      description: 'Overwrites the cells of a range (PUT /spreadsheets/{id}/values/{range}).',
      kind: 'write',
      input: z.object({
        spreadsheetId,
        range: range('Sheet1!A2:C3'),
        values: z.array(z.array(cell)).min(1).describe('Rows of cell values'),
        valueInputOption,
      }),
      request: (input) => ({
        method: 'PUT',
        path: path`/spreadsheets/${input.spreadsheetId}/values/${input.range}`,
        query: { valueInputOption: input.valueInputOption },
        body: { range: input.range, majorDimension: 'ROWS', values: input.values },
      }),
      output: (res) => {
        const b = res.body as { updatedRange: string; updatedRows: number; updatedCells: number };
        return { updatedRange: b.updatedRange, updatedRows: b.updatedRows, updatedCells: b.updatedCells };
      },
    }),
    defineAction({
      id: 'get_values',
      name: 'Read cells',
      description:
        'Reads the values of a range (GET /spreadsheets/{id}/values/{range}), as rows or as objects.',
      kind: 'read',
      input: z.object({
        spreadsheetId,
        range: range('Sheet1!A1:D100'),
        headerRow: z.boolean().default(false).describe('Treat the first row as a header and return objects'),
      }),
      request: (input) => ({
        method: 'GET',
        path: path`/spreadsheets/${input.spreadsheetId}/values/${input.range}`,
        query: { majorDimension: 'ROWS', valueRenderOption: 'FORMATTED_VALUE' },
      }),
      output: (res, input) => {
        const b = res.body as { range: string; values?: unknown[][] };
        const values = b.values ?? [];
        return { range: b.range, rows: input.headerRow ? asObjects(values) : values };
      },
    }),
  ],
  sources: {
    spreadsheets: driveFileSource({
      description: 'Spreadsheets in Google Drive, most recently changed first',
      mimeType: 'application/vnd.google-apps.spreadsheet',
      api: 'drive',
    }),
  },
};

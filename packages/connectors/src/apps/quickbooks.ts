import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpRequestSpec, HttpResponse, OptionSource } from '../types.ts';
import { bodyLabel, joinMessages, path, settingField } from './helpers.ts';

/** Every request pins the minor version: 75 is the base since Intuit retired 1–74 in 2025. */
const MINOR_VERSION = 75;
const PAGE = 1000;

const ref = (what: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be a ${what} id`)
    .describe(`${what[0]!.toUpperCase()}${what.slice(1)} id`);
const money = z.number().nonnegative().multipleOf(0.01);

interface Fault {
  Message?: string;
  Detail?: string;
  message?: string;
  detail?: string;
  code?: string;
}
/** `{"Fault":{"Error":[{"Message","Detail","code"}]}}`; authentication failures spell it in lower case. */
function faultMessage(res: HttpResponse): string | undefined {
  const b = res.body as { Fault?: { Error?: Fault[] }; fault?: { error?: Fault[] } } | null;
  const errors = b?.Fault?.Error ?? b?.fault?.error;
  if (!Array.isArray(errors)) return undefined;
  return joinMessages(
    errors.map((e) => {
      const message = e.Message ?? e.message;
      const detail = e.Detail ?? e.detail;
      return detail && detail !== message ? `${message}: ${detail}` : message;
    }),
  );
}

/** A request with the minor version added. */
const qbo = (req: HttpRequestSpec): HttpRequestSpec => ({
  ...req,
  query: { ...req.query, minorversion: MINOR_VERSION },
});

/** Active entities via the query endpoint, 1,000 per page (STARTPOSITION is 1-based). */
function querySource(
  description: string,
  entity: string,
  fields: string,
  option: OptionSource['option'],
): OptionSource {
  const statement = (start: number) =>
    `select ${fields} from ${entity} where Active = true orderby ${fields.split(', ')[1]} startposition ${start} maxresults ${PAGE}`;
  return {
    description,
    request: () => qbo({ method: 'GET', path: '/query', query: { query: statement(1) } }),
    items: (body) => (body as { QueryResponse?: Record<string, unknown[]> }).QueryResponse?.[entity] ?? [],
    option,
    paging: {
      next: (res, req) => {
        const r = (res.body as { QueryResponse?: Record<string, unknown> }).QueryResponse ?? {};
        const got = (r[entity] as unknown[] | undefined)?.length ?? 0;
        const start = Number(r.startPosition ?? 1);
        return got === PAGE ? { ...req, query: { ...req.query, query: statement(start + PAGE) } } : undefined;
      },
    },
  };
}

interface Customer {
  Id: string;
  SyncToken: string;
  DisplayName: string;
  CompanyName?: string;
  PrimaryEmailAddr?: { Address: string };
  Balance?: number;
  MetaData?: { CreateTime: string };
}
interface Invoice {
  Id: string;
  DocNumber?: string;
  TxnDate: string;
  DueDate?: string;
  TotalAmt: number;
  Balance: number;
  CurrencyRef?: { value: string };
  CustomerRef: { value: string; name?: string };
  EmailStatus?: string;
  BillEmail?: { Address: string };
}
const invoice = (i: Invoice) => ({
  id: i.Id,
  docNumber: i.DocNumber ?? null,
  date: i.TxnDate,
  dueDate: i.DueDate ?? null,
  total: i.TotalAmt,
  balance: i.Balance,
  currency: i.CurrencyRef?.value ?? null,
  customerId: i.CustomerRef.value,
  customerName: i.CustomerRef.name ?? null,
  emailStatus: i.EmailStatus ?? null,
  billEmail: i.BillEmail?.Address ?? null,
});

/** QuickBooks Online Accounting API v3: https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice */
export const quickbooks: ConnectorDefinition = {
  id: 'quickbooks',
  name: 'QuickBooks Online',
  description: 'Create customers and invoices, email invoices, and query any QuickBooks Online entity.',
  category: 'payments',
  icon: 'quickbooks',
  color: '2CA01C',
  docs: 'https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice',
  // Sandbox companies live at sandbox-quickbooks.api.intuit.com: point INLAY_CONNECTOR_QUICKBOOKS_BASE_URL there.
  baseUrl: 'https://quickbooks.api.intuit.com/v3/company/{realmId}',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://appcenter.intuit.com/connect/oauth2',
    tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
    scopes: ['com.intuit.quickbooks.accounting'],
    pkce: false,
    tokenAuth: 'basic',
    fields: [
      settingField('realmId', 'Company ID', {
        placeholder: '9130357766908716',
        help: 'QuickBooks: Settings ⚙ → Account and settings → Billing & subscription → Company ID (digits only)',
      }),
    ],
  },
  test: {
    request: (s) => qbo({ method: 'GET', path: path`/companyinfo/${s.realmId ?? ''}` }),
    accountLabel: bodyLabel('CompanyInfo.CompanyName'),
  },
  errorMessage: faultMessage,
  // Batch-style answers can carry a Fault with HTTP 200.
  checkResponse: faultMessage,
  actions: [
    defineAction({
      id: 'create_customer',
      name: 'Create a customer',
      description: 'Creates a customer (POST /customer); the display name must be unique.',
      kind: 'write',
      input: z.object({
        displayName: z
          .string()
          .min(1)
          .max(500)
          .describe('Display name, unique among customers, vendors and employees'),
        email: z.email().optional().describe('Primary email'),
        givenName: z.string().max(100).optional().describe('First name'),
        familyName: z.string().max(100).optional().describe('Last name'),
        companyName: z.string().max(100).optional().describe('Company name'),
        phone: z.string().max(30).optional().describe('Primary phone'),
      }),
      request: (i) =>
        qbo({
          method: 'POST',
          path: '/customer',
          body: {
            DisplayName: i.displayName,
            PrimaryEmailAddr: i.email ? { Address: i.email } : undefined,
            GivenName: i.givenName,
            FamilyName: i.familyName,
            CompanyName: i.companyName,
            PrimaryPhone: i.phone ? { FreeFormNumber: i.phone } : undefined,
          },
        }),
      output: (res) => {
        const c = (res.body as { Customer: Customer }).Customer;
        return {
          id: c.Id,
          displayName: c.DisplayName,
          companyName: c.CompanyName ?? null,
          email: c.PrimaryEmailAddr?.Address ?? null,
          balance: c.Balance ?? 0,
          createdAt: c.MetaData?.CreateTime ?? null,
        };
      },
    }),
    defineAction({
      id: 'create_invoice',
      name: 'Create an invoice',
      description: 'Creates an invoice for a customer from product or service lines (POST /invoice).',
      kind: 'write',
      input: z.object({
        customerId: ref('customer').describe('Customer id (customers option source)'),
        lines: z
          .array(
            z.object({
              itemId: ref('item').describe('Product or service id (items option source)'),
              quantity: z.number().positive().default(1).describe('Quantity'),
              unitPrice: money.describe('Price per unit'),
              description: z.string().max(4000).optional().describe('Line description'),
            }),
          )
          .min(1)
          .max(250)
          .describe('Invoice lines'),
        dueDate: z.iso
          .date()
          .optional()
          .describe('Due date, YYYY-MM-DD; from the customer’s terms when omitted'),
        txnDate: z.iso.date().optional().describe('Invoice date, YYYY-MM-DD; today when omitted'),
        billEmail: z.email().optional().describe('Where send_invoice emails it'),
        memo: z.string().max(1000).optional().describe('Message shown on the invoice'),
      }),
      request: (i) =>
        qbo({
          method: 'POST',
          path: '/invoice',
          body: {
            CustomerRef: { value: i.customerId },
            Line: i.lines.map((l) => ({
              DetailType: 'SalesItemLineDetail',
              Amount: Math.round(l.quantity * l.unitPrice * 100) / 100,
              Description: l.description,
              SalesItemLineDetail: { ItemRef: { value: l.itemId }, Qty: l.quantity, UnitPrice: l.unitPrice },
            })),
            DueDate: i.dueDate,
            TxnDate: i.txnDate,
            BillEmail: i.billEmail ? { Address: i.billEmail } : undefined,
            CustomerMemo: i.memo ? { value: i.memo } : undefined,
          },
        }),
      output: (res) => invoice((res.body as { Invoice: Invoice }).Invoice),
    }),
    defineAction({
      id: 'send_invoice',
      name: 'Email an invoice',
      description: 'Emails an invoice to its billing address or another one (POST /invoice/{id}/send).',
      kind: 'write',
      input: z.object({
        invoiceId: ref('invoice'),
        sendTo: z.email().optional().describe('Recipient; the invoice’s billing email when omitted'),
      }),
      request: (i) =>
        qbo({
          method: 'POST',
          path: path`/invoice/${i.invoiceId}/send`,
          query: { sendTo: i.sendTo },
          // The endpoint wants this type even though nothing is uploaded.
          headers: { 'Content-Type': 'application/octet-stream' },
        }),
      output: (res) => invoice((res.body as { Invoice: Invoice }).Invoice),
    }),
    defineAction({
      id: 'query',
      name: 'Query entities',
      description:
        "Runs a QuickBooks query, e.g. select * from Invoice where Balance > '0' maxresults 50 (GET /query).",
      kind: 'read',
      input: z.object({
        query: z
          .string()
          .min(1)
          .max(4000)
          .regex(/^\s*select\s/i, 'must be a select statement')
          .describe("Query, e.g. select Id, DisplayName from Customer where DisplayName like 'Acme%'"),
      }),
      request: (i) => qbo({ method: 'GET', path: '/query', query: { query: i.query } }),
      output: (res) => {
        const r = (res.body as { QueryResponse?: Record<string, unknown> }).QueryResponse ?? {};
        const entity = Object.keys(r).find((k) => Array.isArray(r[k]));
        return {
          entity: entity ?? null,
          rows: entity ? (r[entity] as unknown[]) : [],
          totalCount: (r.totalCount as number | undefined) ?? null,
          startPosition: (r.startPosition as number | undefined) ?? null,
        };
      },
    }),
  ],
  sources: {
    customers: querySource('Active customers', 'Customer', 'Id, DisplayName', (c: Customer) => ({
      value: c.Id,
      label: c.DisplayName,
    })),
    items: querySource(
      'Active products and services',
      'Item',
      'Id, Name',
      (i: { Id: string; Name: string }) => ({
        value: i.Id,
        label: i.Name,
      }),
    ),
  },
};

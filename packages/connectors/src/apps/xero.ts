import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpRequestSpec, HttpResponse } from '../types.ts';
import { bodyLabel, joinMessages, path, treeSource } from './helpers.ts';

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const guid = (what: string) => z.string().regex(GUID, `must be a ${what} id (a GUID)`);
const tenantId = guid('tenant').describe('Xero organisation (tenants option source)');

/** Every accounting call names the organisation in `xero-tenant-id`. */
const forTenant = (tenant: string, req: HttpRequestSpec): HttpRequestSpec => ({
  ...req,
  headers: { ...req.headers, 'xero-tenant-id': tenant },
});

interface ValidationElement {
  ValidationErrors?: { Message: string }[];
}
/**
 * Validation: `{"Type":"ValidationException","Message":"A validation exception occurred","Elements":[{"ValidationErrors":[…]}]}`;
 * authentication: problem details `{"Title":"Unauthorized","Detail":"AuthenticationUnsuccessful"}`.
 */
function xeroError(res: HttpResponse): string | undefined {
  const b = res.body as {
    Message?: string;
    Elements?: ValidationElement[];
    Title?: string;
    Detail?: string;
  } | null;
  if (!b || typeof b !== 'object') return undefined;
  const validation = joinMessages(
    (b.Elements ?? []).flatMap((e) => (e.ValidationErrors ?? []).map((v) => v.Message)),
  );
  return validation ?? b.Message ?? joinMessages([b.Title, b.Detail]);
}

interface Contact {
  ContactID: string;
  Name: string;
  EmailAddress?: string;
  ContactStatus?: string;
  FirstName?: string;
  LastName?: string;
}
const contact = (c: Contact) => ({
  id: c.ContactID,
  name: c.Name,
  email: c.EmailAddress || null,
  firstName: c.FirstName ?? null,
  lastName: c.LastName ?? null,
  status: c.ContactStatus ?? null,
});

interface Invoice {
  InvoiceID: string;
  InvoiceNumber?: string;
  Type: string;
  Status: string;
  Reference?: string;
  Contact: { ContactID: string; Name?: string };
  DateString?: string;
  DueDateString?: string;
  CurrencyCode?: string;
  SubTotal?: number;
  TotalTax?: number;
  Total: number;
  AmountDue: number;
  AmountPaid?: number;
  SentToContact?: boolean;
}
const invoice = (i: Invoice) => ({
  id: i.InvoiceID,
  number: i.InvoiceNumber ?? null,
  type: i.Type,
  status: i.Status,
  reference: i.Reference ?? null,
  contactId: i.Contact.ContactID,
  contactName: i.Contact.Name ?? null,
  date: i.DateString?.slice(0, 10) ?? null,
  dueDate: i.DueDateString?.slice(0, 10) ?? null,
  currency: i.CurrencyCode ?? null,
  subTotal: i.SubTotal ?? null,
  totalTax: i.TotalTax ?? null,
  total: i.Total,
  amountDue: i.AmountDue,
  amountPaid: i.AmountPaid ?? null,
  sentToContact: i.SentToContact ?? false,
});

/** Xero Accounting API 2.0: https://developer.xero.com/documentation/api/accounting/overview */
export const xero: ConnectorDefinition = {
  id: 'xero',
  name: 'Xero',
  description: 'Create contacts and invoices, email invoices, and find invoices in Xero organisations.',
  category: 'payments',
  icon: 'xero',
  color: '13B5EA',
  docs: 'https://developer.xero.com/documentation/api/accounting/invoices',
  baseUrl: 'https://api.xero.com/api.xro/2.0',
  // The organisations a token may reach are listed outside the accounting API.
  apis: { identity: 'https://api.xero.com' },
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://login.xero.com/identity/connect/authorize',
    tokenUrl: 'https://identity.xero.com/connect/token',
    // The granular scopes every Xero app created on or after 2 March 2026 must use (older apps may keep the broad
    // `accounting.transactions` until September 2027): https://developer.xero.com/faq/granular-scopes. Xero's
    // OpenAPI description still names the broad scope on `POST /Invoices`; the FAQ and the Scopes page decide.
    scopes: [
      'openid',
      'profile',
      'email',
      'offline_access',
      'accounting.contacts',
      'accounting.invoices',
      'accounting.settings.read',
    ],
    pkce: true,
  },
  test: {
    request: () => ({ api: 'identity', method: 'GET', path: '/connections' }),
    accountLabel: bodyLabel('0.tenantName'),
  },
  errorMessage: xeroError,
  actions: [
    defineAction({
      id: 'create_contact',
      name: 'Create or update a contact',
      description: 'Creates a contact, or updates the one with the same name or ContactID (POST /Contacts).',
      kind: 'write',
      input: z.object({
        tenantId,
        name: z.string().min(1).max(255).describe('Contact (organisation or person) name, unique in Xero'),
        email: z.email().optional().describe('Email address'),
        firstName: z.string().max(255).optional().describe('First name of the contact person'),
        lastName: z.string().max(255).optional().describe('Last name of the contact person'),
        accountNumber: z.string().max(50).optional().describe('Your own reference for the contact'),
        contactId: guid('contact').optional().describe('Update this contact instead of matching by name'),
      }),
      request: (i) =>
        forTenant(i.tenantId, {
          method: 'POST',
          path: '/Contacts',
          body: {
            Contacts: [
              {
                ContactID: i.contactId,
                Name: i.name,
                EmailAddress: i.email,
                FirstName: i.firstName,
                LastName: i.lastName,
                AccountNumber: i.accountNumber,
              },
            ],
          },
        }),
      output: (res) => contact((res.body as { Contacts: Contact[] }).Contacts[0]!),
    }),
    defineAction({
      id: 'create_invoice',
      name: 'Create an invoice',
      description: 'Creates a sales invoice (or a bill) for a contact (POST /Invoices).',
      kind: 'write',
      input: z.object({
        tenantId,
        contactId: guid('contact').describe('Contact id'),
        type: z.enum(['ACCREC', 'ACCPAY']).default('ACCREC').describe('ACCREC: sales invoice; ACCPAY: bill'),
        lines: z
          .array(
            z.object({
              description: z.string().min(1).max(4000).describe('Line description'),
              quantity: z.number().positive().default(1).describe('Quantity'),
              unitAmount: z.number().describe('Price per unit'),
              accountCode: z.string().max(10).optional().describe('Account code (accounts option source)'),
              itemCode: z.string().max(30).optional().describe('Item code'),
              taxType: z
                .string()
                .max(50)
                .optional()
                .describe('Tax type, e.g. OUTPUT2; the account default when omitted'),
            }),
          )
          .min(1)
          .max(500)
          .describe('Invoice lines'),
        date: z.iso.date().optional().describe('Invoice date, YYYY-MM-DD; today when omitted'),
        dueDate: z.iso.date().optional().describe('Due date, YYYY-MM-DD'),
        reference: z.string().max(255).optional().describe('Reference shown on the invoice'),
        status: z
          .enum(['DRAFT', 'SUBMITTED', 'AUTHORISED'])
          .default('DRAFT')
          .describe('AUTHORISED invoices can be emailed and paid'),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/)
          .optional()
          .describe('ISO 4217 currency; the organisation’s when omitted'),
        lineAmountTypes: z
          .enum(['Exclusive', 'Inclusive', 'NoTax'])
          .default('Exclusive')
          .describe('Whether unit amounts include tax'),
      }),
      request: (i) =>
        forTenant(i.tenantId, {
          method: 'POST',
          path: '/Invoices',
          body: {
            Invoices: [
              {
                Type: i.type,
                Contact: { ContactID: i.contactId },
                LineItems: i.lines.map((l) => ({
                  Description: l.description,
                  Quantity: l.quantity,
                  UnitAmount: l.unitAmount,
                  AccountCode: l.accountCode,
                  ItemCode: l.itemCode,
                  TaxType: l.taxType,
                })),
                Date: i.date,
                DueDate: i.dueDate,
                Reference: i.reference,
                Status: i.status,
                CurrencyCode: i.currency,
                LineAmountTypes: i.lineAmountTypes,
              },
            ],
          },
        }),
      output: (res) => invoice((res.body as { Invoices: Invoice[] }).Invoices[0]!),
    }),
    defineAction({
      id: 'email_invoice',
      name: 'Email an invoice',
      description:
        'Emails an approved sales invoice to its contact’s addresses (POST /Invoices/{id}/Email); drafts cannot be sent.',
      kind: 'write',
      input: z.object({ tenantId, invoiceId: guid('invoice').describe('Invoice id') }),
      request: (i) =>
        forTenant(i.tenantId, { method: 'POST', path: path`/Invoices/${i.invoiceId}/Email`, body: {} }),
      // 204 No Content on success.
      output: (_res, i) => ({ sent: true, invoiceId: i.invoiceId }),
    }),
    defineAction({
      id: 'find_invoices',
      name: 'Find invoices',
      description: 'Lists invoices by status, contact or number, 100 a page (GET /Invoices).',
      kind: 'read',
      input: z.object({
        tenantId,
        statuses: z
          .array(z.enum(['DRAFT', 'SUBMITTED', 'AUTHORISED', 'PAID', 'VOIDED', 'DELETED']))
          .optional()
          .describe('Only these statuses'),
        contactIds: z.array(guid('contact')).max(50).optional().describe('Only invoices of these contacts'),
        invoiceNumbers: z
          .array(z.string().max(255))
          .max(50)
          .optional()
          .describe('Only these invoice numbers'),
        page: z.number().int().min(1).default(1).describe('Page number'),
      }),
      request: (i) =>
        forTenant(i.tenantId, {
          method: 'GET',
          path: '/Invoices',
          query: {
            Statuses: i.statuses?.join(','),
            ContactIDs: i.contactIds?.join(','),
            InvoiceNumbers: i.invoiceNumbers?.join(','),
            page: i.page,
            summaryOnly: true,
            order: 'Date DESC',
          },
        }),
      output: (res) => ((res.body as { Invoices?: Invoice[] }).Invoices ?? []).map(invoice),
    }),
  ],
  sources: {
    tenants: {
      description: 'Organisations the connection may reach',
      request: () => ({ api: 'identity', method: 'GET', path: '/connections' }),
      items: (body) => (body as { tenantType: string }[]).filter((t) => t.tenantType === 'ORGANISATION'),
      option: (t: { tenantId: string; tenantName: string }) => ({ value: t.tenantId, label: t.tenantName }),
    },
    accounts: treeSource({
      description: 'Active revenue and expense account codes of every organisation',
      root: {
        request: () => ({ api: 'identity', method: 'GET', path: '/connections' }),
        items: (body: { tenantType: string }[]) => body.filter((t) => t.tenantType === 'ORGANISATION'),
        children: [
          {
            request: (t: { tenantId: string }) =>
              forTenant(t.tenantId, {
                method: 'GET',
                path: '/Accounts',
                query: { where: 'Status=="ACTIVE"&&(Class=="REVENUE"||Class=="EXPENSE")' },
              }),
            items: (body: { Accounts?: { Code?: string }[] }) => (body.Accounts ?? []).filter((a) => a.Code),
          },
        ],
      },
      option: (a: { Code: string; Name: string }, [t]: { tenantName: string }[]) => ({
        value: a.Code,
        label: `${t!.tenantName} › ${a.Code} ${a.Name}`,
      }),
    }),
  },
};

import { z } from 'zod';
import { defineAction, definePollTrigger, defineWebhookTrigger } from '../define.ts';
import { signatureVerifiers } from '../triggers/signatures.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, path, withQuery } from './helpers.ts';

const ZERO_DECIMAL = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '));

/** `unit_amount` is in the currency's smallest unit (cents), except for zero-decimal currencies such as JPY. */
export function formatAmount(amount: number, currency: string): string {
  const c = currency.toLowerCase();
  return `${ZERO_DECIMAL.has(c) ? amount : (amount / 100).toFixed(2)} ${c.toUpperCase()}`;
}

const idempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe('Sent as Idempotency-Key: a retry with the same key creates nothing twice');
const metadata = z
  .record(z.string().max(40), z.string().max(500))
  .optional()
  .describe('Key-value pairs stored on the object');

interface Customer {
  id: string;
  email: string | null;
  name: string | null;
  created: number;
  metadata?: Record<string, string>;
}
const customer = (c: Customer) => ({
  id: c.id,
  email: c.email,
  name: c.name,
  created: new Date(c.created * 1000).toISOString(),
  metadata: c.metadata ?? {},
});

interface Price {
  id: string;
  unit_amount: number | null;
  currency: string;
  nickname?: string | null;
  recurring?: { interval: string; interval_count: number } | null;
  product?: string | { name?: string };
}

const customerPosition = (c: Customer) => new Date(c.created * 1000).toISOString();

/** List customers, newest first: https://docs.stripe.com/api/customers/list */
const newCustomer = definePollTrigger({
  id: 'new_customer',
  name: 'New customer',
  description: 'A new customer is created in Stripe (polls GET /v1/customers).',
  input: z.object({}),
  request: (_input, _settings, since) => ({
    method: 'GET',
    path: '/customers',
    query: {
      limit: 100,
      // Same-second customers of the last poll come back; the seen-set drops them.
      ...(typeof since === 'string' && { 'created[gte]': Math.floor(Date.parse(since) / 1000) }),
    },
  }),
  items: (body) => (body as { data: Customer[] }).data,
  itemId: (c: Customer) => c.id,
  itemPosition: customerPosition,
  output: customer,
  paging: {
    next: (res, req) => {
      const b = res.body as { has_more?: boolean; data?: { id: string }[] };
      const last = b.data?.at(-1)?.id;
      return b.has_more && last ? withQuery(req, { starting_after: last }) : undefined;
    },
  },
});

/**
 * The same event pushed by a webhook endpoint: https://docs.stripe.com/api/webhook_endpoints/create. Stripe
 * issues the signing secret (`whsec_…`) in the create answer and signs each event with `Stripe-Signature`.
 */
const newCustomerWebhook = defineWebhookTrigger({
  id: 'new_customer_webhook',
  name: 'New customer (instant)',
  description: 'A new customer is created in Stripe (webhook endpoint for customer.created).',
  input: z.object({}),
  subscribe: (_input, hook) => ({
    method: 'POST',
    path: '/webhook_endpoints',
    bodyType: 'form',
    body: { url: hook.url, enabled_events: ['customer.created'], description: 'Inlay' },
  }),
  subscription: (res) => {
    const b = res.body as { id: string; secret?: string };
    return { id: b.id, secret: b.secret };
  },
  unsubscribe: (_input, id) => ({ method: 'DELETE', path: path`/webhook_endpoints/${id}` }),
  verify: signatureVerifiers.stripe,
  items: (d) => {
    const e = d.body as { type?: string; data?: { object?: Customer } };
    return e.type === 'customer.created' && e.data?.object ? [e.data.object] : [];
  },
  itemId: (c: Customer) => c.id,
  itemPosition: customerPosition,
  output: customer,
});

/** Stripe API: https://docs.stripe.com/api */
export const stripe: ConnectorDefinition = {
  id: 'stripe',
  name: 'Stripe',
  description: 'Create customers and payment links, and look up customers.',
  category: 'payments',
  icon: 'stripe',
  color: '635BFF',
  docs: 'https://docs.stripe.com/api',
  baseUrl: 'https://api.stripe.com/v1',
  // Pinned so response shapes do not change with the account's default version.
  headers: { 'stripe-version': '2024-06-20' },
  auth: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    format: 'Bearer {apiKey}',
    fields: [
      {
        name: 'apiKey',
        label: 'Secret or restricted key',
        type: 'password',
        required: true,
        secret: true,
        placeholder: 'rk_live_…',
        help: 'Dashboard → Developers → API keys; a restricted key needs Customers, Payment Links and Prices',
      },
    ],
  },
  test: {
    request: () => ({ method: 'GET', path: '/account' }),
    accountLabel: bodyLabel('settings.dashboard.display_name', 'business_profile.name', 'email', 'id'),
  },
  actions: [
    defineAction({
      id: 'create_customer',
      name: 'Create a customer',
      description: 'Creates a customer (POST /v1/customers).',
      kind: 'write',
      input: z.object({
        email: z.email().optional().describe('Email address'),
        name: z.string().max(256).optional().describe('Full name or business name'),
        phone: z.string().max(20).optional().describe('Phone number'),
        description: z.string().max(350).optional().describe('Internal note'),
        metadata,
        idempotencyKey,
      }),
      request: ({ idempotencyKey, ...body }) => ({
        method: 'POST',
        path: '/customers',
        bodyType: 'form',
        body,
        headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
      }),
      output: (res) => customer(res.body as Customer),
    }),
    defineAction({
      id: 'create_payment_link',
      name: 'Create a payment link',
      description: 'Creates a hosted checkout link for a price (POST /v1/payment_links).',
      kind: 'write',
      input: z.object({
        price: z
          .string()
          .regex(/^price_[A-Za-z0-9]+$/)
          .describe('Price id (prices option source)'),
        quantity: z.number().int().min(1).max(999).default(1).describe('Quantity'),
        metadata,
        idempotencyKey,
      }),
      request: ({ idempotencyKey, price, quantity, metadata }) => ({
        method: 'POST',
        path: '/payment_links',
        bodyType: 'form',
        body: { line_items: [{ price, quantity }], metadata },
        headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
      }),
      output: (res) => {
        const b = res.body as { id: string; url: string; active: boolean };
        return { id: b.id, url: b.url, active: b.active };
      },
    }),
    defineAction({
      id: 'find_customers',
      name: 'Find customers by email',
      description: 'Lists customers with an exact email address, newest first (GET /v1/customers?email=).',
      kind: 'read',
      input: z.object({
        email: z.email().describe('Email address (case-sensitive in Stripe)'),
        limit: z.number().int().min(1).max(100).default(10).describe('At most this many'),
      }),
      request: (input) => ({ method: 'GET', path: '/customers', query: input }),
      output: (res) => (res.body as { data: Customer[] }).data.map(customer),
    }),
  ],
  triggers: [newCustomer, newCustomerWebhook],
  sources: {
    prices: {
      description: 'Active prices, with their product',
      request: () => ({
        method: 'GET',
        path: '/prices',
        query: { active: true, limit: 100, 'expand[]': ['data.product'] },
      }),
      items: (body) => (body as { data?: unknown[] }).data ?? [],
      option: (p: Price) => {
        const product = typeof p.product === 'object' ? p.product.name : undefined;
        const amount = p.unit_amount === null ? 'custom amount' : formatAmount(p.unit_amount, p.currency);
        const every = p.recurring
          ? ` / ${p.recurring.interval_count > 1 ? `${p.recurring.interval_count} ` : ''}${p.recurring.interval}`
          : '';
        return { value: p.id, label: `${product ?? p.nickname ?? p.id}: ${amount}${every}` };
      },
      paging: {
        next: (res, req) => {
          const b = res.body as { has_more?: boolean; data?: { id: string }[] };
          const last = b.data?.at(-1)?.id;
          return b.has_more && last ? withQuery(req, { starting_after: last }) : undefined;
        },
      },
    },
  },
};

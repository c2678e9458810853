import { connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../src/apps/stripe.ts';

const apiKey = 'rk_test_51HxQk2L9mN3oP4qR5sT6uV7wX8yZ9aB0cD1eF2gH3iJ4kL5mN6oP7qR8sT9uV0wX1yZ2aB3cD4eF5gH6';
const customer = {
  id: 'cus_PqR5sT6uV7wX8y',
  object: 'customer',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  created: 1735812000,
  metadata: { inlay_user: 'u_1' },
  invoice_settings: { default_payment_method: null },
};
const customerOutput = {
  id: 'cus_PqR5sT6uV7wX8y',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  created: '2025-01-02T10:00:00.000Z',
  metadata: { inlay_user: 'u_1' },
};
const form = { 'content-type': 'application/x-www-form-urlencoded', 'stripe-version': '2024-06-20' };

connectorSuite({
  id: 'stripe',
  fixture: 'stripe.json',
  credential: { fields: { apiKey } },
  badCredential: { fields: { apiKey: 'rk_test_revoked' } },
  auth: { header: 'authorization', value: `Bearer ${apiKey}` },
  headers: { 'stripe-version': '2024-06-20' },
  test: {
    request: { method: 'GET', path: '/account' },
    ok: { body: { id: 'acct_1', object: 'account', settings: { dashboard: { display_name: 'Acme Inc' } } } },
    rejected: {
      status: 401,
      body: {
        error: {
          message: 'Invalid API Key provided: rk_test_********oked',
          type: 'invalid_request_error',
        },
      },
    },
    label: 'Acme Inc',
    reason: '401: Invalid API Key provided: rk_test_********oked',
  },
  actions: [
    {
      name: 'posts a form body with metadata[...] keys and an Idempotency-Key',
      action: 'create_customer',
      input: {
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        metadata: { inlay_user: 'u_1' },
        idempotencyKey: 'run-7-step-2',
      },
      reply: { body: customer },
      request: {
        method: 'POST',
        path: '/customers',
        headers: { ...form, 'idempotency-key': 'run-7-step-2' },
        body: { email: 'ada@example.com', name: 'Ada Lovelace', 'metadata[inlay_user]': 'u_1' },
      },
      output: customerOutput,
    },
    {
      name: 'creates a payment link with indexed line_items',
      action: 'create_payment_link',
      input: { price: 'price_1OaBcD2eFgHiJkLm', quantity: 2 },
      reply: {
        body: {
          id: 'plink_1OaBcD',
          object: 'payment_link',
          url: 'https://buy.stripe.com/test_6oE3fd',
          active: true,
        },
      },
      request: {
        method: 'POST',
        path: '/payment_links',
        headers: form,
        body: { 'line_items[0][price]': 'price_1OaBcD2eFgHiJkLm', 'line_items[0][quantity]': '2' },
      },
      output: { id: 'plink_1OaBcD', url: 'https://buy.stripe.com/test_6oE3fd', active: true },
    },
    {
      name: 'lists customers by email',
      action: 'find_customers',
      input: { email: 'ada@example.com' },
      reply: { body: { object: 'list', data: [customer], has_more: false, url: '/v1/customers' } },
      request: { method: 'GET', path: '/customers', query: { email: 'ada@example.com', limit: '10' } },
      output: [customerOutput],
    },
  ],
  sources: [
    {
      source: 'prices',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/prices',
            query: { active: 'true', limit: '100', 'expand[]': 'data.product' },
          },
          reply: {
            body: {
              object: 'list',
              has_more: true,
              data: [
                {
                  id: 'price_pro_month',
                  unit_amount: 1900,
                  currency: 'usd',
                  recurring: { interval: 'month', interval_count: 1 },
                  product: { id: 'prod_1', name: 'Pro' },
                },
              ],
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/prices',
            query: {
              active: 'true',
              limit: '100',
              'expand[]': 'data.product',
              starting_after: 'price_pro_month',
            },
          },
          reply: {
            body: {
              object: 'list',
              has_more: false,
              data: [
                {
                  id: 'price_jp',
                  unit_amount: 5000,
                  currency: 'jpy',
                  recurring: null,
                  product: { id: 'prod_2', name: 'Setup' },
                },
              ],
            },
          },
        },
      ],
      options: [
        { value: 'price_pro_month', label: 'Pro: 19.00 USD / month' },
        { value: 'price_jp', label: 'Setup: 5000 JPY' },
      ],
    },
  ],
  errors: [
    {
      name: 'a card or request error keeps Stripe’s message',
      action: 'create_payment_link',
      input: { price: 'price_archived' },
      reply: {
        status: 400,
        body: {
          error: {
            code: 'resource_missing',
            message: "No such price: 'price_archived'",
            param: 'line_items[0][price]',
            type: 'invalid_request_error',
          },
        },
      },
      message: "400: No such price: 'price_archived'",
    },
  ],
});

describe('stripe amounts', () => {
  it('formats minor units, except for zero-decimal currencies', () => {
    expect(formatAmount(1999, 'eur')).toBe('19.99 EUR');
    expect(formatAmount(500, 'JPY')).toBe('500 JPY');
  });
});

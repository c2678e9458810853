import { connectorSuite } from '@inlay/test-kit/suite';
import { expect } from 'vitest';

const token = 'shpua_4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c';
const gql = (operation: string, variables: unknown) => ({
  query: expect.stringContaining(operation),
  variables,
});
const page = (nodes: unknown[], endCursor: string | null) => ({
  data: { products: { nodes, pageInfo: { hasNextPage: endCursor !== null, endCursor } } },
});

connectorSuite({
  id: 'shopify',
  credential: { fields: { shop: 'acme-store' }, oauth: { accessToken: token } },
  badCredential: { fields: { shop: 'acme-store' }, oauth: { accessToken: 'shpua_revoked' } },
  // Shopify's Admin API takes the token in its own header, not as a bearer token.
  auth: { header: 'x-shopify-access-token', value: token },
  test: {
    request: { method: 'POST', path: '/graphql.json', body: gql('shop { name myshopifyDomain }', {}) },
    ok: { body: { data: { shop: { name: 'Acme', myshopifyDomain: 'acme-store.myshopify.com' } } } },
    rejected: {
      status: 401,
      body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' },
    },
    label: 'acme-store.myshopify.com',
    reason: '401: [API] Invalid API key or access token',
  },
  actions: [
    {
      name: 'runs customerCreate',
      action: 'create_customer',
      input: { email: 'ada@example.com', firstName: 'Ada', tags: ['inlay'] },
      reply: {
        body: {
          data: {
            customerCreate: {
              customer: {
                id: 'gid://shopify/Customer/7001',
                email: 'ada@example.com',
                firstName: 'Ada',
                lastName: null,
                tags: ['inlay'],
                createdAt: '2025-01-02T10:00:00Z',
              },
              userErrors: [],
            },
          },
        },
      },
      request: {
        method: 'POST',
        path: '/graphql.json',
        body: gql('customerCreate(input: $input)', {
          input: { email: 'ada@example.com', firstName: 'Ada', tags: ['inlay'] },
        }),
      },
      output: {
        id: 'gid://shopify/Customer/7001',
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: null,
        tags: ['inlay'],
        createdAt: '2025-01-02T10:00:00Z',
      },
    },
    {
      name: 'tags an order given by number, sent as a global id',
      action: 'add_order_tags',
      input: { orderId: 450789469, tags: ['vip'] },
      reply: {
        body: { data: { tagsAdd: { node: { id: 'gid://shopify/Order/450789469' }, userErrors: [] } } },
      },
      request: {
        method: 'POST',
        path: '/graphql.json',
        body: gql('tagsAdd(id: $id, tags: $tags)', { id: 'gid://shopify/Order/450789469', tags: ['vip'] }),
      },
      output: { id: 'gid://shopify/Order/450789469', added: ['vip'] },
    },
    {
      name: 'reads an order and flattens money and line items',
      action: 'get_order',
      input: { orderId: 'gid://shopify/Order/450789469' },
      reply: {
        body: {
          data: {
            order: {
              id: 'gid://shopify/Order/450789469',
              name: '#1001',
              email: 'ada@example.com',
              createdAt: '2025-01-02T10:00:00Z',
              displayFinancialStatus: 'PAID',
              displayFulfillmentStatus: 'UNFULFILLED',
              tags: [],
              totalPriceSet: { shopMoney: { amount: '59.00', currencyCode: 'EUR' } },
              customer: { id: 'gid://shopify/Customer/7001', email: 'ada@example.com' },
              lineItems: { nodes: [{ title: 'T-shirt', quantity: 2, sku: 'TS-1' }] },
            },
          },
        },
      },
      request: {
        method: 'POST',
        path: '/graphql.json',
        body: gql('order(id: $id)', { id: 'gid://shopify/Order/450789469' }),
      },
      output: {
        id: 'gid://shopify/Order/450789469',
        name: '#1001',
        email: 'ada@example.com',
        createdAt: '2025-01-02T10:00:00Z',
        displayFinancialStatus: 'PAID',
        displayFulfillmentStatus: 'UNFULFILLED',
        tags: [],
        total: '59.00',
        currency: 'EUR',
        customer: { id: 'gid://shopify/Customer/7001', email: 'ada@example.com' },
        lineItems: [{ title: 'T-shirt', quantity: 2, sku: 'TS-1' }],
      },
    },
  ],
  sources: [
    {
      source: 'products',
      search: 'shirt',
      pages: [
        {
          request: {
            method: 'POST',
            path: '/graphql.json',
            body: gql('products(first: 100', { after: null, query: 'title:*shirt*' }),
          },
          reply: {
            body: page(
              [{ id: 'gid://shopify/Product/1', title: 'T-shirt', status: 'ACTIVE' }],
              'eyJsYXN0X2lkIjoxfQ==',
            ),
          },
        },
        {
          request: {
            method: 'POST',
            path: '/graphql.json',
            body: gql('products(first: 100', { after: 'eyJsYXN0X2lkIjoxfQ==', query: 'title:*shirt*' }),
          },
          reply: {
            body: page([{ id: 'gid://shopify/Product/2', title: 'Sweatshirt', status: 'DRAFT' }], null),
          },
        },
      ],
      options: [
        { value: 'gid://shopify/Product/1', label: 'T-shirt' },
        { value: 'gid://shopify/Product/2', label: 'Sweatshirt (draft)' },
      ],
    },
  ],
  errors: [
    {
      name: 'userErrors in an HTTP 200 fail the step with the field named',
      action: 'create_customer',
      input: { email: 'ada@example.com' },
      reply: {
        body: {
          data: {
            customerCreate: {
              customer: null,
              userErrors: [{ field: ['email'], message: 'Email has already been taken' }],
            },
          },
        },
      },
      message: 'email: Email has already been taken',
    },
    {
      name: 'THROTTLED in an HTTP 200 is transient',
      action: 'get_order',
      input: { orderId: 1 },
      reply: {
        body: {
          errors: [
            {
              message: 'Throttled',
              extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
            },
          ],
          extensions: {
            cost: { requestedQueryCost: 42, throttleStatus: { currentlyAvailable: 10, restoreRate: 100 } },
          },
        },
      },
      message: 'Throttled',
      transient: true,
    },
  ],
});

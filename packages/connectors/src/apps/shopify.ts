import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, graphql, graphqlError, joinMessages } from './helpers.ts';

const GRAPHQL = '/graphql.json';

/** A numeric id or a `gid://shopify/<Type>/<n>` global id. */
const idOf = (type: string) =>
  z
    .union([z.number().int().positive(), z.string().regex(new RegExp(`^(gid://shopify/${type}/)?\\d+$`))])
    .describe(`${type} id: a number or gid://shopify/${type}/<number>`);
const gid = (type: string, v: string | number) =>
  String(v).startsWith('gid://') ? String(v) : `gid://shopify/${type}/${v}`;

/** Mutations report invalid input as `userErrors` in an HTTP 200 payload. */
function userErrors(res: HttpResponse): string | undefined {
  const data = (
    res.body as { data?: Record<string, { userErrors?: { field?: string[]; message: string }[] } | null> }
  )?.data;
  const errors = Object.values(data ?? {}).flatMap((p) => p?.userErrors ?? []);
  return joinMessages(
    errors.map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message)),
  );
}

const data = <T>(res: HttpResponse) => (res.body as { data: T }).data;

const PRODUCTS = `query Products($after: String, $query: String) {
  products(first: 100, after: $after, query: $query, sortKey: TITLE) {
    nodes { id title status } pageInfo { hasNextPage endCursor }
  }
}`;

interface Order {
  id: string;
  name: string;
  email: string | null;
  createdAt: string;
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string;
  tags: string[];
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
  customer: { id: string; email: string | null } | null;
  lineItems: { nodes: { title: string; quantity: number; sku: string | null }[] };
}

const NEW_ORDERS = `query NewOrders($after: String, $query: String) {
  orders(first: 50, after: $after, query: $query, sortKey: CREATED_AT, reverse: true) {
    nodes {
      id name email createdAt displayFinancialStatus displayFulfillmentStatus tags
      totalPriceSet { shopMoney { amount currencyCode } }
      customer { id email }
      lineItems(first: 100) { nodes { title quantity sku } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

const orderOutput = (o: Order) => {
  const { totalPriceSet, lineItems, ...rest } = o;
  return {
    ...rest,
    total: totalPriceSet.shopMoney.amount,
    currency: totalPriceSet.shopMoney.currencyCode,
    lineItems: lineItems.nodes,
  };
};

/** https://shopify.dev/docs/api/admin-graphql/latest/queries/orders, newest first. */
const newOrder = definePollTrigger({
  id: 'new_order',
  name: 'New order',
  description: 'An order is placed in the store (polls the orders query).',
  input: z.object({}),
  request: (_input, _settings, since) =>
    graphql(
      NEW_ORDERS,
      { after: null, query: typeof since === 'string' ? `created_at:>='${since}'` : null },
      GRAPHQL,
    ),
  items: (body) => (body as { data: { orders: { nodes: Order[] } } }).data.orders.nodes,
  itemId: (o: Order) => o.id,
  itemPosition: (o: Order) => o.createdAt,
  output: orderOutput,
  paging: {
    next: (res, req) => {
      const page = data<{ orders: { pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(res)
        .orders.pageInfo;
      const vars = (req.body as { variables: Record<string, unknown> }).variables;
      return page.hasNextPage && page.endCursor
        ? graphql(NEW_ORDERS, { ...vars, after: page.endCursor }, GRAPHQL)
        : undefined;
    },
  },
});

/** Shopify GraphQL Admin API: https://shopify.dev/docs/api/admin-graphql */
export const shopify: ConnectorDefinition = {
  id: 'shopify',
  name: 'Shopify',
  description: 'Create customers, tag orders and customers, and read orders of a Shopify store.',
  category: 'ecommerce',
  icon: 'shopify',
  color: '7AB55C',
  docs: 'https://shopify.dev/docs/api/admin-graphql',
  baseUrl: 'https://{shop}.myshopify.com/admin/api/2025-07',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://{shop}.myshopify.com/admin/oauth/authorize',
    tokenUrl: 'https://{shop}.myshopify.com/admin/oauth/access_token',
    scopes: ['read_customers', 'write_customers', 'read_orders', 'write_orders', 'read_products'],
    scopeSeparator: ',',
    pkce: false,
    // The Admin API reads the token from its own header, not from Authorization.
    tokenHeader: { name: 'X-Shopify-Access-Token', format: '{accessToken}' },
    fields: [
      {
        name: 'shop',
        label: 'Store name',
        type: 'text',
        required: true,
        secret: false,
        placeholder: 'acme-store',
        help: 'The part before .myshopify.com',
      },
    ],
  },
  test: {
    request: () => graphql('query Shop { shop { name myshopifyDomain } }', {}, GRAPHQL),
    accountLabel: bodyLabel('data.shop.myshopifyDomain', 'data.shop.name'),
  },
  // Throttling is an HTTP 200 with a THROTTLED error: transient, so the engine retries.
  checkResponse: (res) => graphqlError(res, 'THROTTLED') ?? userErrors(res),
  // A rejected token is `{"errors":"[API] Invalid API key or access token ..."}`: a string, not a list.
  errorMessage: (res) => {
    const errors = (res.body as { errors?: unknown } | null)?.errors;
    return typeof errors === 'string' ? errors : undefined;
  },
  triggers: [newOrder],
  actions: [
    defineAction({
      id: 'create_customer',
      name: 'Create a customer',
      description: 'Creates a customer (customerCreate mutation).',
      kind: 'write',
      input: z.object({
        email: z.email().optional().describe('Email address'),
        firstName: z.string().max(255).optional().describe('First name'),
        lastName: z.string().max(255).optional().describe('Last name'),
        phone: z.string().max(32).optional().describe('Phone number in E.164, e.g. +14155550123'),
        tags: z.array(z.string().min(1).max(255)).optional().describe('Tags'),
        note: z.string().max(5000).optional().describe('Internal note'),
      }),
      request: (input) =>
        graphql(
          `mutation CustomerCreate($input: CustomerInput!) {
  customerCreate(input: $input) { customer { id email firstName lastName tags createdAt } userErrors { field message } }
}`,
          { input },
          GRAPHQL,
        ),
      output: (res) => data<{ customerCreate: { customer: unknown } }>(res).customerCreate.customer,
    }),
    defineAction({
      id: 'add_order_tags',
      name: 'Tag an order',
      description: 'Adds tags to an order (tagsAdd mutation); existing tags stay.',
      kind: 'write',
      input: z.object({
        orderId: idOf('Order'),
        tags: z.array(z.string().min(1).max(255)).min(1).describe('Tags to add'),
      }),
      request: (input) =>
        graphql(
          `mutation TagsAdd($id: ID!, $tags: [String!]!) {
  tagsAdd(id: $id, tags: $tags) { node { id } userErrors { field message } }
}`,
          { id: gid('Order', input.orderId), tags: input.tags },
          GRAPHQL,
        ),
      output: (res, input) => ({
        id: data<{ tagsAdd: { node: { id: string } } }>(res).tagsAdd.node.id,
        added: input.tags,
      }),
    }),
    defineAction({
      id: 'get_order',
      name: 'Get an order',
      description: 'Reads an order with its totals, customer and line items (order query).',
      kind: 'read',
      input: z.object({ orderId: idOf('Order') }),
      request: (input) =>
        graphql(
          `query Order($id: ID!) {
  order(id: $id) {
    id name email createdAt displayFinancialStatus displayFulfillmentStatus tags
    totalPriceSet { shopMoney { amount currencyCode } }
    customer { id email }
    lineItems(first: 100) { nodes { title quantity sku } }
  }
}`,
          { id: gid('Order', input.orderId) },
          GRAPHQL,
        ),
      output: (res) => {
        const o = data<{ order: Order | null }>(res).order;
        if (!o) return null;
        const { totalPriceSet, lineItems, ...rest } = o;
        return {
          ...rest,
          total: totalPriceSet.shopMoney.amount,
          currency: totalPriceSet.shopMoney.currencyCode,
          lineItems: lineItems.nodes,
        };
      },
    }),
  ],
  sources: {
    products: {
      description: 'Products, by title',
      request: (_settings, search) =>
        graphql(
          PRODUCTS,
          { after: null, query: search ? `title:*${search.replace(/[\\"*:]/g, '')}*` : null },
          GRAPHQL,
        ),
      items: (body) => (body as { data?: { products?: { nodes?: unknown[] } } }).data?.products?.nodes ?? [],
      option: (p: { id: string; title: string; status: string }) => ({
        value: p.id,
        label: p.status === 'ACTIVE' ? p.title : `${p.title} (${p.status.toLowerCase()})`,
      }),
      paging: {
        next: (res, req) => {
          const page = data<{ products: { pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(
            res,
          ).products.pageInfo;
          const vars = (req.body as { variables: Record<string, unknown> }).variables;
          return page.hasNextPage && page.endCursor
            ? graphql(PRODUCTS, { ...vars, after: page.endCursor }, GRAPHQL)
            : undefined;
        },
      },
    },
  },
};

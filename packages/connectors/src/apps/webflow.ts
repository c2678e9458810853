import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, detailedMessage, path, treeSource } from './helpers.ts';

/** Webflow ids are 24 hex characters. */
const webflowId = (what: string) =>
  z
    .string()
    .regex(/^[0-9a-f]{24}$/, `must be a Webflow ${what} id`)
    .describe(`${what[0]!.toUpperCase()}${what.slice(1)} id`);
const collectionId = webflowId('collection').describe('CMS collection (collections option source)');
const itemId = webflowId('item');
const fieldData = z
  .record(z.string(), z.unknown())
  .describe('Field values by field slug, e.g. {"name":"Launch","slug":"launch","post-body":"<p>…</p>"}');
/**
 * A new item's fields: Webflow requires `name` and `slug` on every item it creates
 * (https://developers.webflow.com/data/reference/cms/collection-items/staged-items/create-item).
 */
const newFieldData = z
  .object({
    name: z.string().min(1).describe('Name of the item'),
    slug: z.string().min(1).describe("The item's URL segment in the site, e.g. launch-week"),
  })
  .catchall(z.unknown())
  .describe('Field values by field slug; name and slug are required, e.g. {"name":"Launch","slug":"launch"}');
const live = z
  .boolean()
  .default(false)
  .describe('Publish the change to the live site at once; staged when false');

interface Item {
  id: string;
  isDraft: boolean;
  isArchived: boolean;
  createdOn?: string;
  lastUpdated?: string;
  lastPublished?: string | null;
  fieldData: Record<string, unknown>;
}
const item = (i: Item) => ({
  id: i.id,
  isDraft: i.isDraft,
  isArchived: i.isArchived,
  createdOn: i.createdOn ?? null,
  lastUpdated: i.lastUpdated ?? null,
  lastPublished: i.lastPublished ?? null,
  fieldData: i.fieldData,
});
const itemOutput = (res: HttpResponse) => item(res.body as Item);

interface Site {
  id: string;
  displayName: string;
}

/** Webflow Data API v2: https://developers.webflow.com/data/reference/rest-introduction */
export const webflow: ConnectorDefinition = {
  id: 'webflow',
  name: 'Webflow',
  description: 'Create, update, list and publish Webflow CMS items.',
  category: 'marketing',
  icon: 'webflow',
  color: '146EF5',
  docs: 'https://developers.webflow.com/data/reference/cms/collection-items/staged-items/create-item',
  baseUrl: 'https://api.webflow.com/v2',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://webflow.com/oauth/authorize',
    tokenUrl: 'https://api.webflow.com/oauth/access_token',
    scopes: ['authorized_user:read', 'sites:read', 'cms:read', 'cms:write'],
    pkce: false,
  },
  test: {
    request: () => ({ method: 'GET', path: '/token/authorized_by' }),
    accountLabel: bodyLabel('email'),
  },
  // {"code":"validation_error","message":"Validation Error","details":[{"param":"fieldData.slug","description":"…"}]}
  errorMessage: (res) => {
    const b = res.body as {
      message?: string;
      details?: (string | { param?: string; description?: string })[];
    } | null;
    return detailedMessage(
      b?.message,
      b?.details?.map((d) =>
        typeof d === 'string' ? { message: d } : { field: d.param, message: d.description },
      ),
    );
  },
  actions: [
    defineAction({
      id: 'create_item',
      name: 'Create a CMS item',
      description: 'Adds an item to a CMS collection, staged or live (POST /collections/{id}/items[/live]).',
      kind: 'write',
      input: z.object({
        collectionId,
        fieldData: newFieldData,
        isDraft: z.boolean().default(false).describe('Keep as a draft'),
        live,
      }),
      request: (i) => ({
        method: 'POST',
        path: `${path`/collections/${i.collectionId}/items`}${i.live ? '/live' : ''}`,
        body: { isArchived: false, isDraft: i.isDraft, fieldData: i.fieldData },
      }),
      output: itemOutput,
    }),
    defineAction({
      id: 'update_item',
      name: 'Update a CMS item',
      description:
        'Changes the given fields of an item, staged or live (PATCH /collections/{id}/items/{itemId}[/live]).',
      kind: 'write',
      input: z.object({
        collectionId,
        itemId,
        fieldData: fieldData.optional(),
        isDraft: z.boolean().optional().describe('Draft state'),
        isArchived: z.boolean().optional().describe('Archive (true) or restore (false)'),
        live,
      }),
      request: (i) => ({
        method: 'PATCH',
        path: `${path`/collections/${i.collectionId}/items/${i.itemId}`}${i.live ? '/live' : ''}`,
        body: { isDraft: i.isDraft, isArchived: i.isArchived, fieldData: i.fieldData },
      }),
      output: itemOutput,
    }),
    defineAction({
      id: 'list_items',
      name: 'List CMS items',
      description:
        'Lists the staged items of a collection, optionally the one with a slug (GET /collections/{id}/items).',
      kind: 'read',
      input: z.object({
        collectionId,
        slug: z.string().max(256).optional().describe('Only the item with this slug'),
        limit: z.number().int().min(1).max(100).default(100).describe('Page size'),
        offset: z.number().int().min(0).default(0).describe('How many to skip'),
      }),
      request: (i) => ({
        method: 'GET',
        path: path`/collections/${i.collectionId}/items`,
        query: { slug: i.slug, limit: i.limit, offset: i.offset },
      }),
      output: (res) => {
        const b = res.body as { items: Item[]; pagination?: { total: number } };
        return { items: b.items.map(item), total: b.pagination?.total ?? b.items.length };
      },
    }),
    defineAction({
      id: 'publish_items',
      name: 'Publish CMS items',
      description: 'Publishes staged items to the live site (POST /collections/{id}/items/publish).',
      kind: 'write',
      input: z.object({
        collectionId,
        itemIds: z.array(itemId).min(1).max(100).describe('Items to publish'),
      }),
      request: (i) => ({
        method: 'POST',
        path: path`/collections/${i.collectionId}/items/publish`,
        body: { itemIds: i.itemIds },
      }),
      output: (res) => {
        const b = res.body as { publishedItemIds?: string[]; errors?: string[] };
        return { publishedItemIds: b.publishedItemIds ?? [], errors: b.errors ?? [] };
      },
    }),
  ],
  sources: {
    sites: {
      description: 'Sites the connection may reach',
      request: () => ({ method: 'GET', path: '/sites' }),
      items: (body) => (body as { sites?: unknown[] }).sites ?? [],
      option: (s: Site) => ({ value: s.id, label: s.displayName }),
    },
    collections: treeSource({
      description: 'CMS collections of every site',
      root: {
        request: () => ({ method: 'GET', path: '/sites' }),
        items: (body: { sites?: Site[] }) => body.sites ?? [],
        children: [
          {
            request: (s: Site) => ({ method: 'GET', path: path`/sites/${s.id}/collections` }),
            items: (body: { collections?: unknown[] }) => body.collections ?? [],
          },
        ],
      },
      option: (c: { id: string; displayName: string }, [site]: Site[]) => ({
        value: c.id,
        label: `${site!.displayName} › ${c.displayName}`,
      }),
    }),
  },
};

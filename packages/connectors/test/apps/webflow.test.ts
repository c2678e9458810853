import { bearer, connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { webflow } from '../../src/apps/webflow.ts';

const token = 'd1c2b3a4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const collection = '580e63fc8c9a982ac9b8b745';
const itemId = '580e64008c9a982ac9b8b754';
const site = '580e63e98c9a982ac9b8b741';

const item = {
  id: itemId,
  cmsLocaleId: '653ad57de882f528b32e810e',
  lastPublished: null,
  lastUpdated: '2025-02-20T10:00:00.000Z',
  createdOn: '2025-02-20T10:00:00.000Z',
  isArchived: false,
  isDraft: false,
  fieldData: { name: 'Launch', slug: 'launch', 'post-body': '<p>We launched.</p>' },
};
const mapped = {
  id: itemId,
  isDraft: false,
  isArchived: false,
  createdOn: '2025-02-20T10:00:00.000Z',
  lastUpdated: '2025-02-20T10:00:00.000Z',
  lastPublished: null,
  fieldData: item.fieldData,
};

connectorSuite({
  id: 'webflow',
  ...bearer(token),
  test: {
    request: { method: 'GET', path: '/token/authorized_by' },
    ok: {
      body: {
        id: '545bbecb7bdd6769632504a7',
        email: 'grace@acme.test',
        firstName: 'Grace',
        lastName: 'Hopper',
      },
    },
    rejected: { status: 401, body: { code: 'not_authorized', message: 'Request not authorized' } },
    label: 'grace@acme.test',
    reason: '401: Request not authorized',
  },
  actions: [
    {
      name: 'creates a staged item',
      action: 'create_item',
      input: { collectionId: collection, fieldData: item.fieldData },
      reply: { status: 202, body: item },
      request: {
        method: 'POST',
        path: `/collections/${collection}/items`,
        body: { isArchived: false, isDraft: false, fieldData: item.fieldData },
      },
      output: mapped,
    },
    {
      name: 'updates an item on the live site',
      action: 'update_item',
      input: { collectionId: collection, itemId, fieldData: { name: 'Launch!' }, live: true },
      reply: {
        body: {
          ...item,
          fieldData: { ...item.fieldData, name: 'Launch!' },
          lastPublished: '2025-02-21T10:00:00.000Z',
        },
      },
      request: {
        method: 'PATCH',
        path: `/collections/${collection}/items/${itemId}/live`,
        body: { fieldData: { name: 'Launch!' } },
      },
      output: {
        ...mapped,
        fieldData: { ...item.fieldData, name: 'Launch!' },
        lastPublished: '2025-02-21T10:00:00.000Z',
      },
    },
    {
      name: 'lists items by slug',
      action: 'list_items',
      input: { collectionId: collection, slug: 'launch', limit: 10 },
      reply: { body: { items: [item], pagination: { limit: 10, offset: 0, total: 1 } } },
      request: {
        method: 'GET',
        path: `/collections/${collection}/items`,
        query: { slug: 'launch', limit: '10', offset: '0' },
      },
      output: { items: [mapped], total: 1 },
    },
    {
      name: 'publishes staged items',
      action: 'publish_items',
      input: { collectionId: collection, itemIds: [itemId] },
      reply: { status: 202, body: { publishedItemIds: [itemId], errors: [] } },
      request: {
        method: 'POST',
        path: `/collections/${collection}/items/publish`,
        body: { itemIds: [itemId] },
      },
      output: { publishedItemIds: [itemId], errors: [] },
    },
  ],
  sources: [
    {
      source: 'sites',
      pages: [
        {
          request: { method: 'GET', path: '/sites' },
          reply: { body: { sites: [{ id: site, displayName: 'Acme', shortName: 'acme' }] } },
        },
      ],
      options: [{ value: site, label: 'Acme' }],
    },
    {
      source: 'collections',
      pages: [
        {
          request: { method: 'GET', path: '/sites' },
          reply: {
            body: {
              sites: [
                { id: site, displayName: 'Acme' },
                { id: '580e63e98c9a982ac9b8b742', displayName: 'Docs' },
              ],
            },
          },
        },
        {
          request: { method: 'GET', path: `/sites/${site}/collections` },
          reply: { body: { collections: [{ id: collection, displayName: 'Blog Posts', slug: 'post' }] } },
        },
        {
          request: { method: 'GET', path: '/sites/580e63e98c9a982ac9b8b742/collections' },
          reply: {
            body: { collections: [{ id: '580e63fc8c9a982ac9b8b746', displayName: 'Guides', slug: 'guide' }] },
          },
        },
      ],
      options: [
        { value: collection, label: 'Acme › Blog Posts' },
        { value: '580e63fc8c9a982ac9b8b746', label: 'Docs › Guides' },
      ],
    },
  ],
  errors: [
    {
      name: 'validation details name the field',
      action: 'create_item',
      input: { collectionId: collection, fieldData: { name: 'Launch', slug: 'launch' } },
      reply: {
        status: 400,
        body: {
          code: 'validation_error',
          message: 'Validation Error',
          externalReference: null,
          details: [{ param: 'fieldData.post-body', description: 'Field is required' }],
        },
      },
      message: '400: Validation Error: fieldData.post-body: Field is required',
    },
    {
      name: 'the rate limit is transient',
      action: 'list_items',
      input: { collectionId: collection },
      reply: {
        status: 429,
        headers: { 'retry-after': '60' },
        body: { code: 'too_many_requests', message: 'Too Many Requests' },
      },
      message: '429: Too Many Requests',
      transient: true,
    },
  ],
});

describe('webflow create_item', () => {
  const input = webflow.actions.find((a) => a.id === 'create_item')!.input;

  it('asks for the name and slug Webflow requires of a new item, and keeps the other fields', () => {
    const missing = input.safeParse({ collectionId: collection, fieldData: { name: 'Launch' } });
    expect(missing.success).toBe(false);
    expect(missing.error!.issues.map((i) => i.path.join('.'))).toEqual(['fieldData.slug']);
    const ok = input.parse({ collectionId: collection, fieldData: item.fieldData });
    expect(ok.fieldData).toEqual(item.fieldData);
  });
});

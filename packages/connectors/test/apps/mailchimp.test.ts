import { connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { subscriberHash } from '../../src/apps/mailchimp.ts';
import { ConnectorRuntime, catalog } from '../../src/index.ts';

const apiKey = '3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c2e-us21';
/** md5 of "ada@example.com" */
const hash = '3e3417d7ef77d5932a6734b916515ed5';
const member = {
  id: hash,
  email_address: 'ada@example.com',
  status: 'subscribed',
  merge_fields: { FNAME: 'Ada', LNAME: 'Lovelace' },
  tags: [{ id: 1, name: 'customer' }],
  last_changed: '2025-01-02T10:00:00+00:00',
  list_id: 'a1b2c3d4e5',
};
const memberOutput = {
  id: hash,
  email: 'ada@example.com',
  status: 'subscribed',
  mergeFields: { FNAME: 'Ada', LNAME: 'Lovelace' },
  tags: ['customer'],
  lastChanged: '2025-01-02T10:00:00+00:00',
};
const lists = (offset: number) => ({
  count: '100',
  offset: String(offset),
  fields: 'lists.id,lists.name,total_items',
});

describe('mailchimp member hash', () => {
  it('is the md5 of the lower-cased email', () => {
    expect(subscriberHash('Ada@Example.com')).toBe(hash);
  });

  it('derives the data centre host from the key suffix', () => {
    const runtime = new ConnectorRuntime({ connectors: catalog });
    const def = runtime.get('mailchimp')!;
    expect(runtime.baseUrl(def, runtime.settings(def, { fields: { apiKey } }))).toBe(
      'https://us21.api.mailchimp.com/3.0',
    );
  });
});

const memberPath = `/lists/a1b2c3d4e5/members/${hash}`;

connectorSuite({
  id: 'mailchimp',
  credential: { fields: { apiKey } },
  badCredential: { fields: { apiKey: '00000000000000000000000000000000-us21' } },
  auth: { header: 'authorization', value: `Basic ${Buffer.from(`anystring:${apiKey}`).toString('base64')}` },
  test: {
    request: { method: 'GET', path: '/', query: { fields: 'account_name,login_id' } },
    ok: { body: { account_name: 'Acme Newsletters', login_id: '4242' } },
    label: 'Acme Newsletters',
    rejected: {
      status: 401,
      body: {
        type: 'https://mailchimp.com/developer/marketing/docs/errors/',
        title: 'API Key Invalid',
        status: 401,
        detail: "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
        instance: 'e3a9b1c2',
      },
    },
    reason:
      "401: API Key Invalid; Your API key may be invalid, or you've attempted to access the wrong datacenter.",
  },
  actions: [
    {
      name: 'upserts by subscriber hash with status_if_new',
      action: 'upsert_member',
      input: {
        listId: 'a1b2c3d4e5',
        email: 'Ada@Example.com',
        mergeFields: { FNAME: 'Ada', LNAME: 'Lovelace' },
      },
      reply: { body: member },
      request: {
        method: 'PUT',
        path: memberPath,
        body: {
          email_address: 'Ada@Example.com',
          status_if_new: 'subscribed',
          merge_fields: { FNAME: 'Ada', LNAME: 'Lovelace' },
        },
      },
      output: memberOutput,
    },
    {
      name: 'adds and removes tags; Mailchimp answers 204',
      action: 'tag_member',
      input: { listId: 'a1b2c3d4e5', email: 'ada@example.com', add: ['customer'], remove: ['trial'] },
      reply: { status: 204 },
      request: {
        method: 'POST',
        path: `${memberPath}/tags`,
        body: {
          tags: [
            { name: 'customer', status: 'active' },
            { name: 'trial', status: 'inactive' },
          ],
        },
      },
      output: { email: 'ada@example.com', added: ['customer'], removed: ['trial'] },
    },
    {
      name: 'reads a member',
      action: 'get_member',
      input: { listId: 'a1b2c3d4e5', email: 'ada@example.com' },
      reply: { body: member },
      request: { method: 'GET', path: memberPath },
      output: memberOutput,
    },
  ],
  sources: [
    {
      source: 'lists',
      pages: [
        {
          request: { method: 'GET', path: '/lists', query: lists(0) },
          reply: { body: { lists: [{ id: 'a1b2c3d4e5', name: 'Newsletter' }], total_items: 2 } },
        },
        {
          request: { method: 'GET', path: '/lists', query: lists(1) },
          reply: { body: { lists: [{ id: 'f6e5d4c3b2', name: 'Customers' }], total_items: 2 } },
        },
      ],
      options: [
        { value: 'a1b2c3d4e5', label: 'Newsletter' },
        { value: 'f6e5d4c3b2', label: 'Customers' },
      ],
    },
  ],
  errors: [
    {
      name: 'field errors follow the title',
      action: 'upsert_member',
      input: { listId: 'a1b2c3d4e5', email: 'ada@example.com', mergeFields: { BIRTHDAY: 'soon' } },
      reply: {
        status: 400,
        body: {
          title: 'Invalid Resource',
          status: 400,
          detail:
            "The resource submitted could not be validated. For field-specific details, see the 'errors' array.",
          errors: [{ field: 'BIRTHDAY', message: 'Please enter a complete date' }],
        },
      },
      message: '400: Invalid Resource; BIRTHDAY: Please enter a complete date',
    },
  ],
});

import { connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { ConnectorRuntime, catalog } from '../../src/index.ts';

const token =
  'ya29.a0AfB_byD4lS0wU3nR9yX6oM2qA8kI5tE7gH1bF-3vZ4jP0lN6uS9xR2aY5dW8cO1nM4lK7iH0gE3tB6rQ9wE2yU5iO8pA1';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const raw = (mime: string) => Buffer.from(mime).toString('base64url');

const expectedMime = [
  'To: ada@example.com, grace@example.com',
  'Cc: boss@acme.test',
  `Subject: =?UTF-8?B?${b64('Deal Acme closed ✅')}?=`,
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset="UTF-8"',
  'Content-Transfer-Encoding: base64',
  '',
  b64('Hello Ada,\nwelcome aboard.'),
].join('\r\n');

connectorSuite({
  id: 'gmail',
  credential: { fields: {}, oauth: { accessToken: token } },
  badCredential: { fields: {}, oauth: { accessToken: 'ya29.revoked' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  test: {
    request: { method: 'GET', path: '/users/me/profile' },
    ok: { body: { emailAddress: 'ada@acme.test', messagesTotal: 10, threadsTotal: 8, historyId: '1234' } },
    rejected: {
      status: 401,
      body: { error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' } },
    },
    label: 'ada@acme.test',
    reason: '401: Invalid Credentials',
  },
  actions: [
    {
      name: 'sends a base64url RFC 5322 message with an encoded subject',
      action: 'send_email',
      input: {
        to: ['ada@example.com', 'grace@example.com'],
        cc: ['boss@acme.test'],
        subject: 'Deal Acme closed ✅',
        body: 'Hello Ada,\nwelcome aboard.',
      },
      reply: { body: { id: '18d1f2a3b4c5d6e7', threadId: '18d1f2a3b4c5d6e7', labelIds: ['SENT'] } },
      request: { method: 'POST', path: '/users/me/messages/send', body: { raw: raw(expectedMime) } },
      output: { id: '18d1f2a3b4c5d6e7', threadId: '18d1f2a3b4c5d6e7', labelIds: ['SENT'] },
    },
    {
      name: 'searches messages with repeated labelIds',
      action: 'list_messages',
      input: { q: 'from:ada@example.com is:unread', labelIds: ['INBOX', 'IMPORTANT'], maxResults: 5 },
      reply: {
        body: { messages: [{ id: 'm1', threadId: 't1' }], nextPageToken: '0987', resultSizeEstimate: 6 },
      },
      request: {
        method: 'GET',
        path: '/users/me/messages',
        query: { q: 'from:ada@example.com is:unread', labelIds: ['INBOX', 'IMPORTANT'], maxResults: '5' },
      },
      output: { messages: [{ id: 'm1', threadId: 't1' }], nextPageToken: '0987' },
    },
    {
      name: 'reads headers and the text/plain part of a multipart message',
      action: 'get_message',
      input: { id: '18d1f2a3b4c5d6e7' },
      reply: {
        body: {
          id: '18d1f2a3b4c5d6e7',
          threadId: 't1',
          labelIds: ['INBOX'],
          snippet: 'Hello Ada',
          payload: {
            mimeType: 'multipart/alternative',
            headers: [
              { name: 'From', value: 'Grace <grace@example.com>' },
              { name: 'To', value: 'ada@acme.test' },
              { name: 'subject', value: 'Hi' },
              { name: 'Date', value: 'Thu, 2 Jan 2025 10:00:00 +0000' },
            ],
            parts: [
              { mimeType: 'text/plain', body: { data: Buffer.from('Hello Ada ✅').toString('base64url') } },
              {
                mimeType: 'text/html',
                body: { data: Buffer.from('<p>Hello Ada</p>').toString('base64url') },
              },
            ],
          },
        },
      },
      request: { method: 'GET', path: '/users/me/messages/18d1f2a3b4c5d6e7', query: { format: 'full' } },
      output: {
        id: '18d1f2a3b4c5d6e7',
        threadId: 't1',
        labelIds: ['INBOX'],
        from: 'Grace <grace@example.com>',
        to: 'ada@acme.test',
        cc: null,
        subject: 'Hi',
        date: 'Thu, 2 Jan 2025 10:00:00 +0000',
        snippet: 'Hello Ada',
        text: 'Hello Ada ✅',
      },
    },
  ],
  sources: [
    {
      source: 'labels',
      pages: [
        {
          request: { method: 'GET', path: '/users/me/labels' },
          reply: {
            body: {
              labels: [
                { id: 'INBOX', name: 'INBOX', type: 'system' },
                { id: 'Label_12', name: 'Customers', type: 'user' },
              ],
            },
          },
        },
      ],
      options: [
        { value: 'INBOX', label: 'INBOX' },
        { value: 'Label_12', label: 'Customers' },
      ],
    },
  ],
  errors: [
    {
      name: 'a missing scope is a 403 with Google’s message',
      action: 'send_email',
      input: { to: ['ada@example.com'], subject: 'x', body: 'y' },
      reply: {
        status: 403,
        body: {
          error: {
            code: 403,
            message: 'Request had insufficient authentication scopes.',
            status: 'PERMISSION_DENIED',
          },
        },
      },
      message: '403: Request had insufficient authentication scopes.',
    },
  ],
});

describe('gmail input', () => {
  it('refuses a subject that would start a new header line', async () => {
    const runtime = new ConnectorRuntime({ connectors: catalog });
    const err = await runtime
      .execute('gmail', 'send_email', { to: ['a@example.com'], subject: 'Hi\r\nBcc: x@evil.test', body: 'x' })
      .catch((e) => e);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain('subject');
  });
});

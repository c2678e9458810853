import { bearer, connectorSuite } from '@inlay/test-kit/suite';

const token = 'eyJ0eXAiOiJKV1QiLCJub25jZSI6Ik91dGxvb2sifQ.eyJzY3AiOiJNYWlsLlNlbmQifQ.sig';
const SUMMARY =
  'id,subject,from,toRecipients,receivedDateTime,isRead,hasAttachments,bodyPreview,webLink,conversationId';
const id = 'AAMkAGI2TG93AAA=';

const message = {
  id,
  subject: 'Quote for Acme',
  from: { emailAddress: { name: 'Ada Lovelace', address: 'ada@example.com' } },
  toRecipients: [{ emailAddress: { name: 'Grace Hopper', address: 'grace@acme.test' } }],
  receivedDateTime: '2025-02-03T08:15:00Z',
  isRead: false,
  hasAttachments: true,
  bodyPreview: 'Hi Grace, please find…',
  webLink: 'https://outlook.office365.com/owa/?ItemID=AAMkAGI2TG93AAA%3D',
  conversationId: 'AAQkAGI2conv',
};
const summary = {
  id,
  subject: 'Quote for Acme',
  from: { name: 'Ada Lovelace', address: 'ada@example.com' },
  to: [{ name: 'Grace Hopper', address: 'grace@acme.test' }],
  receivedAt: '2025-02-03T08:15:00Z',
  isRead: false,
  hasAttachments: true,
  preview: 'Hi Grace, please find…',
  url: 'https://outlook.office365.com/owa/?ItemID=AAMkAGI2TG93AAA%3D',
  conversationId: 'AAQkAGI2conv',
};

connectorSuite({
  id: 'outlook',
  ...bearer(token, '0.AXoA-refresh'),
  test: {
    request: { method: 'GET', path: '/me', query: { $select: 'id,displayName,mail,userPrincipalName' } },
    ok: { body: { id: '8ea0e38b', displayName: 'Grace Hopper', mail: 'grace@acme.test' } },
    rejected: {
      status: 401,
      body: {
        error: {
          code: 'InvalidAuthenticationToken',
          message: 'Lifetime validation failed, the token is expired.',
        },
      },
    },
    label: 'grace@acme.test',
    reason: '401: Lifetime validation failed, the token is expired.',
  },
  actions: [
    {
      name: 'sends an HTML email with recipients in Graph’s shape (202, no body)',
      action: 'send_email',
      input: {
        to: ['ada@example.com'],
        cc: ['boss@acme.test'],
        replyTo: 'sales@acme.test',
        subject: 'Your quote',
        body: '<p>Attached.</p>',
        html: true,
        importance: 'high',
      },
      reply: { status: 202 },
      request: {
        method: 'POST',
        path: '/me/sendMail',
        body: {
          message: {
            subject: 'Your quote',
            body: { contentType: 'html', content: '<p>Attached.</p>' },
            toRecipients: [{ emailAddress: { address: 'ada@example.com' } }],
            ccRecipients: [{ emailAddress: { address: 'boss@acme.test' } }],
            replyTo: [{ emailAddress: { address: 'sales@acme.test' } }],
            importance: 'high',
          },
          saveToSentItems: true,
        },
      },
      output: { accepted: true },
    },
    {
      name: 'replies to all with a comment',
      action: 'reply_to_message',
      input: { messageId: id, comment: 'Thanks, signed copy attached.', replyAll: true },
      reply: { status: 202 },
      request: {
        method: 'POST',
        path: '/me/messages/AAMkAGI2TG93AAA%3D/replyAll',
        body: { comment: 'Thanks, signed copy attached.' },
      },
      output: { accepted: true },
    },
    {
      name: 'searches a folder by phrase, without $orderby',
      action: 'list_messages',
      input: { search: 'quote acme', filter: 'isRead eq false', top: 10 },
      reply: {
        body: {
          value: [message],
          '@odata.nextLink': 'https://graph.microsoft.com/v1.0/me/mailFolders/inbox/messages?$skiptoken=x',
        },
      },
      request: {
        method: 'GET',
        path: '/me/mailFolders/inbox/messages',
        query: { $select: SUMMARY, $top: '10', $filter: 'isRead eq false', $search: '"quote acme"' },
      },
      output: { messages: [summary], hasMore: true },
    },
    {
      name: 'reads a message with a plain-text body',
      action: 'get_message',
      input: { messageId: id },
      reply: {
        body: {
          ...message,
          ccRecipients: [{ emailAddress: { name: 'Boss', address: 'boss@acme.test' } }],
          body: { contentType: 'text', content: 'Hi Grace,\nplease find the quote attached.' },
        },
      },
      request: {
        method: 'GET',
        path: '/me/messages/AAMkAGI2TG93AAA%3D',
        query: { $select: `${SUMMARY},ccRecipients,body` },
        headers: { prefer: 'outlook.body-content-type="text"' },
      },
      output: {
        ...summary,
        cc: [{ name: 'Boss', address: 'boss@acme.test' }],
        text: 'Hi Grace,\nplease find the quote attached.',
      },
    },
  ],
  sources: [
    {
      source: 'mail_folders',
      pages: [
        {
          request: { method: 'GET', path: '/me/mailFolders', query: { $top: '100' } },
          reply: {
            body: {
              value: [
                { id: 'AQMkAGI2inbox', displayName: 'Inbox' },
                { id: 'AQMkAGI2sent', displayName: 'Sent Items' },
              ],
              '@odata.nextLink': 'https://graph.microsoft.com/v1.0/me/mailFolders?$top=100&$skip=100',
            },
          },
        },
        {
          request: { method: 'GET', path: '/me/mailFolders', query: { $top: '100', $skip: '100' } },
          reply: { body: { value: [{ id: 'AQMkAGI2leads', displayName: 'Leads' }] } },
        },
      ],
      options: [
        { value: 'AQMkAGI2inbox', label: 'Inbox' },
        { value: 'AQMkAGI2sent', label: 'Sent Items' },
        { value: 'AQMkAGI2leads', label: 'Leads' },
      ],
    },
  ],
  errors: [
    {
      name: 'an invalid filter keeps Graph’s message',
      action: 'list_messages',
      input: { filter: 'bogus eq 1' },
      reply: {
        status: 400,
        body: {
          error: {
            code: 'BadRequest',
            message: "Could not find a property named 'bogus' on type 'microsoft.graph.message'.",
          },
        },
      },
      message: "400: Could not find a property named 'bogus' on type 'microsoft.graph.message'.",
    },
    {
      name: 'a mailbox outage is transient',
      action: 'send_email',
      input: { to: ['ada@example.com'], subject: 'x', body: 'y' },
      reply: { status: 503, body: { error: { code: 'ServiceUnavailable', message: 'Service Unavailable' } } },
      message: '503: Service Unavailable',
      transient: true,
    },
  ],
});

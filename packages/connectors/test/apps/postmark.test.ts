import { connectorSuite } from '@inlay/test-kit/suite';

const serverToken = 'b3c6a2f1-8d4e-4f1a-9c2b-7e5d0a1b2c3d';
const ok = {
  To: 'ada@example.com',
  SubmittedAt: '2025-02-20T10:00:00.000Z',
  MessageID: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817',
  ErrorCode: 0,
  Message: 'OK',
};
const sentOutput = {
  messageId: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817',
  submittedAt: '2025-02-20T10:00:00.000Z',
  to: 'ada@example.com',
};

connectorSuite({
  id: 'postmark',
  credential: { fields: { serverToken } },
  badCredential: { fields: { serverToken: 'revoked-token' } },
  auth: { header: 'x-postmark-server-token', value: serverToken },
  test: {
    request: { method: 'GET', path: '/server' },
    ok: { body: { ID: 1, Name: 'Acme production', Color: 'blue' } },
    rejected: {
      status: 401,
      body: {
        ErrorCode: 10,
        Message: 'The Server Token you provided in the X-Postmark-Server-Token request header was invalid.',
      },
    },
    label: 'Acme production',
    reason:
      '401: The Server Token you provided in the X-Postmark-Server-Token request header was invalid. (ErrorCode 10)',
  },
  actions: [
    {
      name: 'sends an HTML email with copies, a tag and metadata',
      action: 'send_email',
      input: {
        from: 'Acme <hello@acme.com>',
        to: ['ada@example.com', 'grace@example.com'],
        cc: ['boss@acme.test'],
        subject: 'Receipt',
        body: '<p>Thanks!</p>',
        html: true,
        tag: 'receipt',
        metadata: { orderId: '1001' },
        trackOpens: true,
      },
      reply: { body: ok },
      request: {
        method: 'POST',
        path: '/email',
        body: {
          From: 'Acme <hello@acme.com>',
          To: 'ada@example.com, grace@example.com',
          Cc: 'boss@acme.test',
          Tag: 'receipt',
          MessageStream: 'outbound',
          Metadata: { orderId: '1001' },
          Subject: 'Receipt',
          HtmlBody: '<p>Thanks!</p>',
          TrackOpens: true,
        },
      },
      output: sentOutput,
    },
    {
      name: 'sends a template by alias with a model',
      action: 'send_email_with_template',
      input: {
        from: 'hello@acme.com',
        to: ['ada@example.com'],
        template: 'welcome',
        model: { name: 'Ada' },
        messageStream: 'broadcast',
      },
      reply: { body: ok },
      request: {
        method: 'POST',
        path: '/email/withTemplate',
        body: {
          From: 'hello@acme.com',
          To: 'ada@example.com',
          MessageStream: 'broadcast',
          TemplateAlias: 'welcome',
          TemplateModel: { name: 'Ada' },
        },
      },
      output: sentOutput,
    },
    {
      name: 'sends a template by numeric id',
      action: 'send_email_with_template',
      input: { from: 'hello@acme.com', to: ['ada@example.com'], template: '36728' },
      reply: { body: ok },
      request: {
        method: 'POST',
        path: '/email/withTemplate',
        body: {
          From: 'hello@acme.com',
          To: 'ada@example.com',
          MessageStream: 'outbound',
          TemplateId: 36728,
          TemplateModel: {},
        },
      },
      output: sentOutput,
    },
    {
      name: 'searches sent messages of a recipient',
      action: 'search_messages',
      input: { recipient: 'ada@example.com', count: 10 },
      reply: {
        body: {
          TotalCount: 1,
          Messages: [
            {
              MessageID: ok.MessageID,
              Subject: 'Receipt',
              Status: 'Sent',
              ReceivedAt: '2025-02-20T10:00:01.000Z',
              Tag: 'receipt',
              To: [{ Email: 'ada@example.com', Name: null }],
              MessageStream: 'outbound',
            },
          ],
        },
      },
      request: {
        method: 'GET',
        path: '/messages/outbound',
        query: { recipient: 'ada@example.com', count: '10', offset: '0' },
      },
      output: {
        total: 1,
        messages: [
          {
            messageId: ok.MessageID,
            subject: 'Receipt',
            status: 'Sent',
            receivedAt: '2025-02-20T10:00:01.000Z',
            tag: 'receipt',
            to: ['ada@example.com'],
            messageStream: 'outbound',
          },
        ],
      },
    },
  ],
  sources: [
    {
      source: 'templates',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/templates',
            query: { count: '100', offset: '0', TemplateType: 'Standard' },
          },
          reply: {
            body: {
              TotalCount: 101,
              Templates: [
                { TemplateId: 36728, Name: 'Welcome', Alias: 'welcome', Active: true },
                { TemplateId: 36729, Name: 'Old receipt', Alias: null, Active: false },
              ],
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/templates',
            query: { count: '100', offset: '100', TemplateType: 'Standard' },
          },
          reply: {
            body: {
              TotalCount: 101,
              Templates: [{ TemplateId: 40001, Name: 'Receipt', Alias: null, Active: true }],
            },
          },
        },
      ],
      options: [
        { value: 'welcome', label: 'Welcome' },
        { value: '40001', label: 'Receipt' },
      ],
    },
    {
      source: 'message_streams',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/message-streams',
            query: { MessageStreamType: 'All', IncludeArchivedStreams: 'false' },
          },
          reply: {
            body: {
              MessageStreams: [
                { ID: 'outbound', Name: 'Default Transactional Stream', MessageStreamType: 'Transactional' },
                { ID: 'inbound', Name: 'Default Inbound Stream', MessageStreamType: 'Inbound' },
                { ID: 'broadcast', Name: 'Newsletters', MessageStreamType: 'Broadcasts' },
              ],
              TotalCount: 3,
            },
          },
        },
      ],
      options: [
        { value: 'outbound', label: 'Default Transactional Stream (Transactional)' },
        { value: 'broadcast', label: 'Newsletters (Broadcasts)' },
      ],
    },
  ],
  errors: [
    {
      name: 'an inactive recipient is a 422 with Postmark’s message and code',
      action: 'send_email',
      input: { from: 'hello@acme.com', to: ['bounced@example.com'], subject: 'x', body: 'y' },
      reply: {
        status: 422,
        body: {
          ErrorCode: 406,
          Message: 'You tried to send to recipient(s) that have been marked as inactive.',
        },
      },
      message: '422: You tried to send to recipient(s) that have been marked as inactive. (ErrorCode 406)',
    },
    {
      name: 'a non-zero ErrorCode inside HTTP 200 fails the step',
      action: 'send_email_with_template',
      input: { from: 'hello@acme.com', to: ['ada@example.com'], template: 'welcome' },
      reply: { body: { ErrorCode: 1101, Message: "The 'TemplateModel' is invalid." } },
      message: "The 'TemplateModel' is invalid. (ErrorCode 1101)",
    },
  ],
});

import { connectorSuite } from '@inlay/test-kit/suite';

const accountSid = 'ACa1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const authToken = '9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const sid = 'SM0123456789abcdef0123456789abcdef';
const base = `/2010-04-01/Accounts/${accountSid}`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const rawMessage = {
  sid,
  account_sid: accountSid,
  status: 'queued',
  to: '+14155550123',
  from: '+14155550100',
  body: 'Your order shipped',
  direction: 'outbound-api',
  num_segments: '1',
  date_created: 'Thu, 02 Jan 2025 10:00:00 +0000',
  error_code: null,
  error_message: null,
  uri: `${base}/Messages/${sid}.json`,
};
const message = {
  sid,
  status: 'queued',
  to: '+14155550123',
  from: '+14155550100',
  body: 'Your order shipped',
  direction: 'outbound-api',
  segments: 1,
  dateCreated: 'Thu, 02 Jan 2025 10:00:00 +0000',
  errorCode: null,
  errorMessage: null,
};

connectorSuite({
  id: 'twilio',
  credential: { fields: { accountSid, authToken } },
  badCredential: { fields: { accountSid, authToken: '00000000000000000000000000000000' } },
  auth: {
    header: 'authorization',
    value: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
  },
  test: {
    request: { method: 'GET', path: `${base}.json` },
    ok: { body: { sid: accountSid, friendly_name: 'Acme', status: 'active' } },
    rejected: {
      status: 401,
      body: {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      },
    },
    label: 'Acme',
    reason: '401: Authenticate',
  },
  actions: [
    {
      name: 'posts To, From and Body as a form',
      action: 'send_sms',
      input: { to: '+14155550123', from: '+14155550100', body: 'Your order shipped' },
      reply: { status: 201, body: rawMessage },
      request: {
        method: 'POST',
        path: `${base}/Messages.json`,
        headers: form,
        body: { To: '+14155550123', Body: 'Your order shipped', From: '+14155550100' },
      },
      output: message,
    },
    {
      name: 'repeats MediaUrl for each file of an MMS sent through a Messaging Service',
      action: 'send_sms',
      input: {
        to: '+14155550123',
        messagingServiceSid: 'MG0123456789abcdef0123456789abcdef',
        body: 'Receipt',
        mediaUrl: ['https://acme.test/a.png', 'https://acme.test/b.png'],
      },
      reply: { status: 201, body: rawMessage },
      request: {
        method: 'POST',
        path: `${base}/Messages.json`,
        headers: form,
        rawBody:
          'To=%2B14155550123&Body=Receipt&MessagingServiceSid=MG0123456789abcdef0123456789abcdef' +
          '&MediaUrl=https%3A%2F%2Facme.test%2Fa.png&MediaUrl=https%3A%2F%2Facme.test%2Fb.png',
      },
      output: message,
    },
    {
      name: 'reads a message',
      action: 'get_message',
      input: { sid },
      reply: { body: { ...rawMessage, status: 'delivered' } },
      request: { method: 'GET', path: `${base}/Messages/${sid}.json` },
      output: { ...message, status: 'delivered' },
    },
    {
      name: 'lists messages to a number',
      action: 'list_messages',
      input: { to: '+14155550123', pageSize: 20 },
      reply: { body: { messages: [rawMessage], next_page_uri: null, page: 0, page_size: 20 } },
      request: {
        method: 'GET',
        path: `${base}/Messages.json`,
        query: { To: '+14155550123', PageSize: '20' },
      },
      output: [message],
    },
  ],
  sources: [
    {
      source: 'phone_numbers',
      pages: [
        {
          request: { method: 'GET', path: `${base}/IncomingPhoneNumbers.json`, query: { PageSize: '100' } },
          reply: {
            body: {
              incoming_phone_numbers: [
                { sid: 'PN1', phone_number: '+14155550100', friendly_name: 'Support line' },
              ],
              next_page_uri: `${base}/IncomingPhoneNumbers.json?PageSize=100&Page=1&PageToken=PAPN1`,
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: `${base}/IncomingPhoneNumbers.json`,
            query: { PageSize: '100', Page: '1', PageToken: 'PAPN1' },
          },
          reply: {
            body: {
              incoming_phone_numbers: [
                { sid: 'PN2', phone_number: '+14155550101', friendly_name: '+14155550101' },
              ],
              next_page_uri: null,
            },
          },
        },
      ],
      options: [
        { value: '+14155550100', label: 'Support line (+14155550100)' },
        { value: '+14155550101', label: '+14155550101' },
      ],
    },
  ],
  errors: [
    {
      name: 'an unverified number keeps Twilio’s message',
      action: 'send_sms',
      input: { to: '+14155550199', from: '+14155550100', body: 'x' },
      reply: {
        status: 400,
        body: {
          code: 21608,
          message:
            'The number +14155550199 is unverified. Trial accounts cannot send messages to unverified numbers.',
          status: 400,
        },
      },
      message:
        '400: The number +14155550199 is unverified. Trial accounts cannot send messages to unverified numbers.',
    },
  ],
});

import { bearer, connectorSuite } from '@inlay/test-kit/suite';

const token =
  'eyJraWQiOiIxY2UxZTEzNjE3ZGNmNzY2YjNjZWJjY2Y4ZGM1YmFmYThhNjVlNjg0MDIzZjdjMzJiZTgzNDliMjM4MDEzNWI0IiwiYWxnIjoiRVMyNTYifQ.cal.sig';
const API = 'https://api.calendly.com';
const user = `${API}/users/AAAAAAAAAAAAAAAA`;
const org = `${API}/organizations/BBBBBBBBBBBBBBBB`;
const eventUri = `${API}/scheduled_events/GBGBDCAADAEDCRZ2`;
const me = {
  resource: { uri: user, name: 'Grace Hopper', email: 'grace@acme.test', current_organization: org },
};

const event = {
  uri: eventUri,
  name: '30 Minute Meeting',
  status: 'active',
  start_time: '2025-03-03T09:00:00.000000Z',
  end_time: '2025-03-03T09:30:00.000000Z',
  event_type: `${API}/event_types/GBGBDCAADAEDCRZ2`,
  location: { type: 'zoom', join_url: 'https://acme.zoom.us/j/85746065432' },
  invitees_counter: { total: 1, active: 1, limit: 1 },
  created_at: '2025-02-20T10:00:00.000000Z',
};
const mappedEvent = {
  uri: eventUri,
  uuid: 'GBGBDCAADAEDCRZ2',
  name: '30 Minute Meeting',
  status: 'active',
  startTime: '2025-03-03T09:00:00.000000Z',
  endTime: '2025-03-03T09:30:00.000000Z',
  eventType: `${API}/event_types/GBGBDCAADAEDCRZ2`,
  location: 'https://acme.zoom.us/j/85746065432',
  invitees: 1,
  createdAt: '2025-02-20T10:00:00.000000Z',
};

connectorSuite({
  id: 'calendly',
  ...bearer(token, 'calendly-refresh'),
  test: {
    request: { method: 'GET', path: '/users/me' },
    ok: { body: me },
    rejected: { status: 401, body: { title: 'Unauthenticated', message: 'The access token is invalid' } },
    label: 'grace@acme.test',
    reason: '401: The access token is invalid',
  },
  actions: [
    {
      name: 'reads the user’s URI, then lists their upcoming meetings',
      action: 'list_events',
      input: { minStartTime: '2025-03-01T00:00:00Z', status: 'active', count: 10 },
      reply: { body: me },
      request: { method: 'GET', path: '/users/me' },
      followUps: [
        {
          request: {
            method: 'GET',
            path: '/scheduled_events',
            query: {
              user,
              min_start_time: '2025-03-01T00:00:00Z',
              status: 'active',
              count: '10',
              sort: 'start_time:asc',
            },
          },
          reply: {
            body: {
              collection: [event],
              pagination: {
                count: 1,
                next_page: `${API}/scheduled_events?page_token=tok2`,
                next_page_token: 'tok2',
              },
            },
          },
        },
      ],
      output: { events: [mappedEvent], nextPageToken: 'tok2' },
    },
    {
      name: 'lists an organization’s meetings by its UUID in one call',
      action: 'list_events',
      input: { organization: 'BBBBBBBBBBBBBBBB', inviteeEmail: 'ada@example.com' },
      reply: { body: { collection: [], pagination: { count: 0, next_page: null, next_page_token: null } } },
      request: {
        method: 'GET',
        path: '/scheduled_events',
        query: { organization: org, invitee_email: 'ada@example.com', count: '20', sort: 'start_time:asc' },
      },
      output: { events: [], nextPageToken: null },
    },
    {
      name: 'reads invitees with their answers, from an event URI',
      action: 'list_invitees',
      input: { event: eventUri },
      reply: {
        body: {
          collection: [
            {
              uri: `${eventUri}/invitees/AAAA`,
              email: 'ada@example.com',
              name: 'Ada Lovelace',
              status: 'active',
              timezone: 'Europe/London',
              questions_and_answers: [{ question: 'Company?', answer: 'Acme', position: 0 }],
              cancel_url: 'https://calendly.com/cancellations/AAAA',
              reschedule_url: 'https://calendly.com/reschedulings/AAAA',
              created_at: '2025-02-20T10:00:00.000000Z',
            },
          ],
          pagination: { next_page: null },
        },
      },
      request: { method: 'GET', path: '/scheduled_events/GBGBDCAADAEDCRZ2/invitees', query: { count: '50' } },
      output: [
        {
          uri: `${eventUri}/invitees/AAAA`,
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          status: 'active',
          timezone: 'Europe/London',
          answers: [{ question: 'Company?', answer: 'Acme' }],
          cancelUrl: 'https://calendly.com/cancellations/AAAA',
          rescheduleUrl: 'https://calendly.com/reschedulings/AAAA',
          createdAt: '2025-02-20T10:00:00.000000Z',
        },
      ],
    },
    {
      name: 'creates a single-use booking link for an event type UUID',
      action: 'create_scheduling_link',
      input: { eventType: 'CCCCCCCCCCCCCCCC' },
      reply: {
        status: 201,
        body: {
          resource: {
            booking_url: 'https://calendly.com/d/abcd-brv8/15-minute-meeting',
            owner: `${API}/event_types/CCCCCCCCCCCCCCCC`,
            owner_type: 'EventType',
          },
        },
      },
      request: {
        method: 'POST',
        path: '/scheduling_links',
        body: { max_event_count: 1, owner: `${API}/event_types/CCCCCCCCCCCCCCCC`, owner_type: 'EventType' },
      },
      output: {
        bookingUrl: 'https://calendly.com/d/abcd-brv8/15-minute-meeting',
        eventType: `${API}/event_types/CCCCCCCCCCCCCCCC`,
      },
    },
    {
      name: 'cancels a meeting with a reason',
      action: 'cancel_event',
      input: { event: 'GBGBDCAADAEDCRZ2', reason: 'Double-booked' },
      reply: {
        status: 201,
        body: {
          resource: {
            canceled_by: 'Grace Hopper',
            reason: 'Double-booked',
            canceler_type: 'host',
            created_at: '2025-02-21T09:00:00.000000Z',
          },
        },
      },
      request: {
        method: 'POST',
        path: '/scheduled_events/GBGBDCAADAEDCRZ2/cancellation',
        body: { reason: 'Double-booked' },
      },
      output: {
        canceled: true,
        canceledBy: 'Grace Hopper',
        reason: 'Double-booked',
        canceledAt: '2025-02-21T09:00:00.000000Z',
      },
    },
  ],
  sources: [
    {
      source: 'event_types',
      pages: [
        { request: { method: 'GET', path: '/users/me' }, reply: { body: me } },
        {
          request: { method: 'GET', path: '/event_types', query: { user, active: 'true', count: '100' } },
          reply: {
            body: {
              collection: [{ uri: `${API}/event_types/E1`, name: 'Intro call', duration: 15 }],
              pagination: {
                next_page: `${API}/event_types?user=${encodeURIComponent(user)}&active=true&count=100&page_token=p2`,
              },
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/event_types',
            query: { user, active: 'true', count: '100', page_token: 'p2' },
          },
          reply: {
            body: {
              collection: [{ uri: `${API}/event_types/E2`, name: 'Demo' }],
              pagination: { next_page: null },
            },
          },
        },
      ],
      options: [
        { value: `${API}/event_types/E1`, label: 'Intro call (15 min)' },
        { value: `${API}/event_types/E2`, label: 'Demo' },
      ],
    },
  ],
  errors: [
    {
      name: 'invalid parameters are named',
      action: 'list_invitees',
      input: { event: 'GBGBDCAADAEDCRZ2' },
      reply: {
        status: 400,
        body: {
          title: 'Invalid Argument',
          message: 'The supplied parameters are invalid.',
          details: [{ parameter: 'count', message: 'must be at most 100' }],
        },
      },
      message: '400: The supplied parameters are invalid. count: must be at most 100',
    },
    {
      name: 'canceling a past meeting keeps Calendly’s message',
      action: 'cancel_event',
      input: { event: 'GBGBDCAADAEDCRZ2' },
      reply: { status: 403, body: { title: 'Permission Denied', message: 'Event in the past' } },
      message: '403: Event in the past',
    },
  ],
});

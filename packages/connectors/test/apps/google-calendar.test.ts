import { bearer, connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { ConnectorRuntime, catalog } from '../../src/index.ts';

const token = 'ya29.a0AfB_byCal3nD4r-9xR2aY5dW8cO1nM4lK7iH0gE3tB6rQ9wE2yU5iO8pA1';

const event = {
  kind: 'calendar#event',
  id: 'k3v9q1c2d4e5f6g7h8i9j0',
  status: 'confirmed',
  htmlLink: 'https://www.google.com/calendar/event?eid=azN2OXExYzJk',
  summary: 'Kick-off with Acme',
  location: 'Room 4',
  start: { dateTime: '2025-03-03T09:00:00+01:00', timeZone: 'Europe/Berlin' },
  end: { dateTime: '2025-03-03T10:00:00+01:00', timeZone: 'Europe/Berlin' },
  attendees: [{ email: 'ada@example.com', responseStatus: 'needsAction' }],
  hangoutLink: 'https://meet.google.com/abc-defg-hij',
  organizer: { email: 'grace@acme.test', self: true },
  updated: '2025-02-20T10:00:00.000Z',
};
const mapped = {
  id: 'k3v9q1c2d4e5f6g7h8i9j0',
  status: 'confirmed',
  url: 'https://www.google.com/calendar/event?eid=azN2OXExYzJk',
  summary: 'Kick-off with Acme',
  description: null,
  location: 'Room 4',
  start: '2025-03-03T09:00:00+01:00',
  end: '2025-03-03T10:00:00+01:00',
  allDay: false,
  attendees: [{ email: 'ada@example.com', responseStatus: 'needsAction' }],
  meetUrl: 'https://meet.google.com/abc-defg-hij',
  organizer: 'grace@acme.test',
  updated: '2025-02-20T10:00:00.000Z',
};

connectorSuite({
  id: 'google-calendar',
  ...bearer(token, '1//0gRefresh'),
  test: {
    request: { method: 'GET', path: '/users/me/calendarList/primary' },
    ok: { body: { id: 'grace@acme.test', summary: 'grace@acme.test', primary: true, accessRole: 'owner' } },
    rejected: {
      status: 401,
      body: { error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' } },
    },
    label: 'grace@acme.test',
    reason: '401: Invalid Credentials',
  },
  actions: [
    {
      name: 'creates a timed event with guests and a Meet conference',
      action: 'create_event',
      input: {
        summary: 'Kick-off with Acme',
        start: '2025-03-03T09:00:00+01:00',
        end: '2025-03-03T10:00:00+01:00',
        timeZone: 'Europe/Berlin',
        location: 'Room 4',
        attendees: ['ada@example.com'],
        addMeet: true,
      },
      reply: { body: event },
      request: {
        method: 'POST',
        path: '/calendars/primary/events',
        query: { sendUpdates: 'all', conferenceDataVersion: '1' },
        body: {
          summary: 'Kick-off with Acme',
          location: 'Room 4',
          start: { dateTime: '2025-03-03T09:00:00+01:00', timeZone: 'Europe/Berlin' },
          end: { dateTime: '2025-03-03T10:00:00+01:00', timeZone: 'Europe/Berlin' },
          attendees: [{ email: 'ada@example.com' }],
          conferenceData: {
            createRequest: {
              requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
              conferenceSolutionKey: { type: 'hangoutsMeet' },
            },
          },
        },
      },
      output: mapped,
    },
    {
      name: 'patches only the given fields; a date moves it to an all-day event',
      action: 'update_event',
      input: {
        calendarId: 'team@group.calendar.google.com',
        eventId: event.id,
        start: '2025-03-04',
        end: '2025-03-05',
        sendUpdates: 'none',
      },
      reply: {
        body: {
          ...event,
          start: { date: '2025-03-04' },
          end: { date: '2025-03-05' },
          hangoutLink: undefined,
        },
      },
      request: {
        method: 'PATCH',
        path: `/calendars/team%40group.calendar.google.com/events/${event.id}`,
        query: { sendUpdates: 'none' },
        body: { start: { date: '2025-03-04' }, end: { date: '2025-03-05' } },
      },
      output: { ...mapped, start: '2025-03-04', end: '2025-03-05', allDay: true, meetUrl: null },
    },
    {
      name: 'lists single events in start order within a window',
      action: 'list_events',
      input: { timeMin: '2025-03-01T00:00:00Z', timeMax: '2025-04-01T00:00:00Z', q: 'Acme', maxResults: 10 },
      reply: { body: { timeZone: 'Europe/Berlin', items: [event], nextPageToken: 'CiAKGjBpNDd2Nmp2' } },
      request: {
        method: 'GET',
        path: '/calendars/primary/events',
        query: {
          timeMin: '2025-03-01T00:00:00Z',
          timeMax: '2025-04-01T00:00:00Z',
          q: 'Acme',
          maxResults: '10',
          singleEvents: 'true',
          orderBy: 'startTime',
        },
      },
      output: { events: [mapped], timeZone: 'Europe/Berlin', nextPageToken: 'CiAKGjBpNDd2Nmp2' },
    },
    {
      name: 'deletes an event (204) and reports it',
      action: 'delete_event',
      input: { eventId: event.id },
      reply: { status: 204 },
      request: {
        method: 'DELETE',
        path: `/calendars/primary/events/${event.id}`,
        query: { sendUpdates: 'all' },
      },
      output: { deleted: true, eventId: event.id },
    },
  ],
  sources: [
    {
      source: 'calendars',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/users/me/calendarList',
            query: { minAccessRole: 'writer', maxResults: '250' },
          },
          reply: {
            body: {
              items: [
                { id: 'grace@acme.test', summary: 'grace@acme.test', primary: true },
                { id: 'team@group.calendar.google.com', summary: 'Team', summaryOverride: 'Team (shared)' },
              ],
              nextPageToken: 'p2',
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/users/me/calendarList',
            query: { minAccessRole: 'writer', maxResults: '250', pageToken: 'p2' },
          },
          reply: { body: { items: [{ id: 'c_42@group.calendar.google.com', summary: 'Launches' }] } },
        },
      ],
      options: [
        { value: 'primary', label: 'grace@acme.test' },
        { value: 'team@group.calendar.google.com', label: 'Team (shared)' },
        { value: 'c_42@group.calendar.google.com', label: 'Launches' },
      ],
    },
  ],
  errors: [
    {
      name: 'an unknown event is a 404 with Google’s message',
      action: 'delete_event',
      input: { eventId: 'missing1' },
      reply: {
        status: 404,
        body: { error: { code: 404, message: 'Not Found', errors: [{ reason: 'notFound' }] } },
      },
      message: '404: Not Found',
    },
    {
      name: 'a rate limit is transient',
      action: 'list_events',
      input: {},
      reply: {
        status: 429,
        body: {
          error: { code: 429, message: 'Rate Limit Exceeded', errors: [{ reason: 'rateLimitExceeded' }] },
        },
      },
      message: '429: Rate Limit Exceeded',
      transient: true,
    },
  ],
});

describe('google-calendar input', () => {
  it('refuses a start without a time-zone offset', async () => {
    const runtime = new ConnectorRuntime({ connectors: catalog });
    const err = await runtime
      .execute('google-calendar', 'create_event', {
        summary: 'x',
        start: '2025-03-03T09:00:00',
        end: '2025-03-03T10:00:00Z',
      })
      .catch((e) => e);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain('start');
  });
});

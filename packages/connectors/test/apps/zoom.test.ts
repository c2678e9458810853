import { bearer, connectorSuite } from '@inlay/test-kit/suite';

const token = 'eyJzdiI6IjAwMDAwMSIsImFsZyI6IkhTNTEyIn0.eyJ1aWQiOiJab29tIn0.sig';

const meeting = {
  uuid: 'aDYlohsHRtCd4ii1uC2+hA==',
  id: 85746065432,
  host_id: 'KDcuGIm1QgePTO8WbOqwIQ',
  topic: 'Acme onboarding',
  type: 2,
  start_time: '2025-03-03T09:00:00Z',
  duration: 45,
  timezone: 'Europe/Berlin',
  agenda: 'Accounts and SSO',
  created_at: '2025-02-20T10:00:00Z',
  start_url: 'https://us02web.zoom.us/s/85746065432?zak=eyJ0eXAiOiJKV1Qi.secret',
  join_url: 'https://us02web.zoom.us/j/85746065432?pwd=abc',
  password: 'x7Yp2',
};
const mapped = {
  id: 85746065432,
  uuid: 'aDYlohsHRtCd4ii1uC2+hA==',
  topic: 'Acme onboarding',
  type: 2,
  startTime: '2025-03-03T09:00:00Z',
  duration: 45,
  timezone: 'Europe/Berlin',
  agenda: 'Accounts and SSO',
  joinUrl: 'https://us02web.zoom.us/j/85746065432?pwd=abc',
  password: 'x7Yp2',
};

connectorSuite({
  id: 'zoom',
  ...bearer(token, 'eyJ.refresh.sig'),
  test: {
    request: { method: 'GET', path: '/users/me' },
    ok: { body: { id: 'KDcuGIm1QgePTO8WbOqwIQ', email: 'grace@acme.test', display_name: 'Grace Hopper' } },
    rejected: { status: 401, body: { code: 124, message: 'Invalid access token.' } },
    label: 'grace@acme.test',
    reason: '401: Invalid access token.',
  },
  actions: [
    {
      name: 'schedules a meeting and leaves the host start link out',
      action: 'create_meeting',
      input: {
        topic: 'Acme onboarding',
        startTime: '2025-03-03T09:00:00Z',
        duration: 45,
        timezone: 'Europe/Berlin',
        agenda: 'Accounts and SSO',
        waitingRoom: true,
        registration: true,
      },
      reply: { status: 201, body: meeting },
      request: {
        method: 'POST',
        path: '/users/me/meetings',
        body: {
          topic: 'Acme onboarding',
          type: 2,
          start_time: '2025-03-03T09:00:00Z',
          duration: 45,
          timezone: 'Europe/Berlin',
          agenda: 'Accounts and SSO',
          settings: { waiting_room: true, approval_type: 0 },
        },
      },
      output: mapped,
    },
    {
      name: 'patches a meeting (204)',
      action: 'update_meeting',
      input: { meetingId: '85746065432', startTime: '2025-03-04T09:00:00Z', duration: 60 },
      reply: { status: 204 },
      request: {
        method: 'PATCH',
        path: '/meetings/85746065432',
        body: { start_time: '2025-03-04T09:00:00Z', duration: 60 },
      },
      output: { updated: true, meetingId: 85746065432 },
    },
    {
      name: 'lists upcoming meetings with the next page token',
      action: 'list_meetings',
      input: { pageSize: 2 },
      reply: {
        body: {
          page_size: 2,
          total_records: 3,
          next_page_token: 'Tva2CuIdTgsv8wAnhyAdU3m06Y2HuLQtlh3',
          meetings: [meeting],
        },
      },
      request: { method: 'GET', path: '/users/me/meetings', query: { type: 'upcoming', page_size: '2' } },
      output: { meetings: [mapped], total: 3, nextPageToken: 'Tva2CuIdTgsv8wAnhyAdU3m06Y2HuLQtlh3' },
    },
    {
      name: 'registers an attendee and returns their join link',
      action: 'add_registrant',
      input: { meetingId: 85746065432, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
      reply: {
        status: 201,
        body: {
          id: 85746065432,
          join_url: 'https://us02web.zoom.us/w/85746065432?tk=reg-token',
          registrant_id: 'fdgsfh2ey82fuh',
          start_time: '2025-03-03T09:00:00Z',
          topic: 'Acme onboarding',
        },
      },
      request: {
        method: 'POST',
        path: '/meetings/85746065432/registrants',
        body: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      },
      output: {
        meetingId: 85746065432,
        registrantId: 'fdgsfh2ey82fuh',
        joinUrl: 'https://us02web.zoom.us/w/85746065432?tk=reg-token',
        topic: 'Acme onboarding',
      },
    },
  ],
  sources: [
    {
      source: 'meetings',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/users/me/meetings',
            query: { type: 'upcoming', page_size: '300' },
          },
          reply: { body: { meetings: [meeting], next_page_token: 'p2' } },
        },
        {
          request: {
            method: 'GET',
            path: '/users/me/meetings',
            query: { type: 'upcoming', page_size: '300', next_page_token: 'p2' },
          },
          reply: {
            body: {
              meetings: [{ ...meeting, id: 81234567890, topic: 'Standup', start_time: undefined, type: 3 }],
              next_page_token: '',
            },
          },
        },
      ],
      options: [
        { value: '85746065432', label: 'Acme onboarding (2025-03-03T09:00:00Z)' },
        { value: '81234567890', label: 'Standup' },
      ],
    },
  ],
  errors: [
    {
      name: 'validation failures name the fields',
      action: 'create_meeting',
      input: { topic: 'x', startTime: '2025-03-03T09:00:00Z' },
      reply: {
        status: 400,
        body: {
          code: 300,
          message: 'Validation Failed.',
          errors: [{ field: 'settings.audio', message: 'Invalid field.' }],
        },
      },
      message: '400: Validation Failed. settings.audio: Invalid field.',
    },
    {
      name: 'registering for a meeting without registration keeps Zoom’s message',
      action: 'add_registrant',
      input: { meetingId: 85746065432, email: 'ada@example.com', firstName: 'Ada' },
      reply: { status: 400, body: { code: 3038, message: 'Meeting is over, you can not register now.' } },
      message: '400: Meeting is over, you can not register now.',
    },
    {
      name: 'a rate limit is transient',
      action: 'list_meetings',
      input: {},
      reply: {
        status: 429,
        body: {
          code: 429,
          message:
            'You have exceeded the daily rate limit of (100) for Create a meeting API requests for the user .',
        },
      },
      message:
        '429: You have exceeded the daily rate limit of (100) for Create a meeting API requests for the user .',
      transient: true,
    },
  ],
});

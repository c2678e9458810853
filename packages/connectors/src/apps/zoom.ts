import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, detailedMessage, path, withQuery } from './helpers.ts';

const meetingId = z
  .union([z.number().int().positive(), z.string().regex(/^\d{9,12}$/)])
  .describe('Meeting number (meetings option source)');

const schedule = {
  topic: z.string().max(200).describe('Meeting topic'),
  startTime: z.iso
    .datetime({ offset: true })
    .describe('Start, ISO 8601 with offset, e.g. 2025-03-01T09:00:00Z'),
  duration: z.number().int().min(1).max(1440).describe('Length in minutes'),
  timezone: z.string().max(64).describe('IANA time zone shown to guests, e.g. Europe/Berlin'),
  agenda: z.string().max(2000).describe('Description'),
};

interface Meeting {
  id: number;
  uuid?: string;
  topic: string;
  type: number;
  start_time?: string;
  duration?: number;
  timezone?: string;
  agenda?: string;
  join_url: string;
  password?: string;
  created_at?: string;
}

// `start_url` is left out on purpose: it signs the host in without a password.
const meeting = (m: Meeting) => ({
  id: m.id,
  uuid: m.uuid ?? null,
  topic: m.topic,
  type: m.type,
  startTime: m.start_time ?? null,
  duration: m.duration ?? null,
  timezone: m.timezone ?? null,
  agenda: m.agenda ?? null,
  joinUrl: m.join_url,
  password: m.password ?? null,
});

const nextPage = (res: HttpResponse, req: Parameters<typeof withQuery>[0]) => {
  const token = (res.body as { next_page_token?: string }).next_page_token;
  return token ? withQuery(req, { next_page_token: token }) : undefined;
};

/** Zoom API v2 (Meetings): https://developers.zoom.us/docs/api/meetings/ */
export const zoom: ConnectorDefinition = {
  id: 'zoom',
  name: 'Zoom',
  description: 'Schedule, update and list Zoom meetings, and register attendees.',
  category: 'communication',
  icon: 'zoom',
  color: '0B5CFF',
  docs: 'https://developers.zoom.us/docs/api/meetings/',
  baseUrl: 'https://api.zoom.us/v2',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://zoom.us/oauth/authorize',
    tokenUrl: 'https://zoom.us/oauth/token',
    scopes: [
      'user:read:user',
      'meeting:read:list_meetings',
      'meeting:write:meeting',
      'meeting:update:meeting',
      'meeting:write:registrant',
    ],
    pkce: true,
    tokenAuth: 'basic',
  },
  test: {
    request: () => ({ method: 'GET', path: '/users/me' }),
    accountLabel: bodyLabel('email', 'display_name'),
  },
  // Validation failures list the fields: {"code":300,"message":"Validation Failed.","errors":[{"field","message"}]}.
  errorMessage: (res) => {
    const b = res.body as { message?: string; errors?: { field?: string; message?: string }[] } | null;
    return detailedMessage(b?.message, b?.errors);
  },
  actions: [
    defineAction({
      id: 'create_meeting',
      name: 'Create a meeting',
      description: 'Schedules a meeting hosted by the connected user (POST /users/me/meetings).',
      kind: 'write',
      input: z.object({
        topic: schedule.topic.min(1),
        startTime: schedule.startTime,
        duration: schedule.duration.default(30),
        timezone: schedule.timezone.optional(),
        agenda: schedule.agenda.optional(),
        password: z
          .string()
          .regex(/^[A-Za-z0-9@_*-]{1,10}$/, 'up to 10 letters, digits or @ - _ *')
          .optional()
          .describe('Passcode; Zoom generates one when the account requires it'),
        waitingRoom: z.boolean().optional().describe('Hold guests in the waiting room'),
        joinBeforeHost: z.boolean().optional().describe('Let guests join before the host'),
        registration: z
          .boolean()
          .default(false)
          .describe('Require registration (paid plans), for add_registrant'),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/users/me/meetings',
        body: {
          topic: input.topic,
          type: 2,
          start_time: input.startTime,
          duration: input.duration,
          timezone: input.timezone,
          agenda: input.agenda,
          password: input.password,
          settings: {
            waiting_room: input.waitingRoom,
            join_before_host: input.joinBeforeHost,
            ...(input.registration && { approval_type: 0 }),
          },
        },
      }),
      output: (res) => meeting(res.body as Meeting),
    }),
    defineAction({
      id: 'update_meeting',
      name: 'Update a meeting',
      description: 'Changes the topic, time, length or agenda of a meeting (PATCH /meetings/{meetingId}).',
      kind: 'write',
      input: z.object({
        meetingId,
        topic: schedule.topic.optional(),
        startTime: schedule.startTime.optional(),
        duration: schedule.duration.optional(),
        timezone: schedule.timezone.optional(),
        agenda: schedule.agenda.optional(),
      }),
      request: (input) => ({
        method: 'PATCH',
        path: path`/meetings/${input.meetingId}`,
        body: {
          topic: input.topic,
          start_time: input.startTime,
          duration: input.duration,
          timezone: input.timezone,
          agenda: input.agenda,
        },
      }),
      // 204 No Content on success.
      output: (_res, input) => ({ updated: true, meetingId: Number(input.meetingId) }),
    }),
    defineAction({
      id: 'list_meetings',
      name: 'List meetings',
      description: 'Lists the connected user’s meetings (GET /users/me/meetings).',
      kind: 'read',
      input: z.object({
        type: z
          .enum(['upcoming', 'scheduled', 'live', 'previous_meetings'])
          .default('upcoming')
          .describe('Which meetings'),
        pageSize: z.number().int().min(1).max(300).default(30).describe('Page size'),
        nextPageToken: z.string().optional().describe('nextPageToken of a previous call'),
      }),
      request: (input) => ({
        method: 'GET',
        path: '/users/me/meetings',
        query: { type: input.type, page_size: input.pageSize, next_page_token: input.nextPageToken },
      }),
      output: (res) => {
        const b = res.body as { meetings?: Meeting[]; next_page_token?: string; total_records?: number };
        return {
          meetings: (b.meetings ?? []).map(meeting),
          total: b.total_records ?? null,
          nextPageToken: b.next_page_token || null,
        };
      },
    }),
    defineAction({
      id: 'add_registrant',
      name: 'Register an attendee',
      description:
        'Registers a person for a meeting that requires registration and returns their own join link (POST /meetings/{meetingId}/registrants).',
      kind: 'write',
      input: z.object({
        meetingId,
        email: z.email().describe('Attendee email'),
        firstName: z.string().min(1).max(64).describe('First name'),
        lastName: z.string().max(64).optional().describe('Last name'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/meetings/${input.meetingId}/registrants`,
        body: { email: input.email, first_name: input.firstName, last_name: input.lastName },
      }),
      output: (res) => {
        const b = res.body as { id: number; registrant_id: string; join_url: string; topic?: string };
        return {
          meetingId: b.id,
          registrantId: b.registrant_id,
          joinUrl: b.join_url,
          topic: b.topic ?? null,
        };
      },
    }),
  ],
  sources: {
    meetings: {
      description: 'Upcoming meetings of the connected user',
      request: () => ({
        method: 'GET',
        path: '/users/me/meetings',
        query: { type: 'upcoming', page_size: 300 },
      }),
      items: (body) => (body as { meetings?: unknown[] }).meetings ?? [],
      option: (m: Meeting) => ({
        value: String(m.id),
        label: m.start_time ? `${m.topic} (${m.start_time})` : m.topic,
      }),
      paging: { next: nextPage },
    },
  },
};

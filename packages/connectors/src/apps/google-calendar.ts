import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { googleOAuth, nextPageToken } from './google.ts';
import { bodyLabel, path } from './helpers.ts';

const calendarId = z
  .string()
  .min(1)
  .max(1024)
  .default('primary')
  .describe('Calendar id (calendars option source); "primary" is the user’s main calendar');
const eventId = z
  .string()
  .min(1)
  .max(1024)
  .describe('Event id (a recurring event’s instance id names one occurrence)');
const when = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .describe('ISO 8601 date-time with offset (2025-03-01T09:00:00+01:00), or a date for an all-day event');
const timeZone = z
  .string()
  .max(64)
  .optional()
  .describe('IANA time zone the times are shown in, e.g. Europe/Berlin');
const sendUpdates = z
  .enum(['all', 'externalOnly', 'none'])
  .default('all')
  .describe('Who gets an invitation or update email');

/** A date means an all-day event (`date`), a date-time a timed one (`dateTime`). */
const eventTime = (v: string, tz?: string) =>
  v.length === 10 ? { date: v } : { dateTime: v, ...(tz && { timeZone: tz }) };

interface Event {
  id: string;
  status: string;
  htmlLink: string;
  summary?: string;
  description?: string;
  location?: string;
  start: { date?: string; dateTime?: string; timeZone?: string };
  end: { date?: string; dateTime?: string; timeZone?: string };
  attendees?: { email: string; responseStatus?: string; organizer?: boolean }[];
  hangoutLink?: string;
  organizer?: { email?: string };
  created?: string;
  updated?: string;
}

const event = (e: Event) => ({
  id: e.id,
  status: e.status,
  url: e.htmlLink,
  summary: e.summary ?? null,
  description: e.description ?? null,
  location: e.location ?? null,
  start: e.start.dateTime ?? e.start.date ?? null,
  end: e.end.dateTime ?? e.end.date ?? null,
  allDay: e.start.date !== undefined,
  attendees: (e.attendees ?? []).map((a) => ({ email: a.email, responseStatus: a.responseStatus ?? null })),
  meetUrl: e.hangoutLink ?? null,
  organizer: e.organizer?.email ?? null,
  updated: e.updated ?? null,
});
const eventOutput = (res: HttpResponse) => event(res.body as Event);

const details = {
  summary: z.string().max(1024).describe('Title'),
  description: z.string().max(8192).describe('Description; Calendar renders simple HTML'),
  location: z.string().max(1024).describe('Location, free text or an address'),
  attendees: z.array(z.email()).max(100).describe('Guest email addresses'),
};

/** Google Calendar API v3: https://developers.google.com/calendar/api/v3/reference */
export const googleCalendar: ConnectorDefinition = {
  id: 'google-calendar',
  name: 'Google Calendar',
  description: 'Create, update, find and delete events on Google calendars, with Meet links.',
  category: 'productivity',
  icon: 'googlecalendar',
  color: '4285F4',
  docs: 'https://developers.google.com/calendar/api/v3/reference/events',
  baseUrl: 'https://www.googleapis.com/calendar/v3',
  auth: {
    ...googleOAuth,
    scopes: [
      'https://www.googleapis.com/auth/calendar.events',
      'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
    ],
  },
  // The primary calendar's id is the account's email address.
  test: {
    request: () => ({ method: 'GET', path: '/users/me/calendarList/primary' }),
    accountLabel: bodyLabel('id'),
  },
  actions: [
    defineAction({
      id: 'create_event',
      name: 'Create an event',
      description:
        'Creates an event and invites its guests (POST /calendars/{calendarId}/events), optionally with a Google Meet link.',
      kind: 'write',
      input: z.object({
        calendarId,
        summary: details.summary.min(1),
        start: when,
        end: when,
        timeZone,
        description: details.description.optional(),
        location: details.location.optional(),
        attendees: details.attendees.optional(),
        addMeet: z.boolean().default(false).describe('Attach a new Google Meet video conference'),
        sendUpdates,
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/calendars/${input.calendarId}/events`,
        query: { sendUpdates: input.sendUpdates, ...(input.addMeet && { conferenceDataVersion: 1 }) },
        body: {
          summary: input.summary,
          description: input.description,
          location: input.location,
          start: eventTime(input.start, input.timeZone),
          end: eventTime(input.end, input.timeZone),
          attendees: input.attendees?.map((email) => ({ email })),
          ...(input.addMeet && {
            conferenceData: {
              createRequest: { requestId: randomUUID(), conferenceSolutionKey: { type: 'hangoutsMeet' } },
            },
          }),
        },
      }),
      output: eventOutput,
    }),
    defineAction({
      id: 'update_event',
      name: 'Update an event',
      description:
        'Changes the given fields of an event and leaves the rest (PATCH /calendars/{calendarId}/events/{eventId}).',
      kind: 'write',
      input: z.object({
        calendarId,
        eventId,
        summary: details.summary.optional(),
        start: when.optional(),
        end: when.optional(),
        timeZone,
        description: details.description.optional(),
        location: details.location.optional(),
        attendees: details.attendees.optional().describe('Guest email addresses; replaces the guest list'),
        sendUpdates,
      }),
      request: (input) => ({
        method: 'PATCH',
        path: path`/calendars/${input.calendarId}/events/${input.eventId}`,
        query: { sendUpdates: input.sendUpdates },
        body: {
          summary: input.summary,
          description: input.description,
          location: input.location,
          start: input.start && eventTime(input.start, input.timeZone),
          end: input.end && eventTime(input.end, input.timeZone),
          attendees: input.attendees?.map((email) => ({ email })),
        },
      }),
      output: eventOutput,
    }),
    defineAction({
      id: 'list_events',
      name: 'Find events',
      description:
        'Lists events in a time window, recurring ones expanded, in start order (GET /calendars/{calendarId}/events).',
      kind: 'read',
      input: z.object({
        calendarId,
        timeMin: z.iso.datetime({ offset: true }).optional().describe('Events ending after this instant'),
        timeMax: z.iso.datetime({ offset: true }).optional().describe('Events starting before this instant'),
        q: z
          .string()
          .max(1000)
          .optional()
          .describe('Free-text search in title, description, location, guests'),
        maxResults: z.number().int().min(1).max(2500).default(50).describe('Page size'),
        pageToken: z.string().optional().describe('nextPageToken of a previous call'),
      }),
      request: ({ calendarId, ...query }) => ({
        method: 'GET',
        path: path`/calendars/${calendarId}/events`,
        query: { ...query, singleEvents: true, orderBy: 'startTime' },
      }),
      output: (res) => {
        const b = res.body as { items?: Event[]; nextPageToken?: string; timeZone?: string };
        return {
          events: (b.items ?? []).map(event),
          timeZone: b.timeZone ?? null,
          nextPageToken: b.nextPageToken ?? null,
        };
      },
    }),
    defineAction({
      id: 'delete_event',
      name: 'Delete an event',
      description: 'Deletes an event and tells its guests (DELETE /calendars/{calendarId}/events/{eventId}).',
      kind: 'write',
      input: z.object({ calendarId, eventId, sendUpdates }),
      request: (input) => ({
        method: 'DELETE',
        path: path`/calendars/${input.calendarId}/events/${input.eventId}`,
        query: { sendUpdates: input.sendUpdates },
      }),
      output: (_res, input) => ({ deleted: true, eventId: input.eventId }),
    }),
  ],
  sources: {
    calendars: {
      description: 'Calendars the user can add events to',
      request: () => ({
        method: 'GET',
        path: '/users/me/calendarList',
        query: { minAccessRole: 'writer', maxResults: 250 },
      }),
      items: (body) => (body as { items?: unknown[] }).items ?? [],
      option: (c: { id: string; summary: string; summaryOverride?: string; primary?: boolean }) => ({
        value: c.primary ? 'primary' : c.id,
        label: c.summaryOverride ?? c.summary,
      }),
      paging: { next: nextPageToken },
    },
  },
};

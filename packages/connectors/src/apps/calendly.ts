import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpRequestSpec, HttpResponse } from '../types.ts';
import { bodyLabel, detailedMessage, nextFromUrl, path, treeSource } from './helpers.ts';

const API = 'https://api.calendly.com';
/** Calendly names resources by URI; actions accept the URI or its trailing UUID. */
const uuidOf = (v: string) => v.replace(/\/+$/, '').split('/').pop()!;
const resource = (kind: string, what: string) =>
  z
    .string()
    .regex(new RegExp(`^(${API}/${kind}/)?[A-Za-z0-9-]+$`), `must be a ${what} URI or UUID`)
    .describe(`${what[0]!.toUpperCase()}${what.slice(1)}: its URI (${API}/${kind}/…) or UUID`);
const uriOf = (kind: string, v: string) => (v.startsWith(API) ? v : `${API}/${kind}/${v}`);

/** Lists page with `pagination.next_page`, an absolute URL. */
const nextPage = (res: HttpResponse, req: HttpRequestSpec) =>
  nextFromUrl(req, (res.body as { pagination?: { next_page?: string | null } }).pagination?.next_page);
const collection = (body: unknown) => (body as { collection?: unknown[] }).collection ?? [];

interface ScheduledEvent {
  uri: string;
  name: string;
  status: string;
  start_time: string;
  end_time: string;
  event_type: string;
  location?: { type?: string; location?: string; join_url?: string } | null;
  invitees_counter?: { total: number; active: number; limit: number };
  created_at: string;
}
const scheduledEvent = (e: ScheduledEvent) => ({
  uri: e.uri,
  uuid: uuidOf(e.uri),
  name: e.name,
  status: e.status,
  startTime: e.start_time,
  endTime: e.end_time,
  eventType: e.event_type,
  location: e.location?.join_url ?? e.location?.location ?? null,
  invitees: e.invitees_counter?.active ?? null,
  createdAt: e.created_at,
});

interface Invitee {
  uri: string;
  email: string;
  name: string;
  status: string;
  timezone?: string | null;
  questions_and_answers?: { question: string; answer: string }[];
  cancel_url?: string;
  reschedule_url?: string;
  created_at: string;
}

/** Calendly API v2: https://developer.calendly.com/api-docs */
export const calendly: ConnectorDefinition = {
  id: 'calendly',
  name: 'Calendly',
  description: 'List scheduled meetings and invitees, create single-use booking links, and cancel meetings.',
  category: 'productivity',
  icon: 'calendly',
  color: '006BFF',
  docs: 'https://developer.calendly.com/api-docs',
  baseUrl: API,
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://auth.calendly.com/oauth/authorize',
    tokenUrl: 'https://auth.calendly.com/oauth/token',
    scopes: ['users:read', 'event_types:read', 'scheduled_events:write', 'scheduling_links:write'],
    pkce: true,
  },
  test: {
    request: () => ({ method: 'GET', path: '/users/me' }),
    accountLabel: bodyLabel('resource.email', 'resource.name'),
  },
  // {"title":"Invalid Argument","message":"The supplied parameters are invalid.","details":[{"parameter","message"}]}
  errorMessage: (res) => {
    const b = res.body as { message?: string; details?: { parameter?: string; message?: string }[] } | null;
    return detailedMessage(
      b?.message,
      b?.details?.map((d) => ({ field: d.parameter, message: d.message })),
    );
  },
  actions: [
    defineAction({
      id: 'list_events',
      name: 'List scheduled meetings',
      description:
        'Lists meetings booked with the connected user, or with a whole organization (GET /scheduled_events).',
      kind: 'read',
      input: z.object({
        organization: resource('organizations', 'organization')
          .optional()
          .describe('List the whole organization’s meetings (admins); the connected user’s when omitted'),
        minStartTime: z.iso.datetime({ offset: true }).optional().describe('Meetings starting at or after'),
        maxStartTime: z.iso.datetime({ offset: true }).optional().describe('Meetings starting before'),
        status: z.enum(['active', 'canceled']).optional().describe('Only active or canceled meetings'),
        inviteeEmail: z.email().optional().describe('Only meetings with this invitee'),
        count: z.number().int().min(1).max(100).default(20).describe('Page size'),
        pageToken: z.string().optional().describe('nextPageToken of a previous call'),
      }),
      // Without an organization the user's own URI is needed first.
      handler: async (i, ctx) => {
        const owner = i.organization
          ? { organization: uriOf('organizations', i.organization) }
          : {
              user: (
                (await ctx.http({ method: 'GET', path: '/users/me' })).body as { resource: { uri: string } }
              ).resource.uri,
            };
        const res = await ctx.http({
          method: 'GET',
          path: '/scheduled_events',
          query: {
            ...owner,
            min_start_time: i.minStartTime,
            max_start_time: i.maxStartTime,
            status: i.status,
            invitee_email: i.inviteeEmail,
            count: i.count,
            page_token: i.pageToken,
            sort: 'start_time:asc',
          },
        });
        const b = res.body as {
          collection: ScheduledEvent[];
          pagination?: { next_page_token?: string | null };
        };
        return {
          events: b.collection.map(scheduledEvent),
          nextPageToken: b.pagination?.next_page_token ?? null,
        };
      },
    }),
    defineAction({
      id: 'list_invitees',
      name: 'List a meeting’s invitees',
      description: 'Reads who booked a meeting and their answers (GET /scheduled_events/{uuid}/invitees).',
      kind: 'read',
      input: z.object({
        event: resource('scheduled_events', 'scheduled event'),
        status: z.enum(['active', 'canceled']).optional().describe('Only active or canceled invitees'),
        count: z.number().int().min(1).max(100).default(50).describe('How many invitees'),
      }),
      request: (i) => ({
        method: 'GET',
        path: path`/scheduled_events/${uuidOf(i.event)}/invitees`,
        query: { status: i.status, count: i.count },
      }),
      output: (res) =>
        (collection(res.body) as Invitee[]).map((v) => ({
          uri: v.uri,
          email: v.email,
          name: v.name,
          status: v.status,
          timezone: v.timezone ?? null,
          answers: (v.questions_and_answers ?? []).map((q) => ({ question: q.question, answer: q.answer })),
          cancelUrl: v.cancel_url ?? null,
          rescheduleUrl: v.reschedule_url ?? null,
          createdAt: v.created_at,
        })),
    }),
    defineAction({
      id: 'create_scheduling_link',
      name: 'Create a booking link',
      description: 'Creates a single-use booking link for an event type (POST /scheduling_links).',
      kind: 'write',
      input: z.object({
        eventType: resource('event_types', 'event type').describe(
          'Event type (event_types option source): URI or UUID',
        ),
      }),
      request: (i) => ({
        method: 'POST',
        path: '/scheduling_links',
        body: { max_event_count: 1, owner: uriOf('event_types', i.eventType), owner_type: 'EventType' },
      }),
      output: (res) => {
        const r = (res.body as { resource: { booking_url: string; owner: string } }).resource;
        return { bookingUrl: r.booking_url, eventType: r.owner };
      },
    }),
    defineAction({
      id: 'cancel_event',
      name: 'Cancel a meeting',
      description:
        'Cancels a scheduled meeting and tells its invitees why (POST /scheduled_events/{uuid}/cancellation).',
      kind: 'write',
      input: z.object({
        event: resource('scheduled_events', 'scheduled event'),
        reason: z.string().max(10_000).optional().describe('Reason shown to invitees'),
      }),
      request: (i) => ({
        method: 'POST',
        path: path`/scheduled_events/${uuidOf(i.event)}/cancellation`,
        body: { reason: i.reason },
      }),
      output: (res) => {
        const r = (
          res.body as { resource: { canceled_by: string; reason: string | null; created_at: string } }
        ).resource;
        return { canceled: true, canceledBy: r.canceled_by, reason: r.reason, canceledAt: r.created_at };
      },
    }),
  ],
  sources: {
    event_types: treeSource({
      description: 'Active event types of the connected user',
      // The user's URI first: event types are listed per user.
      root: {
        request: () => ({ method: 'GET', path: '/users/me' }),
        items: (body: { resource: { uri: string } }) => [body.resource],
        children: [
          {
            request: (user: { uri: string }) => ({
              method: 'GET',
              path: '/event_types',
              query: { user: user.uri, active: true, count: 100 },
            }),
            items: collection,
            next: nextPage,
          },
        ],
      },
      option: (t: { uri: string; name: string; duration?: number }) => ({
        value: t.uri,
        label: t.duration ? `${t.name} (${t.duration} min)` : t.name,
      }),
    }),
  },
};

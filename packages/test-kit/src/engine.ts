import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { executions } from '@inlay/service/testing';
import { inArray } from 'drizzle-orm';
import { eventually } from './eventually.ts';
import type { Service } from './service.ts';

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface Upstream {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'drop';

/** A real HTTP server on 127.0.0.1 standing in for a provider: records every request and answers from `handle`. */
export async function startUpstream(handle: (req: Seen) => Answer | Promise<Answer>): Promise<Upstream> {
  const seen: Seen[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const u = new URL(req.url!, 'http://x');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {}
    const s: Seen = {
      method: req.method!,
      path: u.pathname,
      query: u.searchParams,
      headers: req.headers,
      body,
    };
    seen.push(s);
    const a = await handle(s);
    if (a === 'hang') {
      open.add(res);
      return;
    }
    if (a === 'drop') {
      req.socket.destroy();
      return;
    }
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body === undefined ? '' : JSON.stringify(a.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * Polls the executions table until every id is succeeded or failed; returns their rows. On timeout the error
 * lists each row's id, status and attempts as the last check read them.
 */
export async function waitForRuns(svc: Pick<Service, 'db'>, ids: string[], ms = 20_000) {
  return eventually(
    `${ids.length} run(s) to finish`,
    async () => {
      const rows = ids.length
        ? await svc.db.select().from(executions).where(inArray(executions.id, ids))
        : [];
      if (rows.length === ids.length && rows.every((r) => r.status === 'succeeded' || r.status === 'failed'))
        return rows;
      throw new Error(`runs not done: ${JSON.stringify(rows.map((r) => [r.id, r.status, r.attempts]))}`);
    },
    { timeout: ms, interval: 25 },
  );
}

/** Reads a user's log entries of a workflow through the API, oldest first. */
export async function logsOf(svc: Service, auth: string, workflowId: string, userId: string, limit = 30) {
  const r = await svc.call('GET', `/workflows/${workflowId}/logs?userId=${userId}&limit=${limit}&order=asc`, {
    auth,
  });
  if (r.status !== 200) throw new Error(r.text);
  return r.body.data as any[];
}

/** Creates an integration and a workflow from `definition` in an account; returns the workflow id. */
export async function publish(
  svc: Service,
  apiKey: string,
  definition: WorkflowDefinitionInput,
  name = 'wf',
) {
  const i = await svc.call('POST', '/integrations', { auth: apiKey, body: { name: `${name} integration` } });
  const w = await svc.call('POST', '/workflows', {
    auth: apiKey,
    body: { integrationId: i.body.integrationId, name, definition },
  });
  if (w.status !== 201) throw new Error(w.text);
  return w.body.workflowId as string;
}

/** Installs workflows for a user through the API. */
export async function install(
  svc: Service,
  apiKey: string,
  userId: string,
  workflowIds: string[],
  extra: { credentialIds?: Record<string, string>; values?: unknown[] } = {},
) {
  const r = await svc.call('POST', '/installations', {
    auth: apiKey,
    body: { userId, workflowIds, credentialIds: extra.credentialIds ?? {}, values: extra.values ?? [] },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.data as { installationId: string; webhookUrl: string | null };
}

export const BOT_TOKEN = 'bot-token-SECRET-9f8e7d6c5b4a';
export const GUILD = '900000000000000001';
export const CHANNEL = '100000000000000001';

/**
 * A fake Discord API (the paths the connector calls), checking the bot token on every request. A message
 * whose content contains `flaky` fails with 503 twice first, `throttle` answers 429 with Retry-After once,
 * `reject` is a 400 that quotes the Authorization header back (to prove logs scrub it), `slow` hangs.
 */
export async function startDiscord() {
  const posted: any[] = [];
  const tries = new Map<string, number>();
  const up = await startUpstream((s) => {
    if (s.headers.authorization !== `Bot ${BOT_TOKEN}`)
      return { status: 401, body: { message: '401: Unauthorized' } };
    if (s.method === 'GET' && s.path === '/users/@me') return { body: { id: '7', username: 'inlay-bot' } };
    if (s.method === 'GET' && s.path === `/guilds/${GUILD}/channels`)
      return { body: [{ id: CHANNEL, name: 'deals', type: 0, position: 0 }] };
    if (s.path === `/channels/${CHANNEL}/messages` && s.method === 'GET')
      return { body: [...posted].reverse().slice(0, Number(s.query.get('limit') ?? 50)) };
    if (s.path === `/channels/${CHANNEL}/messages` && s.method === 'POST') {
      const content = String(s.body?.content ?? '');
      const n = (tries.get(content) ?? 0) + 1;
      tries.set(content, n);
      if (content.includes('slow')) return 'hang';
      if (content.includes('flaky') && n <= 2) return { status: 503, body: { message: 'upstream busy' } };
      if (content.includes('throttle') && n === 1)
        return {
          status: 429,
          headers: { 'retry-after': '0' },
          body: { message: 'You are being rate limited.' },
        };
      if (content.includes('reject'))
        return {
          status: 400,
          body: { message: 'Invalid Form Body', code: 50035, echo: s.headers.authorization },
        };
      const m = {
        id: String(1_000_000_000_000_000 + posted.length),
        channel_id: CHANNEL,
        content,
        timestamp: '2026-01-01T00:00:00.000+00:00',
        author: { id: '7', username: 'inlay-bot', bot: true },
      };
      posted.push(m);
      return { body: m };
    }
    return { status: 404, body: { message: 'Unknown route' } };
  });
  return { ...up, posted, tries };
}

/** Connects a Discord credential for a user through the API (the connector's test request hits the fake). */
export async function discordCredential(svc: Service, apiKey: string, userId: string, name?: string) {
  const r = await svc.call('POST', '/credentials', {
    auth: apiKey,
    body: {
      userId,
      connector: 'discord',
      ...(name ? { name } : {}),
      data: { botToken: BOT_TOKEN, guildId: GUILD },
    },
  });
  if (r.status !== 201) throw new Error(r.text);
  return r.body.data.credentialId as string;
}

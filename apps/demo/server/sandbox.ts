import { randomBytes, randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { escapeHtml, page } from './html.ts';
import { SUPPORT_DESK, type SupportTicket, supportDeskApi } from './support-desk.ts';

/**
 * Stand-ins for Slack, HubSpot and GitHub, so the demo works offline: one OAuth 2.0 provider per app (with a
 * consent page) and the API paths Inlay's connectors call. They keep what they receive in memory and show it.
 */
export const SANDBOX_APPS = ['slack', 'hubspot', 'github'] as const;
export type SandboxApp = (typeof SANDBOX_APPS)[number];

export const SANDBOX_CLIENT = { clientId: 'acme-crm-demo', clientSecret: 'sandbox-secret-not-real' };

const TITLES: Record<SandboxApp, string> = { slack: 'Slack', hubspot: 'HubSpot', github: 'GitHub' };

export interface SlackMessage {
  ts: string;
  channel: string;
  text: string;
  thread_ts?: string;
  receivedAt: string;
}

export interface SandboxState {
  slack: { channels: { id: string; name: string }[]; messages: SlackMessage[] };
  hubspot: {
    contacts: Record<string, unknown>[];
    deals: Record<string, unknown>[];
    /** When Inlay last searched the contacts (the "New contact" polling trigger), shown on the home page. */
    polledAt?: string;
  };
  github: { issues: Record<string, unknown>[]; comments: Record<string, unknown>[] };
  /** The support desk (API key, no OAuth): the tickets it received. */
  desk: { tickets: SupportTicket[] };
  /** Tokens this sandbox issued, kept with the rest so connections survive a restart. */
  oauth: { accessTokens: Record<string, Grant>; refreshTokens: Record<string, Grant> };
}

interface Grant {
  app: SandboxApp;
  scope: string;
  /** One consent: its access and refresh tokens share it, and "Revoke this token" ends all of them. */
  grant?: string;
}

export function sandboxState(): SandboxState {
  return {
    slack: {
      channels: [
        { id: 'C0SALES01', name: 'sales' },
        { id: 'C0DEALS02', name: 'deal-desk' },
        { id: 'C0GENRL03', name: 'general' },
      ],
      messages: [],
    },
    hubspot: { contacts: [], deals: [] },
    github: { issues: [], comments: [] },
    desk: { tickets: [] },
    oauth: { accessTokens: {}, refreshTokens: {} },
  };
}

/** Connector overrides that point Inlay at this sandbox (`INLAY_CONNECTOR_<ID>_*`). */
export function sandboxEnv(origin: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const app of SANDBOX_APPS) {
    const id = app.toUpperCase();
    env[`INLAY_CONNECTOR_${id}_BASE_URL`] = `${origin}/${app}/api`;
    env[`INLAY_CONNECTOR_${id}_AUTHORIZE_URL`] = `${origin}/${app}/oauth/authorize`;
    env[`INLAY_CONNECTOR_${id}_TOKEN_URL`] = `${origin}/${app}/oauth/token`;
  }
  // The support desk signs in with an API key: only its API moves here.
  env.INLAY_CONNECTOR_FRESHDESK_BASE_URL = `${origin}/freshdesk/api`;
  return env;
}

/** `onChange` runs after every request that may have changed the state (the demo saves it to disk). */
export function sandboxRouter(state: SandboxState = sandboxState(), onChange: () => void = () => {}): Router {
  const codes = new Map<string, Grant & { redirectUri: string; expires: number }>();
  const { accessTokens, refreshTokens } = state.oauth;
  const r = express.Router();
  r.use(express.json({ limit: '1mb' }), express.urlencoded({ extended: false }));
  r.use((req, res, next) => {
    if (req.method !== 'GET') res.on('finish', onChange);
    next();
  });

  r.get('/', (_req, res) => {
    res.type('html').send(homePage(state));
  });
  r.get('/state.json', (_req, res) => {
    res.json(state);
  });
  // What a user does in the real app's settings ("remove Acme CRM"): the access token and every token of
  // its consent stop working, so a refresh cannot save the connection; the user must reconnect.
  r.post('/oauth/revoke', (req, res) => {
    const token = String((req.body as Record<string, unknown>).token ?? '');
    const revoked = Object.hasOwn(accessTokens, token) ? accessTokens[token]! : undefined;
    if (revoked) {
      for (const tokens of [accessTokens, refreshTokens])
        for (const [t, g] of Object.entries(tokens))
          if (t === token || (revoked.grant && g.grant === revoked.grant)) delete tokens[t];
    }
    // Back to the home page: the form posts from `/` to `/oauth/revoke`.
    res.redirect(303, '../');
  });

  // What a user does in the real HubSpot: add a contact by hand. Inlay's "New contact" trigger finds it on
  // its next poll.
  r.post('/hubspot/contacts', (req, res) => {
    const b = req.body as Record<string, unknown>;
    const properties = Object.fromEntries(
      ['firstname', 'lastname', 'email', 'company'].map((k) => [k, String(b[k] ?? '').trim()]),
    );
    if (properties.email && !state.hubspot.contacts.some((c) => contactEmail(c) === properties.email))
      addContact(state, properties);
    res.redirect(303, '../#hubspot');
  });

  for (const app of SANDBOX_APPS) {
    r.get(`/${app}/oauth/authorize`, (req, res) => {
      const q = req.query as Record<string, string | undefined>;
      if (q.client_id !== SANDBOX_CLIENT.clientId || !q.redirect_uri || q.response_type !== 'code') {
        res
          .status(400)
          .type('html')
          .send(page('Sandbox: invalid request', '<p>Unknown client or bad request.</p>'));
        return;
      }
      res.type('html').send(consentPage(app, q));
    });

    r.post(`/${app}/oauth/authorize`, (req, res) => {
      const b = req.body as Record<string, string | undefined>;
      if (b.client_id !== SANDBOX_CLIENT.clientId || !b.redirect_uri) {
        res.status(400).send('bad request');
        return;
      }
      const back = new URL(b.redirect_uri);
      if (b.state) back.searchParams.set('state', b.state);
      if (b.decision !== 'allow') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user denied access in the sandbox');
      } else {
        const code = randomBytes(16).toString('hex');
        codes.set(code, {
          app,
          scope: b.scope ?? '',
          redirectUri: b.redirect_uri,
          expires: Date.now() + 600_000,
        });
        back.searchParams.set('code', code);
      }
      res.redirect(303, back.href);
    });

    r.post(`/${app}/oauth/token`, (req, res) => {
      const b = req.body as Record<string, string | undefined>;
      const [id, secret] = clientCredentials(req);
      if (id !== SANDBOX_CLIENT.clientId || secret !== SANDBOX_CLIENT.clientSecret) {
        res.status(401).json({ error: 'invalid_client' });
        return;
      }
      let grant: Grant | undefined;
      if (b.grant_type === 'authorization_code') {
        const c = codes.get(b.code ?? '');
        codes.delete(b.code ?? '');
        if (c && c.app === app && c.expires > Date.now() && c.redirectUri === b.redirect_uri)
          grant = { app, scope: c.scope, grant: randomUUID() };
      } else if (b.grant_type === 'refresh_token') {
        grant = Object.hasOwn(refreshTokens, b.refresh_token ?? '')
          ? refreshTokens[b.refresh_token!]
          : undefined;
        if (grant?.app !== app) grant = undefined;
        // Rotated, as real providers do: the old refresh token is spent.
        else delete refreshTokens[b.refresh_token!];
      }
      if (!grant) {
        res
          .status(400)
          .json({ error: 'invalid_grant', error_description: 'Unknown, expired or revoked grant' });
        return;
      }
      const accessToken = `sbx-${app}-${randomBytes(16).toString('hex')}`;
      const refreshToken = `sbx-refresh-${randomBytes(16).toString('hex')}`;
      const issued: Grant = { app, scope: grant.scope, grant: grant.grant ?? randomUUID() };
      accessTokens[accessToken] = issued;
      refreshTokens[refreshToken] = issued;
      res.set('cache-control', 'no-store').json({
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: 3600,
        refresh_token: refreshToken,
        scope: grant.scope,
      });
    });

    // Every API call needs a token this sandbox issued for this app.
    r.use(`/${app}/api`, (req: Request, res: Response, next: NextFunction) => {
      const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !Object.hasOwn(accessTokens, token) || accessTokens[token]!.app !== app) {
        if (app === 'slack') res.json({ ok: false, error: 'invalid_auth' });
        else res.status(401).json({ message: 'Bad credentials' });
        return;
      }
      next();
    });
  }

  r.use('/slack/api', slackApi(state));
  r.use('/hubspot/api', hubspotApi(state));
  r.use('/github/api', githubApi(state));
  r.use('/freshdesk/api', supportDeskApi(state.desk.tickets));
  return r;
}

function clientCredentials(req: Request): [string | undefined, string | undefined] {
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    return [decodeURIComponent(id ?? ''), decodeURIComponent(secret ?? '')];
  }
  const b = req.body as Record<string, string | undefined>;
  return [b.client_id, b.client_secret];
}

function slackApi(state: SandboxState): Router {
  const r = express.Router();
  const s = state.slack;
  r.post('/auth.test', (_req, res) => {
    res.json({ ok: true, team: 'Acme (sandbox)', user: 'acme-bot', team_id: 'T0SANDBOX' });
  });
  r.get('/conversations.list', (_req, res) => {
    res.json({ ok: true, channels: s.channels, response_metadata: { next_cursor: '' } });
  });
  r.post('/chat.postMessage', (req, res) => {
    const { channel, text, thread_ts } = req.body as Partial<SlackMessage>;
    if (!channel || !s.channels.some((c) => c.id === channel)) {
      res.json({ ok: false, error: 'channel_not_found' });
      return;
    }
    if (!text) {
      res.json({ ok: false, error: 'no_text' });
      return;
    }
    const msg: SlackMessage = {
      ts: `${(Date.now() / 1000).toFixed(6)}`,
      channel,
      text,
      ...(thread_ts ? { thread_ts } : {}),
      receivedAt: new Date().toISOString(),
    };
    s.messages.push(msg);
    res.json({ ok: true, channel, ts: msg.ts, message: { text, ts: msg.ts } });
  });
  r.get('/conversations.history', (req, res) => {
    const channel = String(req.query.channel ?? '');
    const limit = Number(req.query.limit ?? 20);
    const messages = s.messages
      .filter((m) => m.channel === channel)
      .reverse()
      .slice(0, limit);
    res.json({ ok: true, messages });
  });
  return r;
}

function hubspotApi(state: SandboxState): Router {
  const r = express.Router();
  const h = state.hubspot;
  const now = () => new Date().toISOString();
  r.get('/account-info/v3/details', (_req, res) => {
    res.json({ portalId: 4242, accountType: 'SANDBOX', companyCurrency: 'USD', timeZone: 'UTC' });
  });
  r.post('/crm/v3/objects/contacts', (req, res) => {
    const properties = ((req.body as { properties?: Record<string, string> }).properties ?? {}) as Record<
      string,
      string
    >;
    if (h.contacts.some((c) => contactEmail(c) === properties.email)) {
      res.status(409).json({ status: 'error', message: `Contact already exists: ${properties.email}` });
      return;
    }
    res.status(201).json(addContact(state, properties));
  });
  // The search the "New contact" trigger polls: an optional `createdate GTE <ms>` filter, newest first, paged
  // with `after` (an offset here, opaque to the caller as in HubSpot).
  r.post('/crm/v3/objects/contacts/search', (req, res) => {
    const b = req.body as {
      filterGroups?: { filters?: { propertyName?: string; operator?: string; value?: string }[] }[];
      limit?: number;
      after?: string;
    };
    const since = b.filterGroups
      ?.flatMap((g) => g.filters ?? [])
      .find((f) => f.propertyName === 'createdate' && f.operator === 'GTE')?.value;
    const newestFirst = h.contacts
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => since === undefined || Date.parse(String(c.createdAt)) >= Number(since))
      .sort((x, y) => String(y.c.createdAt).localeCompare(String(x.c.createdAt)) || y.i - x.i)
      .map(({ c }) => ({
        ...c,
        properties: { ...(c.properties as object), createdate: c.createdAt, hs_object_id: c.id },
      }));
    const limit = Math.min(100, Math.max(1, Number(b.limit ?? 10)));
    const offset = Number(b.after ?? 0) || 0;
    const page = newestFirst.slice(offset, offset + limit);
    h.polledAt = now();
    res.json({
      total: newestFirst.length,
      results: page,
      ...(offset + limit < newestFirst.length ? { paging: { next: { after: String(offset + limit) } } } : {}),
    });
  });
  r.get('/crm/v3/objects/contacts/:email', (req, res) => {
    const c = h.contacts.find((x) => contactEmail(x) === req.params.email);
    if (!c) res.status(404).json({ status: 'error', message: 'resource not found' });
    else res.json(c);
  });
  r.post('/crm/v3/objects/deals', (req, res) => {
    const properties = (req.body as { properties?: Record<string, string> }).properties ?? {};
    const d = { id: String(5000 + h.deals.length), properties, createdAt: now(), updatedAt: now() };
    h.deals.push(d);
    res.status(201).json(d);
  });
  r.get('/crm/v3/owners', (_req, res) => {
    res.json({ results: [{ id: '77', email: 'owner@acme.test', firstName: 'Olive', lastName: 'Owner' }] });
  });
  r.get('/crm/v3/pipelines/deals', (_req, res) => {
    res.json({
      results: [
        {
          id: 'default',
          label: 'Sales pipeline',
          stages: [
            { id: 'appointmentscheduled', label: 'Appointment scheduled' },
            { id: 'closedwon', label: 'Closed won' },
          ],
        },
      ],
    });
  });
  return r;
}

const contactEmail = (c: Record<string, unknown>) => (c.properties as Record<string, string>).email;

function addContact(state: SandboxState, properties: Record<string, string>) {
  const h = state.hubspot;
  const at = new Date().toISOString();
  const c = { id: String(1000 + h.contacts.length), properties, createdAt: at, updatedAt: at };
  h.contacts.push(c);
  return c;
}

function githubApi(state: SandboxState): Router {
  const r = express.Router();
  const g = state.github;
  const repos = [
    { full_name: 'acme/crm', permissions: { push: true } },
    { full_name: 'acme/sales-ops', permissions: { push: true } },
  ];
  r.get('/user', (_req, res) => {
    res.json({ login: 'acme-sandbox', id: 1, name: 'Acme sandbox user' });
  });
  r.get('/user/repos', (_req, res) => {
    res.json(repos);
  });
  const known = (owner?: string, repo?: string) => repos.some((x) => x.full_name === `${owner}/${repo}`);
  r.post('/repos/:owner/:repo/issues', (req, res) => {
    const { owner, repo } = req.params;
    if (!known(owner, repo)) {
      res.status(404).json({ message: 'Not Found' });
      return;
    }
    const b = req.body as { title?: string; body?: string; labels?: string[] };
    if (!b.title) {
      res
        .status(422)
        .json({ message: 'Validation Failed', errors: [{ field: 'title', code: 'missing_field' }] });
      return;
    }
    const number = g.issues.filter((i) => i.repo === `${owner}/${repo}`).length + 1;
    const issue = {
      id: randomUUID(),
      number,
      repo: `${owner}/${repo}`,
      title: b.title,
      body: b.body ?? null,
      state: 'open',
      html_url: `https://github.example/${owner}/${repo}/issues/${number}`,
      user: { login: 'acme-sandbox' },
      labels: (b.labels ?? []).map((name) => ({ name })),
      assignees: [],
      created_at: new Date().toISOString(),
    };
    g.issues.push(issue);
    res.status(201).json(issue);
  });
  r.get('/repos/:owner/:repo/issues', (req, res) => {
    res.json(g.issues.filter((i) => i.repo === `${req.params.owner}/${req.params.repo}`).reverse());
  });
  r.post('/repos/:owner/:repo/issues/:number/comments', (req, res) => {
    const c = {
      id: g.comments.length + 1,
      repo: `${req.params.owner}/${req.params.repo}`,
      issue: Number(req.params.number),
      body: (req.body as { body?: string }).body,
      html_url: `https://github.example/${req.params.owner}/${req.params.repo}/issues/${req.params.number}#c${g.comments.length + 1}`,
      created_at: new Date().toISOString(),
    };
    g.comments.push(c);
    res.status(201).json(c);
  });
  return r;
}

function consentPage(app: SandboxApp, q: Record<string, string | undefined>): string {
  const hidden = ['client_id', 'redirect_uri', 'state', 'scope']
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q[k] ?? '')}">`)
    .join('');
  const scopes = (q.scope ?? '')
    .split(/[ ,]+/)
    .filter(Boolean)
    .map((s) => `<li><code>${escapeHtml(s)}</code></li>`)
    .join('');
  return page(
    `${TITLES[app]} (sandbox): authorize Acme CRM`,
    `<h1>Authorize <b>Acme CRM</b> to use your ${TITLES[app]} sandbox account?</h1>
     <p>It asks for:</p><ul>${scopes || '<li>basic access</li>'}</ul>
     <form method="post">${hidden}
       <button name="decision" value="allow" class="primary">Allow</button>
       <button name="decision" value="deny">Deny</button>
     </form>`,
  );
}

function homePage(state: SandboxState): string {
  const channelName = (id: string) => state.slack.channels.find((c) => c.id === id)?.name ?? id;
  const slack = state.slack.messages
    .slice()
    .reverse()
    .map(
      (m) =>
        `<li class="msg"><b>#${escapeHtml(channelName(m.channel))}</b> <span class="text">${escapeHtml(m.text)}</span> <time>${m.receivedAt}</time></li>`,
    )
    .join('');
  const list = (items: Record<string, unknown>[]) =>
    items
      .slice()
      .reverse()
      .map((c) => `<li>${escapeHtml(JSON.stringify(c.properties))} <time>${c.createdAt}</time></li>`)
      .join('');
  const contacts = list(state.hubspot.contacts);
  const deals = list(state.hubspot.deals);
  const field = (name: string, label: string, value: string) =>
    `<label>${label} <input name="${name}" required value="${value}"></label>`;
  const n = state.hubspot.contacts.length + 1;
  const issues = state.github.issues
    .slice()
    .reverse()
    .map(
      (i) =>
        `<li><b>${escapeHtml(String(i.repo))}#${i.number}</b> ${escapeHtml(String(i.title))}<pre>${escapeHtml(String(i.body ?? ''))}</pre></li>`,
    )
    .join('');
  const desk = state.desk.tickets
    .slice()
    .reverse()
    .map(
      (t) =>
        `<li><b>#${t.id}</b> ${escapeHtml(t.subject)} <span>${escapeHtml(t.email)}</span> <time>${t.created_at}</time></li>`,
    )
    .join('');
  const tokens = Object.entries(state.oauth.accessTokens)
    .map(
      ([token, g]) =>
        `<li><b>${TITLES[g.app]}</b> <code>${escapeHtml(token.slice(0, 14))}…</code>
         <form method="post" action="oauth/revoke" style="display:inline">
           <input type="hidden" name="token" value="${escapeHtml(token)}">
           <button aria-label="Revoke this token: ${TITLES[g.app]} ${escapeHtml(token.slice(0, 14))}">Revoke this token</button>
         </form></li>`,
    )
    .join('');
  return page(
    'Sandbox apps',
    `<h1>Sandbox: stand-in Slack, HubSpot, GitHub and a support desk</h1>
     <p>These are fake apps that run on your machine so the demo works offline. Nothing here reaches the real services.</p>
     <section id="slack"><h2>Slack: messages received</h2><ul>${slack || '<li class="empty">No messages yet</li>'}</ul></section>
     <section id="hubspot"><h2>HubSpot: contacts</h2>
       <form method="post" action="hubspot/contacts" aria-label="Add a contact in HubSpot">
         <p>Add one as a user would in HubSpot: the workflows with a HubSpot “New contact” trigger start a run on
         Inlay's next poll${state.hubspot.polledAt ? ` (last poll: <time id="hubspot-polled">${state.hubspot.polledAt}</time>)` : ' (no poll yet)'}.</p>
         ${field('firstname', 'First name', 'Ada')} ${field('lastname', 'Last name', `Lovelace ${n}`)}
         ${field('email', 'Email', `ada.${n}@example.test`)} ${field('company', 'Company', 'Analytical Engines')}
         <button class="primary">Add contact</button>
       </form>
       <ul>${contacts || '<li class="empty">No contacts yet</li>'}</ul>
       <h3>HubSpot: deals</h3><ul id="hubspot-deals">${deals || '<li class="empty">No deals yet</li>'}</ul></section>
     <section id="github"><h2>GitHub: issues received</h2><ul>${issues || '<li class="empty">No issues yet</li>'}</ul></section>
     <section id="desk"><h2>Support desk (Freshdesk stand-in): tickets received</h2>
       <p>Connect it with an API key instead of OAuth: helpdesk domain <code>${SUPPORT_DESK.domain}</code>, API key
       <code>${SUPPORT_DESK.apiKey}</code>.</p>
       <ul>${desk || '<li class="empty">No tickets yet</li>'}</ul></section>
     <section id="tokens"><h2>Access tokens issued to Acme CRM</h2>
       <p>Revoking one is what a user does in the real app's settings: that consent's tokens stop working (a
       refresh cannot save it), the next run fails and the widget asks the user to reconnect.</p>
       <ul>${tokens || '<li class="empty">No tokens yet</li>'}</ul></section>
     <script>setTimeout(() => { if (!document.activeElement?.closest('form')) location.reload() }, 3000)</script>`,
  );
}

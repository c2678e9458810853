import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ConnectorDefinition, catalog } from '@inlay/connectors';
import { z } from 'zod';

/** A real OAuth 2.0 authorization server and provider API on 127.0.0.1, for the credential tests. */
export interface Provider {
  url: string;
  clientId: string;
  clientSecret: string;
  /** What /authorize does next: grant a code, or answer `error=access_denied` (a denied consent). */
  consent: 'allow' | 'deny';
  /** `expires_in` of the access tokens issued next. */
  expiresIn: number;
  /** The `iss` /authorize puts in its answer (RFC 9207); none by default. */
  issuer?: string;
  /** Every token request, parsed: grant type, PKCE verifier, client authentication. */
  tokenRequests: { grantType: string; codeVerifier?: string; clientAuth: 'basic' | 'body' | 'none' }[];
  /** Authorization requests as received (query parameters). */
  authorizeRequests: URLSearchParams[];
  /** API requests as received (path and the credential they carried). */
  apiRequests: { path: string; authorization?: string; apiKey?: string }[];
  /** Makes an issued access token invalid at once (the API answers 401), as a provider-side revocation. */
  revokeAccess(token: string): void;
  /** Makes a refresh token invalid (the refresh grant answers `invalid_grant`). */
  revokeRefresh(token: string): void;
  /** Revokes every token issued so far, access and refresh (the user removed the app at the provider). */
  revokeAll(): void;
  /** The channels the options source pages through. */
  projects: { id: string; name: string }[];
  /** The workspace `/api/me` names (the `acme` account label). */
  workspace: string;
  /** When true, `GOOD_KEY` is refused too (the key was revoked at the provider). */
  keyRevoked: boolean;
  /** How long the token endpoint waits before answering (to make concurrent refreshes overlap). */
  tokenDelayMs: number;
  /** How many refresh grants the token endpoint received. */
  refreshGrants(): number;
  close(): Promise<void>;
}

export const GOOD_KEY = 'key-good-0123456789';
export const BASIC_USER = 'ops@example.com';
export const BASIC_TOKEN = 'basic-secret-9876';

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (d) => (s += d));
    req.on('end', () => resolve(s));
  });

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const token = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

export async function startProvider(): Promise<Provider> {
  const codes = new Map<string, { challenge?: string; redirectUri: string; clientId: string }>();
  const access = new Map<string, number>(); // token -> expiry (ms)
  const refresh = new Set<string>();
  const p: Provider = {
    url: '',
    clientId: 'client-acme',
    clientSecret: 'client-secret-acme',
    consent: 'allow',
    expiresIn: 3600,
    tokenRequests: [],
    authorizeRequests: [],
    apiRequests: [],
    revokeAccess: (t) => void access.delete(t),
    revokeRefresh: (t) => void refresh.delete(t),
    revokeAll: () => {
      access.clear();
      refresh.clear();
    },
    projects: Array.from({ length: 5 }, (_, i) => ({ id: `p${i + 1}`, name: `Project ${i + 1}` })),
    workspace: 'Acme Workspace',
    keyRevoked: false,
    tokenDelayMs: 0,
    refreshGrants: () => p.tokenRequests.filter((t) => t.grantType === 'refresh_token').length,
    close: async () => {},
  };

  const issue = () => {
    const a = token('at');
    const r = token('rt');
    access.set(a, Date.now() + p.expiresIn * 1000);
    refresh.add(r);
    return {
      access_token: a,
      token_type: 'Bearer',
      expires_in: p.expiresIn,
      refresh_token: r,
      scope: 'read',
    };
  };

  const bearerOk = (req: IncomingMessage) => {
    const t = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const exp = t ? access.get(t) : undefined;
    return exp !== undefined && exp > Date.now();
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, p.url);
    const body = await readBody(req);
    if (url.pathname === '/oauth/authorize') {
      const q = url.searchParams;
      p.authorizeRequests.push(q);
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('state', q.get('state') ?? '');
      if (p.issuer !== undefined) back.searchParams.set('iss', p.issuer);
      if (p.consent === 'deny') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user denied access to Acme');
      } else {
        const code = token('code');
        codes.set(code, {
          challenge: q.get('code_challenge') ?? undefined,
          redirectUri: q.get('redirect_uri')!,
          clientId: q.get('client_id')!,
        });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/oauth/token' && req.method === 'POST') {
      const form = new URLSearchParams(body);
      const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      let clientId = form.get('client_id');
      let secret = form.get('client_secret');
      let clientAuth: 'basic' | 'body' | 'none' = secret ? 'body' : 'none';
      if (basic) {
        const [id, sec] = Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent);
        clientId = id!;
        secret = sec!;
        clientAuth = 'basic';
      }
      const grantType = form.get('grant_type') ?? '';
      if (p.tokenDelayMs) await new Promise((r) => setTimeout(r, p.tokenDelayMs));
      p.tokenRequests.push({ grantType, codeVerifier: form.get('code_verifier') ?? undefined, clientAuth });
      if (clientAuth !== 'basic' || clientId !== p.clientId || secret !== p.clientSecret)
        return json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      if (grantType === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!code || code.redirectUri !== form.get('redirect_uri'))
          return json(res, 400, { error: 'invalid_grant', error_description: 'Unknown or reused code' });
        const verifier = form.get('code_verifier');
        if (code.challenge && (!verifier || s256(verifier) !== code.challenge))
          return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        return json(res, 200, issue(), { 'cache-control': 'no-store' });
      }
      if (grantType === 'refresh_token') {
        const r = form.get('refresh_token') ?? '';
        if (!refresh.has(r))
          return json(res, 400, {
            error: 'invalid_grant',
            error_description: 'The refresh token was revoked',
          });
        refresh.delete(r); // rotating refresh tokens
        return json(res, 200, issue());
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    // The provider's API: OAuth (bearer), API key and basic flavours.
    p.apiRequests.push({
      path: url.pathname + url.search,
      authorization: req.headers.authorization,
      apiKey: req.headers['x-api-key'] as string | undefined,
    });
    if (url.pathname.startsWith('/api/')) {
      if (!bearerOk(req)) return json(res, 401, { message: 'invalid or expired access token' });
      if (url.pathname === '/api/me') return json(res, 200, { id: 'me', workspace: p.workspace });
      if (url.pathname === '/api/projects') {
        // Two per page, with a cursor: the option source follows it.
        const start = Number(url.searchParams.get('cursor') ?? 0);
        const items = p.projects.slice(start, start + 2);
        const next = start + 2 < p.projects.length ? String(start + 2) : undefined;
        return json(res, 200, { items, ...(next ? { next } : {}) });
      }
    }
    if (url.pathname.startsWith('/key/')) {
      if (req.headers['x-api-key'] !== GOOD_KEY || p.keyRevoked)
        return json(res, 401, {
          message: `Invalid API key ending in ${String(req.headers['x-api-key']).slice(-4)}: this key was revoked`,
        });
      if (url.pathname === '/key/me') return json(res, 200, { id: 'key-user', team: 'KeyCo Team' });
      if (url.pathname === '/key/lists')
        return json(res, 200, {
          lists: [
            { id: 'l1', title: 'Leads' },
            { id: 'l2', title: 'Customers' },
          ],
        });
    }
    if (url.pathname === '/basic/me') {
      const expected = `Basic ${Buffer.from(`${BASIC_USER}:${BASIC_TOKEN}`).toString('base64')}`;
      if (req.headers.authorization !== expected)
        return json(res, 403, { error: { message: 'Couldn’t authenticate you: wrong email or token' } });
      return json(res, 200, { id: 'basic-user' });
    }
    json(res, 404, { message: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  p.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return p;
}

/**
 * `INLAY_EGRESS_ALLOW` for the provider: its connectors name it in their definitions (not through the
 * operator's `INLAY_CONNECTOR_<ID>_*` overrides), so the egress policy refuses its loopback address until
 * it is opened, as an operator would open an internal provider.
 */
export const providerEgress = (p: { url: string }, ...more: string[]) => ({
  INLAY_EGRESS_ALLOW: [new URL(p.url).host, ...more].join(','),
});

/**
 * Three connectors on the provider: `acme` (OAuth 2.0 with PKCE and HTTP basic client authentication, a
 * paged `projects` option source), `keyco` (an API key in a header) and `basicco` (HTTP basic). The
 * built-in catalog is kept, so workflows may mix them with `transform` and friends.
 */
export function providerConnectors(url: string): ConnectorDefinition[] {
  const acme: ConnectorDefinition = {
    id: 'acme',
    name: 'Acme',
    description: 'A local OAuth 2.0 provider',
    category: 'developer',
    icon: 'acme',
    baseUrl: `${url}/api`,
    auth: {
      type: 'oauth2',
      authorizeUrl: `${url}/oauth/authorize`,
      tokenUrl: `${url}/oauth/token`,
      scopes: ['read'],
      pkce: true,
      tokenAuth: 'basic',
    },
    test: {
      request: () => ({ method: 'GET', path: '/me' }),
      accountLabel: (res) => (res.body as { workspace?: string }).workspace,
    },
    actions: [
      {
        id: 'list_projects',
        name: 'List projects',
        description: 'Lists projects',
        kind: 'read',
        input: z.object({ project: z.string().optional() }),
        request: () => ({ method: 'GET', path: '/projects' }),
      },
    ],
    sources: {
      projects: {
        description: 'Projects',
        request: () => ({ method: 'GET', path: '/projects' }),
        items: (b) => (b as { items: unknown[] }).items,
        option: (p: { id: string; name: string }) => ({ value: p.id, label: p.name }),
        paging: {
          next: (res, req) => {
            const next = (res.body as { next?: string }).next;
            return next ? { ...req, query: { ...req.query, cursor: next } } : undefined;
          },
        },
      },
    },
  };
  const keyco: ConnectorDefinition = {
    id: 'keyco',
    name: 'KeyCo',
    description: 'An API-key provider',
    category: 'marketing',
    icon: 'keyco',
    baseUrl: `${url}/key`,
    auth: {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      fields: [{ name: 'apiKey', label: 'API key', type: 'password', required: true, secret: true }],
    },
    test: {
      request: () => ({ method: 'GET', path: '/me' }),
      accountLabel: (res) => (res.body as { team?: string }).team,
    },
    actions: [
      {
        id: 'list_lists',
        name: 'List lists',
        description: 'Lists mailing lists',
        kind: 'read',
        input: z.object({ list: z.string().optional() }),
        request: () => ({ method: 'GET', path: '/lists' }),
      },
    ],
    sources: {
      lists: {
        description: 'Mailing lists',
        request: () => ({ method: 'GET', path: '/lists' }),
        items: (b) => (b as { lists: unknown[] }).lists,
        option: (l: { id: string; title: string }) => ({ value: l.id, label: l.title }),
      },
    },
  };
  const basicco: ConnectorDefinition = {
    id: 'basicco',
    name: 'BasicCo',
    description: 'An HTTP basic provider',
    category: 'support',
    icon: 'basicco',
    baseUrl: `${url}/basic`,
    auth: {
      type: 'basic',
      username: '{email}',
      password: '{token}',
      fields: [
        { name: 'email', label: 'Email', type: 'text', required: true, secret: false },
        { name: 'token', label: 'API token', type: 'password', required: true, secret: true },
      ],
    },
    test: { request: () => ({ method: 'GET', path: '/me' }) },
    actions: [],
  };
  return [...catalog, acme, keyco, basicco];
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { operations as ops } from '@inlay/contract';
import { and, eq, isNull } from 'drizzle-orm';
import express, { type Request, type Response, Router } from 'express';
import { API_KEY_RE, sha256 } from '../accounts/api-keys.ts';
import type { AppContext } from '../context.ts';
import { forbidden, unauthorized } from '../http/problem.ts';
import { requireJson } from '../http/require-json.ts';
import { route } from '../http/route.ts';
import { accounts, apiKeys } from '../store/schema.ts';
import {
  CSRF_HEADER,
  cookieValue,
  csrfMatches,
  findSession,
  openSession,
  revokeSession,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from './sessions.ts';

function setCookie(res: Response, ctx: AppContext, value: string, maxAgeMs: number) {
  const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  res.append(
    'set-cookie',
    `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(maxAgeMs / 1000)}${secure}`,
  );
}

const sessionOf = (ctx: AppContext, req: Request) => {
  const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
  return token ? findSession(ctx.db, token) : Promise.resolve(undefined);
};

/**
 * `POST|GET|DELETE /console/session`: the console signs in by trading an API key for an httpOnly,
 * SameSite=Strict cookie, so the key never stays in the browser; writes carry the session's CSRF token.
 */
export function consoleSessionRoutes(ctx: AppContext, json: express.RequestHandler): Router {
  const r = Router();
  // Mounted before the API's body parser: it reads its own JSON body.
  const ownBody = { before: [requireJson, json] };
  route(r, ops.createConsoleSession, ownBody, async (_req, res, { body: { apiKey } }) => {
    const [key] = API_KEY_RE.test(apiKey)
      ? await ctx.db
          .select({ id: apiKeys.id, accountId: apiKeys.accountId, accountName: accounts.name })
          .from(apiKeys)
          .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
          .where(and(eq(apiKeys.hash, sha256(apiKey)), isNull(apiKeys.revokedAt)))
      : [];
    if (!key) throw unauthorized('The API key is unknown or revoked');
    const s = await openSession(ctx.db, key.accountId, key.id);
    setCookie(res, ctx, s.token, SESSION_TTL_MS);
    res.status(201).json({
      data: {
        accountId: key.accountId,
        accountName: key.accountName,
        csrfToken: s.csrfToken,
        expiresAt: s.expiresAt.toISOString(),
      },
    });
  });
  route(r, ops.getConsoleSession, async (req, res) => {
    const s = await sessionOf(ctx, req);
    // Signed out is an answer, not an error: the console asks on every load (a 401 would be a console error).
    if (!s) return void res.json({ data: null });
    res.json({
      data: {
        accountId: s.accountId,
        accountName: s.accountName,
        csrfToken: s.csrfToken,
        expiresAt: s.expiresAt.toISOString(),
      },
    });
  });
  route(r, ops.deleteConsoleSession, async (req, res) => {
    const s = await sessionOf(ctx, req);
    if (!s) throw unauthorized('Not signed in to the console');
    if (!csrfMatches(req.get(CSRF_HEADER), s.csrfToken))
      throw forbidden(`Signing out needs the ${CSRF_HEADER} header of the session`);
    await revokeSession(ctx.db, s.id);
    setCookie(res, ctx, '', 0);
    res.json({ message: 'Success' });
  });
  return r;
}

// The console's page loads only its own files; styles may be inline (the chart and the editor set them).
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const NOT_SET_UP =
  "This service has no console. Set INLAY_CONSOLE_DIR (or createApp's consoleDir) to a built console, " +
  'such as packages/console/dist of a checkout after `pnpm install`, and restart.\n';

/**
 * `GET /console/*`: the console's built files from `dir`, and its page for every client-side route. Without a
 * `dir`, or with one holding no built console, every page answers 503 saying how to set it up.
 */
export function consoleStatic(dir: string | undefined): express.RequestHandler {
  const notSetUp: express.RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path === '/session') return next();
    res.status(503).type('text/plain').send(NOT_SET_UP);
  };
  if (dir === undefined) return notSetUp;
  const index = join(dir, 'index.html');
  const files = express.static(dir, {
    index: false,
    setHeaders: (res, path) => {
      // Vite names built assets by content hash: they never change under the same name.
      if (path.includes('/assets/')) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/session') return next();
    res.setHeader('content-security-policy', CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    files(req, res, () => {
      if (req.path.startsWith('/assets/')) return next();
      if (!existsSync(index)) return notSetUp(req, res, next);
      res.setHeader('cache-control', 'no-cache');
      res.sendFile(index);
    });
  };
}

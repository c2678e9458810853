import { operations as ops } from '@inlay/contract';
import { type Request, type Response, Router } from 'express';
import type { AppContext } from '../context.ts';
import { HttpProblem } from '../http/problem.ts';
import { type RouteHandler, type RouteOptions, route } from '../http/route.ts';
import { oauthCookiePath, oauthRedirectUri } from './oauth-apps.ts';
import { type CallbackOutcome, completeOAuth } from './oauth-flow.ts';
import { type Page, popupPage, rejectedPage } from './oauth-page.ts';
import { browserCookieName, openStartLink, STATE_TTL_MS } from './oauth-states.ts';

const AGAIN = 'Start the connection again from the app.';

const REJECTIONS = {
  missing: 'The callback carries no state parameter.',
  unknown: `This sign-in link is not known. ${AGAIN}`,
  used: `This sign-in link has already been used. ${AGAIN}`,
  expired: `This sign-in link has expired (links are valid for 10 minutes). ${AGAIN}`,
  not_started: `This sign-in did not begin at Inlay's start link, so nothing was connected. ${AGAIN}`,
  browser: `This sign-in was started in another browser, so nothing was connected. ${AGAIN}`,
  started: `This sign-in link was already opened in another browser, so it cannot be used here. ${AGAIN}`,
  callback: `The provider sent this sign-in back to the address of another app, so nothing was connected. ${AGAIN}`,
} as const;

function sendPage(res: Response, status: number, p: Page) {
  res.status(status).type('html').set('content-security-policy', p.csp).send(p.html);
}

/** A flow Inlay will not act on: a page for a browser, problem+json (naming the query parameter) otherwise. */
function reject(req: Request, res: Response, why: keyof typeof REJECTIONS, field: string) {
  const text = REJECTIONS[why];
  if (req.accepts(['html', 'json']) === 'html') return sendPage(res, 400, rejectedPage(text));
  throw new HttpProblem(400, 'invalid_request', text, {
    errors: [{ field, rule: why === 'missing' ? 'required' : why, message: text }],
  });
}

/** One cookie's value from the request's `Cookie` header (Express does not parse cookies). */
function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Where the browser goes after a non-popup flow: the host's `redirectUri` with the result in the query. */
function resultUrl(outcome: Extract<CallbackOutcome, { ok: true }>): string {
  const url = new URL(outcome.redirectUri!);
  url.searchParams.set('credentialId', outcome.credentialId);
  url.searchParams.set('status', outcome.status);
  if (outcome.reason) url.searchParams.set('reason', outcome.reason);
  if (outcome.code) url.searchParams.set('code', outcome.code);
  return url.href;
}

/**
 * `GET /oauth/start` and `GET /oauth/callback`: public (the browser arrives without a bearer token), so
 * mounted before authentication. The start link sets a cookie that ties the flow to this browser; the
 * callback connects nothing without it.
 */
export function oauthCallbackRoutes(ctx: AppContext): Router {
  const r = Router();
  const cookie = {
    httpOnly: true,
    sameSite: 'lax' as const, // sent on the provider's top-level redirect back, not on cross-site subrequests
    secure: ctx.config.publicUrl.startsWith('https:'),
    path: oauthCookiePath(ctx.config.publicUrl),
  };
  const noStore = (res: Response) =>
    res.set({
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });

  // A bad query answers a page to a browser, not a problem: the handlers read it themselves.
  const pageQuery: RouteOptions = { raw: ['query'] };

  route(r, ops.oauthStart, pageQuery, async (req, res) => {
    noStore(res);
    const token = typeof req.query.flow === 'string' ? req.query.flow : '';
    if (!token) return reject(req, res, 'missing', 'query.flow');
    const started = await openStartLink(ctx.db, ctx.vault, token, (h) => cookieOf(req, browserCookieName(h)));
    if (!started.ok) return reject(req, res, started.why, 'query.flow');
    res.cookie(browserCookieName(started.stateHash), started.cookie, {
      ...cookie,
      maxAge: Math.min(STATE_TTL_MS, Math.max(0, started.expiresAt.getTime() - Date.now())),
    });
    res.redirect(302, started.authorizeUrl);
  });

  const callback: RouteHandler<typeof ops.oauthCallback> = async (req, res) => {
    // The query holds an authorization code: nothing may cache it or leak it in a Referer.
    noStore(res);
    const params = new URL(req.originalUrl, 'http://callback.invalid').searchParams;
    const connector = typeof req.params.connector === 'string' ? req.params.connector : undefined;
    const arrivedAt = connector
      ? oauthRedirectUri(ctx.config.publicUrl, connector)
      : oauthRedirectUri(ctx.config.publicUrl, '', true);
    let spentCookie: string | undefined;
    const outcome = await completeOAuth(
      ctx,
      params,
      (h) => {
        spentCookie = browserCookieName(h);
        return cookieOf(req, spentCookie);
      },
      arrivedAt,
    );
    if (!outcome.ok) return reject(req, res, outcome.why, 'query.state');
    // The flow is over: its cookie has nothing more to bind.
    if (spentCookie) res.clearCookie(spentCookie, cookie);
    if (!outcome.popup) return res.redirect(302, resultUrl(outcome));
    const message = {
      type: 'inlay:oauth' as const,
      credentialId: outcome.credentialId,
      status: outcome.status,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      ...(outcome.code ? { code: outcome.code } : {}),
    };
    sendPage(res, 200, popupPage(message, outcome.origin!));
  };
  route(r, ops.oauthCallback, pageQuery, callback);
  route(r, ops.oauthConnectorCallback, pageQuery, callback);
  return r;
}

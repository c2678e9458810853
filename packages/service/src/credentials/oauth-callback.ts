import { type Response, Router } from 'express';
import type { AppContext } from '../context.ts';
import { HttpProblem } from '../http/problem.ts';
import { type CallbackOutcome, completeOAuth } from './oauth-flow.ts';
import { type Page, popupPage, rejectedPage } from './oauth-page.ts';

const REJECTIONS = {
  missing: 'The callback carries no state parameter.',
  unknown: 'This sign-in link is not known. Start the connection again.',
  used: 'This sign-in link has already been used. Start the connection again.',
  expired: 'This sign-in link has expired (links are valid for 10 minutes). Start the connection again.',
} as const;

function sendPage(res: Response, status: number, p: Page) {
  res.status(status).type('html').set('content-security-policy', p.csp).send(p.html);
}

/** Where the browser goes after a non-popup flow: the host's `redirectUri` with the result in the query. */
function resultUrl(outcome: Extract<CallbackOutcome, { ok: true }>): string {
  const url = new URL(outcome.redirectUri!);
  url.searchParams.set('credentialId', outcome.credentialId);
  url.searchParams.set('status', outcome.status);
  if (outcome.reason) url.searchParams.set('reason', outcome.reason);
  return url.href;
}

/** `GET /oauth/callback`: public (the provider redirects the browser here), so mounted before authentication. */
export function oauthCallbackRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get('/oauth/callback', async (req, res) => {
    // The query holds an authorization code: nothing may cache it or leak it in a Referer.
    res.set({
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });
    const params = new URL(req.originalUrl, 'http://callback.invalid').searchParams;
    const outcome = await completeOAuth(ctx, params);
    if (!outcome.ok) {
      const text = REJECTIONS[outcome.why];
      if (req.accepts(['html', 'json']) === 'html') return sendPage(res, 400, rejectedPage(text));
      throw new HttpProblem(400, 'invalid_request', text, {
        errors: [
          { field: 'query.state', rule: outcome.why === 'missing' ? 'required' : outcome.why, message: text },
        ],
      });
    }
    if (!outcome.popup) return res.redirect(302, resultUrl(outcome));
    const message = {
      type: 'inlay:oauth' as const,
      credentialId: outcome.credentialId,
      status: outcome.status,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
    };
    sendPage(res, 200, popupPage(message, outcome.origin!));
  });
  return r;
}

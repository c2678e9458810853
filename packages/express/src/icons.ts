import type { Request, Response } from 'express';
import { sendProblem } from './problem.ts';
import { relay } from './relay.ts';
import type { Upstream } from './upstream.ts';

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** A custom connector's icon `key` (the service's is a UUID): nothing that could add to the query or path. */
const KEY = /^[A-Za-z0-9-]{1,64}$/;
/** Request headers an icon request passes on: caching ones only (no cookie, no credentials). */
const PASSED = ['if-none-match', 'if-modified-since'] as const;

/**
 * `GET /connectors/{connector}/icon.svg`, relayed from the service without a session: icons are public, an
 * `<img>` carries no token, and the browser may not reach the service itself. The connector must be a slug,
 * so the path can name nothing but an icon. A custom connector's icon URL carries `?key=` (it stands in for
 * the account); that parameter, and no other, goes on to the service.
 */
export function iconHandler(upstream: Upstream, onError: (res: Response, err: unknown) => void) {
  return async (req: Request, res: Response) => {
    const connector = String(req.params.connector);
    const key = req.query.key;
    if (!SLUG.test(connector) || (key !== undefined && !(typeof key === 'string' && KEY.test(key)))) {
      sendProblem(res, 404, 'not_found', 'Not Found', 'No such connector');
      return;
    }
    const headers: Record<string, string> = { accept: 'image/svg+xml' };
    for (const h of PASSED) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
    try {
      relay(
        await upstream({
          method: 'GET',
          path: `/connectors/${connector}/icon.svg${key ? `?key=${key}` : ''}`,
          headers,
        }),
        res,
      );
    } catch (err) {
      onError(res, err);
    }
  };
}

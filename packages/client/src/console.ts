import type { MessageResponse } from '@inlay/contract';
import { call } from './call.ts';
import { type ServerClient, serverRoutes } from './server.ts';
import { createTransport, type TransportOptions } from './transport.ts';

/** The header a console session's writes carry (its CSRF token). */
export const CSRF_HEADER = 'x-inlay-csrf';

/**
 * The console's sign-in (`/console/session`): an API key traded for an httpOnly cookie the browser keeps and
 * script cannot read. Same-origin only: the cookie is `SameSite=Strict`.
 */
export function consoleSessions(opts: TransportOptions) {
  const r = createTransport(opts);
  return {
    /** `POST /console/session {apiKey}`: sets the cookie; the key is not kept anywhere. */
    signIn: (apiKey: string) => call(r, 'POST /console/session', { body: { apiKey } }).then((x) => x.data),
    /** `GET /console/session`: this browser's session, or null when signed out. */
    current: () => call(r, 'GET /console/session').then((x) => x.data),
    /** `DELETE /console/session`: revokes it and clears the cookie. */
    signOut: (csrfToken: string) =>
      createTransport({ ...opts, headers: { ...opts.headers, 'x-inlay-csrf': csrfToken } })<MessageResponse>(
        'DELETE',
        '/console/session',
      ),
  };
}

/** A client for every REST route, acting through the browser's console session cookie. */
export function createConsoleClient(opts: TransportOptions & { csrfToken: string }): ServerClient {
  const request = createTransport({ ...opts, headers: { ...opts.headers, [CSRF_HEADER]: opts.csrfToken } });
  return { ...serverRoutes(request), baseUrl: opts.baseUrl, request };
}

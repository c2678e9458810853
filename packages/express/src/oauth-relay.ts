import type { Request, Response } from 'express';
import { relay } from './relay.ts';
import type { Upstream } from './upstream.ts';

/** The cookies Inlay's OAuth start link sets, one per flow (`inlay_oauth_<16 hex>`). */
const FLOW_COOKIE = /^inlay_oauth_[0-9a-f]{16}$/;
const nameOf = (pair: string) => pair.slice(0, Math.max(0, pair.indexOf('='))).trim();

/**
 * `GET /oauth/start` and `GET /oauth/callback[/<connector>]`, relayed without a session, for a host that serves Inlay's
 * OAuth pages under its own origin (`INLAY_PUBLIC_URL` is the host's mount, e.g. `https://app.example.com/api/inlay`).
 * The browser arrives from the provider with no bearer token, so these need none.
 *
 * Unlike every other proxied route, the flow cookie must cross the proxy in both directions: the start
 * link sets it (binding the flow to this browser) and the callback refuses to connect without it. So only
 * the `inlay_oauth_*` cookies pass, both ways: the host's own cookies never go upstream, and the service
 * can set no other cookie on the host's origin. Its path is the public URL's `/oauth`, which the service
 * computes, so it lands below the host's mount.
 */
export function oauthRelay(upstream: Upstream, onError: (res: Response, err: unknown) => void) {
  return async (req: Request, res: Response) => {
    const q = req.url.indexOf('?');
    const connector = typeof req.params.connector === 'string' ? req.params.connector : undefined;
    const to =
      req.path === '/oauth/start'
        ? '/oauth/start'
        : `/oauth/callback${connector ? `/${encodeURIComponent(connector)}` : ''}`;
    const path = `${to}${q < 0 ? '' : req.url.slice(q)}`;
    const headers: Record<string, string> = { accept: req.get('accept') ?? 'text/html' };
    const flowCookies = (req.get('cookie') ?? '')
      .split(';')
      .map((p) => p.trim())
      .filter((p) => FLOW_COOKIE.test(nameOf(p)));
    if (flowCookies.length) headers.cookie = flowCookies.join('; ');
    headers['x-forwarded-for'] = req.ip ?? '';
    headers['x-forwarded-proto'] = req.protocol;
    try {
      relay(
        await upstream({
          method: 'GET',
          path,
          headers,
          keepCookie: (line) => FLOW_COOKIE.test(nameOf(line.split(';')[0] ?? '')),
        }),
        res,
      );
    } catch (err) {
      onError(res, err);
    }
  };
}

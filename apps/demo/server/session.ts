import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { DEMO_USERS } from './seed.ts';

const COOKIE = 'acme_session';

/** In-memory cookie sessions: the simplest thing a host app could have. A restart signs everyone out. */
export class Sessions {
  readonly #byId = new Map<string, string>();

  /** The signed-in username, or undefined. */
  user(req: Request): string | undefined {
    const sid = parseCookies(req.headers.cookie)[COOKIE];
    return sid ? this.#byId.get(sid) : undefined;
  }

  login(res: Response, username: string, password: string): boolean {
    const user = DEMO_USERS.find((u) => u.username === username);
    if (!user || !sameString(user.password, password)) return false;
    const sid = randomBytes(24).toString('base64url');
    this.#byId.set(sid, user.username);
    res.cookie(COOKIE, sid, { httpOnly: true, sameSite: 'lax', path: '/' });
    return true;
  }

  logout(req: Request, res: Response): void {
    const sid = parseCookies(req.headers.cookie)[COOKIE];
    if (sid) this.#byId.delete(sid);
    res.clearCookie(COOKIE, { path: '/' });
  }

  /** Express guard for the host's own API. */
  required = (req: Request, res: Response, next: NextFunction): void => {
    if (this.user(req)) next();
    else res.status(401).json({ message: 'Sign in first' });
  };
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

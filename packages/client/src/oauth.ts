import type { CredentialStatus, OAuthMessage } from '@inlay/contract';
import type { UserRoutes } from './user-api.ts';

export interface OAuthResult {
  credentialId: string;
  /** `connected`, `failed` or `expired`; `pending` only for `via: 'redirect'` (the page is leaving). */
  status: CredentialStatus;
  reason?: string;
  /** What reported the result first. */
  via: 'message' | 'broadcast' | 'poll' | 'redirect';
}

/** Why a popup flow ended without an answer from the service. */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly code: 'popup_closed' | 'timeout' | 'aborted',
    message: string,
  ) {
    super(message);
  }
}

/** What the redirect fallback leaves in `sessionStorage` for the page it comes back to. */
export interface PendingOAuth {
  credentialId: string;
  connector: string;
  /** The address to restore once back (the service appends its result to it). */
  returnUrl: string;
  /** Anything the caller wants back, e.g. the install modal's progress. */
  state?: unknown;
  startedAt: number;
}

export interface ConnectOAuthOptions {
  connector: string;
  /** Name of the new credential. */
  name?: string;
  /** Origin the callback page posts from. Default: the origin of the authorize URL's `redirect_uri`, else of `baseUrl`. */
  callbackOrigin?: string;
  /** Where the redirect fallback comes back to; the current address by default. */
  redirectUri?: string;
  /** Kept in `sessionStorage` across the redirect fallback; read it back with `takePendingOAuth()`. */
  state?: unknown;
  /** Poll `GET /credentials/{id}` this often (default 1500 ms). */
  pollIntervalMs?: number;
  /** Give up after this long (default 10 minutes, the lifetime of the OAuth `state`). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** `window.open` features of the popup. */
  popupFeatures?: string;
  /** The window to work in (tests). */
  window?: Window;
}

export const OAUTH_CHANNEL = 'inlay:oauth';
const PENDING_KEY = 'inlay:oauth:pending';

const isMessage = (d: unknown, id: string): d is OAuthMessage =>
  !!d &&
  (d as OAuthMessage).type === 'inlay:oauth' &&
  (d as OAuthMessage).credentialId === id &&
  (d as OAuthMessage).status !== 'pending';

function originOf(url: string | null | undefined, base?: string): string | undefined {
  try {
    return url ? new URL(url, base).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Connects an OAuth credential. Call it synchronously from a click handler: the popup opens before anything
 * is awaited (browsers block later ones), then gets its address once `POST /credentials/oauth` answers. The
 * first of postMessage (origin-checked), BroadcastChannel `inlay:oauth` or polling `GET /credentials/{id}`
 * settles the promise. When the popup is blocked it falls back to a full-page redirect.
 */
export function connectOAuth(
  client: { baseUrl: string; credentials: Pick<UserRoutes['credentials'], 'startOAuth' | 'get'> },
  opts: ConnectOAuthOptions,
): Promise<OAuthResult> {
  const w = opts.window ?? window;
  const popup = w.open('about:blank', 'inlay-oauth', opts.popupFeatures ?? 'popup,width=560,height=720');
  if (!popup) return redirectFlow(client, opts, w);
  try {
    popup.document.title = '…';
  } catch {}
  return client.credentials
    .startOAuth({ connector: opts.connector, name: opts.name, popup: true, origin: w.location.origin })
    .then(
      ({ credentialId, authorizeUrl }) => {
        popup.location.href = authorizeUrl;
        let redirect: string | null = null;
        try {
          redirect = new URL(authorizeUrl).searchParams.get('redirect_uri');
        } catch {}
        const origin =
          opts.callbackOrigin ??
          originOf(redirect) ??
          originOf(client.baseUrl, w.location.href) ??
          w.location.origin;
        return waitForResult(client, credentialId, origin, popup, opts, w);
      },
      (err: unknown) => {
        popup.close();
        throw err;
      },
    );
}

function waitForResult(
  client: { credentials: Pick<UserRoutes['credentials'], 'get'> },
  credentialId: string,
  origin: string,
  popup: Window,
  opts: ConnectOAuthOptions,
  w: Window,
): Promise<OAuthResult> {
  return new Promise<OAuthResult>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closedPolls = 0;
    let over = false;
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(OAUTH_CHANNEL) : undefined;
    const finish = (fn: () => void) => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      clearTimeout(deadline);
      w.removeEventListener('message', onMessage);
      opts.signal?.removeEventListener('abort', onAbort);
      channel?.close();
      try {
        if (!popup.closed) popup.close();
      } catch {}
      fn();
    };
    const settle = (d: Pick<OAuthMessage, 'status' | 'reason'>, via: OAuthResult['via']) =>
      finish(() =>
        resolve({ credentialId, status: d.status, ...(d.reason ? { reason: d.reason } : {}), via }),
      );
    const onMessage = (e: MessageEvent) => {
      if (e.origin === origin && isMessage(e.data, credentialId)) settle(e.data, 'message');
    };
    const onAbort = () => finish(() => reject(new OAuthError('aborted', 'The connection was cancelled')));
    const poll = async () => {
      let closed = false;
      try {
        closed = popup.closed;
      } catch {}
      try {
        const c = await client.credentials.get(credentialId);
        if (c.status !== 'pending')
          return settle({ status: c.status, reason: c.statusReason ?? undefined }, 'poll');
      } catch {}
      // A closed popup may still have finished a moment ago; give the service two more polls.
      if (closed && ++closedPolls > 2)
        return finish(() => reject(new OAuthError('popup_closed', 'The sign-in window was closed')));
      if (!over) timer = setTimeout(poll, closed ? 500 : (opts.pollIntervalMs ?? 1500));
    };
    const deadline = setTimeout(
      () => finish(() => reject(new OAuthError('timeout', 'The connection timed out'))),
      opts.timeoutMs ?? 600_000,
    );
    w.addEventListener('message', onMessage);
    if (channel) channel.onmessage = (e) => isMessage(e.data, credentialId) && settle(e.data, 'broadcast');
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort);
    timer = setTimeout(poll, opts.pollIntervalMs ?? 1500);
  });
}

async function redirectFlow(
  client: { credentials: Pick<UserRoutes['credentials'], 'startOAuth'> },
  opts: ConnectOAuthOptions,
  w: Window,
): Promise<OAuthResult> {
  const returnUrl = opts.redirectUri ?? w.location.href;
  const { credentialId, authorizeUrl } = await client.credentials.startOAuth({
    connector: opts.connector,
    name: opts.name,
    popup: false,
    redirectUri: returnUrl,
  });
  const pending: PendingOAuth = {
    credentialId,
    connector: opts.connector,
    returnUrl,
    state: opts.state,
    startedAt: Date.now(),
  };
  try {
    w.sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  } catch {}
  w.location.assign(authorizeUrl);
  return { credentialId, status: 'pending', via: 'redirect' };
}

/**
 * After the redirect fallback: the pending connection this tab started (within `maxAgeMs`), removed from
 * `sessionStorage`. Poll `GET /credentials/{id}` for its status.
 */
export function takePendingOAuth(w: Window = window, maxAgeMs = 600_000): PendingOAuth | undefined {
  try {
    const raw = w.sessionStorage.getItem(PENDING_KEY);
    if (!raw) return undefined;
    w.sessionStorage.removeItem(PENDING_KEY);
    const p = JSON.parse(raw) as PendingOAuth;
    return Date.now() - p.startedAt <= maxAgeMs ? p : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves once a credential is no longer `pending` (used after the redirect fallback). */
export async function waitForCredential(
  client: { credentials: Pick<UserRoutes['credentials'], 'get'> },
  credentialId: string,
  { intervalMs = 1000, timeoutMs = 30_000 } = {},
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const c = await client.credentials.get(credentialId);
    if (c.status !== 'pending' || Date.now() > end) return c;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

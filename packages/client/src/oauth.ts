import type { CredentialStatus, OAuthMessage } from '@inlay/contract';
import type { UserRoutes } from './user-api.ts';

export interface OAuthResult {
  credentialId: string;
  /** `connected`, `failed` or `expired`; `pending` only for `via: 'redirect'` (the page is leaving). */
  status: CredentialStatus;
  /** With `failed`: the provider's own words, for details. */
  reason?: string;
  /** With `failed` (from the popup): the provider's error code, such as `access_denied`. */
  code?: string;
  /** What reported the result first. */
  via: 'message' | 'broadcast' | 'poll' | 'redirect';
}

/** Why a popup flow ended without an answer from the service. */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly code: 'popup_closed' | 'popup_blocked' | 'timeout' | 'aborted',
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
  /**
   * Reconnect this credential in place (one that `needs_reconnect`): the same id gets the new tokens, so
   * every installation using it keeps working.
   */
  credentialId?: string;
  /**
   * Origin the callback page posts from. Default: the origin of Inlay's start link (`…/oauth/start`), else of
   * the authorize URL's `redirect_uri`, else of `baseUrl`.
   */
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
  /** Called once the popup is open, with a way to bring it back (focused, or opened again if it was closed). */
  onPopup?: (popup: OAuthPopup) => void;
  /**
   * Called when the browser blocks the popup, before anything else happens. Resolve `true` to continue with a
   * full-page redirect to the provider (the page comes back afterwards), `false` to give up (the promise
   * rejects with `popup_blocked`). Without it, the redirect starts at once.
   */
  onPopupBlocked?: () => boolean | Promise<boolean>;
  /** The window to work in (tests). */
  window?: Window;
}

/** The sign-in window of a connection in progress. */
export interface OAuthPopup {
  /** Focuses the window, or opens it again on the provider's page if the user closed it. Call it from a click. */
  reopen(): void;
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
  const features = opts.popupFeatures ?? 'popup,width=560,height=720';
  const popup = w.open('about:blank', 'inlay-oauth', features);
  if (!popup)
    return Promise.resolve(opts.onPopupBlocked ? opts.onPopupBlocked() : true).then((go) => {
      if (!go) throw new OAuthError('popup_blocked', 'The sign-in window was blocked');
      return redirectFlow(client, opts, w);
    });
  try {
    popup.document.title = '…';
  } catch {}
  const start = (updatedAt?: string) =>
    client.credentials
      .startOAuth({
        connector: opts.connector,
        name: opts.name,
        popup: true,
        origin: w.location.origin,
        ...(opts.credentialId ? { credentialId: opts.credentialId } : {}),
      })
      .then((started) => ({ ...started, updatedAt }));
  // A reconnected credential is not `pending` while the consent runs: its result is a newer `updatedAt`.
  const started = opts.credentialId
    ? client.credentials.get(opts.credentialId).then(
        (c) => start(c.updatedAt),
        () => start(),
      )
    : start();
  return started.then(
    ({ credentialId, authorizeUrl, updatedAt }) => {
      popup.location.href = authorizeUrl;
      let redirect: string | null = null;
      let start: string | undefined;
      try {
        const url = new URL(authorizeUrl);
        redirect = url.searchParams.get('redirect_uri');
        // Inlay's start link (which binds the flow to this browser) lives where its callback page does.
        if (url.pathname.endsWith('/oauth/start')) start = url.origin;
      } catch {}
      const origin =
        opts.callbackOrigin ??
        start ??
        originOf(redirect) ??
        originOf(client.baseUrl, w.location.href) ??
        w.location.origin;
      const state = { popup };
      opts.onPopup?.({
        reopen() {
          let closed = true;
          try {
            closed = state.popup.closed;
          } catch {}
          if (!closed) return state.popup.focus();
          state.popup = w.open(authorizeUrl, 'inlay-oauth', features) ?? state.popup;
        },
      });
      return waitForResult(client, credentialId, origin, state, opts, w, updatedAt);
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
  /** The current popup: `reopen()` may replace it. */
  state: { popup: Window },
  opts: ConnectOAuthOptions,
  w: Window,
  /** For a reconnect: the credential's `updatedAt` before the consent started. */
  updatedBefore?: string,
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
        if (!state.popup.closed) state.popup.close();
      } catch {}
      fn();
    };
    const settle = (d: Pick<OAuthMessage, 'status' | 'reason' | 'code'>, via: OAuthResult['via']) =>
      finish(() =>
        resolve({
          credentialId,
          status: d.status,
          ...(d.reason ? { reason: d.reason } : {}),
          ...(d.code ? { code: d.code } : {}),
          via,
        }),
      );
    const onMessage = (e: MessageEvent) => {
      if (e.origin === origin && isMessage(e.data, credentialId)) settle(e.data, 'message');
    };
    const onAbort = () => finish(() => reject(new OAuthError('aborted', 'The connection was cancelled')));
    const poll = async () => {
      let closed = false;
      try {
        closed = state.popup.closed;
      } catch {}
      if (!closed) closedPolls = 0; // reopened
      try {
        const c = await client.credentials.get(credentialId);
        const done = opts.credentialId ? c.updatedAt !== updatedBefore : c.status !== 'pending';
        if (done) return settle({ status: c.status, reason: c.statusReason ?? undefined }, 'poll');
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
    ...(opts.credentialId ? { credentialId: opts.credentialId } : {}),
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

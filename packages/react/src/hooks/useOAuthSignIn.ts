import type { OAuthPopup, OAuthResult } from '@inlay/client';
import { useEffect, useRef, useState } from 'react';
import { type ConnectOAuthOptions, useConnect } from './useConnect.ts';

/** The sign-in in progress: its popup (Reopen) while it is open, or the question a blocked popup asks. */
export interface OAuthSignInState {
  /** The credential being reconnected, or the connector being connected: where the notice belongs. */
  target: string;
  popup: OAuthPopup | null;
  /** Answers the blocked-popup notice: `true` leaves for the provider in this tab, `false` stays. */
  blocked: ((go: boolean) => void) | null;
}

/**
 * OAuth with the user told what is happening: while the popup is open, `state.popup` offers Reopen and
 * `cancel()` abandons the attempt; when the browser blocks the popup, the page does not leave for the provider
 * until the user answers `state.blocked`. Render `<OAuthNotice>` with the result. Call `start()` synchronously
 * from a click handler: the popup opens inside it.
 */
export function useOAuthSignIn() {
  const connect = useConnect();
  const [state, setState] = useState<OAuthSignInState | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = (connector: string, opts: Omit<ConnectOAuthOptions, 'signal'> = {}): Promise<OAuthResult> => {
    const ac = new AbortController();
    abort.current = ac;
    const target = opts.credentialId ?? connector;
    const set = (patch: Partial<OAuthSignInState>) =>
      setState((s) => ({ target, popup: null, blocked: null, ...s, ...patch }));
    return connect
      .oauth(connector, {
        ...opts,
        signal: ac.signal,
        onPopup: (popup) => set({ popup }),
        // Asked before the page leaves for the provider: the answer comes from the notice's buttons.
        onPopupBlocked: () => new Promise<boolean>((go) => set({ blocked: go })),
      })
      .finally(() => setState(null));
  };

  return {
    start,
    state,
    pending: connect.pending,
    cancel: () => abort.current?.abort(),
    answer: (go: boolean) => {
      state?.blocked?.(go);
      setState((s) => s && { ...s, blocked: null });
    },
  };
}

export type OAuthSignIn = ReturnType<typeof useOAuthSignIn>;

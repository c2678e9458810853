import {
  type ConnectOAuthOptions as ClientOAuthOptions,
  type Credential,
  connectOAuth,
  inlayKeys,
  type OAuthResult,
} from '@inlay/client';
import { useCallback, useState } from 'react';
import { useInlay } from './useInlay.ts';

export interface ConnectOAuthOptions extends Pick<ClientOAuthOptions, 'onPopup' | 'onPopupBlocked'> {
  name?: string;
  /** Reconnect this credential in place (same id: the installations using it keep working). */
  credentialId?: string;
  /** Kept across the redirect fallback (the install modal stores its progress here). */
  state?: unknown;
  signal?: AbortSignal;
}

/**
 * Connects an app. `oauth()` must be called synchronously from a click handler: it opens the popup before
 * awaiting anything, and falls back to a full-page redirect when the popup is blocked. `apiKey()` stores an
 * API-key or basic credential, which the service checks with the provider first (with a `credentialId`, it replaces
 * that credential's secrets in place).
 */
export function useConnect() {
  const { client, queryClient, emit, oauth: settings } = useInlay();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const done = useCallback(
    (connector: string, credentialId: string, method: 'oauth' | 'apiKey') => {
      emit({ type: 'connected', connector, credentialId, method });
      return queryClient.invalidateQueries({ queryKey: inlayKeys.credentials(client.baseUrl) });
    },
    [client, queryClient, emit],
  );
  const fail = useCallback(
    (action: string, e: unknown) => {
      setError(e);
      emit({ type: 'error', action, error: e });
      throw e;
    },
    [emit],
  );

  const oauth = useCallback(
    (connector: string, opts: ConnectOAuthOptions = {}): Promise<OAuthResult> => {
      setError(null);
      setPending(connector);
      return connectOAuth(client, { connector, ...settings, ...opts })
        .then(
          async (r) => {
            if (r.status === 'connected') await done(connector, r.credentialId, 'oauth');
            else if (r.via !== 'redirect') setError(r);
            return r;
          },
          (e) => fail('connect', e),
        )
        .finally(() => setPending(null));
    },
    [client, settings, done, fail],
  );

  const apiKey = useCallback(
    (
      connector: string,
      data: Record<string, string>,
      name?: string,
      credentialId?: string,
    ): Promise<Credential> => {
      setError(null);
      setPending(connector);
      // With `credentialId`: new secrets for that credential, in place (`PUT`), once the provider accepts them.
      return (
        credentialId
          ? client.credentials.replace(credentialId, { data })
          : client.credentials.create({ connector, data, ...(name ? { name } : {}) })
      )
        .then(
          async (c) => {
            await done(connector, c.credentialId, 'apiKey');
            return c;
          },
          (e) => fail('connect', e),
        )
        .finally(() => setPending(null));
    },
    [client, done, fail],
  );

  return { oauth, apiKey, pending, error, reset: () => setError(null) };
}

import { type Connector, OAuthError } from '@inlay/client';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useCredentials } from '../hooks/useCredentials.ts';
import { useInlay } from '../hooks/useInlay.ts';
import { useOAuthSignIn } from '../hooks/useOAuthSignIn.ts';
import { cx } from '../utils.ts';
import { KeyForm } from './KeyForm.tsx';
import { OAuthNotice } from './OAuthNotice.tsx';
import { ErrorMessage, ErrorState, Icon, oauthFailure } from './States.tsx';

export interface ConnectorPickerProps {
  connector: Connector;
  value: string | undefined;
  onChange: (credentialId: string | undefined) => void;
  /** Progress to keep across the OAuth redirect fallback. */
  resumeState: () => unknown;
  error?: string;
  /** True while an OAuth sign-in of this connector is under way (the install modal holds Next meanwhile). */
  onBusy?: (busy: boolean) => void;
}

const NEW = '__new__';

/** Focuses `selector` in the box next frame, unless the focus is already somewhere that still exists. */
function refocus(box: RefObject<HTMLElement | null>, selector: string) {
  requestAnimationFrame(() => {
    const a = document.activeElement;
    if (a && a !== document.body && a.isConnected) return;
    box.current?.querySelector<HTMLElement>(selector)?.focus();
  });
}

/**
 * Step one for one connector: pick one of the user's connected credentials or add one, by OAuth (popup
 * opened synchronously in the click handler) or an API-key form that shows the provider's refusal inline.
 */
export function ConnectorPicker({
  connector,
  value,
  onChange,
  resumeState,
  error,
  onBusy,
}: ConnectorPickerProps) {
  const { t } = useInlay();
  const id = useId();
  const creds = useCredentials(connector.id);
  const signIn = useOAuthSignIn();
  // The broken API-key credential whose new secrets are being entered (reconnected in place).
  const [replacing, setReplacing] = useState<string | null>(null);
  // Why connecting failed (a reason, a sentence or the error), framed by `connectFailed`.
  const [formError, setFormError] = useState<unknown>(null);
  const usable = (creds.data ?? []).filter((c) => c.status === 'connected');
  // Accounts the provider refuses: shown with their status and a Reconnect action, never picked.
  const broken = (creds.data ?? []).filter((c) => c.status === 'needs_reconnect');
  const [choice, setChoice] = useState<string | undefined>(value);
  const picked = choice ?? value ?? (usable.length ? undefined : NEW);
  // A second install preselects the user's connected account (the most recent one).
  const preselect =
    !choice && !value && usable.length > 0 ? usable[usable.length - 1]!.credentialId : undefined;
  useEffect(() => {
    if (preselect) {
      setChoice(preselect);
      onChange(preselect);
    }
  }, [preselect, onChange]);
  const busy = signIn.pending === connector.id;
  const busyRef = useRef(onBusy);
  busyRef.current = onBusy;
  useEffect(() => busyRef.current?.(busy), [busy]);
  // The sign-in window in progress (Reopen, Cancel), or the blocked popup's question.
  const notice = signIn.state && (signIn.state.popup || signIn.state.blocked);
  // Focus follows the control that replaced the one used: the notice's first button, then the account picked.
  const box = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    if (notice) refocus(box, '.inlay-wait button');
  }, [notice]);

  const select = (v: string) => {
    setChoice(v);
    onChange(v === NEW ? undefined : v);
  };
  const connected = (credentialId: string) => {
    setChoice(credentialId);
    onChange(credentialId);
    setReplacing(null);
  };

  // Synchronous up to `connect.oauth()`: the popup opens inside this click.
  const startOAuth = (credentialId?: string) => {
    setFormError(null);
    signIn
      .start(connector.id, { state: resumeState(), ...(credentialId ? { credentialId } : {}) })
      .then(
        (r) => {
          if (r.status === 'connected') connected(r.credentialId);
          else if (r.via !== 'redirect') setFormError(oauthFailure(t, connector.name, r));
        },
        (e: unknown) => {
          // Cancel (here or in the blocked notice) is the user's choice, not an error.
          if (e instanceof OAuthError && (e.code === 'aborted' || e.code === 'popup_blocked')) return;
          setFormError(e instanceof OAuthError && e.code === 'popup_closed' ? t('popupClosed') : e);
        },
      )
      .finally(() => refocus(box, 'input:checked, button:not(:disabled), input'));
  };

  return (
    <fieldset
      ref={box}
      className={cx('inlay-connector', error && 'inlay-invalid')}
      aria-describedby={error ? `${id}-e` : undefined}
    >
      <legend className="inlay-label">
        <Icon src={connector.icon} size={20} /> {t('account', { app: connector.name })}
      </legend>
      {creds.isError && <ErrorState error={creds.error} onRetry={() => creds.refetch()} />}
      {usable.length > 0 && (
        <div className="inlay-radios">
          {usable.map((c) => (
            <label key={c.credentialId} className="inlay-option">
              <input
                type="radio"
                name={`${id}-cred`}
                value={c.credentialId}
                aria-invalid={error ? true : undefined}
                checked={picked === c.credentialId}
                onChange={() => select(c.credentialId)}
              />
              {c.name}
              {c.accountLabel && <span className="inlay-muted"> · {c.accountLabel}</span>}
            </label>
          ))}
          <label className="inlay-option">
            <input
              type="radio"
              name={`${id}-cred`}
              value={NEW}
              aria-invalid={error ? true : undefined}
              checked={picked === NEW}
              onChange={() => select(NEW)}
            />
            {t('newAccount')}
          </label>
        </div>
      )}
      {broken.map((c) => (
        <div key={c.credentialId} className="inlay-option">
          <span>
            {c.name}
            {c.accountLabel && <span className="inlay-muted"> · {c.accountLabel}</span>}
            {' — '}
            <span className="inlay-field-error">{t('needsReconnect')}</span>
          </span>{' '}
          <button
            type="button"
            className="inlay-button"
            disabled={busy}
            aria-expanded={connector.authType === 'oauth2' ? undefined : replacing === c.credentialId}
            onClick={() =>
              connector.authType === 'oauth2' ? startOAuth(c.credentialId) : setReplacing(c.credentialId)
            }
          >
            {t('reconnectApp', { app: connector.name })}
          </button>
          {replacing === c.credentialId && (
            <KeyForm
              connector={connector}
              credentialId={c.credentialId}
              onDone={() => connected(c.credentialId)}
            />
          )}
        </div>
      ))}
      {signIn.state && <OAuthNotice signIn={signIn} target={signIn.state.target} app={connector.name} />}
      {picked === NEW &&
        !notice &&
        (connector.authType === 'oauth2' ? (
          <button
            type="button"
            className="inlay-button inlay-button-primary"
            disabled={busy}
            onClick={() => startOAuth()}
          >
            {busy ? t('connecting') : t('connectWith', { app: connector.name })}
          </button>
        ) : (
          <KeyForm connector={connector} onDone={(c) => connected(c.credentialId)} />
        ))}
      {formError != null && (
        <ErrorMessage error={formError} wrap={(reason) => t('connectFailed', { reason })} />
      )}
      {error && (
        <p id={`${id}-e`} className="inlay-field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

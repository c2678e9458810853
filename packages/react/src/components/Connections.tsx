import { type Credential, OAuthError } from '@inlay/client';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useConnections } from '../hooks/useConnections.ts';
import { useConnectors } from '../hooks/useConnectors.ts';
import { useInlay } from '../hooks/useInlay.ts';
import { useOAuthSignIn } from '../hooks/useOAuthSignIn.ts';
import { cx } from '../utils.ts';
import { Dialog } from './Dialog.tsx';
import { KeyForm, usePreload } from './deferred.tsx';
import { OAuthNotice } from './OAuthNotice.tsx';
import { Root } from './Root.tsx';
import { ErrorMessage, ErrorState, Icon, oauthFailure, Skeleton } from './States.tsx';

// Keyboard users keep their place: a form that replaces a card's actions takes the focus, and the actions
// take it back when the form closes (`back` names that card).
const focusIn = (el: HTMLElement | null) => el?.querySelector<HTMLElement>('input, button')?.focus();

export interface ConnectionsProps {
  className?: string;
}

/**
 * The user's connected accounts: each with its label, status and the workflows that use it, and Reconnect
 * (in place: OAuth's popup, or the API-key form sent with `PUT`), Rename and Disconnect (after a confirmation naming what stops working).
 */
export function Connections({ className }: ConnectionsProps) {
  const { t } = useInlay();
  const id = useId();
  const c = useConnections();
  const connectors = useConnectors();
  // The credential being renamed, or `key:<id>` for the one whose new API key is being entered.
  const [renaming, setRenamingTo] = useState<string | null>(null);
  const back = useRef<string | null>(null);
  const setRenaming = (next: string | null) => {
    back.current = renaming?.replace('key:', '') ?? null;
    setRenamingTo(next);
  };
  const [label, setLabel] = useState('');
  const [confirm, setConfirm] = useState<Credential | null>(null);
  // The last failure and the account it belongs to: shown in that card (or the open confirmation), never above the list.
  const [failed, setFailed] = useState<[string, unknown] | null>(null);
  const fail = (cred: Credential) => (e: unknown) => setFailed([cred.credentialId, e]);
  const app = (cred: Credential) => connectors.data?.find((d) => d.id === cred.connector);
  const signIn = useOAuthSignIn();
  usePreload(KeyForm);
  // OAuth in place (same id), with the popup's notice under the card; Cancel is not an error.
  const reconnect = (cred: Credential) =>
    signIn
      .start(cred.connector, { credentialId: cred.credentialId })
      .then((r) => {
        if (r.status !== 'connected' && r.via !== 'redirect')
          fail(cred)(oauthFailure(t, app(cred)?.name ?? cred.name, r));
      })
      .catch((e: unknown) => {
        if (!(e instanceof OAuthError && (e.code === 'aborted' || e.code === 'popup_blocked'))) fail(cred)(e);
      })
      .finally(c.refresh);

  // The workflows the account being disconnected runs, named in the confirmation.
  const confirmWorkflows =
    c.data?.find((x) => x.credential.credentialId === confirm?.credentialId)?.workflows.map((w) => w.name) ??
    [];

  const saveName = (e: FormEvent, cred: Credential) => {
    e.preventDefault();
    setFailed(null);
    c.rename(cred.credentialId, label).then(() => setRenaming(null), fail(cred));
  };

  return (
    <Root className={cx('inlay-connections', className)}>
      <h2 className="inlay-group-title">{t('connections')}</h2>
      {c.error && <ErrorState error={c.error} />}
      {!c.data && !c.error && <Skeleton />}
      {c.data?.length === 0 && <p className="inlay-muted">{t('noConnections')}</p>}
      <ul className="inlay-cards">
        {c.data?.map(({ credential: cred, workflows }) => (
          <li key={cred.credentialId} className="inlay-card">
            <div className="inlay-card-head">
              {app(cred) && <Icon src={app(cred)!.icon} />}
              <h3 className="inlay-card-title">
                {cred.name}
                {cred.accountLabel && <span className="inlay-muted"> · {cred.accountLabel}</span>}
              </h3>
              <span
                className={cx(
                  'inlay-badge',
                  cred.status === 'connected' ? 'inlay-badge-active' : 'inlay-badge-paused',
                )}
              >
                {t(cred.status === 'connected' ? 'connectedStatus' : 'needsReconnect')}
              </span>
            </div>
            <p className="inlay-muted">
              {workflows.length
                ? t('usedBy', { workflows: workflows.map((w) => w.name).join(', ') })
                : t('usedByNone')}
            </p>
            {renaming === `key:${cred.credentialId}` ? (
              <div ref={focusIn}>
                <KeyForm
                  connector={app(cred)!}
                  credentialId={cred.credentialId}
                  onDone={() => {
                    setRenaming(null);
                    c.refresh();
                  }}
                />
              </div>
            ) : renaming === cred.credentialId ? (
              <form className="inlay-actions" ref={focusIn} onSubmit={(e) => saveName(e, cred)}>
                <label className="inlay-sr-only" htmlFor={`${id}-${cred.credentialId}`}>
                  {t('rename')}
                </label>
                <input
                  id={`${id}-${cred.credentialId}`}
                  className="inlay-input"
                  required
                  value={label}
                  onChange={(e) => setLabel(e.target.value)}
                />
                <button type="submit" className="inlay-button inlay-button-primary">
                  {t('save')}
                </button>
                <button type="button" className="inlay-button" onClick={() => setRenaming(null)}>
                  {t('cancel')}
                </button>
              </form>
            ) : (
              <div
                className="inlay-actions"
                ref={(el) => {
                  if (el && back.current === cred.credentialId) {
                    back.current = null;
                    focusIn(el);
                  }
                }}
              >
                {cred.status !== 'connected' && app(cred) && (
                  <button
                    type="button"
                    className="inlay-button inlay-button-primary"
                    disabled={c.pending !== null || signIn.pending !== null}
                    // OAuth: the popup, in place. An API key: its form, sent with `PUT` (same id).
                    onClick={() =>
                      app(cred)!.authType === 'oauth2'
                        ? reconnect(cred)
                        : setRenaming(`key:${cred.credentialId}`)
                    }
                  >
                    {t('reconnectApp', { app: app(cred)!.name })}
                  </button>
                )}
                <button
                  type="button"
                  className="inlay-button"
                  aria-label={`${t('rename')}: ${cred.name}`}
                  onClick={() => {
                    setLabel(cred.name);
                    setRenaming(cred.credentialId);
                  }}
                >
                  {t('rename')}
                </button>
                <button
                  type="button"
                  className="inlay-button inlay-button-danger"
                  aria-label={`${t('disconnect')}: ${cred.name}`}
                  onClick={() => {
                    setFailed(null);
                    setConfirm(cred);
                  }}
                >
                  {t('disconnect')}
                </button>
              </div>
            )}
            {app(cred) && <OAuthNotice signIn={signIn} target={cred.credentialId} app={app(cred)!.name} />}
            {failed?.[0] === cred.credentialId && !confirm && <ErrorMessage error={failed[1]} />}
          </li>
        ))}
      </ul>
      <Dialog
        open={!!confirm}
        role="alertdialog"
        onClose={() => setConfirm(null)}
        labelledBy={`${id}-ct`}
        describedBy={`${id}-cd`}
        className="inlay-dialog-small"
      >
        {confirm && (
          <>
            <h2 id={`${id}-ct`} className="inlay-dialog-title">
              {t('disconnectTitle', { name: confirm.name })}
            </h2>
            <p id={`${id}-cd`}>
              {confirmWorkflows.length
                ? t('disconnectUsedBy', { workflows: confirmWorkflows.join(', ') })
                : t('disconnectBody')}
            </p>
            {failed?.[0] === confirm.credentialId && <ErrorMessage error={failed[1]} />}
            <div className="inlay-dialog-footer">
              <button type="button" className="inlay-button" data-autofocus onClick={() => setConfirm(null)}>
                {t('cancel')}
              </button>
              <button
                type="button"
                className="inlay-button inlay-button-danger"
                onClick={() => c.disconnect(confirm.credentialId).then(() => setConfirm(null), fail(confirm))}
              >
                {t('disconnect')}
              </button>
            </div>
          </>
        )}
      </Dialog>
    </Root>
  );
}

import { useId } from 'react';
import { useInlay } from '../hooks/useInlay.ts';
import type { OAuthSignIn } from '../hooks/useOAuthSignIn.ts';

export interface OAuthNoticeProps {
  signIn: OAuthSignIn;
  /** Shown only for this credential or connector (`useOAuthSignIn`'s target). */
  target: string;
  /** The app's name, as the sentences say it. */
  app: string;
}

/**
 * What an OAuth sign-in in progress needs from the user: "finish in the window that opened" with Reopen and
 * Cancel, or, when the browser blocked the popup, a notice to answer before the page leaves for the provider.
 */
export function OAuthNotice({ signIn, target, app }: OAuthNoticeProps) {
  const { t } = useInlay();
  const id = useId();
  const s = signIn.state;
  if (!s || s.target !== target || (!s.blocked && !s.popup)) return null;
  const [text, go, stop] = s.blocked
    ? [t('popupBlocked', { app }), () => signIn.answer(true), () => signIn.answer(false)]
    : [t('oauthWaiting', { app }), () => s.popup?.reopen(), signIn.cancel];
  return (
    <div className="inlay-wait">
      <p id={id} role={s.blocked ? 'alert' : 'status'}>
        {text}
      </p>
      <button
        type="button"
        className={s.blocked ? 'inlay-button inlay-button-primary' : 'inlay-button'}
        aria-describedby={id}
        onClick={go}
      >
        {t(s.blocked ? 'continue' : 'reopen')}
      </button>
      <button type="button" className="inlay-button" onClick={stop}>
        {t('cancel')}
      </button>
    </div>
  );
}

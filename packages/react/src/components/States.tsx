import { isInlayError } from '@inlay/client';
import type { InlayContextValue } from '../context.ts';
import { useInlay } from '../hooks/useInlay.ts';
import type { MessageKey } from '../i18n/locales/en.ts';

export interface DescribedError {
  /** A sentence for the user, in their language where the failure is ours to name. */
  text: string;
  /** Code, status, request id and the raw message: shown collapsed, for support. */
  technical: string;
  /** Whether trying again can help (not after an expired session). */
  retry: boolean;
}

const SENTENCE = Symbol('inlay.sentence');

/**
 * An error already put in words: `text` is the translated sentence, `technical` the provider's code and own
 * words (shown collapsed). What an OAuth sign-in that ended without an account shows.
 */
export function sentenceError(text: string, technical = ''): DescribedError {
  return Object.assign({ text, technical, retry: true }, { [SENTENCE]: true });
}

/** Whether `err` came from `sentenceError` (a full sentence: never framed by another). */
export const isSentence = (err: unknown): err is DescribedError =>
  !!err && typeof err === 'object' && SENTENCE in err;

/**
 * How an OAuth sign-in that connected nothing reads: a sentence for a denied consent or for any other end,
 * with the provider's code and words in the details.
 */
export function oauthFailure(
  t: InlayContextValue['t'],
  app: string,
  result: { code?: string; reason?: string },
): DescribedError {
  const text = t(result.code === 'access_denied' ? 'oauthDenied' : 'oauthFailed', { app });
  return sentenceError(text, [result.code, result.reason].filter(Boolean).join('\n'));
}

/** The translated sentence of a stable error code (`code.<code>` in the catalog), if it has one. */
export function codeText(t: InlayContextValue['t'], code: string | undefined): string | undefined {
  const key = `code.${code}` as MessageKey;
  const text = code ? t(key) : key;
  return text === key ? undefined : text;
}

/**
 * A failed call in human terms: the translated sentence of its stable code (`code.not_found`, …;
 * `code.network_error` when the service could not be reached), else `code.internal` for a 5xx and
 * `code.invalid_request` for any other (and for what is not an `InlayError`). The code, status, request id and the raw message (the service's
 * detail, the provider's words, the URL) go to `technical`, shown collapsed. A string is a sentence already.
 */
export function describeError(err: unknown, t: InlayContextValue['t']): DescribedError {
  if (typeof err === 'string') return { text: err, technical: '', retry: true };
  if (isSentence(err)) return err;
  // Anything else (a bug, a throw of the host's) gets the fallback sentence and its message.
  const e = isInlayError(err) ? err : null;
  const technical = e
    ? [e.code, e.status ? `HTTP ${e.status}` : '', e.instance, e.requestId].filter(Boolean).join(' · ') +
      `\n${e.message}`
    : String(err);
  const text = codeText(t, e?.code) ?? t(e && e.status >= 500 ? 'code.internal' : 'code.invalid_request');
  return { text, technical, retry: e?.status !== 401 };
}

/** The human sentence, with the technical detail in a collapsed `<details>`; `wrap` frames the sentence. */
function Described({ d, wrap = (s) => s }: { d: DescribedError; wrap?: (text: string) => string }) {
  const { t, signIn } = useInlay();
  return (
    <div className="inlay-error-text">
      <p>{wrap(d.text)}</p>
      {!d.retry && (
        <button type="button" className="inlay-button inlay-button-primary" onClick={signIn}>
          {t('signInAgain')}
        </button>
      )}
      {d.technical && (
        <details className="inlay-error-details">
          <summary>{t('technicalDetails')}</summary>
          <code>{d.technical}</code>
        </details>
      )}
    </div>
  );
}

/** An alert with the reason and, when it can help, a retry button. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useInlay();
  const d = describeError(error, t);
  return (
    <div className="inlay-error" role="alert">
      <Described d={d} />
      {onRetry && d.retry && (
        <button type="button" className="inlay-button" onClick={onRetry}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}

/**
 * An inline alert next to the control that failed: an error (see `describeError`) or a sentence; `wrap`
 * frames the sentence ("Could not load the choices: …").
 */
export function ErrorMessage({
  error,
  id,
  wrap,
}: {
  error: unknown;
  id?: string;
  wrap?: (text: string) => string;
}) {
  const { t } = useInlay();
  return (
    <div id={id} className="inlay-field-error" role="alert">
      <Described d={describeError(error, t)} wrap={isSentence(error) ? undefined : wrap} />
    </div>
  );
}

const ROWS = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Placeholder rows while a list loads; announced once as busy. */
export function Skeleton({ rows = 3 }: { rows?: number }) {
  const { t } = useInlay();
  return (
    <div className="inlay-skeleton" aria-busy="true">
      <span className="inlay-sr-only" role="status">
        {t('loading')}
      </span>
      {ROWS.slice(0, rows).map((k) => (
        <div key={k} className="inlay-skeleton-row" aria-hidden="true" />
      ))}
    </div>
  );
}

/**
 * A connector icon; decorative, the name is always written next to it. The service names it under its own
 * origin; it loads from `baseUrl` instead (the host's `@inlay/express` path, which the browser can reach),
 * query (a custom connector's `?key=`) included.
 */
export function Icon({ src, size = 24 }: { src: string; size?: number }) {
  const base = useInlay().client.baseUrl.replace(/\/+$/, '');
  const i = src.lastIndexOf('/connectors/');
  const url = i < 0 ? src : base + src.slice(i);
  return <img className="inlay-icon" src={url} alt="" width={size} height={size} loading="lazy" />;
}

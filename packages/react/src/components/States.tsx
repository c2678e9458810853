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

/** The translated sentence of a stable error code (`code.<code>` in the catalog), if it has one. */
export function codeText(t: InlayContextValue['t'], code: string | undefined): string | undefined {
  const key = `code.${code}` as MessageKey;
  const text = code ? t(key) : key;
  return text === key ? undefined : text;
}

/**
 * A failed call in human terms: an unreachable service, a 5xx or an expired session gets its own translated
 * sentence, and the rest the service's own `detail` (it names the field or the rule). The URL, status and
 * raw message go to `technical`, shown collapsed.
 */
export function describeError(err: unknown, t: InlayContextValue['t']): DescribedError {
  if (!isInlayError(err)) {
    const msg = err instanceof Error ? err.message : String(err);
    return { text: t('errorUnknown'), technical: msg, retry: true };
  }
  const technical = [
    [err.code, err.status ? `HTTP ${err.status}` : '', err.requestId ?? ''].filter(Boolean).join(' · '),
    err.message,
  ].join('\n');
  if (err.status === 0) return { text: t('errorNetwork'), technical, retry: true };
  if (err.status === 401) return { text: t('errorSession'), technical, retry: false };
  if (err.status >= 500 || err.status === 429) return { text: t('errorServer'), technical, retry: true };
  return { text: err.detail, technical, retry: true };
}

/** `(err) => describeError(err, t).text`, for messages kept as strings. */
export function useErrorText() {
  const { t } = useInlay();
  return (err: unknown) => describeError(err, t).text;
}

/** The human sentence, with the technical detail in a collapsed `<details>`. */
function Described({ d }: { d: DescribedError }) {
  const { t, signIn } = useInlay();
  return (
    <div className="inlay-error-text">
      <p>{d.text}</p>
      {!d.retry && (
        <button type="button" className="inlay-button inlay-button-primary" onClick={signIn}>
          {t('signInAgain')}
        </button>
      )}
      <details className="inlay-error-details">
        <summary>{t('technicalDetails')}</summary>
        <code>{d.technical}</code>
      </details>
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

/** An inline alert next to the control that failed. */
export function ErrorMessage({ error, className }: { error: unknown; className?: string }) {
  const { t } = useInlay();
  return (
    <div className={className ?? 'inlay-field-error'} role="alert">
      <Described d={describeError(error, t)} />
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

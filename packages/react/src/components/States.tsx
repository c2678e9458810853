import { isInlayError } from '@inlay/client';
import { useInlay } from '../hooks/useInlay.ts';

/** The message to show for a failed call: the service's `detail`, else the error's message. */
export const errorText = (err: unknown): string =>
  isInlayError(err) ? err.detail : err instanceof Error ? err.message : String(err);

/** An alert with the reason and a retry button. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useInlay();
  return (
    <div className="inlay-error" role="alert">
      <p>{t('loadFailed', { error: errorText(error) })}</p>
      {onRetry && (
        <button type="button" className="inlay-button" onClick={onRetry}>
          {t('retry')}
        </button>
      )}
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

/** A connector icon; decorative, the name is always written next to it. */
export const Icon = ({ src, size = 24 }: { src: string; size?: number }) => (
  <img className="inlay-icon" src={src} alt="" width={size} height={size} loading="lazy" />
);

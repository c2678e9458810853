import { isInlayError } from '@inlay/client';

export function ErrorText({ error }: { error: unknown }) {
  const text = isInlayError(error) ? error.detail : error instanceof Error ? error.message : String(error);
  return (
    <p role="alert" className="error">
      {text}
    </p>
  );
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});
export const formatTime = (iso: string) => `${dateTime.format(new Date(iso))} UTC`;

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}

export function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <section aria-label={label}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus (axe scrollable-region-focusable) */}
      <pre className="json" tabIndex={0}>
        {JSON.stringify(value, null, 2)}
      </pre>
    </section>
  );
}

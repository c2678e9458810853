import { isInlayError } from '@inlay/client';
import { createFormatters } from '@inlay/react';

export function ErrorText({ error }: { error: unknown }) {
  const text = isInlayError(error) ? error.detail : error instanceof Error ? error.message : String(error);
  return (
    <p role="alert" className="error">
      {text}
    </p>
  );
}

/** A field's path as a reader of the form writes it: `body.definition.steps[0].id` under `body.definition.` is `steps[0].id`. */
const fieldPath = (field: string, under: string) =>
  field.startsWith(under) ? field.slice(under.length) : field.replace(/^(body|query|path)\./, '');

/**
 * A refusal that names fields (a 400 or 422 with `errors`) as one line per field, "steps[0].connector: no
 * connector "nope"", with paths read from `under`; any other error as `ErrorText`.
 */
export function FieldProblems({ error, under = 'body.' }: { error: unknown; under?: string }) {
  if (!isInlayError(error) || error.errors.length === 0) return <ErrorText error={error} />;
  const lines = [...new Set(error.errors.map((e) => `${fieldPath(e.field, under)}: ${e.message}`))];
  return (
    <div role="alert" className="error card">
      <p>
        <strong>
          {lines.length === 1
            ? 'The service refused it: correct this field, then try again.'
            : `The service refused it: correct these ${lines.length} fields, then try again.`}
        </strong>
      </p>
      <ul className="field-problems">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/** The console's locale and time zone, for its own dates and the widget it embeds alike. */
export const CONSOLE_LOCALE = 'en-GB';
export const CONSOLE_TIME_ZONE = 'UTC';
const formatters = createFormatters(CONSOLE_LOCALE, { timeZone: CONSOLE_TIME_ZONE });
/** A date and time as every page of the console shows it, the widget's included: "2 Dec 2026, 00:00:27 UTC". */
export const formatTime = (iso: string) => formatters.date(iso);

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

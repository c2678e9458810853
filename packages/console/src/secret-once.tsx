import type { ReactNode } from 'react';
import { CopyButton } from './copy-button.tsx';

export interface SecretField {
  label: string;
  value: string;
  /** Masked as a secret (the `secret` style); false for what is not one, such as a URL. */
  secret?: boolean;
}

/**
 * What the service shows only once (a new key, token or signing secret): each value in a read-only field that
 * selects itself on focus (a URL in full, over several lines), a Copy button for each, and Done to hide them.
 */
export function SecretOnce({
  children,
  fields,
  onDone,
}: {
  /** What to copy and why now, e.g. "Copy the new key now: it is shown only once." */
  children: ReactNode;
  fields: SecretField[];
  onDone(): void;
}) {
  return (
    <div className="card notice stack" role="status">
      <p>{children}</p>
      {fields.map((f) => {
        const id = `secret-${f.label.replace(/\W+/g, '-')}`;
        return (
          <div key={f.label} className="stack">
            <label htmlFor={id}>{f.label}</label>
            {/* A URL in full, wrapped over lines; a secret in a masked one-line field. */}
            {f.secret === false ? (
              <textarea
                id={id}
                className="mono"
                readOnly
                rows={Math.ceil(f.value.length / 60)}
                value={f.value}
                onFocus={(e) => e.currentTarget.select()}
              />
            ) : (
              <input
                id={id}
                className="mono secret"
                readOnly
                value={f.value}
                onFocus={(e) => e.currentTarget.select()}
              />
            )}
            <div className="actions">
              <CopyButton value={f.value} label={f.label} />
            </div>
          </div>
        );
      })}
      <div className="actions">
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

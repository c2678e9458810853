import type { ReactNode } from 'react';

export interface SecretField {
  label: string;
  value: string;
  /** Masked as a secret (the `secret` style); false for what is not one, such as a URL. */
  secret?: boolean;
}

/**
 * What the service shows only once (a new key, token or signing secret): each value in a read-only field that
 * selects itself on focus, and Done to hide it for good.
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
      {fields.map((f) => (
        <label key={f.label}>
          {f.label}
          <input
            className={f.secret === false ? 'mono' : 'mono secret'}
            readOnly
            value={f.value}
            onFocus={(e) => e.currentTarget.select()}
          />
        </label>
      ))}
      <div className="actions">
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

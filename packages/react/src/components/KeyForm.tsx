import type { Connector, Credential } from '@inlay/client';
import { type FormEvent, useId, useState } from 'react';
import { useConnect } from '../hooks/useConnect.ts';
import { useInlay } from '../hooks/useInlay.ts';
import { ErrorMessage } from './States.tsx';

export interface KeyFormProps {
  connector: Connector;
  /** Reconnect this credential in place (`PUT /credentials/{id}`: same id, the installations keep it). */
  credentialId?: string;
  onDone: (credential: Credential) => void;
}

/** An API-key or basic credential's fields; the provider's refusal is shown inline, nothing is stored then. */
export function KeyForm({ connector, credentialId, onDone }: KeyFormProps) {
  const { t } = useInlay();
  const id = useId();
  const connect = useConnect();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const busy = connect.pending === connector.id;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    connect.apiKey(connector.id, fields, undefined, credentialId).then((c) => {
      setFields({});
      onDone(c);
    }, setError);
  };

  return (
    <form
      className="inlay-key-form"
      onSubmit={submit}
      aria-describedby={error != null ? `${id}-fe` : undefined}
    >
      {connector.credentialFields.map((f) => (
        <div key={f.name} className="inlay-field">
          <label className="inlay-label" htmlFor={`${id}-${f.name}`}>
            {f.label}
            {f.required && (
              <>
                <span className="inlay-required" aria-hidden="true">
                  {' *'}
                </span>
                <span className="inlay-sr-only"> ({t('required')})</span>
              </>
            )}
          </label>
          <input
            id={`${id}-${f.name}`}
            className="inlay-input"
            type={f.type === 'password' ? 'password' : f.type === 'url' ? 'url' : 'text'}
            autoComplete="off"
            required={f.required}
            placeholder={f.placeholder}
            aria-describedby={
              [f.help && `${id}-${f.name}-h`, error != null && `${id}-fe`].filter(Boolean).join(' ') ||
              undefined
            }
            aria-invalid={error != null || undefined}
            value={fields[f.name] ?? ''}
            onChange={(e) => setFields({ ...fields, [f.name]: e.target.value })}
          />
          {f.help && (
            <p id={`${id}-${f.name}-h`} className="inlay-help">
              {f.help}
            </p>
          )}
        </div>
      ))}
      <button type="submit" className="inlay-button inlay-button-primary" disabled={busy}>
        {busy ? t('connecting') : t('saveCredential')}
      </button>
      {error != null && <ErrorMessage id={`${id}-fe`} error={error} />}
    </form>
  );
}

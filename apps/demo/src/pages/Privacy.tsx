import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';

export function Privacy({ queryClient }: { queryClient: QueryClient }) {
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setError(null);
    try {
      await api('DELETE', '/privacy/run-history');
      await queryClient.invalidateQueries();
      setStatus('Your run history was deleted.');
      setConfirming(false);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <div className="stack">
      <h1>Privacy</h1>
      <section className="card stack">
        <h2>Delete my run history</h2>
        <p>
          Permanently deletes the record of every integration run made for you: inputs, results and errors.
          Your installed integrations stay. This cannot be undone.
        </p>
        {!confirming ? (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete my run history
          </button>
        ) : (
          <fieldset className="row confirm">
            <legend className="sr-only">Confirm deletion</legend>
            <span>Delete everything? This cannot be undone.</span>
            <button type="button" className="danger" onClick={remove}>
              Yes, delete it
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </fieldset>
        )}
        {status && <p role="status">{status}</p>}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </section>
    </div>
  );
}

import type { ApiKey } from '@inlay/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useConsole } from '../session.tsx';
import { ErrorText, formatTime } from '../ui.tsx';

export function ApiKeysPage() {
  const { client } = useConsole();
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => client.apiKeys.list() });
  const [shown, setShown] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (name: string) => client.apiKeys.create(name ? { name } : {}),
    onSuccess: (r) => {
      setShown(r.key);
      void qc.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const onCreate = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const input = e.currentTarget.elements.namedItem('name') as HTMLInputElement;
    create.mutate(input.value.trim());
    input.value = '';
  };
  return (
    <>
      <h1>API keys</h1>
      <form className="card row" onSubmit={onCreate} aria-label="Create an API key">
        <label>
          Name
          <input name="name" maxLength={255} placeholder="e.g. Production backend" />
        </label>
        <button type="submit" disabled={create.isPending}>
          Create key
        </button>
      </form>
      {create.error ? <ErrorText error={create.error} /> : null}
      {shown ? (
        <div className="card notice" role="status">
          <p>
            <strong>Copy the new key now:</strong> it is shown only once and stored as a hash.
          </p>
          <label>
            New API key
            <input className="mono secret" readOnly value={shown} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <button type="button" className="secondary" onClick={() => setShown(null)}>
            Done
          </button>
        </div>
      ) : null}
      {keys.error ? <ErrorText error={keys.error} /> : null}
      {keys.data ? (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">The account's API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <KeyRow key={k.apiKeyId} k={k} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

function KeyRow({ k }: { k: ApiKey }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const revoke = useMutation({
    mutationFn: () => client.apiKeys.revoke(k.apiKeyId),
    onSuccess: () => {
      dialog.current?.close();
      void qc.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const label = k.name ?? k.prefix;
  return (
    <tr>
      <td>{k.name ?? <span className="muted">unnamed</span>}</td>
      <td className="mono">{k.prefix}</td>
      <td>{formatTime(k.createdAt)}</td>
      <td>{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'never'}</td>
      <td>{k.revokedAt ? `revoked ${formatTime(k.revokedAt)}` : 'active'}</td>
      <td>
        {k.revokedAt ? null : (
          <>
            <button type="button" className="danger" onClick={() => dialog.current?.showModal()}>
              Revoke<span className="sr-only"> {label}</span>
            </button>
            <dialog ref={dialog} aria-labelledby={`revoke-${k.apiKeyId}`}>
              <h2 id={`revoke-${k.apiKeyId}`}>Revoke {label}?</h2>
              <p>Requests with this key, and console sessions opened with it, stop working at once.</p>
              {revoke.error ? <ErrorText error={revoke.error} /> : null}
              <div className="actions">
                <button
                  type="button"
                  className="danger"
                  onClick={() => revoke.mutate()}
                  disabled={revoke.isPending}
                >
                  Revoke key
                </button>
                <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
                  Cancel
                </button>
              </div>
            </dialog>
          </>
        )}
      </td>
    </tr>
  );
}

import type { ApiKey } from '@inlay/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmDelete } from '../confirm-delete.tsx';
import { SecretOnce } from '../secret-once.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { ErrorText, formatTime } from '../ui.tsx';

export function ApiKeysPage() {
  const { client } = useConsole();
  const qc = useQueryClient();
  // Read again each time the page opens: a key's last use changes with every request made with it, not here.
  const keys = useQuery({
    queryKey: ['api-keys'],
    queryFn: () => client.apiKeys.list(),
    refetchOnMount: 'always',
  });
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
        <SecretOnce fields={[{ label: 'New API key', value: shown }]} onDone={() => setShown(null)}>
          <strong>Copy the new key now:</strong> it is shown only once and stored as a hash.
        </SecretOnce>
      ) : null}
      <QueryState query={keys} />
      {keys.data ? (
        <Table
          caption="The account's API keys"
          columns={['Name', 'Key', 'Created', 'Last used', 'State', { hidden: 'Actions' }]}
        >
          {keys.data.map((k) => (
            <KeyRow key={k.apiKeyId} k={k} />
          ))}
        </Table>
      ) : null}
    </>
  );
}

function KeyRow({ k }: { k: ApiKey }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const label = k.name ?? k.prefix;
  return (
    <tr>
      <td>{label}</td>
      <td className="mono">{k.prefix}</td>
      <td>{formatTime(k.createdAt)}</td>
      <td>{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'never'}</td>
      <td>{k.revokedAt ? `revoked ${formatTime(k.revokedAt)}` : 'active'}</td>
      <td>
        {k.revokedAt ? null : (
          <ConfirmDelete
            trigger={
              <>
                Revoke<span className="sr-only"> {label}</span>
              </>
            }
            title={`Revoke ${label}?`}
            confirm="Revoke key"
            action={() => client.apiKeys.revoke(k.apiKeyId)}
            onDone={() => void qc.invalidateQueries({ queryKey: ['api-keys'] })}
          >
            <p>Requests with this key, and console sessions opened with it, stop working at once.</p>
          </ConfirmDelete>
        )}
      </td>
    </tr>
  );
}
